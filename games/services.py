"""The writes of a game: start, hold, roll, score, abandon — one transaction per action.

Each action locks the game row, checks that the caller is seated and on turn and that the
request was made against the current ``version``, asks ``games.rules`` whether the move is
legal, then saves the new state and logs the move. Errors a player can cause are the
``GameError`` subclasses below or ``rules.IllegalMove``; views map them to messages.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from django.db import transaction
from django.db.models import QuerySet
from django.utils import timezone

from accounts import licensing
from accounts.models import User
from games import rules, selectors
from games.models import Game, GameKind, GameStatus, Move, MoveAction, Score, Seat


class GameError(Exception):
    """A request that cannot be carried out; the message is written for the player."""


class GameNotFound(GameError):
    pass


class StaleGame(GameError):
    """The request was made against an older state of the game (a double click, a stale tab)."""


class NotYourTurn(GameError):
    pass


class GameNotInProgress(GameError):
    pass


class ZeroNeedsConfirmation(GameError):
    """Scoring would put a zero in the box; the player is asked first."""

    def __init__(self, table: Table, box: str, column: int) -> None:
        super().__init__(f"Score 0 in {rules.LABELS[box]}?")
        self.table, self.box, self.column = table, box, column


@dataclass(frozen=True)
class Table:
    """A game with its seats loaded, as the pages and services use it."""

    game: Game
    seats: list[Seat]

    @property
    def current(self) -> Seat:
        return self.seats[self.game.current_seat]

    def seat_of(self, user: User) -> Seat | None:
        return next((seat for seat in self.seats if seat.user_id == user.pk), None)


def games_of(user: User) -> QuerySet[Game]:
    """The games ``user`` is seated in: the only ones they may see or act on."""
    return Game.objects.filter(seats__user=user).distinct()


def load_table(*, game_id: int, user: User, lock: bool = False) -> Table:
    """The game and its seats, if ``user`` is seated in it; else ``GameNotFound``."""
    games = Game.objects.select_for_update() if lock else Game.objects.all()
    game = games.filter(pk=game_id).first()
    if game is None:
        raise GameNotFound("There is no such game.")
    seats = list(game.seats.all())
    if not any(seat.user_id == user.pk for seat in seats):
        raise GameNotFound("There is no such game.")
    return Table(game=game, seats=seats)


def _check_turn(table: Table, *, user: User, version: int) -> Seat:
    game = table.game
    if version != game.version:
        raise StaleGame("The game has moved on since this page was shown; here is where it is now.")
    if game.status != GameStatus.IN_PROGRESS:
        raise GameNotInProgress("This game is over.")
    seat = table.current
    if seat.user_id != user.pk:
        raise NotYourTurn(f"It is {seat.display_name}'s turn.")
    return seat


def _save_game(game: Game) -> None:
    game.version += 1
    game.save()


@transaction.atomic
def start_game(*, owner: User, kind: str = GameKind.CLASSIC) -> Game:
    """Start a solo game of ``kind`` for ``owner`` and seat them at it.

    A trial account uses up one of its trial games (``licensing.TrialOver`` when none is left).
    """
    rules_kind = rules.KINDS[GameKind(kind)]
    licensing.use_trial_game(user=owner)
    game = Game.objects.create(owner=owner, kind=rules_kind.key)
    Seat.objects.create(
        game=game,
        position=0,
        user=owner,
        display_name=owner.display_name or owner.username,
        cards=[{} for _ in range(rules_kind.columns)],
    )
    return game


@transaction.atomic
def set_held(*, game_id: int, user: User, version: int, held: Sequence[bool]) -> Table:
    """Hold exactly the dice marked ``True`` (and release the others) before the next roll."""
    table = load_table(game_id=game_id, user=user, lock=True)
    _check_turn(table, user=user, version=version)
    table.game.set_turn(rules.hold(table.game.turn(), held))
    _save_game(table.game)
    return table


@transaction.atomic
def roll_dice(
    *,
    game_id: int,
    user: User,
    version: int,
    held: Sequence[bool] | None = None,
    dice_source: rules.DiceSource | None = None,
) -> Table:
    """Roll every die that is not held; ``held``, when given, is applied first."""
    table = load_table(game_id=game_id, user=user, lock=True)
    seat = _check_turn(table, user=user, version=version)
    game = table.game
    turn = game.turn()
    if held is not None and turn.has_rolled:
        turn = rules.hold(turn, held)
    turn, record = rules.roll(turn, dice_source or rules.system_dice)
    game.set_turn(turn)
    _save_game(game)
    Move.objects.create(
        game=game,
        seat=seat,
        seq=game.version,
        round=game.round,
        action=MoveAction.ROLL,
        dice=list(record.dice),
        held=list(record.held),
        roll_number=record.roll_number,
    )
    return table


@transaction.atomic
def score_box(
    *,
    game_id: int,
    user: User,
    version: int,
    box: str,
    column: int = 0,
    confirm_zero: bool = False,
) -> Table:
    """Fill ``box`` with the dice on the table, end the turn, and end the game after the last.

    With ``confirm_zero``, a scoring that would enter a zero raises ``ZeroNeedsConfirmation``
    instead, changing nothing.
    """
    table = load_table(game_id=game_id, user=user, lock=True)
    seat = _check_turn(table, user=user, version=version)
    game = table.game
    played_round = game.round
    sheet = seat.sheet(game.rules_kind)
    if confirm_zero and rules.verify_score(sheet, game.turn(), box, column) == 0:
        raise ZeroNeedsConfirmation(table, box, column)
    sheet, record = rules.score(sheet, game.turn(), box, column)
    seat.set_sheet(sheet)
    _end_turn(table)
    Move.objects.create(
        game=game,
        seat=seat,
        seq=game.version,
        round=played_round,
        action=MoveAction.SCORE,
        dice=list(record.dice),
        column=record.column,
        box=record.box,
        points=record.points,
        yahtzee_bonus=record.yahtzee_bonus,
        joker=record.joker,
    )
    return table


def _end_turn(table: Table) -> None:
    """Pass the dice to the next seat; finish the game when every card is full."""
    game, seat, kind = table.game, table.current, table.game.rules_kind
    game.set_turn(rules.Turn())
    game.current_seat = (game.current_seat + 1) % len(table.seats)
    if game.current_seat == 0:
        game.round += 1
    if all(s.sheet(kind).is_complete for s in table.seats):
        game.status = GameStatus.FINISHED
        game.finished_at = timezone.now()
        game.round = kind.rounds
        for s in table.seats:
            s.grand_total = s.sheet(kind).grand_total
        Seat.objects.bulk_update(table.seats, ["cards", "yahtzee_bonuses", "grand_total"])
        _record_scores(table)
    else:
        seat.save(update_fields=["cards", "yahtzee_bonuses"])
    _save_game(game)


def _record_scores(table: Table) -> None:
    """Copy each seat's result into the high scores, noting where it enters them."""
    game = table.game
    assert game.finished_at is not None
    scores = Score.objects.bulk_create(
        Score(
            seat=seat,
            game=game,
            kind=game.kind,
            player_kind=seat.kind,
            user_id=seat.user_id,
            display_name=seat.display_name,
            grand_total=seat.grand_total or 0,
            upper_bonuses=sum(1 for card in seat.cards if rules.totals(card)["upper_bonus"]),
            yahtzees=seat.yahtzee_bonuses
            + sum(1 for card in seat.cards if card.get("yahtzee") == rules.YAHTZEE_POINTS),
            yahtzee_bonuses=seat.yahtzee_bonuses,
            finished_at=game.finished_at,
        )
        for seat in table.seats
    )
    for score in scores:
        if entry := selectors.high_score_entry(score, now=game.finished_at):
            score.high_score_rank, score.high_score_period = entry
            score.save(update_fields=["high_score_rank", "high_score_period"])


@transaction.atomic
def abandon_game(*, game_id: int, user: User) -> Table:
    """End an unfinished game for good; it records no score."""
    table = load_table(game_id=game_id, user=user, lock=True)
    game = table.game
    if game.status != GameStatus.IN_PROGRESS:
        raise GameNotInProgress("Only a game in progress can be abandoned.")
    game.status = GameStatus.ABANDONED
    game.finished_at = timezone.now()
    _save_game(game)
    return table
