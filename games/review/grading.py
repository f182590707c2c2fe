"""Every finished card's accuracy (``strategy.accuracy``), graded once and kept on its seat.

One replay of the game's log gives every seat's record (``selectors.game_record``); the
analysis grades each (``strategy.analyse``): exact for a Classic game played alone, the stated
estimate for Triple or a game of several. A card that was not played to its end (its player
resigned) or whose log cannot be graded (a skipped turn, a log that does not replay) has none.

When: after the move that ends the game, never in it. Grading costs from about 10 ms (a
Classic game played alone, ``make bench``) to 40 ms (a Classic game of four) and 230 ms of
processor time (Triple of four): the last score answers without waiting for it, and the
game-over section the move draws asks for the grade as it shows (``grade_pending``: htmx on
load, a button without JavaScript). ``manage.py grade_games`` grades whatever no page asked
for, and the games that finished before there was grading. The one exception is a day's
challenge, graded by the store in the move that ends it (``at_finish``): its attempt's
accuracy goes on the day's board with the result, whether or not a page ever asks.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from django.db import transaction

from accounts.models import User
from games import advice, store, strategy
from games.daily import results as daily_results
from games.models import Game, GameStatus, Grading, Seat

# A module, not its names: the selectors read the log through the store, which grades through
# this module as a game finishes, so whichever of the three is imported first, the others'
# names are looked up when grading, not when importing.
from games.review import selectors

logger = logging.getLogger(__name__)


@dataclass(frozen=True)
class Grade:
    """A card's grade: its accuracy (none when ``grading`` is ``NONE``) and how it was found."""

    accuracy: float | None
    grading: Grading


UNGRADED = Grade(None, Grading.NONE)


def grade_seat(seat: Seat, *, players: int, log: selectors.Log | None = None) -> Grade:
    """The grade of ``seat``'s card in its finished game of ``players`` seats, from the game's
    replayed ``log`` (read here when not given)."""
    try:
        record = selectors.game_record(seat, log)
        if len(record.turns) != seat.game.rules_kind.rounds:
            return UNGRADED  # resigned before the end, or a result entered without its moves
        found = strategy.analyse(advice.advisor(), record, players=players)
    except (selectors.NoRecord, strategy.RecordError):
        return UNGRADED
    return Grade(found.accuracy, Grading.EXACT if found.exact else Grading.ESTIMATE)


def grade_game(game: Game, seats: Sequence[Seat]) -> None:
    """Grade every seat of the finished ``game`` (all its ``seats``, in order) and write each
    one's accuracy: the game's log is replayed once for all of them, and written in one query."""
    try:
        log: selectors.Log | None = selectors.game_log(game)
    except selectors.NoRecord:
        log = None
    for seat in seats:
        found = grade_seat(seat, players=len(seats), log=log) if log is not None else UNGRADED
        seat.accuracy, seat.grading = found.accuracy, found.grading
    Seat.objects.bulk_update(seats, ["accuracy", "grading"])
    if game.challenge_day is not None:  # played alone: the day's board shows its accuracy
        daily_results.enter_accuracy(game, seats[0])


def graded_at_once(game: Game) -> bool:
    """Whether the move that ends ``game`` grades it: a day's challenge alone (a Classic game
    played alone, about 10 ms), whose board shows the accuracy beside the result."""
    return game.challenge_day is not None


def at_finish(game: Game, seats: Sequence[Seat]) -> None:
    """Called by the store as ``game`` finishes: grade a day's challenge now; any other game
    is left to ``grade_pending`` (its seats stay ``PENDING``), and so is one whose grading
    fails here: the grade is worked out from the game, and the move that ended the game must
    not fail for it (a missing table, a bug in the analysis)."""
    if not graded_at_once(game):
        return
    try:
        with transaction.atomic():  # a savepoint: a failure takes back the grading alone
            grade_game(game, seats)
    except Exception:
        logger.exception("Grading game %s as it finished failed: left for later.", game.pk)
        for seat in seats:
            seat.accuracy, seat.grading = None, Grading.PENDING


@transaction.atomic
def grade_pending(*, game_id: int, user: User) -> store.SeatedGame:
    """The finished game ``game_id`` of ``user``'s, with its cards graded now if they were left
    for later. The game row is locked first: two pages asking at once grade it once."""
    table = store.load(game_id=game_id, user=user, lock=True)
    seats = table.seats
    if table.game.status == GameStatus.FINISHED and any(seat.ungraded for seat in seats):
        grade_game(table.game, seats)
    return table


@dataclass(frozen=True)
class Swept:
    """What ``grade_all_pending`` did: games graded, and their cards by how they were graded."""

    games: int
    cards: dict[Grading, int]


def grade_all_pending(*, progress: Callable[[int, int], None] | None = None) -> Swept:
    """Grade every finished game with a card still to grade (oldest first), each in its own
    transaction, its row locked: a page or another run grading it at the same time finds it
    graded and leaves it. Found through the ``seat_ungraded`` index, which holds only those
    cards: a run with nothing to do reads nothing else. ``progress(done, total)`` after each."""
    pending = Seat.objects.filter(grading=Grading.PENDING, grand_total__isnull=False)
    game_ids = sorted(set(pending.order_by().values_list("game_id", flat=True)))
    cards = dict.fromkeys([Grading.EXACT, Grading.ESTIMATE, Grading.NONE], 0)
    graded = 0
    for done, game_id in enumerate(game_ids, start=1):
        with transaction.atomic():
            game = Game.objects.select_for_update().get(pk=game_id)
            seats = list(Seat.objects.filter(game=game).order_by("position"))
            for seat in seats:
                seat.game = game
            if any(seat.ungraded for seat in seats):
                grade_game(game, seats)
                graded += 1
                for seat in seats:
                    cards[Grading(seat.grading)] += 1
        if progress is not None:
            progress(done, len(game_ids))
    return Swept(graded, cards)
