"""Yatzy as a kind of the rules engine (docs/YATZY.md): its card, what each box scores, its
upper bonus of 50, no Yahtzee bonus and no Joker, a whole game, and its stored state."""

from __future__ import annotations

import itertools
import json
from collections import Counter

import pytest
from hypothesis import given
from hypothesis import strategies as st

from games import rules
from games.rules import YATZY, Box, Match, codec

CARD = [
    # key, label, upper face
    ("ones", "Ones", 1),
    ("twos", "Twos", 2),
    ("threes", "Threes", 3),
    ("fours", "Fours", 4),
    ("fives", "Fives", 5),
    ("sixes", "Sixes", 6),
    ("one_pair", "One pair", None),
    ("two_pairs", "Two pairs", None),
    ("yatzy_three_kind", "Three of a kind", None),
    ("yatzy_four_kind", "Four of a kind", None),
    ("yatzy_small_straight", "Small straight", None),
    ("yatzy_large_straight", "Large straight", None),
    ("yatzy_full_house", "Full house", None),
    ("chance", "Chance", None),
    ("yatzy", "Yatzy", None),
]


def test_the_fifteen_boxes_in_card_order_with_their_nordic_names() -> None:
    assert [(box.value, box.label, box.face) for box in YATZY.boxes] == CARD
    assert YATZY.rounds == 15 and YATZY.columns == 1
    assert [YATZY.letter(box) for box in YATZY.boxes] == list("ABCDEFGHIJKLMNO")
    assert YATZY.box_of_letter("o") is Box.YATZY and YATZY.box_of_letter("P") is None


def test_its_rules_are_data_of_the_kind() -> None:
    assert (YATZY.upper_bonus, YATZY.yahtzee_bonus, YATZY.joker) == (50, False, False)
    assert rules.KINDS["yatzy"] is YATZY and YATZY.name == "Yatzy"
    assert rules.PLAYABLE["yatzy"] is YATZY  # offered by every chooser since its pages came


# --- What each box scores, worked by hand ----------------------------------------------------

HAND_WORKED = [
    # Upper boxes: the dice showing the face.
    ("ones", (1, 1, 3, 1, 6), 3),
    ("fours", (4, 4, 4, 4, 4), 20),
    ("sixes", (1, 2, 3, 4, 5), 0),
    # One pair: the highest pair, two dice.
    ("one_pair", (3, 3, 5, 5, 1), 10),
    ("one_pair", (6, 6, 6, 2, 1), 12),
    ("one_pair", (2, 2, 2, 2, 2), 4),
    ("one_pair", (1, 2, 3, 4, 6), 0),
    # Two pairs: two different faces.
    ("two_pairs", (3, 3, 5, 5, 1), 16),
    ("two_pairs", (2, 2, 2, 3, 3), 10),  # a full house holds two different pairs
    ("two_pairs", (4, 4, 4, 4, 1), 0),  # a four of a kind is not two pairs
    ("two_pairs", (6, 6, 6, 6, 6), 0),
    ("two_pairs", (6, 6, 1, 2, 3), 0),
    # Three and four of a kind: the three (four) dice alike, not all five.
    ("yatzy_three_kind", (5, 5, 5, 2, 1), 15),
    ("yatzy_three_kind", (5, 5, 5, 5, 1), 15),
    ("yatzy_three_kind", (3, 3, 3, 6, 6), 9),
    ("yatzy_three_kind", (6, 6, 1, 1, 2), 0),
    ("yatzy_four_kind", (2, 2, 2, 2, 6), 8),
    ("yatzy_four_kind", (6, 6, 6, 6, 6), 24),  # five of a kind scores four dice
    ("yatzy_four_kind", (5, 5, 5, 6, 6), 0),
    # Straights: exactly 1-2-3-4-5 and 2-3-4-5-6, in any order.
    ("yatzy_small_straight", (5, 3, 1, 4, 2), 15),
    ("yatzy_small_straight", (2, 3, 4, 5, 6), 0),
    ("yatzy_small_straight", (1, 2, 3, 4, 4), 0),
    ("yatzy_large_straight", (6, 5, 4, 3, 2), 20),
    ("yatzy_large_straight", (1, 2, 3, 4, 5), 0),
    ("yatzy_large_straight", (3, 4, 5, 6, 6), 0),
    # Full house: three of one face and two of another, the sum of the dice.
    ("yatzy_full_house", (3, 3, 3, 5, 5), 19),
    ("yatzy_full_house", (6, 6, 1, 6, 1), 20),
    ("yatzy_full_house", (4, 4, 4, 4, 4), 0),  # five of a kind is no full house
    ("yatzy_full_house", (4, 4, 4, 4, 2), 0),
    ("yatzy_full_house", (4, 4, 2, 2, 1), 0),
    # Chance and Yatzy.
    ("chance", (6, 5, 4, 3, 3), 21),
    ("yatzy", (3, 3, 3, 3, 3), 50),
    ("yatzy", (3, 3, 3, 3, 2), 0),
]


