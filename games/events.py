"""What a move did, told to every feature that listens: the one registry between the door and
the rooms.

The store saves a move and returns a ``Moved``: the game and seats as written, the match before
and after, and the match's new events (a box scored, the turn passed, the game over). The door
(``games.play.actions.act``) hands it to ``tell``; each room subscribes where it lives (its
``events.py``, from ``GamesConfig.ready()``) with ``listen``. A listener runs inside the move's
transaction, after its writes: the few rows that belong with the move commit with it or not at
all (a finished game's high-score rows, a day's result, the coach's note), and a listener that
raises fails the move as a failed write would. Whatever tells the world waits for the commit by
itself: ``live.publish`` and ``yahtzee_site.tasking.later`` (mail, grading, the trainer's
harvest) act only once the move has committed, and never for one rolled back.

The store imports nothing of this; the rooms import it, and nothing here imports a room.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from functools import cached_property
from typing import TYPE_CHECKING

from games import rules

if TYPE_CHECKING:
    from accounts.models import User
    from games.models import Game, Seat


@dataclass(frozen=True, eq=False)
class Moved:
    """One move as saved: who made it, the rows as written, the match before and after."""

    game: Game
    seats: list[Seat]
    before: rules.Match | None
    """``None``: the match has just begun (the move is its start)."""
    after: rules.Match
    by: User | None
    """The account whose request made the move (``None``: no request, a task or a command)."""
    shown: bool
    """Whether the move changed anything a page of the game shows (a seat's on-turn flag
    alone does not)."""

    @cached_property
    def events(self) -> tuple[rules.MatchEvent, ...]:
        """The match's new events, in order."""
        if self.before is None:
            return self.after.log
        return self.after.log[len(self.before.log) :]

    @property
    def finished(self) -> bool:
        """The move ended the match with a result (not abandoned)."""
        return self.after.phase is rules.MatchPhase.FINISHED and (
            self.before is None or self.before.phase is not rules.MatchPhase.FINISHED
        )

    @property
    def turn_passed_to(self) -> int | None:
        """The seat that has the turn now when the move gave it (else ``None``)."""
        now = self.after.on_turn
        if now is None or (self.before is not None and self.before.on_turn == now):
            return None
        return now

    @property
    def rolled(self) -> bool:
        return any(isinstance(event, rules.Rolled) for event in self.events)


Listener = Callable[[Moved], None]

_listeners: list[Listener] = []


def listen(listener: Listener) -> Listener:
    """Have ``listener`` told of every move (once: listening twice changes nothing)."""
    if listener not in _listeners:
        _listeners.append(listener)
    return listener


def unlisten(listener: Listener) -> None:
    """Tell ``listener`` nothing more (the bench times a move with and without a room)."""
    if listener in _listeners:
        _listeners.remove(listener)


def tell(moved: Moved) -> None:
    """Tell every listener of ``moved``, in the order they listened."""
    for listener in _listeners:
        listener(moved)
