"""A match's events as ``Move`` rows, and back: one mapping, both ways.

``row`` turns a new event into the row the store appends; ``events`` reads a game's rows back
as the log ``rules.Match.replay`` rebuilds the game from (the analysis, the benches and the
fault runs replay games this way). A hold is not a row of its own: a re-roll's row keeps the
dice held through it, read back as the hold before the roll.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from typing import Any

from games import rules
from games.models import Move, MoveAction

NOT_KEPT = (rules.HeldDice, rules.Started, rules.Hinted)
"""Events that are no row: a hold (kept in the re-roll's row), how the match was set up (the
game row's kind and its seats), and a hint shown (counted on its seat: ``Seat.hints``)."""


def row(event: rules.MatchEvent, *, round: int) -> dict[str, Any]:
    """The fields of ``event``'s ``Move`` row, but for its game, seat row and number."""
    fields: dict[str, Any]
    match event:
        case rules.FirstRoll(dice=dice):
            return {"action": MoveAction.FIRST, "dice": list(dice), "round": 0}
        case rules.Rolled(dice=dice, held=held, roll_number=number):
            fields = {
                "action": MoveAction.ROLL,
                "dice": list(dice),
                "held": list(held),
                "roll_number": number,
            }
        case rules.Scored():
            fields = {
                "action": MoveAction.SCORE,
                "dice": list(event.dice),
                "column": event.column,
                "box": str(event.box),
                "points": event.points,
                "yahtzee_bonus": event.yahtzee_bonus,
                "joker": event.joker,
                "upper_bonus": event.upper_bonus,
            }
        case rules.Undone(column=column, box=box, points=points):
            fields = {
                "action": MoveAction.UNDO,
                "dice": [],
                "column": column,
                "box": str(box),
                "points": points,
            }
        case rules.Resigned():
            fields = {"action": MoveAction.RESIGN, "dice": []}
        case rules.Skipped(by=by, column=column, box=box):
            fields = {
                "action": MoveAction.SKIP,
                "dice": [],
                "column": column,
                "box": str(box) if box is not None else "",
                "points": 0 if box is not None else None,
                "by_position": by,
            }
        case rules.Ended():
            fields = {"action": MoveAction.END, "dice": []}
        case _:
            raise ValueError(f"{event!r} is not kept as a move.")
    return fields | {"round": round}


def seat_of(event: rules.MatchEvent) -> int:
    """The seat whose row ``event`` is (the host's, for the end)."""
    if isinstance(event, rules.Ended):
        return event.by
    if isinstance(event, rules.Started):
        raise ValueError("How a match was set up is no seat's move.")
    return event.seat


class ReplayMismatch(ValueError):
    """A log that does not replay to itself: a move the rules refuse, or an outcome that differs
    from the one logged."""


def events(
    started: rules.Started, moves: Iterable[Move], positions: dict[int, int]
) -> Iterator[rules.MatchEvent]:
    """The log ``moves`` keep, after ``started`` (``positions``: seat id -> place at the
    table)."""
    yield started
    for move in moves:
        yield from events_of(move, positions[move.seat_id])


def events_of(move: Move, seat: int) -> Iterator[rules.MatchEvent]:
    """The events one row keeps (a re-roll's: the hold, then the roll)."""
    match move.action:
        case MoveAction.FIRST:
            yield rules.FirstRoll(seat, tuple(move.dice))
        case MoveAction.ROLL:
            if move.roll_number is not None and move.roll_number > 1:
                yield rules.HeldDice(seat, tuple(move.held))
            yield rules.Rolled(seat, tuple(move.dice), tuple(move.held), move.roll_number or 0)
        case MoveAction.SCORE:
            yield rules.Scored(
                seat,
                move.column or 0,
                move.box,
                move.points or 0,
                tuple(move.dice),
                move.yahtzee_bonus,
                move.joker,
                move.upper_bonus,
            )
        case MoveAction.UNDO:
            yield rules.Undone(seat, move.column or 0, move.box, move.points or 0)
        case MoveAction.RESIGN:
            yield rules.Resigned(seat)
        case MoveAction.SKIP:
            if move.by_position is None:
                raise ReplayMismatch(f"Move {move.seq}: a skip that does not say who skipped.")
            yield rules.Skipped(seat, move.by_position, move.column, move.box or None)
        case MoveAction.END:
            yield rules.Ended(seat)
        case _:
            raise ReplayMismatch(f"Move {move.seq}: no such action {move.action!r}.")
