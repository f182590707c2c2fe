"""Taking back the box just filled, until anyone rolls: the match is again as it was before
that scoring, dice and rolls left included; only the log remembers."""

from __future__ import annotations

from dataclasses import replace
from typing import TYPE_CHECKING

from games.rules.errors import NothingToUndo
from games.rules.events import Scored, Undone
from games.rules.turn import _can

if TYPE_CHECKING:
    from games.rules.match import Match


def verify_undo(match: Match, seat: int) -> None:
    match._verify_playing(seat)
    if match.undo is None:
        raise NothingToUndo("There is no scoring to take back: the dice have moved on.")
    if match.undo.current != seat:
        raise NothingToUndo("Only the player who has just scored can take it back.")


def can_undo(match: Match, seat: int) -> bool:
    return _can(lambda: match.verify_undo(seat))


def undo_scoring(match: Match, seat: int) -> tuple[Match, Undone]:
    """Take back the box ``seat`` has just filled: the match is again as it was before that
    scoring, dice and rolls left included; only the log remembers."""
    match.verify_undo(seat)
    assert match.undo is not None
    scored = next(e for e in reversed(match.log) if isinstance(e, Scored))
    event = Undone(seat, scored.column, scored.box, scored.points)
    return replace(match.undo, log=(*match.log, event)), event
