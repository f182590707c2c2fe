"""Dice: their values, where they come from, and how a person reads them.

Dice come from a ``DiceSource`` passed in, so tests script them and production draws them from
the operating system's cryptographically sound generator (``system_dice``).
"""

from __future__ import annotations

import secrets
from collections.abc import Callable, Sequence
from typing import Final

DICE_COUNT: Final = 5
FACES: Final = 6
MAX_ROLLS: Final = 3

Dice = tuple[int, ...]
Held = tuple[bool, ...]
NO_HOLD: Final[Held] = (False,) * DICE_COUNT

DiceSource = Callable[[int], Sequence[int]]
"""Returns ``n`` dice values, each 1..6."""

FACE_NAMES: Final = ("one", "two", "three", "four", "five", "six")

_system_random = secrets.SystemRandom()


def system_dice(n: int) -> tuple[int, ...]:
    """Production dice: the operating system's cryptographically sound generator."""
    return tuple(_system_random.randint(1, FACES) for _ in range(n))


def validate_dice(values: Sequence[int], count: int = DICE_COUNT) -> Dice:
    """``values`` checked: exactly ``count`` whole numbers from 1 to 6 (not ``True``, not 2.0)."""
    if len(values) != count or any(
        not isinstance(value, int) or isinstance(value, bool) or not 1 <= value <= FACES
        for value in values
    ):
        raise ValueError(f"{count} dice of 1 to 6 are needed, not {list(values)!r}")
    return tuple(values)


def is_yahtzee(dice: Sequence[int]) -> bool:
    """Five of a kind."""
    return len(dice) == DICE_COUNT and len(set(dice)) == 1


def face_name(value: int | None) -> str:
    return FACE_NAMES[value - 1] if value else "not rolled yet"


def describe_die(number: int, value: int | None, *, held: bool) -> str:
    """What a screen reader says of one die: "Die 3 shows five, held"."""
    return f"Die {number} shows {face_name(value)}" + (", held" if held else "")


def describe_dice(dice: Sequence[int]) -> str:
    return ", ".join(str(d) for d in dice)
