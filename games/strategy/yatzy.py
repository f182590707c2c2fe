"""The exact solver of Yatzy solitaire (``docs/YATZY.md``): the expected final score of every
reachable state played to maximise it, computed backwards from the last turn like Classic's.

Yatzy needs less state than Yahtzee: no Yahtzee bonus and no Joker, so a state is the boxes
filled (a 15-bit mask in card order, Ones the lowest bit) and the upper subtotal capped at 63.
Its dense index ``mask << 6 | upper`` addresses a flat table of 2**21 values; only the
reachable ones are filled, and of the subtotals that make the same difference to the bonus
only one is computed (``_bonus_classes``). Each layer (by boxes filled) is solved in vectorised
chunks of ``(rolls or keeps) × states`` arrays over the same keep lattice as Classic (``dice``),
half of it in a forked helper process (``solver.solve_layers``).
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
    ROLL_PROBABILITY,
    FloatArray,
    IntArray,
    best_keeps,
    keep_values,
)
from games.strategy.solver import solve_layers

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
_UPPER_FACES: Final = np.array([box.face for box in YATZY.upper], dtype=np.int64)
_UPPER_BITS: Final = np.array([BIT[box] for box in YATZY.upper], dtype=np.int64)
_UPPER_POINTS: Final = _UPPER_FACES[:, None] * np.arange(6, dtype=np.int64)[None, :]
"""``[face - 1, count]``: the points of ``count`` dice of ``face`` in its upper box."""
_LOWER_BITS: Final = np.array([BIT[box] for box in YATZY.lower], dtype=np.int64)
_MINUS_INF: Final = np.float64(-np.inf)


def _options() -> tuple[IntArray, IntArray, IntArray]:
    """The distinct ways a roll can score points, and which of them each roll has.

    A roll's value is its best box; a box the roll scores nothing in is worth only the value
    after it, the same for every roll, so the best of those (``zero``) is worked out once per
    state. What differs from roll to roll is the few boxes it does score in (six or seven of the
    fifteen), and many rolls score the same points in the same box (every pair of sixes is 12 in
    One Pair). So each distinct (box, points) is one *option*, a row of ``after`` plus points:
    ``(rows, points, by_roll)`` where option ``o`` is ``after[rows[o]] + points[o]`` and
    ``by_roll[roll]`` lists the options of that roll, padded by repeating its first (every roll
    has one: Chance). ``after`` stacks the upper boxes by ``(face - 1) * 6 + count`` (their
    points and bonus included, as they depend on the subtotal) and then the lower boxes.
    """
    rows: list[int] = []
    points: list[int] = []
    number: dict[tuple[int, int], int] = {}
    for i, box in enumerate(BOXES):
        for scored in sorted(set(SCORES[:, i].tolist()) - {0}):
            number[i, scored] = len(rows)
            if box.face is not None:
                rows.append(YATZY.upper.index(box) * 6 + scored // box.face)
                points.append(0)
            else:
                rows.append(36 + YATZY.lower.index(box))
                points.append(scored)
    listed = [[number[i, int(p)] for i, p in enumerate(scores) if p] for scores in SCORES]
    width = max(len(options) for options in listed)
    by_roll = [options + options[:1] * (width - len(options)) for options in listed]
    return (
        np.array(rows, dtype=np.int64),
        np.array(points, dtype=np.int64),
        np.array(by_roll, dtype=np.int64),
    )


_OPTION_ROWS, _OPTION_POINTS, _ROLL_OPTIONS = _options()


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
    # after[row, state]: the value after scoring in a box, -inf if it is filled; rows as in
    # _options: upper boxes by (face - 1) * 6 + count, points and bonus included, then lower.
    total = upper + _UPPER_POINTS[:, :, None]
    bonus = np.where((upper < UPPER_CAP) & (total >= UPPER_CAP), YATZY.upper_bonus, 0)
    next_upper = index_array(
        (mask | _UPPER_BITS[:, None])[:, None, :], np.minimum(total, UPPER_CAP)
    )
    upper_after = table[next_upper] + _UPPER_POINTS[:, :, None] + bonus
    upper_filled = (mask & _UPPER_BITS[:, None]) != 0
    upper_after[np.broadcast_to(upper_filled[:, None, :], upper_after.shape)] = _MINUS_INF
    lower_after = table[index_array(mask | _LOWER_BITS[:, None], upper)]
    lower_after[(mask & _LOWER_BITS[:, None]) != 0] = _MINUS_INF
    after = np.concatenate((upper_after.reshape(36, -1), lower_after))

    options = after.take(_OPTION_ROWS, axis=0)
    options += _OPTION_POINTS[:, None]
    # Every roll has an option, so scoring zero elsewhere can join each option (fewer rows).
    zero = np.maximum(upper_after[:, 0].max(axis=0), lower_after.max(axis=0))
    np.maximum(options, zero, out=options)
    values: FloatArray = options.take(_ROLL_OPTIONS[:, 0], axis=0)
    for slot in range(1, _ROLL_OPTIONS.shape[1]):
        np.maximum(values, options.take(_ROLL_OPTIONS[:, slot], axis=0), out=values)
    return values


def start_values(table: FloatArray, mask: IntArray, upper: IntArray) -> FloatArray:
    """The expected points still to come from the start of a turn, for each state."""
    values = best_keeps(keep_values(score_values(table, mask, upper)))
    values = best_keeps(keep_values(values[:ROLL_COUNT]))
    result: FloatArray = ROLL_PROBABILITY @ values[:ROLL_COUNT]
    return result


@dataclass(frozen=True)
class Layer:
    """The states with the same number of boxes filled: the ones computed, and the ones that
    only copy the value of a computed state with the same boxes filled (``sources``, same row)
    whose subtotal makes the same difference to the bonus (see ``_bonus_classes``)."""

    filled: int
    mask: IntArray
    upper: IntArray
    copies: IntArray
    sources: IntArray

    def __len__(self) -> int:
        return len(self.mask)


def _upper_totals(upper_mask: int) -> set[int]:
    """Every total the upper boxes in ``upper_mask`` (bit ``i`` for face ``i + 1``) can score."""
    totals = {0}
    for i in range(6):
        if upper_mask >> i & 1:
            totals = {t + (i + 1) * n for t in totals for n in range(6)}
    return totals


def _reachable_uppers() -> np.ndarray:
    """``[upper_mask, subtotal]``: can the filled upper boxes add up to that (capped) total?"""
    reach = np.zeros((64, UPPER_CAP + 1), dtype=bool)
    for upper_mask in range(64):
        reach[upper_mask, sorted({min(t, UPPER_CAP) for t in _upper_totals(upper_mask)})] = True
    return reach


def _bonus_classes() -> IntArray:
    """``[open_upper_mask, subtotal]``: the fewest points the open upper boxes can score that
    take ``subtotal`` to the bonus, or 0 if the bonus is settled (reached, or out of reach of
    whatever they score).

    Two subtotals with the same entry make the same difference to every future score: the
    open upper boxes will end up scoring one of their totals, and it reaches the bonus from
    both or from neither (no total lies between what each needs). So with the same boxes
    filled their states have the same value, computed once."""
    classes = np.zeros((64, UPPER_CAP + 1), dtype=np.int64)
    for open_mask in range(64):
        totals = _upper_totals(open_mask)
        for subtotal in range(UPPER_CAP):
            classes[open_mask, subtotal] = min(
                (t for t in totals if subtotal + t >= UPPER_CAP), default=0
            )
    return classes


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
    # A state's class: its mask and its entry in _bonus_classes (below 128, so 7 bits). The
    # class's first state in index order (its lowest subtotal) is computed, the others copy it.
    group = mask << 7 | _bonus_classes()[~mask & UPPER_BITS, upper]
    _, first, class_of = np.unique(group, return_index=True, return_inverse=True)
    computed = np.zeros(len(index), dtype=bool)
    computed[first] = True
    source = index[first][class_of]
    filled = np.array([m.bit_count() for m in range(FULL_MASK + 1)], dtype=np.int64)[mask]
    out = []
    for n in range(len(BOXES)):
        here = filled == n
        live, copy = here & computed, here & ~computed
        out.append(Layer(n, mask[live], upper[live], copies=index[copy], sources=source[copy]))
    return tuple(out)


def _solve_part(table: FloatArray, layer: Layer, part: slice) -> None:
    start, stop, _ = part.indices(len(layer))
    for lo in range(start, stop, CHUNK):
        mask, upper = (
            layer.mask[lo : min(lo + CHUNK, stop)],
            layer.upper[lo : min(lo + CHUNK, stop)],
        )
        table[index_array(mask, upper)] = start_values(table, mask, upper)


def solve(*, processes: int = 2, progress: Callable[[int], None] | None = None) -> FloatArray:
    """The table of every reachable state's value, indexed by ``state_index``; a full card
    (and any unreachable index) holds 0. ``processes=2`` splits each layer with a forked helper
    process, as Classic's ``solver.solve_layers`` does."""
    return solve_layers(TABLE_SIZE, layers(), _solve_part, processes=processes, progress=progress)
