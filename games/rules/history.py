"""A seat's turns as a match's log tells them: the rules' reading of what was played, which the
analysis grades (``strategy.analyse``) and the replay steps through.

``Match.replay`` checks a log move by move; ``played_turns`` then reads one seat's turns from
it as the rules mean them: each roll's dice, the dice held before each re-roll, the box chosen.
A scoring taken back (undo) opens its turn again; a turn skipped for idleness has no decision
to read, so a seat with one has no history.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from games.rules.dice import Dice, Held
from games.rules.events import MatchEvent, Rolled, Scored, Skipped, Undone


@dataclass(frozen=True)
class PlayedTurn:
    """One turn a seat played: its dice after every roll, the dice held for each re-roll, and
    the box (of ``column``) it filled."""

    rolls: tuple[Dice, ...]
    holds: tuple[Held, ...]
    box: str
    column: int


class NoHistory(ValueError):
    """A seat whose turns cannot be read as decisions (a skipped turn)."""


def played_turns(log: Iterable[MatchEvent], seat: int) -> tuple[PlayedTurn, ...]:
    """``seat``'s turns in ``log`` (a whole match's, as ``Match.replay`` took it), in order."""
    turns: list[PlayedTurn] = []
    rolls: list[Dice] = []
    holds: list[Held] = []
    last_closed: tuple[list[Dice], list[Held]] | None = None
    for event in log:
        if getattr(event, "seat", None) != seat:
            continue
        match event:
            case Rolled(dice=dice, held=held):
                if rolls:
                    holds.append(held)
                rolls.append(dice)
            case Scored(box=box, column=column):
                turns.append(PlayedTurn(tuple(rolls), tuple(holds), box, column))
                last_closed, rolls, holds = (rolls, holds), [], []
            case Undone() if last_closed is not None:
                turns.pop()
                (rolls, holds), last_closed = last_closed, None
            case Skipped(box=box) if box is not None:
                raise NoHistory("A skipped turn cannot be graded: this game has no analysis.")
    return tuple(turns)
