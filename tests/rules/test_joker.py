"""The Joker rule and the Yahtzee bonus, case by case, as RULES.md orders them."""

from __future__ import annotations

import pytest

from games import rules

THREES = (3, 3, 3, 3, 3)


def filled_except(*open_boxes: str, yahtzee: int = 50) -> dict[str, int]:
    """A Classic card with all but ``open_boxes`` filled: YAHTZEE with ``yahtzee``, others 0."""
    card = {box: 0 for box in rules.CATEGORIES if box not in open_boxes}
    if "yahtzee" in card:
        card["yahtzee"] = yahtzee
    return card


def rolled(dice: tuple[int, ...]) -> rules.Turn:
    return rules.Turn(dice=dice, rolls_used=1)


def classic_sheet(card: dict[str, int]) -> rules.Sheet:
    return rules.Sheet(kind=rules.CLASSIC, cards=(card,))


# --- (a) YAHTZEE box still open: no Joker, five of a kind goes anywhere at face value ---------


def test_with_yahtzee_open_five_of_a_kind_may_go_in_any_open_box() -> None:
    assert set(rules.legal_scores(THREES, {})) == set(rules.CATEGORIES)


def test_with_yahtzee_open_five_of_a_kind_scores_each_box_at_face_value() -> None:
    assert rules.legal_scores(THREES, {}) == {
        "aces": 0,
        "twos": 0,
        "threes": 15,
        "fours": 0,
        "fives": 0,
        "sixes": 0,
        "three_of_a_kind": 15,
        "four_of_a_kind": 15,
        "full_house": 0,
        "small_straight": 0,
        "large_straight": 0,
        "yahtzee": 50,
        "chance": 15,
    }


def test_with_yahtzee_open_the_face_box_being_open_forces_nothing() -> None:
    card = {"aces": 2, "full_house": 25}
    assert set(rules.legal_scores(THREES, card)) == set(rules.CATEGORIES) - set(card)


def test_with_yahtzee_open_no_joker_is_recorded() -> None:
    _, scoring = rules.score(classic_sheet({}), rolled(THREES), "chance")
    assert scoring.joker is False


# --- (b) YAHTZEE holds 50 and the face box is open: forced there, with a bonus ----------------


def test_yahtzee_of_50_and_face_box_open_allows_only_the_face_box() -> None:
    card = {"yahtzee": 50}
    assert rules.legal_scores(THREES, card) == {"threes": 15}


def test_yahtzee_of_50_earns_a_bonus_of_100() -> None:
    assert rules.yahtzee_bonus(THREES, {"yahtzee": 50}) == 100


def test_scoring_the_forced_face_box_records_the_bonus_and_the_joker() -> None:
    sheet, scoring = rules.score(classic_sheet({"yahtzee": 50}), rolled(THREES), "threes")
    assert (scoring.points, scoring.yahtzee_bonus, scoring.joker) == (15, 100, True)
    assert sheet.yahtzee_bonuses == 1


# --- (c) YAHTZEE holds 0 and the face box is open: still forced there, no bonus ---------------


def test_yahtzee_of_0_and_face_box_open_still_forces_the_face_box() -> None:
    assert rules.legal_scores(THREES, {"yahtzee": 0}) == {"threes": 15}


def test_yahtzee_of_0_earns_no_bonus() -> None:
    assert rules.yahtzee_bonus(THREES, {"yahtzee": 0}) == 0


def test_scoring_over_a_yahtzee_of_0_records_no_bonus() -> None:
    sheet, scoring = rules.score(classic_sheet({"yahtzee": 0}), rolled(THREES), "threes")
    assert (scoring.yahtzee_bonus, scoring.joker, sheet.yahtzee_bonuses) == (0, True, 0)


# --- (d) face box filled, lower boxes open: any open lower box at full value ------------------


@pytest.mark.parametrize("yahtzee", [50, 0])
def test_face_box_filled_offers_every_open_lower_box_at_full_value(yahtzee: int) -> None:
    card = {"threes": 9, "yahtzee": yahtzee}
    assert rules.legal_scores(THREES, card) == {
        "three_of_a_kind": 15,
        "four_of_a_kind": 15,
        "full_house": 25,
        "small_straight": 30,
        "large_straight": 40,
        "chance": 15,
    }


def test_face_box_filled_offers_only_the_lower_boxes_still_open() -> None:
    card = filled_except("aces", "sixes", "large_straight", "chance")
    assert rules.legal_scores(THREES, card) == {"large_straight": 40, "chance": 15}


def test_face_box_filled_leaves_open_upper_boxes_unplayable() -> None:
    card = filled_except("aces", "sixes", "full_house")
    assert "aces" not in rules.legal_scores(THREES, card)


@pytest.mark.parametrize(("box", "points"), [("full_house", 25), ("small_straight", 30)])
def test_a_joker_scored_in_a_lower_box_keeps_its_full_value(box: str, points: int) -> None:
    card = filled_except("threes", box)
    sheet, scoring = rules.score(classic_sheet(card), rolled((6, 6, 6, 6, 6)), box)
    assert (scoring.points, sheet.cards[0][box], scoring.yahtzee_bonus) == (points, points, 100)


# --- (e) face box and every lower box filled: a zero in any open upper box --------------------