@pytest.mark.parametrize(("box", "dice", "points"), HAND_WORKED)
def test_each_box_scores_as_worked_by_hand(box: str, dice: rules.Dice, points: int) -> None:
    assert rules.box_score(box, dice) == points
    assert rules.legal_moves(YATZY, dice, [{}])[0, box] == points


# --- A second, independent reading of the rules, over every roll -----------------------------


def nordic_scores(dice: tuple[int, ...]) -> dict[str, int]:
    """docs/YATZY.md read again, from the dice's multiset alone."""
    n = Counter(dice)
    faces = range(1, 7)
    pairs = [f for f in faces if n[f] >= 2]
    scores = {name: f * n[f] for name, f in zip(
        ("ones", "twos", "threes", "fours", "fives", "sixes"), faces, strict=True
    )}  # fmt: skip
    scores["one_pair"] = max((2 * f for f in pairs), default=0)
    scores["two_pairs"] = max(
        (2 * a + 2 * b for a, b in itertools.combinations(pairs, 2)), default=0
    )
    scores["yatzy_three_kind"] = max((3 * f for f in faces if n[f] >= 3), default=0)
    scores["yatzy_four_kind"] = max((4 * f for f in faces if n[f] >= 4), default=0)
    scores["yatzy_small_straight"] = 15 if set(dice) == {1, 2, 3, 4, 5} else 0
    scores["yatzy_large_straight"] = 20 if set(dice) == {2, 3, 4, 5, 6} else 0
    house = any(n[a] == 3 and n[b] == 2 for a in faces for b in faces if a != b)
    scores["yatzy_full_house"] = sum(dice) if house else 0
    scores["chance"] = sum(dice)
    scores["yatzy"] = 50 if len(n) == 1 else 0
    return scores


def test_every_roll_scores_every_box_as_the_second_reading_does() -> None:
    """All 7,776 ordered rolls on an empty card: every box is legal, at the same points."""
    for dice in itertools.product(range(1, 7), repeat=5):
        assert rules.legal_moves(YATZY, dice, [{}]) == {
            (0, box): points for box, points in nordic_scores(dice).items()
        }, dice


def test_the_best_of_each_box_is_the_most_any_roll_scores_there() -> None:
    most = Counter[str]()
    for dice in itertools.combinations_with_replacement(range(1, 7), 5):
        for box, points in nordic_scores(dice).items():
            most[box] = max(most[box], points)
    assert {box.value: box.best for box in YATZY.boxes} == most


@given(
    filled=st.dictionaries(st.sampled_from(YATZY.boxes), st.integers(0, 50), max_size=14),
    dice=st.tuples(*[st.integers(1, 6)] * 5),
)
def test_no_joker_any_open_box_takes_any_roll_at_its_face_value(
    filled: dict[str, int], dice: rules.Dice
) -> None:
    """Five of a kind included, over a Yatzy of 50 or 0: no bonus, no box forced."""
    legal = rules.legal_moves(YATZY, dice, [filled])
    expected = {(0, b): p for b, p in nordic_scores(dice).items() if b not in filled}
    assert legal == expected
    assert rules.yahtzee_bonus(dice, filled, kind=YATZY) == 0
    assert not rules.joker_applies(dice, filled, kind=YATZY)


def test_a_box_of_another_kind_is_no_box_of_the_card() -> None:
    sheet, turn = rules.Sheet(kind=YATZY), rules.Turn(dice=(1, 2, 3, 4, 5), rolls_used=1)
    for box in ("aces", "three_of_a_kind", "full_house", "small_straight", "yahtzee"):
        with pytest.raises(rules.UnknownBox, match=f"There is no box called '{box}'"):
            rules.verify_score(sheet, turn, box)
    with pytest.raises(rules.UnknownBox):
        rules.verify_score(rules.Sheet(), turn, "one_pair")
    with pytest.raises(ValueError, match="not on a Classic card"):
        _ = Box.ONE_PAIR.position


