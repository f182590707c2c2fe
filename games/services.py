"""The writes of a game: start, hold, roll, score, abandon — one transaction per action.

Each action locks the game row, checks that the caller is seated and on turn and that the
request was made against the current ``version``, asks ``games.rules`` whether the move is
legal, then saves the new state and logs the move. Errors a player can cause are those of
``games.errors`` or ``rules.IllegalMove``; views map them to messages.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace
from typing import Any

from django.db import transaction
from django.utils import timezone

from accounts import licensing
from accounts.models import User
from games import rules, selectors
from games.errors import GameError, GameNotInProgress, NotYourTurn, StaleGame
from games.models import Game, GameStatus, Move, MoveAction, Score, Seat
from games.selectors import SeatedGame


class ZeroNeedsConfirmation(GameError):
    """Scoring would put a zero in the box; the player is asked first."""

    def __init__(self, seated: SeatedGame, box: str, column: int) -> None:
        self.seated, self.box, self.column = seated, rules.Box(box), column
        super().__init__(f"Score 0 in {self.box.label}?")


def _check_turn(seated: SeatedGame, *, user: User, version: int) -> Seat:
    game = seated.game
    if version != game.version:
        raise StaleGame("The game has moved on since this page was shown; here is where it is now.")
    if game.status != GameStatus.IN_PROGRESS:
        raise GameNotInProgress("This game is over.")
    seat = seated.current
    if seat.user_id != user.pk:
        raise NotYourTurn(f"It is {seat.display_name}'s turn.")
    return seat


TURN_FIELDS = ("dice", "held", "rolls_used")


def _save_game(game: Game, *changed: str) -> None:
    """Write what the action ``changed`` and move the version on, so stale requests are caught."""
    game.version += 1
    game.save(update_fields=[*changed, "version", "updated_at"])


def _log(game: Game, seat: Seat, round: int, record: rules.Roll | rules.Scoring) -> None:
    """Append what just happened to the game's log, numbered by the version it made."""
    fields: dict[str, Any]
    match record:
        case rules.Roll(held=held, roll_number=number):
            fields = {"action": MoveAction.ROLL, "held": list(held), "roll_number": number}
        case rules.Scoring():
            fields = {
                "action": MoveAction.SCORE,
                "column": record.column,
                "box": record.box,
                "points": record.points,
                "yahtzee_bonus": record.yahtzee_bonus,
                "joker": record.joker,
            }
    Move.objects.create(
        game=game, seat=seat, seq=game.version, round=round, dice=list(record.dice), **fields
    )


@transaction.atomic
def start_game(*, owner: User, kind: str = rules.CLASSIC.key) -> Game:
    """Start a solo game of ``kind`` for ``owner`` and seat them at it.

    A trial account uses up one of its trial games (``licensing.TrialOver`` when none is left).
    """
    rules_kind = rules.KINDS[kind]
    used_trial_game = licensing.use_trial_game(user=owner)
    game = Game.objects.create(owner=owner, kind=rules_kind.key)
    Seat.objects.create(
        game=game,
        position=0,
        user=owner,
        display_name=str(owner),
        cards=[{} for _ in range(rules_kind.columns)],
        used_trial_game=used_trial_game,
    )
    return game


@transaction.atomic
def set_held(*, game_id: int, user: User, version: int, held: Sequence[bool]) -> SeatedGame:
    """Hold exactly the dice marked ``True`` (and release the others) before the next roll."""
    seated = selectors.seated_game(game_id=game_id, user=user, lock=True)
    _check_turn(seated, user=user, version=version)
    seated.game.set_turn(rules.hold(seated.game.turn(), held))
    _save_game(seated.game, "held")
    return seated


@transaction.atomic
def roll_dice(
    *,
    game_id: int,
    user: User,
    version: int,
    held: Sequence[bool] | None = None,
    dice_source: rules.DiceSource | None = None,
) -> SeatedGame:
    """Roll every die that is not held; ``held``, when given, is applied first."""
    seated = selectors.seated_game(game_id=game_id, user=user, lock=True)
    seat = _check_turn(seated, user=user, version=version)
    game = seated.game
    turn = game.turn()
    if held is not None and turn.has_rolled:
        turn = rules.hold(turn, held)
    turn, record = rules.roll(turn, dice_source or rules.system_dice)
    game.set_turn(turn)
    _save_game(game, *TURN_FIELDS)
    _log(game, seat, game.round, record)
    return seated


