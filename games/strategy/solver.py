"""The exact solver: the expected final score of every reachable state of a Classic solitaire
game played to maximise it, computed backwards from the last turn.

States are processed a layer at a time (by boxes filled), every state of a layer in vectorised
chunks of ``(rolls or keeps) × states`` arrays: the value of each final roll from the scoring
tables and the next layer, then twice the keep lattice (a mean over the six dice one die up, a
running maximum over the sub-keeps one die down). A second process shares the table through an
anonymous shared mapping and computes half of each layer.
"""

from __future__ import annotations

import mmap
import multiprocessing
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import reduce
from multiprocessing.connection import Connection
from typing import Final, Protocol

import numpy as np

from games.rules.boxes import LOWER, UPPER, Box
from games.rules.scoring import UPPER_BONUS, YAHTZEE_BONUS, YAHTZEE_POINTS
from games.strategy.dice import (
    ROLL_COUNT,
    ROLL_COUNTS,
    ROLL_PROBABILITY,
    ROLL_SUMS,
    FloatArray,
    IntArray,
    best_keeps,
    keep_values,
)
from games.strategy.scores import (
    BIT,
    BOX_INDEX,
    SCORES,
    YAHTZEE_FACE,
    YAHTZEE_ROLLS,
    rows_scoring,
)
from games.strategy.states import TABLE_SIZE, UPPER_CAP, Convention, Layer, index_array, layers

CHUNK: Final = 256
"""States per vectorised pass: a (462, CHUNK) float64 array stays within a core's L2 cache."""

_FACES: Final = np.arange(1, 7, dtype=np.int64)
_UPPER_BITS: Final = np.array([BIT[box] for box in UPPER], dtype=np.int64)
_UPPER_POINTS: Final = _FACES[:, None] * np.arange(6, dtype=np.int64)[None, :]
"""``[face - 1, count]``: the points of ``count`` dice of ``face`` in its upper box."""
_LOWER: Final = tuple(box for box in LOWER if box is not Box.YAHTZEE)
_LOWER_BITS: Final = np.array([BIT[box] for box in _LOWER], dtype=np.int64)
_SUM_BOXES: Final = (Box.THREE_OF_A_KIND, Box.FOUR_OF_A_KIND)
_FIXED_BOXES: Final = (Box.FULL_HOUSE, Box.SMALL_STRAIGHT, Box.LARGE_STRAIGHT)
_NON_YAHTZEE_ROWS: Final = {
    box: np.setdiff1d(rows_scoring(box), YAHTZEE_ROLLS) for box in (*_SUM_BOXES, *_FIXED_BOXES)
}  # a five of a kind is scored apart, Joker and all
_FIXED_POINTS: Final = {
    box: int(SCORES[_NON_YAHTZEE_ROWS[box][0], BOX_INDEX[box]]) for box in _FIXED_BOXES
}
_OTHER_FACES: Final = ~np.eye(6, dtype=bool)


def _faces_shown() -> tuple[tuple[int, IntArray], ...]:
    """Per ``j``: the first roll showing at least ``j + 1`` different faces (rolls are ordered by
    that count) and, for the rolls from there on, the row ``(face - 1) * 6 + count`` of their
    ``j``-th face in the flattened ``upper_after``."""
    distinct = (ROLL_COUNTS > 0).sum(axis=1)
    assert (np.diff(distinct) >= 0).all(), "rolls are ordered by faces shown"
    out = []
    for j in range(5):
        start = int(np.searchsorted(distinct, j + 1))
        rows = []
        for counts in ROLL_COUNTS[start:]:
            face = np.flatnonzero(counts)[j]
            rows.append(face * 6 + counts[face])
        out.append((start, np.array(rows, dtype=np.int64)))
    return tuple(out)


_FACES_SHOWN: Final = _faces_shown()
assert (YAHTZEE_FACE == _FACES).all()
_MINUS_INF: Final = np.float64(-np.inf)


def _most(*arrays: FloatArray) -> FloatArray:
    """The elementwise maximum of arrays that broadcast together."""
    return reduce(np.maximum, arrays)


