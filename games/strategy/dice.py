"""Dice as the solver sees them: the 252 distinct rolls and 462 distinct keeps of five dice, and
the index tables that walk the keep lattice (add a die to reach a bigger keep, take one away to
reach a smaller one).

A keep is a sorted tuple of the dice held (a multiset); a roll is a keep of all five. Keeps are
numbered by size, five dice first, so the first 252 keeps are exactly the rolls. Within a size,
keeps are ordered by how many different faces they show, so the keeps with at least ``j + 1``
different faces (and so at least ``j + 1`` one-smaller sub-keeps) form a suffix of their block.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from itertools import combinations_with_replacement
from typing import Final

import numpy as np
import numpy.typing as npt

from games.rules.dice import DICE_COUNT, FACES

IntArray = npt.NDArray[np.int64]
FloatArray = npt.NDArray[np.float64]
Keep = tuple[int, ...]


def _keeps() -> tuple[Keep, ...]:
    keeps: list[Keep] = []
    for size in range(DICE_COUNT, -1, -1):
        block = list(combinations_with_replacement(range(1, FACES + 1), size))
        block.sort(key=lambda keep: (len(set(keep)), keep))
        keeps.extend(block)
    return tuple(keeps)


KEEPS: Final = _keeps()
"""Every keep, five dice first; ``KEEPS[:ROLL_COUNT]`` are the rolls."""
KEEP_COUNT: Final = len(KEEPS)
ROLL_COUNT: Final = sum(1 for keep in KEEPS if len(keep) == DICE_COUNT)
KEEP_INDEX: Final[dict[Keep, int]] = {keep: i for i, keep in enumerate(KEEPS)}

KEEP_COUNTS: Final[IntArray] = np.array(
    [[keep.count(face) for face in range(1, FACES + 1)] for keep in KEEPS], dtype=np.int64
)
"""How many dice of each face a keep holds, ``(KEEP_COUNT, 6)``."""
ROLL_COUNTS: Final[IntArray] = KEEP_COUNTS[:ROLL_COUNT]
ROLL_SUMS: Final[IntArray] = np.array([sum(keep) for keep in KEEPS[:ROLL_COUNT]], dtype=np.int64)


def _size_blocks() -> tuple[tuple[int, int], ...]:
    sizes = [len(keep) for keep in KEEPS]
    return tuple(
        (sizes.index(size), len(sizes) - sizes[::-1].index(size)) for size in range(DICE_COUNT + 1)
    )


SIZE_BLOCKS: Final = _size_blocks()
"""``SIZE_BLOCKS[n]`` is the ``(start, stop)`` of the keeps of ``n`` dice."""


def _add_die(keep: Keep, face: int) -> int:
    return KEEP_INDEX[tuple(sorted((*keep, face)))]


CHILDREN: Final[IntArray] = np.array(
    [[_add_die(keep, face) for face in range(1, FACES + 1)] for keep in KEEPS[ROLL_COUNT:]],
    dtype=np.int64,
).reshape(KEEP_COUNT - ROLL_COUNT, FACES)
"""``CHILDREN[k - ROLL_COUNT, f - 1]``: keep ``k`` with one more die showing ``f``."""


def _parents(keep: Keep) -> list[int]:
    faces = sorted(set(keep))
    found = [KEEP_INDEX[keep[: keep.index(f)] + keep[keep.index(f) + 1 :]] for f in faces]
    return (found + found[:1] * DICE_COUNT)[:DICE_COUNT] if found else [0] * DICE_COUNT


PARENTS: Final[IntArray] = np.array([_parents(keep) for keep in KEEPS], dtype=np.int64)
"""``PARENTS[k, j]``: keep ``k`` less one die of its ``j``-th face (repeats pad the row)."""

DISTINCT: Final[IntArray] = np.array([len(set(keep)) for keep in KEEPS], dtype=np.int64)


def _suffixes() -> tuple[tuple[tuple[int, int, int], ...], ...]:
    """Per size 1..5, the ``(j, start, stop)`` rows whose ``j``-th parent is real."""
    out = []
    for size in range(1, DICE_COUNT + 1):
        start, stop = SIZE_BLOCKS[size]
        out.append(
            tuple(
                (j, start + int(np.searchsorted(DISTINCT[start:stop], j + 1)), stop)
                for j in range(min(size, FACES))
            )
        )
    return tuple(out)


PARENT_SUFFIXES: Final = _suffixes()


def _roll_probability(counts: Sequence[int]) -> float:
    n = sum(counts)
    ways = math.factorial(n)
    for c in counts:
        ways //= math.factorial(c)
    return float(ways / FACES**n)


ROLL_PROBABILITY: Final[FloatArray] = np.array(
    [_roll_probability(KEEP_COUNTS[r].tolist()) for r in range(ROLL_COUNT)], dtype=np.float64
)
"""The chance of each roll when all five dice are thrown."""


def keep_values(roll_values: FloatArray) -> FloatArray:
    """From the value of each roll ``(252, …)``, the expected value of each keep ``(462, …)``:
    a keep of ``n < 5`` dice is worth the mean of its six one-die-bigger keeps."""
    values = np.empty((KEEP_COUNT, *roll_values.shape[1:]), dtype=np.float64)
    values[:ROLL_COUNT] = roll_values
    for size in range(DICE_COUNT - 1, -1, -1):
        start, stop = SIZE_BLOCKS[size]
        children = CHILDREN[start - ROLL_COUNT : stop - ROLL_COUNT]
        if values.ndim == 1 or size <= 2:
            # One state, or the few keeps of 0 to 2 dice: a gather per block, fewer calls.
            values[start:stop] = values[children].sum(axis=1) * (1.0 / FACES)
            continue
        block = values[start:stop]
        np.take(values, children[:, 0], axis=0, out=block)
        for face in range(1, FACES):
            block += values.take(children[:, face], axis=0)
        block *= 1.0 / FACES
    return values


def best_keeps(values: FloatArray) -> FloatArray:
    """In place over ``values`` (462, …): each keep becomes the best value of any of its
    sub-keeps (itself included). The first 252 rows are then each roll's best keep."""
    if values.ndim == 1:
        for size in range(1, DICE_COUNT + 1):
            start, stop = SIZE_BLOCKS[size]
            np.maximum(
                values[start:stop], values[PARENTS[start:stop]].max(axis=1), out=values[start:stop]
            )
        return values
    for size in range(1, DICE_COUNT + 1):
        for j, start, stop in PARENT_SUFFIXES[size - 1]:
            if start < stop:
                block = values[start:stop]
                np.maximum(block, values.take(PARENTS[start:stop, j], axis=0), out=block)
    return values
