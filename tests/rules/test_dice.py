"""Dice: production dice are fair, and dice from any source are checked before they are used."""

from __future__ import annotations

import math
from collections import Counter

import pytest

from games import rules

DRAWS = 60_000  # 10,000 expected of each face
CHI_SQUARE_BOUND = 35.89
"""Chi-square with 5 degrees of freedom exceeds this with probability 1e-6 for fair dice: the
test flakes about once in a million runs, while one face missing scores about 12,000."""


def chi_square_survival_5(x: float) -> float:
    """P(chi-square with 5 degrees of freedom > x), in closed form (odd degrees of freedom)."""
    tail = math.sqrt(2 * x / math.pi) * math.exp(-x / 2) * (1 + x / 3)
    return math.erfc(math.sqrt(x / 2)) + tail


def chi_square(counts: Counter[int], faces: range) -> float:
    expected = sum(counts.values()) / len(faces)
    return sum((counts[face] - expected) ** 2 / expected for face in faces)


def test_the_bound_is_the_one_in_a_million_critical_value() -> None:
    assert chi_square_survival_5(CHI_SQUARE_BOUND) == pytest.approx(1e-6, rel=0.01)
    assert chi_square_survival_5(11.07) == pytest.approx(0.05, rel=0.01)  # the textbook value


def test_system_dice_show_every_face_from_one_to_six_equally_often() -> None:
    counts = Counter(value for _ in range(DRAWS // 5) for value in rules.system_dice(5))

    assert sum(counts.values()) == DRAWS
    assert set(counts) == {1, 2, 3, 4, 5, 6}
    assert chi_square(counts, range(1, 7)) < CHI_SQUARE_BOUND, counts


def test_the_chi_square_test_would_catch_a_die_without_its_one() -> None:
    """What a die drawn with ``randint(2, 6)`` scores: far beyond the bound."""
    counts = Counter({1: 0, **{face: DRAWS // 5 for face in range(2, 7)}})

    assert chi_square(counts, range(1, 7)) > 100 * CHI_SQUARE_BOUND


# --- validate_dice ---------------------------------------------------------------------------


def test_five_whole_numbers_from_one_to_six_are_dice() -> None:
    assert rules.validate_dice([1, 6, 3, 3, 2]) == (1, 6, 3, 3, 2)


def test_fewer_dice_are_checked_against_the_count_asked_for() -> None:
    assert rules.validate_dice([6, 6], count=2) == (6, 6)
    assert rules.validate_dice([], count=0) == ()


@pytest.mark.parametrize(
    "values",
    [
        pytest.param((True, 2, 3, 4, 5), id="True-is-not-a-one"),
        pytest.param((1, 2.0, 3, 4, 5), id="2.0-is-not-a-two"),
        pytest.param((1, 2, 3, 4, "5"), id="text"),
        pytest.param((0, 2, 3, 4, 5), id="zero"),
        pytest.param((1, 2, 3, 4, 7), id="seven"),
        pytest.param((1, 2, 3, 4), id="four-dice"),
        pytest.param((1, 2, 3, 4, 5, 6), id="six-dice"),
    ],
)
def test_anything_else_is_refused_with_a_message_saying_what_is_needed(values: tuple) -> None:
    with pytest.raises(ValueError) as refused:
        rules.validate_dice(values)

    assert str(refused.value) == f"5 dice of 1 to 6 are needed, not {list(values)!r}"


def test_the_message_gives_the_count_that_was_asked_for() -> None:
    with pytest.raises(ValueError, match=r"^2 dice of 1 to 6 are needed, not \[True, 2\]$"):
        rules.validate_dice([True, 2], count=2)


# --- What a screen reader says -----------------------------------------------------------------


@pytest.mark.parametrize(
    ("value", "name"),
    [(1, "one"), (2, "two"), (3, "three"), (4, "four"), (5, "five"), (6, "six")],
)
def test_each_face_has_its_name(value: int, name: str) -> None:
    assert rules.face_name(value) == name


def test_a_die_not_rolled_yet_says_so() -> None:
    assert rules.face_name(None) == "not rolled yet"
    assert rules.describe_die(1, None, held=False) == "Die 1 shows not rolled yet"


def test_a_die_is_described_by_its_number_its_face_and_whether_it_is_held() -> None:
    assert rules.describe_die(3, 5, held=True) == "Die 3 shows five, held"
    assert rules.describe_die(5, 1, held=False) == "Die 5 shows one"


def test_dice_are_listed_with_commas() -> None:
    assert rules.describe_dice((6, 1, 3, 3, 2)) == "6, 1, 3, 3, 2"