def score_values(
    table: FloatArray, mask: IntArray, upper: IntArray, flag: IntArray, convention: Convention
) -> FloatArray:
    """``[roll, state]``: the expected points still to come for the best box to score ``roll``
    in, from the start of a turn in each state (points of this box and bonuses included)."""
    # upper_after[face - 1, count, state]: count dice of face scored in its box (-inf if filled).
    total = upper + _UPPER_POINTS[:, :, None]
    capped = np.minimum(total, UPPER_CAP)
    bonus = np.where((upper < UPPER_CAP) & (total >= UPPER_CAP), UPPER_BONUS, 0)
    upper_after = table[index_array((mask | _UPPER_BITS[:, None])[:, None, :], capped, flag)]
    upper_after += _UPPER_POINTS[:, :, None] + bonus
    upper_filled = (mask & _UPPER_BITS[:, None]) != 0
    upper_after[np.broadcast_to(upper_filled[:, None, :], upper_after.shape)] = _MINUS_INF
    # lower_after[box, state]: the value after scoring zero in a lower box (-inf if filled).
    lower_after = table[index_array(mask | _LOWER_BITS[:, None], upper, flag)]
    lower_after[(mask & _LOWER_BITS[:, None]) != 0] = _MINUS_INF
    after = dict(zip(_LOWER, lower_after, strict=True))
    yahtzee_open = (mask & BIT[Box.YAHTZEE]) == 0
    yahtzee_zero = np.where(
        yahtzee_open, table[index_array(mask | BIT[Box.YAHTZEE], upper, flag)], _MINUS_INF
    )
    yahtzee_fifty = (
        table[index_array(mask | BIT[Box.YAHTZEE], upper, np.ones_like(flag))] + YAHTZEE_POINTS
    )

    upper_zero = upper_after[:, 0]
    fixed_zero = _most(*[after[box] for box in _FIXED_BOXES])
    zero = _most(
        *[
            upper_zero.max(axis=0),
            yahtzee_zero,
            fixed_zero,
            after[Box.THREE_OF_A_KIND],
            after[Box.FOUR_OF_A_KIND],
        ]
    )
    values: FloatArray = ROLL_SUMS[:, None] + after[Box.CHANCE]
    np.maximum(values, zero, out=values)
    # Upper boxes: a face the roll does not show scores zero, already counted; so only the
    # faces shown, one gather per "j-th face shown" over the rolls showing that many.
    upper_rows = upper_after.reshape(36, -1)
    for start, rows in _FACES_SHOWN:
        np.maximum(values[start:], upper_rows.take(rows, axis=0), out=values[start:])
    for box in _SUM_BOXES:
        rows = _NON_YAHTZEE_ROWS[box]
        values[rows] = np.maximum(values[rows], ROLL_SUMS[rows, None] + after[box])
    for box in _FIXED_BOXES:
        rows = _NON_YAHTZEE_ROWS[box]
        values[rows] = np.maximum(values[rows], _FIXED_POINTS[box] + after[box])

    # A five of a kind, [face - 1, state]: the plain scores, then the Joker's.
    five = 5 * _FACES[:, None]
    sums_after = _most(*[after[b] for b in (*_SUM_BOXES, Box.CHANCE)]) + five
    other_upper_zero = np.where(_OTHER_FACES[:, :, None], upper_zero[None], _MINUS_INF).max(axis=1)
    plain = _most(
        *[
            other_upper_zero,
            upper_after[:, 5],
            sums_after,
            np.maximum(yahtzee_zero, fixed_zero)[None],
        ]
    )
    jokers = _most(*[after[box] + _FIXED_POINTS[box] for box in _FIXED_BOXES])
    if convention is Convention.FREE:
        filled = np.where(upper_filled, np.maximum(plain, jokers), plain)
    else:
        any_lower = lower_after.max(axis=0) > _MINUS_INF
        filled = np.where(
            ~upper_filled,
            upper_after[:, 5],
            np.where(any_lower, np.maximum(jokers, sums_after), upper_zero.max(axis=0)),
        )
    values[YAHTZEE_ROLLS] = np.where(
        yahtzee_open, np.maximum(plain, yahtzee_fifty), filled
    ) + np.where(flag == 1, YAHTZEE_BONUS, 0)
    return values


@dataclass(frozen=True)
class TurnValues:
    """Every value of one turn from one state: what each roll is worth with 0, 1 or 2 rolls left,
    and what each keep is worth before the 2nd and 3rd roll."""

    score: FloatArray  # [roll] best box, no rolls left
    keep_last: FloatArray  # [keep] before the third roll
    roll_second: FloatArray  # [roll] after the second roll (best keep or box)
    keep_second: FloatArray  # [keep] before the second roll
    roll_first: FloatArray  # [roll] after the first roll
    start: FloatArray  # before the first roll


