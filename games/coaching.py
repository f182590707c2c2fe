"""What the coach (``games.play.coach``) makes of an action, as the store writes it on the
seat (``games.store.keep_coaching``): the note to show and whether the seat was coached."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True)
class Coaching:
    """What the coach makes of an action, for the seat at ``position``: the note to show its
    account now (``None``: none; an older one is taken down), and whether it graded a decision
    of the seat's (the seat is then marked as played with the coach)."""

    position: int
    note: dict[str, Any] | None
    graded: bool = False

    def columns(self, position: int) -> dict[str, Any]:
        """The seat columns it sets for the seat at ``position`` (none for another seat)."""
        if self.position != position:
            return {}
        return {"coach_note": self.note} | ({"coached": True} if self.graded else {})
