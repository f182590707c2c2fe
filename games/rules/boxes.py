"""The thirteen boxes of a score card: one vocabulary for the rules, the pages and the keys.

Each ``Box`` is the key of ``RULES.md`` (a ``str``, so cards stay plain ``{key: points}``
mappings) and carries what every layer says about it: its label, the keyboard letter of the DOS
original, its section, the face an upper box counts, a one-line reminder and the most it can
score.
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
        """Position on the card, 0 for Aces to 12 for Chance."""
        return _POSITION[self]

    @property
    def letter(self) -> str:
        """The key that scores it: A for Aces to M for Chance."""
        return chr(ord("A") + self.position)

    @property
    def section(self) -> Section:
        return Section.UPPER if self.position < len(UPPER) else Section.LOWER

    @property
    def is_upper(self) -> bool:
        return self.section is Section.UPPER

    @property
    def face(self) -> int | None:
        """The face an upper box counts (1 for Aces …), ``None`` for a lower box."""
        return self.position + 1 if self.is_upper else None

    @classmethod
    def by_letter(cls, letter: str) -> Box | None:
        position = ord(letter.upper()) - ord("A") if len(letter) == 1 else -1
        return CATEGORIES[position] if 0 <= position < len(CATEGORIES) else None


class _About(NamedTuple):
    label: str
    hint: str
    best: int


_ABOUT: Final[dict[Box, _About]] = {
    Box.ACES: _About("Aces", "Count and add only aces", 5),
    Box.TWOS: _About("Twos", "Count and add only twos", 10),
    Box.THREES: _About("Threes", "Count and add only threes", 15),
    Box.FOURS: _About("Fours", "Count and add only fours", 20),
    Box.FIVES: _About("Fives", "Count and add only fives", 25),
    Box.SIXES: _About("Sixes", "Count and add only sixes", 30),
    Box.THREE_OF_A_KIND: _About("3 of a Kind", "Add all dice", 30),
    Box.FOUR_OF_A_KIND: _About("4 of a Kind", "Add all dice", 30),
    Box.FULL_HOUSE: _About("Full House", "Score 25", 25),
    Box.SMALL_STRAIGHT: _About("Sm. Straight", "Sequence of 4 — score 30", 30),
    Box.LARGE_STRAIGHT: _About("Lg. Straight", "Sequence of 5 — score 40", 40),
    Box.YAHTZEE: _About("YAHTZEE", "5 of a kind — score 50", 50),
    Box.CHANCE: _About("Chance", "Add all dice", 30),
}

CATEGORIES: Final[tuple[Box, ...]] = tuple(Box)
"""The 13 boxes in score-card order."""
_POSITION: Final[dict[Box, int]] = {box: i for i, box in enumerate(CATEGORIES)}
UPPER: Final[tuple[Box, ...]] = CATEGORIES[:6]
LOWER: Final[tuple[Box, ...]] = CATEGORIES[6:]
FACE_OF: Final[dict[str, int]] = {box: box.position + 1 for box in UPPER}
UPPER_BOX_OF_FACE: Final[dict[int, Box]] = {box.position + 1: box for box in UPPER}
