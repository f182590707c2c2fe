"""The rolls, the keeps and the keep lattice, checked against brute force over the dice."""

from __future__ import annotations

import itertools
import math
from collections import Counter

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from games.strategy import dice


def test_there_are_252_rolls_and_462_keeps() -> None:
    assert (dice.ROLL_COUNT, dice.KEEP_COUNT) == (252, 462)
    assert all(len(keep) == 5 for keep in dice.KEEPS[:252])
    assert len(set(dice.KEEPS)) == 462


def test_roll_probabilities_match_counting_all_7776_throws() -> None:
    counted = Counter(tuple(sorted(t)) for t in itertools.product(range(1, 7), repeat=5))
    for r, keep in enumerate(dice.KEEPS[:252]):
        assert math.isclose(dice.ROLL_PROBABILITY[r], counted[keep] / 6**5)


def test_parents_and_children_are_one_die_apart() -> None:
    for k, keep in enumerate(dice.KEEPS[252:], start=252):
        for face, child in zip(range(1, 7), dice.CHILDREN[k - 252], strict=True):
            assert dice.KEEPS[child] == tuple(sorted((*keep, face)))
    for k, keep in enumerate(dice.KEEPS):
        for parent in dice.PARENTS[k]:
            if keep:
                assert len(dice.KEEPS[parent]) == len(keep) - 1
                assert not Counter(dice.KEEPS[parent]) - Counter(keep)


def brute_keep_value(keep: tuple[int, ...], roll_values: np.ndarray) -> float:
    rerolled = 5 - len(keep)
    total = 0.0
    for throw in itertools.product(range(1, 7), repeat=rerolled):
        total += roll_values[dice.KEEP_INDEX[tuple(sorted(keep + throw))]]
    return total / 6**rerolled


@settings(max_examples=10, deadline=None)
@given(st.integers(0, 2**32 - 1))
def test_keep_values_are_the_mean_over_every_reroll(seed: int) -> None:
    roll_values = np.random.default_rng(seed).normal(size=252)
    values = dice.keep_values(roll_values)
    for k in range(0, 462, 7):
        assert math.isclose(values[k], brute_keep_value(dice.KEEPS[k], roll_values), abs_tol=1e-12)


@settings(max_examples=10, deadline=None)
@given(st.integers(0, 2**32 - 1))
def test_best_keeps_is_the_maximum_over_sub_keeps_one_state_or_many(seed: int) -> None:
    values = np.random.default_rng(seed).normal(size=(462, 3))
    many = dice.best_keeps(values.copy())
    one = dice.best_keeps(values[:, 1].copy())
    for r, roll in enumerate(dice.KEEPS[:252]):
        subs = {
            dice.KEEP_INDEX[tuple(sorted(sub))]
            for n in range(6)
            for sub in itertools.combinations(roll, n)
        }
        assert many[r, 1] == max(values[s, 1] for s in subs) == one[r]
