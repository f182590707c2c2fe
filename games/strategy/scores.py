"""What each of the 252 rolls scores in each box, as numpy tables the solver adds up at once.

Worked out from the dice counts alone, independently of ``games.rules``; the tests check the two
agree on every roll and box, Joker values included.
"""

from __future__ import annotations

from typing import Final

import numpy as np

from games.rules.boxes import CATEGORIES, UPPER, Box
from games.rules.scoring import (
    FULL_HOUSE_POINTS,
    LARGE_STRAIGHT_POINTS,
    SMALL_STRAIGHT_POINTS,
    YAHTZEE_POINTS,
)
from games.strategy.dice import ROLL_COUNTS, ROLL_SUMS, IntArray

BOX_COUNT: Final = len(CATEGORIES)
BOX_INDEX: Final[dict[Box, int]] = {box: i for i, box in enumerate(CATEGORIES)}
BIT: Final[dict[Box, int]] = {box: 1 << i for i, box in enumerate(CATEGORIES)}
"""The bit a filled box sets in a state's mask."""
UPPER_BITS: Final = sum(BIT[box] for box in UPPER)


def _runs(length: int) -> IntArray:
    present = ROLL_COUNTS > 0
    found = np.zeros(len(ROLL_COUNTS), dtype=bool)
    for start in range(7 - length):
        found |= present[:, start : start + length].all(axis=1)
    return found.astype(np.int64)


def _table() -> IntArray:
    most = ROLL_COUNTS.max(axis=1)
    shape = np.sort(ROLL_COUNTS, axis=1)
    full_house = (shape[:, -1] == 3) & (shape[:, -2] == 2)
    columns = {
        **{box: ROLL_COUNTS[:, i] * (i + 1) for i, box in enumerate(UPPER)},
        Box.THREE_OF_A_KIND: np.where(most >= 3, ROLL_SUMS, 0),
        Box.FOUR_OF_A_KIND: np.where(most >= 4, ROLL_SUMS, 0),
        Box.FULL_HOUSE: np.where(full_house, FULL_HOUSE_POINTS, 0),
        Box.SMALL_STRAIGHT: _runs(4) * SMALL_STRAIGHT_POINTS,
        Box.LARGE_STRAIGHT: _runs(5) * LARGE_STRAIGHT_POINTS,
        Box.YAHTZEE: np.where(most == 5, YAHTZEE_POINTS, 0),
        Box.CHANCE: ROLL_SUMS,
    }
    return np.stack([columns[box] for box in CATEGORIES], axis=1).astype(np.int64)


SCORES: Final[IntArray] = _table()
"""``SCORES[roll, box]``: the points on face value, before any Joker rule, ``(252, 13)``."""

YAHTZEE_ROLLS: Final[IntArray] = np.flatnonzero(ROLL_COUNTS.max(axis=1) == 5)
"""The six five-of-a-kind rolls, Aces to Sixes."""
YAHTZEE_FACE: Final[IntArray] = ROLL_COUNTS[YAHTZEE_ROLLS].argmax(axis=1) + 1

JOKER_POINTS: Final[dict[Box, int]] = {
    Box.FULL_HOUSE: FULL_HOUSE_POINTS,
    Box.SMALL_STRAIGHT: SMALL_STRAIGHT_POINTS,
    Box.LARGE_STRAIGHT: LARGE_STRAIGHT_POINTS,
}


def joker_score(box: Box, face: int) -> int:
    """What five ``face``s score in ``box`` when played as a Joker (a lower box)."""
    return JOKER_POINTS.get(box, 5 * face)


def rows_scoring(box: Box) -> IntArray:
    """The rolls that score more than zero in ``box``."""
    return np.flatnonzero(SCORES[:, BOX_INDEX[box]] > 0)
