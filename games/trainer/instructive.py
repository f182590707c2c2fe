"""The hand-made set of instructive positions, written as data: the upper bonus within reach,
straights against Yahtzee chances, the Joker, the last rounds. Only the positions are written
here; their best answers are the advisor's, worked out when asked (the tests check each one is
reachable under the rules and a real choice: its best beats the next by half a point or more).

They come in the order a player meets them, the themes taking turns. A position's ``slug`` is
its lasting name (each account's progress on it is kept under it): never rename or reuse one.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final

from games import rules
from games.trainer.positions import Position

UPPER: Final = "The upper bonus within reach"
STRAIGHTS: Final = "Straights or a Yahtzee?"
JOKER: Final = "The Joker"
LAST_ROUNDS: Final = "The last rounds"


@dataclass(frozen=True)
class Instructive:
    slug: str
    theme: str
    position: Position


_THIRTEEN: Final = {
    "aces": 3, "twos": 6, "threes": 9, "fours": 12, "fives": 15, "sixes": 18,
    "three_of_a_kind": 24, "four_of_a_kind": 21, "full_house": 25, "small_straight": 30,
    "large_straight": 40, "yahtzee": 50, "chance": 23,
}  # fmt: skip
"""A card filled at par (three of each face: the upper bonus exactly), for the last rounds."""


def _all_but(*open_boxes: str, **points: int) -> dict[str, int]:
    """The par card with ``open_boxes`` still open and some boxes' ``points`` changed."""
    assert all(box in _THIRTEEN for box in (*open_boxes, *points)), "a box key is misspelt"
    return {box: v for box, v in (_THIRTEEN | points).items() if box not in open_boxes}


def _position(dice: str, roll: int, card: dict[str, int], held: str = "") -> Position:
    """A position written short: ``dice`` as "5 5 5 5 3", ``held`` as "x x x . ." (x held)."""
    flags = tuple(mark == "x" for mark in held.split()) if held else rules.NO_HOLD
    faces = tuple(int(d) for d in dice.split())
    return Position(card=card, dice=faces, rolls_used=roll, held=flags)


def _at(dice: str, roll: int, held: str = "", **card: int) -> Position:
    return _position(dice, roll, card, held)


def _late(dice: str, roll: int, open_boxes: tuple[str, ...], **points: int) -> Position:
    """A position of the last rounds: the par card with ``open_boxes`` still open."""
    return _position(dice, roll, _all_but(*open_boxes, **points))


SET: Final[tuple[Instructive, ...]] = (
    Instructive(
        "upper-fives-or-four-of-a-kind",
        UPPER,
        _at(
            "5 5 5 5 3",
            3,
            aces=3,
            twos=6,
            threes=9,
            fours=12,
            three_of_a_kind=24,
            full_house=25,
            chance=22,
        ),
    ),
    Instructive("straights-three-four-five-five-six", STRAIGHTS, _at("3 4 5 5 6", 1)),
    Instructive(
        "joker-sixes-filled",
        JOKER,
        _at("6 6 6 6 6", 1, aces=3, twos=6, sixes=24, yahtzee=50),
    ),
    Instructive(
        "last-four-of-a-kind-full-house-yahtzee",
        LAST_ROUNDS,
        _late("3 3 3 5 5", 1, ("four_of_a_kind", "full_house", "yahtzee")),
    ),
    Instructive(
        "upper-sixes-or-full-house",
        UPPER,
        _at("6 6 3 3 1", 2, aces=3, twos=6, threes=9, fours=12, fives=15, chance=21),
    ),
    Instructive("straights-small-made-first-roll", STRAIGHTS, _at("1 2 3 4 4", 1)),
    Instructive(
        "joker-yahtzee-scratched",
        JOKER,
        _at(
            "4 4 4 4 4",
            2,
            "x x x . .",
            aces=2,
            twos=6,
            threes=9,
            fours=12,
            fives=15,
            sixes=18,
            yahtzee=0,
            three_of_a_kind=22,
        ),
    ),
    Instructive(
        "last-chance-alone",
        LAST_ROUNDS,
        _late("1 4 5 6 6", 1, ("chance",)),
    ),
    Instructive(
        "upper-two-aces-short",
        UPPER,
        _at(
            "1 1 2 3 5",
            3,
            twos=6,
            threes=9,
            fours=12,
            fives=15,
            sixes=18,
            three_of_a_kind=17,
            small_straight=30,
        ),
    ),
    Instructive(
        "straights-two-twos-and-a-run",
        STRAIGHTS,
        _at("2 2 3 4 5", 1, fives=15, sixes=18, three_of_a_kind=26, chance=22),
    ),
    Instructive(
        "joker-forced-upper-box",
        JOKER,
        _at("2 2 2 2 2", 1, aces=3, fives=15, yahtzee=50),
    ),
    Instructive(
        "last-aces-or-yahtzee",
        LAST_ROUNDS,
        _late("1 1 4 4 6", 3, ("aces", "yahtzee")),
    ),
    Instructive(
        "upper-threes-first-roll",
        UPPER,
        _at("3 3 5 2 2", 1, aces=2, fours=12, fives=15, sixes=24, chance=23, small_straight=30),
    ),
    Instructive(
        "straights-three-fours-or-a-run",
        STRAIGHTS,
        _at("4 4 4 5 6", 2, aces=2, twos=6, chance=24),
    ),
    Instructive(
        "joker-aces-filled",
        JOKER,
        _at("1 1 1 1 1", 2, "x x . . .", aces=4, threes=9, full_house=25, yahtzee=50),
    ),
    Instructive(
        "last-small-straight-or-yahtzee",
        LAST_ROUNDS,
        _late("3 4 5 5 5", 2, ("small_straight", "yahtzee")),
    ),
    Instructive(
        "straights-run-of-four-small-filled",
        STRAIGHTS,
        _at("2 3 4 5 5", 2, "x x x x .", aces=3, twos=6, small_straight=30),
    ),
    Instructive(
        "last-large-straight-and-chance",
        LAST_ROUNDS,
        _late("1 2 3 4 6", 2, ("large_straight", "chance")),
    ),
    Instructive(
        "last-three-of-a-kind-or-yahtzee",
        LAST_ROUNDS,
        _late("5 5 5 2 1", 2, ("three_of_a_kind", "yahtzee")),
    ),
)

BY_SLUG: Final = {item.slug: item for item in SET}
assert len(BY_SLUG) == len(SET), "two instructive positions share a slug"
