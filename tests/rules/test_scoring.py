"""Box scores on an empty Classic card: every one of the 7,776 ordered rolls, plus named examples.

The expectations below are written from RULES.md in a different style from the engine (patterns
on the sorted dice rather than face counts), so that a shared mistake is unlikely.
"""

from __future__ import annotations

import itertools
from collections.abc import Callable
from functools import cache

import pytest

from games import rules

Dice = tuple[int, ...]

ALL_ROLLS: list[Dice] = list(itertools.product(range(1, 7), repeat=5))


# --- An independent reading of the RULES.md table ---------------------------------------------


def _upper(face: int) -> Callable[[Dice], int]:
    def expected(dice: Dice) -> int:
        return sum(d for d in dice if d == face)

    return expected


def _three_of_a_kind(dice: Dice) -> int:
    a, b, c, d, e = sorted(dice)
    return sum(dice) if a == c or b == d or c == e else 0


def _four_of_a_kind(dice: Dice) -> int:
    a, b, _, d, e = sorted(dice)
    return sum(dice) if a == d or b == e else 0


def _full_house(dice: Dice) -> int:
    a, b, c, d, e = sorted(dice)
    triple_then_pair = a == b == c and d == e and c != d
    pair_then_triple = a == b and c == d == e and b != c
    return 25 if triple_then_pair or pair_then_triple else 0


def _distinct_faces(dice: Dice) -> str:
    return "".join(str(face) for face in sorted(set(dice)))


def _small_straight(dice: Dice) -> int:
    faces = _distinct_faces(dice)
    return 30 if any(run in faces for run in ("1234", "2345", "3456")) else 0


def _large_straight(dice: Dice) -> int:
    return 40 if _distinct_faces(dice) in ("12345", "23456") else 0


def _yahtzee(dice: Dice) -> int:
    a, *_, e = sorted(dice)
    return 50 if a == e else 0


EXPECTED: dict[str, Callable[[Dice], int]] = {
    "aces": _upper(1),
    "twos": _upper(2),
    "threes": _upper(3),
    "fours": _upper(4),
    "fives": _upper(5),
    "sixes": _upper(6),
    "three_of_a_kind": _three_of_a_kind,
    "four_of_a_kind": _four_of_a_kind,
    "full_house": _full_house,
    "small_straight": _small_straight,
    "large_straight": _large_straight,
    "yahtzee": _yahtzee,
    "chance": sum,
}


@cache
def engine_scores() -> dict[Dice, dict[str, int]]:
    """What the engine offers for every roll on an empty card, computed once per test run."""
    return {dice: rules.legal_scores(dice, {}) for dice in ALL_ROLLS}


def test_the_thirteen_boxes_are_the_keys_of_rules_md() -> None:
    assert list(rules.CATEGORIES) == list(EXPECTED)


def test_every_roll_on_an_empty_card_may_go_in_any_of_the_thirteen_boxes() -> None:
    wrong = [dice for dice, scores in engine_scores().items() if set(scores) != set(EXPECTED)]
    assert wrong == []


@pytest.mark.parametrize("box", list(EXPECTED))
def test_every_roll_scores_as_rules_md_says(box: str) -> None:
    expected = EXPECTED[box]
    wrong = {
        dice: (scores[box], expected(dice))
        for dice, scores in engine_scores().items()
        if scores[box] != expected(dice)
    }
    assert wrong == {}, f"(engine, expected) for the first few: {list(wrong.items())[:5]}"


@pytest.mark.parametrize(
    ("box", "rolls_scoring"),
    [
        ("aces", 6**5 - 5**5),  # all rolls but those without a 1
        ("sixes", 6**5 - 5**5),
        ("three_of_a_kind", 1656),  # exactly three: 6*C(5,3)*5*5 = 1500, plus 156 below
        ("four_of_a_kind", 156),  # exactly four: 6*5*5 = 150, plus the 6 Yahtzees
        ("full_house", 300),  # 6*5 face pairs, 5!/(3!2!) = 10 orders each
        ("small_straight", 1200),  # holds 1-4, 2-5 or 3-6: 3*480 - 2*120 by inclusion-exclusion
        ("large_straight", 240),  # two runs, 5! orders each
        ("yahtzee", 6),
        ("chance", 7776),
    ],
)
def test_how_many_of_the_7776_rolls_score_in_a_box(box: str, rolls_scoring: int) -> None:
    assert sum(1 for scores in engine_scores().values() if scores[box] > 0) == rolls_scoring


# --- Named examples, checked by hand ----------------------------------------------------------


def score(box: str, *dice: int) -> int:
    return rules.legal_scores(dice, {})[box]


@pytest.mark.parametrize(
    ("box", "dice", "points"),
    [
        ("aces", (1, 1, 2, 1, 6), 3),
        ("aces", (2, 3, 4, 5, 6), 0),
        ("twos", (2, 5, 2, 2, 2), 8),
        ("threes", (3, 3, 3, 3, 3), 15),
        ("fours", (4, 1, 4, 1, 1), 8),
        ("fives", (5, 6, 5, 6, 5), 15),
        ("sixes", (6, 1, 2, 3, 4), 6),
        ("sixes", (1, 2, 3, 4, 5), 0),
    ],
)
def test_an_upper_box_sums_only_the_dice_showing_its_face(
    box: str, dice: tuple[int, ...], points: int
) -> None:
    assert score(box, *dice) == points


