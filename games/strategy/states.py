"""The solver's states and the two Joker conventions it can solve for.

A state is the start of a turn: which boxes are filled (a 13-bit mask, Aces the lowest bit),
the upper subtotal capped at 63, and whether the YAHTZEE box holds 50. Its dense index
``mask << 7 | upper << 1 | yahtzee50`` addresses a flat table of 2**20 values; only the
reachable ones are ever computed.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from enum import StrEnum
from typing import Final

import numpy as np

from games.rules.boxes import CATEGORIES, UPPER, Box
from games.rules.scoring import UPPER_BONUS_THRESHOLD, YAHTZEE_POINTS
from games.strategy.dice import IntArray
from games.strategy.scores import BIT, UPPER_BITS

UPPER_CAP: Final = UPPER_BONUS_THRESHOLD
FULL_MASK: Final = (1 << len(CATEGORIES)) - 1
TABLE_SIZE: Final = (FULL_MASK + 1) << 7


class Convention(StrEnum):
    """How a later five of a kind (a Joker) may be scored once the YAHTZEE box is filled."""

    FORCED = "forced"
    """``RULES.md``: the upper box of its face if open, else any open lower box at full value,
    else a zero in an open upper box."""
    FREE = "free"
    """Tom Verhoeff's: any open box; Full House, Small and Large Straight take their Joker
    values only once the upper box of that face is filled."""


def state_index(mask: int, upper: int, yahtzee50: bool) -> int:
    return (mask << 7) | (min(upper, UPPER_CAP) << 1) | int(yahtzee50)


def index_array(mask: IntArray, upper: IntArray, yahtzee50: IntArray) -> IntArray:
    return (mask << 7) | (upper << 1) | yahtzee50


@dataclass(frozen=True)
class State:
    mask: int
    upper: int
    yahtzee50: bool

    @property
    def index(self) -> int:
        return state_index(self.mask, self.upper, self.yahtzee50)

    @property
    def filled(self) -> int:
        return self.mask.bit_count()

    def is_open(self, box: Box) -> bool:
        return not self.mask & BIT[box]

    @classmethod
    def of_card(cls, card: Mapping[str, int]) -> State:
        """The state of one column of a card at the start of a turn."""
        mask = 0
        for key in card:
            mask |= BIT[Box(key)]
        upper = sum(points for key, points in card.items() if key in UPPER)
        return cls(mask, min(upper, UPPER_CAP), card.get(Box.YAHTZEE) == YAHTZEE_POINTS)


def _reachable_uppers() -> np.ndarray:
    """``[upper_mask, subtotal]``: can the filled upper boxes add up to that (capped) subtotal?"""
    reach = np.zeros((64, UPPER_CAP + 1), dtype=bool)
    for upper_mask in range(64):
        sums = {0}
        for i in range(6):
            if upper_mask >> i & 1:
                sums = {min(s + (i + 1) * n, UPPER_CAP) for s in sums for n in range(6)}
        reach[upper_mask, sorted(sums)] = True
    return reach


def _max_upper_gain() -> IntArray:
    """``[mask]``: the most the open upper boxes could still add (five of each face)."""
    masks = np.arange(FULL_MASK + 1)
    gain = np.zeros(FULL_MASK + 1, dtype=np.int64)
    for i in range(6):
        gain += np.where(masks >> i & 1, 0, 5 * (i + 1))
    return gain


_POPCOUNT: Final = np.array([m.bit_count() for m in range(FULL_MASK + 1)], dtype=np.int64)


@dataclass(frozen=True)
class Layer:
    """The states with the same number of boxes filled, split in the ones the solver computes
    and the "bonus out of reach" ones that only copy a computed value."""

    filled: int
    mask: IntArray
    upper: IntArray
    yahtzee50: IntArray
    copies: IntArray
    """Dense indices of states whose value equals that of ``sources`` (same row)."""
    sources: IntArray

    @property
    def index(self) -> IntArray:
        return index_array(self.mask, self.upper, self.yahtzee50)

    def __len__(self) -> int:
        return len(self.mask)


def reachable() -> np.ndarray:
    """A boolean table over all dense indices: which states a game can reach."""
    masks = np.arange(FULL_MASK + 1)
    grid = np.zeros((FULL_MASK + 1, 64, 2), dtype=bool)
    grid[:, : UPPER_CAP + 1, 0] = _reachable_uppers()[masks & UPPER_BITS]
    grid[:, :, 1] = grid[:, :, 0] & (masks & BIT[Box.YAHTZEE] != 0)[:, None]
    grid[FULL_MASK] = False
    return grid.reshape(-1)


def layers() -> tuple[Layer, ...]:
    """The reachable non-final states by boxes filled, ``layers()[n]`` with ``n`` filled.

    When the open upper boxes cannot lift the subtotal to 63 any more, the subtotal no longer
    matters: such a state has the value of the same state with subtotal 0, computed once.
    """
    index = np.flatnonzero(reachable())
    mask, upper, flag = index >> 7, (index >> 1) & 63, index & 1
    dead = (upper + _max_upper_gain()[mask] < UPPER_CAP) & (upper > 0)
    filled = _POPCOUNT[mask]
    order = np.argsort(filled, kind="stable")
    bounds = np.searchsorted(filled[order], np.arange(len(CATEGORIES) + 1))
    out = []
    for n in range(len(CATEGORIES)):
        here = order[bounds[n] : bounds[n + 1]]
        live, copy = here[~dead[here]], here[dead[here]]
        out.append(
            Layer(
                filled=n,
                mask=mask[live],
                upper=upper[live],
                yahtzee50=flag[live],
                copies=index[copy],
                sources=index_array(mask[copy], np.zeros_like(upper[copy]), flag[copy]),
            )
        )
    return tuple(out)
