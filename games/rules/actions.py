"""What a player asks of a match, as values: ``Match.act`` takes one and plays it.

Each action names ``by``, the seat of the person who asks (``None`` for the computer, which
plays the computer players' seats): the match itself works out which seat that person acts for
now (their own, or a guest's at their screen whose turn it is) and whether they may.
"""

from __future__ import annotations

from dataclasses import dataclass

from games.rules.dice import Held

Player = int | None
"""Who makes a seat's moves: the seat of a person (a guest's moves are made by the host), or
``None`` for the computer."""


@dataclass(frozen=True)
class Hold:
    by: Player
    held: Held


@dataclass(frozen=True)
class Roll:
    """Roll the dice not held; ``held``, when given, is chosen first (a re-roll)."""

    by: Player
    held: Held | None = None


@dataclass(frozen=True)
class Score:
    """Fill ``box`` (of ``column``) with the dice on the table; with ``ask_before_zero``, a
    zero is refused with the question (``ZeroToConfirm``) instead."""

    by: Player
    box: str
    column: int = 0
    ask_before_zero: bool = False


@dataclass(frozen=True)
class Undo:
    by: Player


@dataclass(frozen=True)
class Resign:
    by: int


@dataclass(frozen=True)
class Skip:
    """Skip whoever keeps the game waiting: the seat on turn, or in the draw for first every
    seat still to throw. ``idle`` is how long (seconds) the game has gone without a move."""

    by: int
    idle: float


@dataclass(frozen=True)
class End:
    by: int


@dataclass(frozen=True)
class ThrowForFirst:
    """Throw for first for every seat ``by`` plays that has still to throw."""

    by: Player


@dataclass(frozen=True)
class Hint:
    """Show the seat ``by`` acts for the best moves for the dice on the table."""

    by: Player


Action = Hold | Roll | Score | Undo | Resign | Skip | End | ThrowForFirst | Hint