@transaction.atomic
def score_box(
    *,
    game_id: int,
    user: User,
    version: int,
    box: str,
    column: int = 0,
    confirm_zero: bool = False,
) -> SeatedGame:
    """Fill ``box`` with the dice on the table, end the turn, and end the game after the last.

    With ``confirm_zero``, a scoring that would enter a zero raises ``ZeroNeedsConfirmation``
    instead, changing nothing.
    """
    seated = selectors.seated_game(game_id=game_id, user=user, lock=True)
    seat = _check_turn(seated, user=user, version=version)
    game = seated.game
    played_round = game.round
    sheet = seat.sheet(game.rules_kind)
    if confirm_zero and rules.verify_score(sheet, game.turn(), box, column) == 0:
        raise ZeroNeedsConfirmation(seated, box, column)
    sheet, record = rules.score(sheet, game.turn(), box, column)
    seat.set_sheet(sheet)
    _end_turn(seated)
    _log(game, seat, played_round, record)
    return replace(seated, scoring=record)


def _end_turn(seated: SeatedGame) -> None:
    """Pass the dice to the next seat; finish the game when every card is full."""
    game, seat, kind = seated.game, seated.current, seated.game.rules_kind
    game.set_turn(rules.Turn())
    game.current_seat = (game.current_seat + 1) % len(seated.seats)
    if game.current_seat == 0:
        game.round += 1
    if all(s.sheet(kind).is_complete for s in seated.seats):
        game.status = GameStatus.FINISHED
        game.finished_at = timezone.now()
        game.round = kind.rounds
        for s in seated.seats:
            s.grand_total = s.sheet(kind).grand_total
            s.game_over = True
        Seat.objects.bulk_update(
            seated.seats, ["cards", "yahtzee_bonuses", "yahtzees", "grand_total", "game_over"]
        )
        _record_scores(seated)
    else:
        seat.save(update_fields=["cards", "yahtzee_bonuses", "yahtzees"])
    _save_game(game, *TURN_FIELDS, "current_seat", "round", "status", "finished_at")


def _record_scores(seated: SeatedGame) -> None:
    """Copy each seat's result into the high scores, noting where it enters them."""
    game = seated.game
    assert game.finished_at is not None
    scores = Score.objects.bulk_create(
        Score(
            seat=seat,
            game=game,
            kind=game.kind,
            player_kind=seat.player_kind,
            user_id=seat.user_id,
            display_name=seat.display_name,
            grand_total=seat.grand_total or 0,
            upper_bonuses=sum(1 for card in seat.cards if rules.totals(card)["upper_bonus"]),
            yahtzees=seat.yahtzees,
            yahtzee_bonuses=seat.yahtzee_bonuses,
            finished_at=game.finished_at,
        )
        for seat in seated.seats
    )
    for score in scores:
        if entry := selectors.high_score_entry(score, now=game.finished_at):
            score.high_score_rank, score.high_score_period = entry
            score.save(update_fields=["high_score_rank", "high_score_period"])


@dataclass(frozen=True)
class Abandoned:
    seated: SeatedGame
    trial_games_given_back: int
    """Trial games returned because the game ended before its first roll."""


@transaction.atomic
def abandon_game(*, game_id: int, user: User) -> Abandoned:
    """End an unfinished game for good; it records no score.

    A game abandoned before its first roll gives back the trial games it used: nothing was
    played. The game row stays locked until the end, so it gives them back at most once.
    """
    seated = selectors.seated_game(game_id=game_id, user=user, lock=True)
    game = seated.game
    if game.status != GameStatus.IN_PROGRESS:
        raise GameNotInProgress("Only a game in progress can be abandoned.")
    unplayed = not Move.objects.filter(game=game).exists()
    game.status = GameStatus.ABANDONED
    game.finished_at = timezone.now()
    _save_game(game, "status", "finished_at")
    given_back = 0
    for seat in seated.seats:
        seat.game_over = True
        if unplayed and seat.used_trial_game and seat.user_id is not None:
            licensing.give_back_trial_game(user_id=seat.user_id)
            seat.used_trial_game = False
            given_back += 1
    Seat.objects.bulk_update(seated.seats, ["game_over", "used_trial_game"])
    return Abandoned(seated=seated, trial_games_given_back=given_back)
