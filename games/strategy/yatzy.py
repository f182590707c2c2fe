"""The exact solver of Yatzy solitaire (``docs/YATZY.md``): the expected final score of every
reachable state played to maximise it, computed backwards from the last turn like Classic's.

Yatzy needs less state than Yahtzee: no Yahtzee bonus and no Joker, so a state is the boxes
filled (a 15-bit mask in card order, Ones the lowest bit) and the upper subtotal capped at 63.
Its dense index ``mask << 6 | upper`` addresses a flat table of 2**21 values; only the
reachable ones are computed. Each layer (by boxes filled) is solved in vectorised chunks of
``(rolls or keeps) × states`` arrays over the same keep lattice as Classic (``dice``).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Final

import numpy as np

from games.rules.boxes import Box
from games.rules.scoring import UPPER_BONUS_THRESHOLD, YATZY, box_score
from games.strategy.dice import (
    KEEPS,
    ROLL_COUNT,
    ROLL_COUNTS,
    ROLL_PROBABILITY,
    FloatArray,
    IntArray,
    best_keeps,
    keep_values,
)

BOXES: Final = YATZY.boxes
BIT: Final[dict[Box, int]] = {box: 1 << i for i, box in enumerate(BOXES)}
FULL_MASK: Final = (1 << len(BOXES)) - 1
UPPER_CAP: Final = UPPER_BONUS_THRESHOLD
UPPER_BITS: Final = sum(BIT[box] for box in YATZY.upper)
TABLE_SIZE: Final = (FULL_MASK + 1) << 6
EXPECTED: Final = 248.4399894
"""A new game's expected score under perfect play, as this solver and the published ones find
it (the table's ``new_game``; the help page quotes it)."""
CHUNK: Final = 256
"""States per vectorised pass, as Classic's: a (462, CHUNK) float64 array fits a core's L2."""

SCORES: Final[IntArray] = np.array(
    [[box_score(box, KEEPS[r]) for box in BOXES] for r in range(ROLL_COUNT)], dtype=np.int64
)
"""``SCORES[roll, box]``: what each of the 252 rolls scores in each Yatzy box (the engine's
own scoring: Yatzy has no Joker to re-value a roll)."""
_LOWER: Final = tuple(i for i, box in enumerate(BOXES) if not box.is_upper)
_UPPER: Final = tuple((i, box.face) for i, box in enumerate(BOXES) if box.face is not None)
_MINUS_INF: Final = np.float64(-np.inf)


def index_array(mask: IntArray, upper: IntArray) -> IntArray:
    return (mask << 6) | upper


def state_index(card: Mapping[str, int]) -> int:
    """The dense index of one Yatzy column at the start of a turn."""
    mask = 0
    for key in card:
        mask |= BIT[Box(key)]
    upper = sum(points for key, points in card.items() if Box(key).is_upper)
    return (mask << 6) | min(upper, UPPER_CAP)


def score_values(table: FloatArray, mask: IntArray, upper: IntArray) -> FloatArray:
    """``[roll, state]``: the expected points still to come for the best box to score ``roll``
    in, from the start of a turn in each state (this box's points and the bonus included)."""
    values = np.full((ROLL_COUNT, len(mask)), _MINUS_INF)
    for i in _LOWER:
        after = table[index_array(mask | (1 << i), upper)]
        after[(mask & (1 << i)) != 0] = _MINUS_INF
        np.maximum(values, SCORES[:, i, None] + after[None, :], out=values)
    counts = np.arange(6, dtype=np.int64)
    for i, face in _UPPER:
        # after[count, state]: count dice of face scored in its box (-inf if it is filled).
        points = face * counts[:, None]
        total = upper[None, :] + points
        bonus = np.where((upper < UPPER_CAP) & (total >= UPPER_CAP), YATZY.upper_bonus, 0)
        after = table[index_array(mask | (1 << i), np.minimum(total, UPPER_CAP))] + points + bonus
        after[:, (mask & (1 << i)) != 0] = _MINUS_INF
        np.maximum(values, after[ROLL_COUNTS[:, face - 1]], out=values)
    return values


def start_values(table: FloatArray, mask: IntArray, upper: IntArray) -> FloatArray:
    """The expected points still to come from the start of a turn, for each state."""
    values = best_keeps(keep_values(score_values(table, mask, upper)))
    values = best_keeps(keep_values(values[:ROLL_COUNT]))
    result: FloatArray = ROLL_PROBABILITY @ values[:ROLL_COUNT]
    return result


@dataclass(frozen=True)
class Layer:
    """The states with the same number of boxes filled: the ones computed, and the "bonus out of
    reach" ones that only copy the value of the same boxes with subtotal 0."""

    filled: int
    mask: IntArray
    upper: IntArray
    copies: IntArray
    sources: IntArray

    def __len__(self) -> int:
        return len(self.mask)


def _reachable_uppers() -> np.ndarray:
    """``[upper_mask, subtotal]``: can the filled upper boxes add up to that (capped) total?"""
    reach = np.zeros((64, UPPER_CAP + 1), dtype=bool)
    for upper_mask in range(64):
        sums = {0}
        for i in range(6):
            if upper_mask >> i & 1:
                sums = {min(s + (i + 1) * n, UPPER_CAP) for s in sums for n in range(6)}
        reach[upper_mask, sorted(sums)] = True
    return reach


def reachable() -> np.ndarray:
    """A boolean table over all dense indices: which non-final states a game can reach."""
    masks = np.arange(FULL_MASK + 1)
    grid = np.zeros((FULL_MASK + 1, 64), dtype=bool)
    grid[:, : UPPER_CAP + 1] = _reachable_uppers()[masks & UPPER_BITS]
    grid[FULL_MASK] = False
    return grid.reshape(-1)


def layers() -> tuple[Layer, ...]:
    """The reachable non-final states by boxes filled, ``layers()[n]`` with ``n`` filled."""
    index = np.flatnonzero(reachable())
    mask, upper = index >> 6, index & 63
    gain = np.zeros(FULL_MASK + 1, dtype=np.int64)  # the most the open upper boxes could add
    for i, face in _UPPER:
        gain += np.where(np.arange(FULL_MASK + 1) >> i & 1, 0, 5 * face)
    dead = (upper + gain[mask] < UPPER_CAP) & (upper > 0)
    filled = np.array([m.bit_count() for m in range(FULL_MASK + 1)], dtype=np.int64)[mask]
    out = []
    for n in range(len(BOXES)):
        here = filled == n
        live, copy = here & ~dead, here & dead
        out.append(
            Layer(
                n,
                mask[live],
                upper[live],
                copies=index[copy],
                sources=index_array(mask[copy], np.zeros_like(upper[copy])),
            )
        )
    return tuple(out)


def solve(progress: Callable[[int], None] | None = None) -> FloatArray:
    """The table of every reachable state's value, indexed by ``state_index``; a full card
    (and any unreachable index) holds 0."""
    table: FloatArray = np.zeros(TABLE_SIZE, dtype=np.float64)
    for layer in reversed(layers()):
        for lo in range(0, len(layer), CHUNK):
            mask, upper = layer.mask[lo : lo + CHUNK], layer.upper[lo : lo + CHUNK]
            table[index_array(mask, upper)] = start_values(table, mask, upper)
        table[layer.copies] = table[layer.sources]
        if progress is not None:
            progress(layer.filled)
    return table
