"""Totals of one column and of a whole card: upper bonus, lower total, Yahtzee bonuses, weights."""

from __future__ import annotations

import pytest

from games import rules


def upper(aces: int) -> dict[str, int]:
    """Three of every face but aces (6 + 9 + 12 + 15 + 18 = 60), plus ``aces`` points of aces."""
    return {"aces": aces, "twos": 6, "threes": 9, "fours": 12, "fives": 15, "sixes": 18}


LOWER = {
    "three_of_a_kind": 17,
    "four_of_a_kind": 0,
    "full_house": 25,
    "small_straight": 30,
    "large_straight": 0,
    "yahtzee": 50,
    "chance": 22,
}  # 144 in all


@pytest.mark.parametrize(
    ("aces", "subtotal", "bonus"),
    [(2, 62, 0), (3, 63, 35), (4, 64, 35)],
)
def test_upper_bonus_is_35_from_63_up(aces: int, subtotal: int, bonus: int) -> None:
    column = rules.totals(upper(aces))
    assert (column["upper_subtotal"], column["upper_bonus"]) == (subtotal, bonus)


def test_upper_total_adds_the_bonus_to_the_subtotal() -> None:
    assert rules.totals(upper(3))["upper_total"] == 63 + 35


def test_upper_bonus_counts_only_upper_boxes() -> None:
    card = {"aces": 2, "twos": 4, "chance": 30, "large_straight": 40}
    assert rules.totals(card)["upper_bonus"] == 0


def test_lower_total_sums_the_seven_lower_boxes() -> None:
    assert rules.totals({**upper(3), **LOWER})["lower_total"] == 144


def test_yahtzee_bonus_is_100_per_bonus_counted() -> None:
    assert rules.totals(LOWER, yahtzee_bonuses=3)["yahtzee_bonus"] == 300


def test_grand_total_is_upper_total_plus_lower_total_plus_yahtzee_bonuses() -> None:
    column = rules.totals({**upper(4), **LOWER}, yahtzee_bonuses=2)
    assert column["grand_total"] == (64 + 35) + 144 + 200


def test_an_empty_card_totals_zero_everywhere() -> None:
    assert set(rules.totals({}).values()) == {0}


def test_a_partly_filled_card_totals_what_is_there() -> None:
    assert rules.totals({"sixes": 24, "chance": 20})["grand_total"] == 44


# --- Whole cards ------------------------------------------------------------------------------


def test_classic_game_total_is_the_column_total_plus_bonuses() -> None:
    totals = rules.game_totals(rules.CLASSIC, [{**upper(3), **LOWER}], yahtzee_bonuses=1)
    assert totals["grand_total"] == (63 + 35 + 144) + 100


def test_triple_weights_the_columns_one_two_and_three() -> None:
    cards = [{"chance": 10}, {"chance": 20}, {"chance": 30}]
    assert rules.game_totals(rules.TRIPLE, cards)["grand_total"] == 10 + 2 * 20 + 3 * 30


def test_triple_gives_each_column_its_own_upper_bonus() -> None:
    cards = [upper(3), upper(2), upper(4)]
    columns = rules.game_totals(rules.TRIPLE, cards)["columns"]
    assert [column["upper_bonus"] for column in columns] == [35, 0, 35]


def test_triple_grand_total_weights_each_column_with_its_own_bonus() -> None:
    cards = [upper(3), upper(2), {**upper(4), **LOWER}]
    expected = 1 * (63 + 35) + 2 * 62 + 3 * (64 + 35 + 144)
    assert rules.game_totals(rules.TRIPLE, cards)["grand_total"] == expected


def test_game_totals_refuses_a_card_with_the_wrong_number_of_columns() -> None:
    with pytest.raises(ValueError):
        rules.game_totals(rules.TRIPLE, [{}, {}])


def test_a_sheet_totals_like_game_totals() -> None:
    cards = ({**upper(3), **LOWER},)
    sheet = rules.Sheet(kind=rules.CLASSIC, cards=cards, yahtzee_bonuses=2)
    assert sheet.grand_total == rules.game_totals(rules.CLASSIC, cards, 2)["grand_total"] == 442


def test_a_new_sheet_has_an_empty_column_per_column_of_its_kind() -> None:
    assert rules.Sheet(kind=rules.TRIPLE).cards == ({}, {}, {})


def test_a_sheet_refuses_the_wrong_number_of_columns() -> None:
    with pytest.raises(ValueError):
        rules.Sheet(kind=rules.TRIPLE, cards=({},))


def test_a_game_has_13_rounds_per_column() -> None:
    assert (rules.CLASSIC.rounds, rules.TRIPLE.rounds) == (13, 39)
