"""The box vocabulary (``rules.Box``): what every page and key says of each box, pinned."""

from __future__ import annotations

import itertools

import pytest

from games import rules
from games.rules import Box, Section

# key, label, letter, section, face (upper boxes), hint, best — as the DOS original shows them.
CARD = [
    ("aces", "Aces", "A", Section.UPPER, 1, "Count and add only aces", 5),
    ("twos", "Twos", "B", Section.UPPER, 2, "Count and add only twos", 10),
    ("threes", "Threes", "C", Section.UPPER, 3, "Count and add only threes", 15),
    ("fours", "Fours", "D", Section.UPPER, 4, "Count and add only fours", 20),
    ("fives", "Fives", "E", Section.UPPER, 5, "Count and add only fives", 25),
    ("sixes", "Sixes", "F", Section.UPPER, 6, "Count and add only sixes", 30),
    ("three_of_a_kind", "3 of a Kind", "G", Section.LOWER, None, "Add all dice", 30),
    ("four_of_a_kind", "4 of a Kind", "H", Section.LOWER, None, "Add all dice", 30),
    ("full_house", "Full House", "I", Section.LOWER, None, "Score 25", 25),
    ("small_straight", "Sm. Straight", "J", Section.LOWER, None, "Sequence of 4 — score 30", 30),
    ("large_straight", "Lg. Straight", "K", Section.LOWER, None, "Sequence of 5 — score 40", 40),
    ("yahtzee", "YAHTZEE", "L", Section.LOWER, None, "5 of a kind — score 50", 50),
    ("chance", "Chance", "M", Section.LOWER, None, "Add all dice", 30),
]


def test_the_thirteen_boxes_in_card_order() -> None:
    assert [box.value for box in rules.CATEGORIES] == [row[0] for row in CARD]
    assert rules.CATEGORIES[:6] == rules.UPPER and rules.CATEGORIES[6:] == rules.LOWER


@pytest.mark.parametrize(("key", "label", "letter", "section", "face", "hint", "best"), CARD)
def test_each_box_carries_its_words_letter_section_and_face(
    key: str, label: str, letter: str, section: Section, face: int | None, hint: str, best: int
) -> None:
    box = Box(key)

    assert (box.label, box.letter, box.section, box.face, box.hint, box.best) == (
        label,
        letter,
        section,
        face,
        hint,
        best,
    )
    assert box.is_upper == (section is Section.UPPER)
    assert box.position == rules.CATEGORIES.index(box)


def test_the_best_of_each_box_is_the_most_any_roll_scores_there() -> None:
    """Computed over all 7,776 rolls on an empty card, independently of the table."""
    most = dict.fromkeys(rules.CATEGORIES, 0)
    for dice in itertools.product(range(1, 7), repeat=5):
        for box, points in rules.legal_scores(dice, {}).items():
            most[Box(box)] = max(most[Box(box)], points)

    assert {box: box.best for box in rules.CATEGORIES} == most


def test_faces_and_upper_boxes_map_both_ways() -> None:
    assert rules.FACE_OF == {"aces": 1, "twos": 2, "threes": 3, "fours": 4, "fives": 5, "sixes": 6}
    assert {face: Box(key) for key, face in rules.FACE_OF.items()} == rules.UPPER_BOX_OF_FACE


@pytest.mark.parametrize(
    ("typed", "box"),
    [
        ("A", Box.ACES),
        ("a", Box.ACES),
        ("F", Box.SIXES),
        ("g", Box.THREE_OF_A_KIND),
        ("M", Box.CHANCE),
        ("m", Box.CHANCE),
        ("N", None),
        ("@", None),  # the character before A
        ("", None),
        ("AB", None),
        ("1", None),
    ],
)
def test_a_key_names_its_box_and_nothing_else_does(typed: str, box: Box | None) -> None:
    assert Box.by_letter(typed) == box