def turn_values(score: FloatArray) -> TurnValues:
    """The whole turn from the value of each final roll ``(252, …)``."""
    keep_last = keep_values(score)
    roll_second = best_keeps(keep_last.copy())[:ROLL_COUNT]
    keep_second = keep_values(roll_second)
    roll_first = best_keeps(keep_second.copy())[:ROLL_COUNT]
    return TurnValues(
        score, keep_last, roll_second, keep_second, roll_first, ROLL_PROBABILITY @ roll_first
    )


def start_values(
    table: FloatArray, mask: IntArray, upper: IntArray, flag: IntArray, convention: Convention
) -> FloatArray:
    """The expected points still to come from the start of a turn, for each state."""
    values = best_keeps(keep_values(score_values(table, mask, upper, flag, convention)))
    values = best_keeps(keep_values(values[:ROLL_COUNT]))
    result: FloatArray = ROLL_PROBABILITY @ values[:ROLL_COUNT]
    return result


class SolvedLayer(Protocol):
    """What ``solve_layers`` needs of a layer, Classic's or Yatzy's."""

    @property
    def filled(self) -> int: ...
    @property
    def copies(self) -> IntArray: ...
    @property
    def sources(self) -> IntArray: ...
    def __len__(self) -> int: ...


type SolvePart[L] = Callable[[FloatArray, L, slice], None]
"""Computes the states ``part`` of a layer into the table (from the layers after it)."""


def _helper[L: SolvedLayer](
    connection: Connection,
    table: FloatArray,
    all_layers: Sequence[L],
    solve_part: SolvePart[L],
) -> None:
    while (filled := connection.recv()) is not None:
        layer = all_layers[filled]
        solve_part(table, layer, slice(len(layer) // 2, None))
        connection.send(filled)


def solve_layers[L: SolvedLayer](
    size: int,
    all_layers: Sequence[L],
    solve_part: SolvePart[L],
    *,
    processes: int = 2,
    progress: Callable[[int], None] | None = None,
) -> FloatArray:
    """A table of ``size`` values filled layer by layer, the most boxes filled first
    (``all_layers[n]`` has ``n`` filled), each layer's copies taken from its sources after it.

    ``processes=2`` lets a forked helper process compute half of each layer (where fork is
    available); the table lives in an anonymous shared mapping both processes write.
    """
    shared = mmap.mmap(-1, size * 8)
    table: FloatArray = np.frombuffer(shared, dtype=np.float64)
    helper = None
    if processes > 1 and "fork" in multiprocessing.get_all_start_methods():
        ours, theirs = multiprocessing.get_context("fork").Pipe()
        helper = multiprocessing.get_context("fork").Process(
            target=_helper, args=(theirs, table, all_layers, solve_part), daemon=True
        )
        helper.start()
    try:
        for layer in reversed(all_layers):
            if helper is not None and len(layer) >= 2 * CHUNK:
                ours.send(layer.filled)
                solve_part(table, layer, slice(0, len(layer) // 2))
                ours.recv()
            else:
                solve_part(table, layer, slice(None))
            table[layer.copies] = table[layer.sources]
            if progress is not None:
                progress(layer.filled)
    finally:
        if helper is not None:
            ours.send(None)
            helper.join()
    result = table.copy()
    del table
    shared.close()
    return result


def solve(
    convention: Convention = Convention.FORCED,
    *,
    processes: int = 2,
    progress: Callable[[int], None] | None = None,
) -> FloatArray:
    """The table of every reachable state's value, indexed by ``state_index``.

    ``processes=2`` lets a forked helper process compute half of each layer (where fork is
    available).
    """

    def solve_part(table: FloatArray, layer: Layer, part: slice) -> None:
        start, stop, _ = part.indices(len(layer))
        for lo in range(start, stop, CHUNK):
            hi = min(lo + CHUNK, stop)
            mask, upper, flag = layer.mask[lo:hi], layer.upper[lo:hi], layer.yahtzee50[lo:hi]
            table[index_array(mask, upper, flag)] = start_values(
                table, mask, upper, flag, convention
            )

    return solve_layers(TABLE_SIZE, layers(), solve_part, processes=processes, progress=progress)