# --- Totals, a whole game, the stored state --------------------------------------------------


@pytest.mark.parametrize(("upper", "bonus"), [(62, 0), (63, 50), (84, 50)])
def test_the_upper_bonus_is_fifty_at_sixty_three(upper: int, bonus: int) -> None:
    card = {"sixes": min(upper, 30), "fives": min(upper - min(upper, 30), 25)}
    card["fours"] = upper - card["sixes"] - card["fives"]
    totals = rules.totals(card, kind=YATZY)
    assert (totals["upper_subtotal"], totals["upper_bonus"]) == (upper, bonus)


# (box, dice): an upper section of exactly 63, then every lower box.
GAME = [
    ("ones", (1, 1, 1, 2, 3), 3),
    ("twos", (2, 2, 2, 1, 3), 6),
    ("threes", (3, 3, 3, 1, 2), 9),
    ("fours", (4, 4, 4, 1, 2), 12),
    ("fives", (5, 5, 5, 1, 2), 15),
    ("sixes", (6, 6, 6, 1, 2), 18),
    ("one_pair", (6, 6, 5, 5, 1), 12),
    ("two_pairs", (6, 6, 5, 5, 1), 22),
    ("yatzy_three_kind", (4, 4, 4, 6, 6), 12),
    ("yatzy_four_kind", (6, 6, 6, 6, 6), 24),
    ("yatzy_small_straight", (5, 3, 1, 2, 4), 15),
    ("yatzy_large_straight", (6, 2, 5, 3, 4), 20),
    ("yatzy_full_house", (3, 3, 3, 5, 5), 19),
    ("chance", (6, 6, 6, 5, 4), 27),
    ("yatzy", (2, 2, 2, 2, 2), 50),
]


def test_a_whole_game_played_through_the_match_to_its_end() -> None:
    match = Match.start(YATZY, 1)
    for box, dice, points in GAME:
        match, _ = match.roll(0, lambda n, dice=dice: dice[:n])
        match, scored = match.score(0, box)
        assert (scored.points, scored.yahtzee_bonus, scored.joker) == (points, 0, False)
        assert scored.upper_bonus == (50 if box == "sixes" else 0)

    assert match.phase is rules.MatchPhase.FINISHED and match.round == 15
    totals = match.sheets[0].totals()
    column = totals["columns"][0]
    assert (column["upper_subtotal"], column["upper_bonus"], column["upper_total"]) == (63, 50, 113)
    assert column["lower_total"] == 201
    assert totals["grand_total"] == 314 == match.standings()[0].total
    assert match.sheets[0].yahtzees == 2  # the Four of a kind's and the Yatzy's, no bonus
    assert Match.replay(match.log) == match


def test_a_yatzy_game_is_stored_and_read_back_mid_turn_and_with_its_undo() -> None:
    match = Match.start(YATZY, 2)
    match, _ = match.roll(0, lambda n: (6, 6, 5, 5, 1)[:n])
    match, _ = match.score(0, "two_pairs")
    match, _ = match.roll(1, lambda n: (2, 2, 2, 2, 2)[:n])
    match, _ = match.hold(1, (True, True, True, True, False))

    state = json.loads(json.dumps(codec.to_state(match)))
    back = codec.from_state(state)

    assert state["kind"] == "yatzy" and back.kind is YATZY
    assert back.sheets == match.sheets and back.turn == match.turn
    assert codec.sheet_of(state, 0).cards == ({"two_pairs": 22},)
    scored, _ = back.score(1, "yatzy_four_kind")
    assert scored.sheets[1].cards[0] == {"yatzy_four_kind": 8}


def test_a_skipped_yatzy_turn_zeroes_the_box_that_could_score_least() -> None:
    sheet = rules.Sheet(kind=YATZY, cards=({"ones": 3},))
    assert rules.skipped_box(sheet) == (0, Box.TWOS)
    # Open: Threes and Small straight, both at most 15: the one higher on the card.
    nearly = {box: 0 for box in YATZY.boxes if box.best != 15}
    assert rules.skipped_box(rules.Sheet(kind=YATZY, cards=(nearly,))) == (0, Box.THREES)
    nearly[Box.THREES] = 9
    assert rules.skipped_box(rules.Sheet(kind=YATZY, cards=(nearly,))) == (
        0,
        Box.YATZY_SMALL_STRAIGHT,
    )
