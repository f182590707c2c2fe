"""What a move did, told to every feature that listens: the one registry between the door and
the rooms.

The store saves a move and returns a ``Moved``: the game and seats as written, the match before
and after, and the match's new events (a box scored, the turn passed, the game over). The door
(``games.play.actions.act``) hands it to ``tell``; each room subscribes where it lives, in its
``AppConfig.ready()``, with ``listen``:

- ``listen(f)`` runs ``f`` inside the move's transaction, after its writes: for the few rows
  that belong with the move and must commit with it or not at all (a finished game's
  high-score rows, a day's result). Keep it to writes: it is part of the move's time, and a
  listener that raises fails the move as a failed write would.
- ``listen(f, on_commit=True)`` runs ``f`` once the move has committed: for telling the world
  (the open pages, a mail, a task enqueued). It never runs for a move that did not commit, and
  a failure is logged, never answered to the player.

The store imports nothing of this; the rooms import it, and nothing here imports a room.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from dataclasses import dataclass
from functools import cached_property, partial
from typing import TYPE_CHECKING

from django.db import transaction

from games import rules

if TYPE_CHECKING:
    from accounts.models import User
    from games.models import Game, Seat

logger = logging.getLogger(__name__)


@dataclass(frozen=True, eq=False)
class Moved:
    """One move as saved: who made it, the rows as written, the match before and after."""

    game: Game
    seats: list[Seat]
    before: rules.Match | None
    """``None``: the match has just begun (the move is its start)."""
    after: rules.Match
    by: User | None = None
    """The account whose request made the move (``None``: no request, a task or a command)."""
    shown: bool = True
    """Whether the move changed anything a page of the game shows (a seat's on-turn flag
    alone does not)."""

    @cached_property
    def events(self) -> tuple[rules.MatchEvent, ...]:
        """The match's new events, in order."""
        if self.before is None:
            return self.after.log
        return self.after.log[len(self.before.log) :]

    @property
    def started(self) -> bool:
        return self.before is None

    @property
    def finished(self) -> bool:
        """The move ended the match with a result (not abandoned)."""
        return self.after.phase is rules.MatchPhase.FINISHED and (
            self.before is None or self.before.phase is not rules.MatchPhase.FINISHED
        )

    @property
    def ended(self) -> bool:
        """The move ended the match, finished or abandoned."""
        return self.after.is_over and (self.before is None or not self.before.is_over)

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

_inside: list[Listener] = []
_after: list[Listener] = []


def listen(listener: Listener, *, on_commit: bool = False) -> Listener:
    """Have ``listener`` told of every move (once: listening twice changes nothing)."""
    listeners = _after if on_commit else _inside
    if listener not in listeners:
        listeners.append(listener)
    return listener


def tell(moved: Moved) -> None:
    """Tell every listener of ``moved``: those inside the transaction now, the others once it
    commits."""
    for listener in _inside:
        listener(moved)
    for listener in _after:
        transaction.on_commit(partial(_robust, listener, moved))


def _robust(listener: Listener, moved: Moved) -> None:
    try:
        listener(moved)
    except Exception:
        logger.exception("%s failed after a move of game %s", _name(listener), moved.game.pk)


def _name(listener: Listener) -> str:
    return f"{getattr(listener, '__module__', '?')}.{getattr(listener, '__qualname__', listener)}"
