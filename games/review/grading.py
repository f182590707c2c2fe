"""Every finished card's accuracy (``strategy.accuracy``), graded once and kept on its seat.

One replay of the game's log gives every seat's record (``selectors.game_record``); the
analysis grades each (``strategy.analyse``): exact for a Classic game played alone, the stated
estimate for Triple or a game of several. A card that was not played to its end (its player
resigned) or whose log cannot be graded (a skipped turn, a log that does not replay) has none.

When: on the task worker, once the move that ends the game has committed (``events``,
``tasks``), never in the move. Grading costs from about 10 ms (a Classic game played alone,
``make bench``) to 40 ms (a Classic game of four) and 230 ms of processor time (Triple of four):
the last score answers without waiting for it. A day's challenge's accuracy goes on the day's
board as it is graded. ``manage.py grade_games`` grades whatever the worker has not (the games
that finished before there was grading, a task given up).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

from django.db import transaction

from accounts.models import User
from games import advice, store, strategy
from games.daily import results as daily_results
from games.models import Game, GameStatus, Grading, Seat
from games.review import selectors


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
        found = strategy.analyse(advice.advisor(record.kind), record, players=players)
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


@transaction.atomic
def grade_finished(game_id: int) -> bool:
    """Grade the finished game ``game_id``'s cards if any is still to grade: its row locked
    first, so a page or another worker grading it at the same time finds it graded and leaves
    it. Whether this call graded them (the task of a finished game: ``games.review.tasks``)."""
    game = Game.objects.select_for_update().filter(pk=game_id).first()
    if game is None or game.status != GameStatus.FINISHED:
        return False
    seats = list(Seat.objects.filter(game=game).order_by("position"))
    for seat in seats:
        seat.game = game
    if not any(seat.ungraded for seat in seats):
        return False
    grade_game(game, seats)
    return True


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
        if grade_finished(game_id):
            graded += 1
            for how in Seat.objects.filter(game_id=game_id).values_list("grading", flat=True):
                cards[Grading(how)] += 1
        if progress is not None:
            progress(done, len(game_ids))
    return Swept(graded, cards)