@pytest.mark.parametrize("yahtzee", [50, 0])
def test_with_every_lower_box_filled_any_open_upper_box_takes_a_zero(yahtzee: int) -> None:
    card = filled_except("aces", "fives", yahtzee=yahtzee)
    assert rules.legal_scores(THREES, card) == {"aces": 0, "fives": 0}


def test_the_forced_zero_still_earns_the_bonus_over_a_yahtzee_of_50() -> None:
    card = filled_except("sixes")
    sheet, scoring = rules.score(classic_sheet(card), rolled(THREES), "sixes")
    assert (scoring.points, scoring.yahtzee_bonus, sheet.yahtzee_bonuses) == (0, 100, 1)


# --- (f) a box the Joker forbids cannot be scored, and nothing changes ------------------------


@pytest.mark.parametrize(
    ("card", "forbidden"),
    [
        ({"yahtzee": 50}, "chance"),  # the face box is open
        ({"yahtzee": 0}, "aces"),  # the face box is open
        ({"yahtzee": 50, "threes": 12}, "aces"),  # lower boxes are open
    ],
)
def test_scoring_a_box_the_joker_forbids_raises(card: dict[str, int], forbidden: str) -> None:
    with pytest.raises(rules.JokerForbids):
        rules.score(classic_sheet(card), rolled(THREES), forbidden)


def test_a_refused_joker_leaves_the_sheet_as_it_was() -> None:
    card = {"yahtzee": 50, "threes": 12}
    sheet = classic_sheet(card)
    with pytest.raises(rules.JokerForbids):
        rules.score(sheet, rolled(THREES), "sixes")
    assert (sheet.cards, sheet.yahtzee_bonuses) == (({"yahtzee": 50, "threes": 12},), 0)


def test_can_score_says_no_to_a_box_the_joker_forbids() -> None:
    sheet = classic_sheet({"yahtzee": 50})
    assert not rules.can_score(sheet, rolled(THREES), "chance")
    assert rules.can_score(sheet, rolled(THREES), "threes")


def test_the_joker_refusal_names_the_boxes_allowed() -> None:
    with pytest.raises(rules.JokerForbids, match="Threes"):
        rules.score(classic_sheet({"yahtzee": 50}), rolled(THREES), "chance")


# --- (g) the bonus is earned every time, and never over a YAHTZEE of 0 ------------------------


def test_the_first_yahtzee_scored_in_its_box_earns_no_bonus() -> None:
    sheet, scoring = rules.score(classic_sheet({}), rolled(THREES), "yahtzee")
    assert (scoring.points, scoring.yahtzee_bonus, sheet.yahtzee_bonuses) == (50, 0, 0)


def test_a_bonus_is_earned_for_every_further_yahtzee() -> None:
    sheet = classic_sheet({})
    plays = [((2,) * 5, "yahtzee"), ((2,) * 5, "twos"), ((5,) * 5, "fives"), ((2,) * 5, "chance")]
    for dice, box in plays:
        sheet, _ = rules.score(sheet, rolled(dice), box)
    assert sheet.yahtzee_bonuses == 3
    assert sheet.totals()["yahtzee_bonus"] == 300


def test_no_bonus_is_ever_earned_over_a_yahtzee_of_0() -> None:
    sheet = classic_sheet({})
    plays = [((1, 2, 3, 5, 6), "yahtzee"), ((4,) * 5, "fours"), ((4,) * 5, "chance")]
    for dice, box in plays:
        sheet, _ = rules.score(sheet, rolled(dice), box)
    assert sheet.yahtzee_bonuses == 0


def test_a_roll_that_is_not_five_of_a_kind_earns_no_bonus() -> None:
    assert rules.yahtzee_bonus((3, 3, 3, 3, 4), {"yahtzee": 50}) == 0


# --- (h) Triple Yahtzee: no Joker, no bonus -------------------------------------------------


def test_triple_offers_five_of_a_kind_every_open_box_of_every_column() -> None:
    cards = [{"yahtzee": 50}, {"threes": 9}, {}]
    moves = rules.legal_moves(rules.TRIPLE, THREES, cards)
    assert len(moves) == 12 + 12 + 13


def test_triple_scores_five_of_a_kind_at_face_value_even_over_a_filled_yahtzee() -> None:
    moves = rules.legal_moves(rules.TRIPLE, THREES, [{"yahtzee": 50, "threes": 15}, {}, {}])
    assert (moves[0, "full_house"], moves[0, "small_straight"], moves[0, "aces"]) == (0, 0, 0)
    assert moves[0, "chance"] == 15


def test_triple_earns_no_yahtzee_bonus() -> None:
    assert rules.yahtzee_bonus(THREES, {"yahtzee": 50}, kind=rules.TRIPLE) == 0


def test_triple_scoring_five_of_a_kind_records_no_joker_and_no_bonus() -> None:
    sheet = rules.Sheet(kind=rules.TRIPLE, cards=({"yahtzee": 50}, {}, {}))
    sheet, scoring = rules.score(sheet, rolled(THREES), "full_house", column=0)
    assert (scoring.points, scoring.yahtzee_bonus, scoring.joker) == (0, 0, False)
    assert sheet.yahtzee_bonuses == 0


def test_classic_legal_moves_agree_with_legal_scores_under_the_joker() -> None:
    card = {"yahtzee": 50, "threes": 9}
    moves = rules.legal_moves(rules.CLASSIC, THREES, [card])
    assert moves == {(0, box): points for box, points in rules.legal_scores(THREES, card).items()}
