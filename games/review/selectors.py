"""A seat's play read back from the game's log, as the analysis replays it."""

from __future__ import annotations

from games import rules, strategy
from games.models import (
    Move,
    MoveAction,
    Seat,
)

# --- A game and its seats ------------------------------------------------------------------


class NoRecord(Exception):
    """A seat whose play cannot be replayed for analysis; the message says why."""


def game_record(seat: Seat) -> strategy.GameRecord:
    """One seat's play, read back from the ``Move`` log as the analysis replays it: each turn's
    dice after every roll, the dice held for each re-roll, the box. A box taken back (undo)
    re-opens its turn; a skipped turn cannot be graded, so such a game has no record."""
    turns: list[strategy.TurnRecord] = []
    rolls: list[rules.Dice] = []
    holds: list[rules.Held] = []
    last_closed: tuple[list[rules.Dice], list[rules.Held]] | None = None
    for move in Move.objects.filter(seat=seat).order_by("seq"):
        if move.action == MoveAction.ROLL:
            if rolls:
                holds.append(tuple(move.held))
            rolls.append(tuple(move.dice))
        elif move.action == MoveAction.SCORE:
            turns.append(
                strategy.TurnRecord(tuple(rolls), tuple(holds), move.box, move.column or 0)
            )
            last_closed, rolls, holds = (rolls, holds), [], []
        elif move.action == MoveAction.UNDO and last_closed is not None:
            turns.pop()
            (rolls, holds), last_closed = last_closed, None
        elif move.action == MoveAction.SKIP:
            raise NoRecord("A skipped turn cannot be graded: this game has no analysis.")
    return strategy.GameRecord(tuple(turns), kind=rules.KINDS[seat.game.kind])