def test_three_of_a_kind_sums_all_dice_not_only_the_matching_ones() -> None:
    assert score("three_of_a_kind", 3, 3, 3, 5, 6) == 20


def test_three_of_a_kind_in_scattered_order() -> None:
    assert score("three_of_a_kind", 4, 1, 4, 6, 4) == 19


def test_three_of_a_kind_is_met_by_four_of_a_kind() -> None:
    assert score("three_of_a_kind", 2, 2, 2, 2, 6) == 14


def test_three_of_a_kind_needs_three_matching_dice() -> None:
    assert score("three_of_a_kind", 5, 5, 6, 6, 1) == 0


def test_four_of_a_kind_sums_all_dice_not_only_the_matching_ones() -> None:
    assert score("four_of_a_kind", 6, 1, 6, 6, 6) == 25


def test_four_of_a_kind_is_met_by_five_of_a_kind() -> None:
    assert score("four_of_a_kind", 4, 4, 4, 4, 4) == 20


def test_four_of_a_kind_needs_four_matching_dice() -> None:
    assert score("four_of_a_kind", 6, 6, 6, 5, 5) == 0


def test_full_house_is_three_of_one_face_and_two_of_another() -> None:
    assert score("full_house", 2, 5, 2, 5, 5) == 25


def test_full_house_is_not_four_and_one() -> None:
    assert score("full_house", 3, 3, 3, 3, 1) == 0


def test_full_house_is_not_two_pairs() -> None:
    assert score("full_house", 3, 3, 1, 1, 6) == 0


def test_five_of_a_kind_is_no_full_house_while_the_yahtzee_box_is_open() -> None:
    assert score("full_house", 6, 6, 6, 6, 6) == 0


def test_five_of_a_kind_is_no_straight_while_the_yahtzee_box_is_open() -> None:
    scores = rules.legal_scores((2, 2, 2, 2, 2), {})
    assert (scores["small_straight"], scores["large_straight"]) == (0, 0)


@pytest.mark.parametrize(
    "dice",
    [(1, 2, 3, 4, 6), (6, 5, 4, 3, 1), (2, 3, 4, 5, 5), (3, 4, 5, 6, 1), (4, 6, 3, 5, 4)],
)
def test_small_straight_holds_a_run_of_four(dice: tuple[int, ...]) -> None:
    assert score("small_straight", *dice) == 30


def test_small_straight_with_a_duplicate_die() -> None:
    assert score("small_straight", 1, 2, 3, 3, 4) == 30


def test_small_straight_with_a_duplicate_die_out_of_order() -> None:
    assert score("small_straight", 3, 4, 3, 5, 6) == 30


@pytest.mark.parametrize("dice", [(1, 2, 3, 4, 5), (2, 3, 4, 5, 6)])
def test_a_large_straight_is_also_a_small_straight(dice: tuple[int, ...]) -> None:
    assert score("small_straight", *dice) == 30


@pytest.mark.parametrize("dice", [(1, 2, 3, 5, 6), (1, 2, 4, 5, 6), (1, 1, 2, 2, 3)])
def test_small_straight_needs_four_in_a_row(dice: tuple[int, ...]) -> None:
    assert score("small_straight", *dice) == 0


@pytest.mark.parametrize(
    "dice", [(1, 2, 3, 4, 5), (2, 3, 4, 5, 6), (5, 3, 1, 4, 2), (6, 2, 4, 3, 5)]
)
def test_large_straight_is_a_run_of_five(dice: tuple[int, ...]) -> None:
    assert score("large_straight", *dice) == 40


def test_one_to_four_and_a_six_is_a_small_straight_but_not_a_large_one() -> None:
    scores = rules.legal_scores((1, 2, 3, 4, 6), {})
    assert (scores["small_straight"], scores["large_straight"]) == (30, 0)


def test_large_straight_needs_five_distinct_faces() -> None:
    assert score("large_straight", 2, 3, 4, 5, 5) == 0


@pytest.mark.parametrize("face", range(1, 7))
def test_yahtzee_is_fifty_for_five_of_any_face(face: int) -> None:
    assert score("yahtzee", *[face] * 5) == 50


def test_yahtzee_needs_all_five_dice() -> None:
    assert score("yahtzee", 5, 5, 5, 5, 4) == 0


def test_chance_sums_all_dice() -> None:
    assert score("chance", 1, 6, 2, 5, 3) == 17


def test_a_zero_is_a_legal_entry() -> None:
    scores = rules.legal_scores((1, 1, 2, 2, 6), {})
    assert scores["yahtzee"] == 0 and scores["fives"] == 0


@pytest.mark.parametrize(
    "dice", [(1, 2, 3, 4), (1, 2, 3, 4, 5, 6), (0, 1, 2, 3, 4), (1, 2, 3, 4, 7)]
)
def test_anything_but_five_dice_of_one_to_six_is_refused(dice: tuple[int, ...]) -> None:
    with pytest.raises(ValueError):
        rules.legal_scores(dice, {})


def test_box_score_refuses_an_unknown_box() -> None:
    with pytest.raises(rules.UnknownBox):
        rules.box_score("pair", (1, 1, 2, 3, 4))
