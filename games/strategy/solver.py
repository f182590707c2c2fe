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
import os
from collections.abc import Callable
from dataclasses import dataclass
from multiprocessing.connection import Connection
from typing import Final

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
    joker_score,
    rows_scoring,
)
from games.strategy.states import TABLE_SIZE, UPPER_CAP, Convention, Layer, index_array, layers

CHUNK: Final = 256
"""States per vectorised pass: a (462, CHUNK) float64 array stays within a core's L2 cache."""

_SUM_BOXES: Final = (Box.THREE_OF_A_KIND, Box.FOUR_OF_A_KIND)
_FIXED_BOXES: Final = (Box.FULL_HOUSE, Box.SMALL_STRAIGHT, Box.LARGE_STRAIGHT)
_ROWS: Final = {box: rows_scoring(box) for box in (*_SUM_BOXES, *_FIXED_BOXES)}
_NON_YAHTZEE: Final = {
    box: np.setdiff1d(rows, YAHTZEE_ROLLS) for box, rows in _ROWS.items()
}  # a five of a kind is scored apart, Joker and all


def score_values(
    table: FloatArray, mask: IntArray, upper: IntArray, flag: IntArray, convention: Convention
) -> FloatArray:
    """``[roll, state]``: the expected points still to come for the best box to score ``roll``
    in, from the start of a turn in each state (points of this box and bonuses included)."""
    n = len(mask)
    minus_inf = np.float64(-np.inf)

    def after(box: Box, new_upper: IntArray, new_flag: IntArray) -> FloatArray:
        values = table[index_array(mask | BIT[box], new_upper, new_flag)]
        return np.where(mask & BIT[box], minus_inf, values)

    # upper[i][c]: c dice of face i + 1 scored in its box.
    upper_after = np.empty((6, 6, n))
    for i, box in enumerate(UPPER):
        for count in range(6):
            points = (i + 1) * count
            total = upper + points
            bonus = np.where((upper < UPPER_CAP) & (total >= UPPER_CAP), UPPER_BONUS, 0)
            upper_after[i, count] = after(box, np.minimum(total, UPPER_CAP), flag) + (
                points + bonus
            )
    lower_after = {box: after(box, upper, flag) for box in LOWER if box is not Box.YAHTZEE}
    yahtzee_zero = after(Box.YAHTZEE, upper, flag)

    zero = np.maximum.reduce([upper_after[:, 0].max(axis=0), yahtzee_zero, *(lower_after[b] for b in (*_SUM_BOXES, *_FIXED_BOXES))])
    values = ROLL_SUMS[:, None] + lower_after[Box.CHANCE][None, :]
    np.maximum(values, zero, out=values)
    for i in range(6):
        np.maximum(values, upper_after[i].take(ROLL_COUNTS[:, i], axis=0), out=values)
    for box in _SUM_BOXES:
        rows = _NON_YAHTZEE[box]
        values[rows] = np.maximum(values[rows], ROLL_SUMS[rows, None] + lower_after[box])
    for box in _FIXED_BOXES:
        rows = _NON_YAHTZEE[box]
        points = SCORES[rows[0], BOX_INDEX[box]] if len(rows) else 0
        values[rows] = np.maximum(values[rows], points + lower_after[box])

    yahtzee_open = (mask & BIT[Box.YAHTZEE]) == 0
    yahtzee_fifty = after(Box.YAHTZEE, upper, np.ones_like(flag)) + YAHTZEE_POINTS
    lower_open_best = np.maximum.reduce(list(lower_after.values()))
    for row, face in zip(YAHTZEE_ROLLS.tolist(), YAHTZEE_FACE.tolist(), strict=True):
        i = face - 1
        plain = upper_after[:, 0].copy()
        plain[i] = upper_after[i, 5]
        plain_best = np.maximum.reduce(
            [
                plain.max(axis=0),
                yahtzee_zero,
                *(lower_after[b] + 5 * face for b in (*_SUM_BOXES, Box.CHANCE)),
                *(lower_after[b] for b in _FIXED_BOXES),
            ]
        )
        jokers = [lower_after[b] + joker_score(b, face) for b in _FIXED_BOXES]
        if convention is Convention.FREE:
            face_filled = (mask & BIT[UPPER[i]]) != 0
            filled_best = np.where(face_filled, np.maximum.reduce([plain_best, *jokers]), plain_best)
        else:
            joker_lower = np.maximum.reduce(
                [*jokers, *(lower_after[b] + 5 * face for b in (*_SUM_BOXES, Box.CHANCE))]
            )
            face_open = (mask & BIT[UPPER[i]]) == 0
            filled_best = np.where(
                face_open,
                upper_after[i, 5],
                np.where(lower_open_best > minus_inf, joker_lower, upper_after[:, 0].max(axis=0)),
            )
        values[row] = np.where(
            yahtzee_open, np.maximum(plain_best, yahtzee_fifty), filled_best
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


def turn_values(
    table: FloatArray, mask: IntArray, upper: IntArray, flag: IntArray, convention: Convention
) -> TurnValues:
    score = score_values(table, mask, upper, flag, convention)
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


def _solve_part(table: FloatArray, layer: Layer, part: slice, convention: Convention) -> None:
    start, stop, _ = part.indices(len(layer))
    for lo in range(start, stop, CHUNK):
        hi = min(lo + CHUNK, stop)
        mask, upper, flag = layer.mask[lo:hi], layer.upper[lo:hi], layer.yahtzee50[lo:hi]
        table[index_array(mask, upper, flag)] = start_values(table, mask, upper, flag, convention)


def _helper(connection: Connection, table: FloatArray, all_layers: tuple[Layer, ...], convention: Convention) -> None:
    while (filled := connection.recv()) is not None:
        layer = all_layers[filled]
        _solve_part(table, layer, slice(len(layer) // 2, None), convention)
        connection.send(filled)


def solve(
    convention: Convention = Convention.FORCED,
    *,
    processes: int = 2,
    progress: Callable[[int], None] | None = None,
) -> FloatArray:
    """The table of every reachable state's value, indexed by ``state_index``.

    ``processes=2`` lets a forked helper process compute half of each layer (where fork is
    available); the table lives in an anonymous shared mapping both processes write.
    """
    shared = mmap.mmap(-1, TABLE_SIZE * 8)
    table: FloatArray = np.frombuffer(shared, dtype=np.float64)
    all_layers = layers()
    helper = None
    if processes > 1 and "fork" in multiprocessing.get_all_start_methods():
        ours, theirs = multiprocessing.get_context("fork").Pipe()
        helper = multiprocessing.get_context("fork").Process(
            target=_helper, args=(theirs, table, all_layers, convention), daemon=True
        )
        helper.start()
    try:
        for layer in reversed(all_layers):
            if helper is not None and len(layer) >= 2 * CHUNK:
                ours.send(layer.filled)
                _solve_part(table, layer, slice(0, len(layer) // 2), convention)
                ours.recv()
            else:
                _solve_part(table, layer, slice(None), convention)
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
