"""The boxes of every kind's score card: one vocabulary for the rules, the pages and the keys.

Each ``Box`` is the key of ``RULES.md`` or ``docs/YATZY.md`` (a ``str``, so cards stay plain
``{key: points}`` mappings) and carries what every layer says about it: its label, its section,
the face an upper box counts, a one-line reminder and the most it can score. A box means one
thing whatever the card: where Yatzy scores a box unlike Yahtzee (its three of a kind counts
three dice, its straights are fixed, its full house is the sum), it is a box of its own with a
key of its own, so no scoring, label or stored move can be read with the other game's meaning.
Which boxes a card has, and in which order, is its kind's (``GameKind.boxes``);
``CATEGORIES`` are Classic's thirteen.
"""

from __future__ import annotations

from enum import StrEnum
from typing import Final, NamedTuple


class Section(StrEnum):
    UPPER = "upper"
    LOWER = "lower"


class Box(StrEnum):
    ACES = "aces"
    TWOS = "twos"
    THREES = "threes"
    FOURS = "fours"
    FIVES = "fives"
    SIXES = "sixes"
    THREE_OF_A_KIND = "three_of_a_kind"
    FOUR_OF_A_KIND = "four_of_a_kind"
    FULL_HOUSE = "full_house"
    SMALL_STRAIGHT = "small_straight"
    LARGE_STRAIGHT = "large_straight"
    YAHTZEE = "yahtzee"
    CHANCE = "chance"
    # Yatzy's own boxes (docs/YATZY.md); Twos to Sixes and Chance it shares with Yahtzee.
    ONES = "ones"
    ONE_PAIR = "one_pair"
    TWO_PAIRS = "two_pairs"
    YATZY_THREE_KIND = "yatzy_three_kind"
    YATZY_FOUR_KIND = "yatzy_four_kind"
    YATZY_SMALL_STRAIGHT = "yatzy_small_straight"
    YATZY_LARGE_STRAIGHT = "yatzy_large_straight"
    YATZY_FULL_HOUSE = "yatzy_full_house"
    YATZY = "yatzy"

    @property
    def label(self) -> str:
        return _ABOUT[self].label

    @property
    def hint(self) -> str:
        """How the box scores, in a few words."""
        return _ABOUT[self].hint

    @property
    def best(self) -> int:
        """The most one column's box can score (a Joker's straight included)."""
        return _ABOUT[self].best

    @property
    def position(self) -> int:
        """Position on a Classic card, 0 for Aces to 12 for Chance (``GameKind.position`` for
        any kind's card). A box that is not on a Classic card raises ``ValueError``."""
        try:
            return _CLASSIC_POSITION[self]
        except KeyError:
            raise ValueError(f"{self.label} is not on a Classic card.") from None

    @property
    def letter(self) -> str:
        """The key that scores it on a Classic card: A for Aces to M for Chance."""
        return chr(ord("A") + self.position)

    @property
    def face(self) -> int | None:
        """The face an upper box counts (1 for Aces …), ``None`` for a lower box."""
        return _ABOUT[self].face

    @property
    def section(self) -> Section:
        return Section.UPPER if self.face is not None else Section.LOWER

    @property
    def is_upper(self) -> bool:
        return self.section is Section.UPPER

    @classmethod
    def by_letter(cls, letter: str) -> Box | None:
        """The Classic box a key scores (``GameKind.box_of_letter`` for any kind's card)."""
        position = ord(letter.upper()) - ord("A") if len(letter) == 1 else -1
        return CATEGORIES[position] if 0 <= position < len(CATEGORIES) else None


class _About(NamedTuple):
    label: str
    hint: str
    best: int
    face: int | None = None


_ABOUT: Final[dict[Box, _About]] = {
    Box.ACES: _About("Aces", "Count and add only aces", 5, 1),
    Box.TWOS: _About("Twos", "Count and add only twos", 10, 2),
    Box.THREES: _About("Threes", "Count and add only threes", 15, 3),
    Box.FOURS: _About("Fours", "Count and add only fours", 20, 4),
    Box.FIVES: _About("Fives", "Count and add only fives", 25, 5),
    Box.SIXES: _About("Sixes", "Count and add only sixes", 30, 6),
    Box.THREE_OF_A_KIND: _About("3 of a Kind", "Add all dice", 30),
    Box.FOUR_OF_A_KIND: _About("4 of a Kind", "Add all dice", 30),
    Box.FULL_HOUSE: _About("Full House", "Score 25", 25),
    Box.SMALL_STRAIGHT: _About("Sm. Straight", "Sequence of 4 — score 30", 30),
    Box.LARGE_STRAIGHT: _About("Lg. Straight", "Sequence of 5 — score 40", 40),
    Box.YAHTZEE: _About("YAHTZEE", "5 of a kind — score 50", 50),
    Box.CHANCE: _About("Chance", "Add all dice", 30),
    # Yatzy: the names Nordic players know in English; the best is 6-6-6-6-6 where it counts,
    # else the best roll that makes the box (6-6-5-5 for two pairs, 6-6-6-5-5 for a house).
    Box.ONES: _About("Ones", "Count and add only ones", 5, 1),
    Box.ONE_PAIR: _About("One pair", "Add the highest pair", 12),
    Box.TWO_PAIRS: _About("Two pairs", "Add two different pairs", 22),
    Box.YATZY_THREE_KIND: _About("Three of a kind", "Add the three alike", 18),
    Box.YATZY_FOUR_KIND: _About("Four of a kind", "Add the four alike", 24),
    Box.YATZY_SMALL_STRAIGHT: _About("Small straight", "1-2-3-4-5 — score 15", 15),
    Box.YATZY_LARGE_STRAIGHT: _About("Large straight", "2-3-4-5-6 — score 20", 20),
    Box.YATZY_FULL_HOUSE: _About("Full house", "Three and two alike — add all dice", 28),
    Box.YATZY: _About("Yatzy", "5 of a kind — score 50", 50),
}

CATEGORIES: Final[tuple[Box, ...]] = tuple(Box)[:13]
"""Classic's 13 boxes in score-card order."""
YATZY_BOXES: Final[tuple[Box, ...]] = (
    Box.ONES, Box.TWOS, Box.THREES, Box.FOURS, Box.FIVES, Box.SIXES,
    Box.ONE_PAIR, Box.TWO_PAIRS, Box.YATZY_THREE_KIND, Box.YATZY_FOUR_KIND,
    Box.YATZY_SMALL_STRAIGHT, Box.YATZY_LARGE_STRAIGHT, Box.YATZY_FULL_HOUSE, Box.CHANCE, Box.YATZY,
)  # fmt: skip
"""Yatzy's 15 boxes in score-card order."""
UPPER: Final[tuple[Box, ...]] = CATEGORIES[:6]
LOWER: Final[tuple[Box, ...]] = CATEGORIES[6:]
_CLASSIC_POSITION: Final[dict[Box, int]] = {box: i for i, box in enumerate(CATEGORIES)}
FACE_OF: Final[dict[str, int]] = {box: box.position + 1 for box in UPPER}
"""Classic's upper boxes and the face each counts (``Box.face`` for any kind's)."""
UPPER_BOX_OF_FACE: Final[dict[int, Box]] = {box.position + 1: box for box in UPPER}
"""Classic's upper box of each face (``GameKind.upper_box`` for any kind's)."""
