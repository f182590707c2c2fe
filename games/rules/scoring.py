"""What a roll scores: box values, the forced Joker rule, legal moves, bonuses and totals.

``RULES.md`` is the specification; the game kinds (Classic, Triple) say which of its rules
apply and how the columns of a card are weighted.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from functools import cache
from types import MappingProxyType
from typing import Final, TypedDict

from games.rules.boxes import CATEGORIES, FACE_OF, LOWER, UPPER, UPPER_BOX_OF_FACE, Box
from games.rules.dice import DICE_COUNT, FACES, is_yahtzee, validate_dice
from games.rules.errors import UnknownBox

UPPER_BONUS_THRESHOLD: Final = 63
UPPER_BONUS: Final = 35
YAHTZEE_POINTS: Final = 50
YAHTZEE_BONUS: Final = 100
FULL_HOUSE_POINTS: Final = 25
SMALL_STRAIGHT_POINTS: Final = 30
LARGE_STRAIGHT_POINTS: Final = 40

Card = Mapping[str, int]
"""One column of a score card: the filled box keys and their points."""
Slot = tuple[int, str]
"""Where a roll can be scored: (column index, box key)."""


def _has_run(faces: set[int], length: int) -> bool:
    return any(set(range(start, start + length)) <= faces for start in range(1, FACES + 2 - length))


def box_score(box: str, dice: Sequence[int]) -> int:
    """What ``dice`` score in ``box`` on their face value, before any Joker rule."""
    counts = Counter(dice)
    total = sum(dice)
    if box in FACE_OF:
        return FACE_OF[box] * counts[FACE_OF[box]]
    most = max(counts.values())
    match box:
        case Box.THREE_OF_A_KIND:
            return total if most >= 3 else 0
        case Box.FOUR_OF_A_KIND:
            return total if most >= 4 else 0
        case Box.FULL_HOUSE:
            return FULL_HOUSE_POINTS if sorted(counts.values()) == [2, 3] else 0
        case Box.SMALL_STRAIGHT:
            return SMALL_STRAIGHT_POINTS if _has_run(set(dice), 4) else 0
        case Box.LARGE_STRAIGHT:
            return LARGE_STRAIGHT_POINTS if _has_run(set(dice), 5) else 0
        case Box.YAHTZEE:
            return YAHTZEE_POINTS if most == DICE_COUNT else 0
        case Box.CHANCE:
            return total
    raise UnknownBox(f"There is no box called {box!r}.")


JOKER_VALUES: Final[Mapping[str, int]] = {
    Box.FULL_HOUSE: FULL_HOUSE_POINTS,
    Box.SMALL_STRAIGHT: SMALL_STRAIGHT_POINTS,
    Box.LARGE_STRAIGHT: LARGE_STRAIGHT_POINTS,
}
"""A five of a kind played as a Joker scores these lower boxes at their full value."""


# --- Game kinds ------------------------------------------------------------------------------


@dataclass(frozen=True)
class GameKind:
    """What sets one kind of game apart: its columns, their weights, and its bonus rules."""

    key: str
    name: str
    multipliers: tuple[int, ...]
    yahtzee_bonus: bool
    joker: bool

    @property
    def columns(self) -> int:
        return len(self.multipliers)

    @property
    def rounds(self) -> int:
        return len(CATEGORIES) * self.columns


CLASSIC: Final = GameKind("classic", "Classic Yahtzee", (1,), yahtzee_bonus=True, joker=True)
TRIPLE: Final = GameKind("triple", "Triple Yahtzee", (1, 2, 3), yahtzee_bonus=False, joker=False)
KINDS: Final[Mapping[str, GameKind]] = {kind.key: kind for kind in (CLASSIC, TRIPLE)}


def joker_applies(dice: Sequence[int], card: Card, *, kind: GameKind = CLASSIC) -> bool:
    return kind.joker and is_yahtzee(dice) and Box.YAHTZEE in card


@cache
def _box_scores(dice: tuple[int, ...]) -> Mapping[str, int]:
    """What one roll (its dice in order: 252 rolls in all) scores in every box, before any
    Joker rule: worked out once per process, as every roll, score and page asks for it."""
    return MappingProxyType({box: box_score(box, dice) for box in CATEGORIES})


def column_scores(dice: Sequence[int], card: Card, kind: GameKind) -> dict[str, int]:
    """Every open box of one column this roll may be scored in now, with its points."""
    open_boxes = [box for box in CATEGORIES if box not in card]
    scores = _box_scores(tuple(sorted(dice)))
    if not joker_applies(dice, card, kind=kind):
        return {box: scores[box] for box in open_boxes}
    face_box = UPPER_BOX_OF_FACE[dice[0]]
    if face_box in open_boxes:
        return {face_box: scores[face_box]}
    open_lower = [box for box in open_boxes if box in LOWER]
    if open_lower:
        return {box: JOKER_VALUES.get(box, scores[box]) for box in open_lower}
    return {box: 0 for box in open_boxes}


def legal_scores(dice: Sequence[int], card: Card) -> dict[str, int]:
    """Every box of a Classic card this roll may be scored in now, with its points.

    The forced Joker rule narrows and revalues the set for a five of a kind.
    """
    return column_scores(validate_dice(dice), card, CLASSIC)


def legal_moves(kind: GameKind, dice: Sequence[int], cards: Sequence[Card]) -> dict[Slot, int]:
    """Every (column, box) of a kind's card this roll may be scored in now, with its points."""
    dice = validate_dice(dice)
    return {
        (column, box): points
        for column, card in enumerate(cards)
        for box, points in column_scores(dice, card, kind).items()
    }


def yahtzee_bonus(dice: Sequence[int], card: Card, *, kind: GameKind = CLASSIC) -> int:
    """100 when this roll earns a Yahtzee bonus (a five of a kind over a YAHTZEE of 50)."""
    earned = kind.yahtzee_bonus and is_yahtzee(dice) and card.get(Box.YAHTZEE) == YAHTZEE_POINTS
    return YAHTZEE_BONUS if earned else 0


def totals(card: Card, yahtzee_bonuses: int = 0) -> dict[str, int]:
    """The totals of one column of a card; ``yahtzee_bonuses`` counts bonuses, not points."""
    upper_subtotal = sum(card.get(box, 0) for box in UPPER)
    upper_bonus = UPPER_BONUS if upper_subtotal >= UPPER_BONUS_THRESHOLD else 0
    upper_total = upper_subtotal + upper_bonus
    lower_total = sum(card.get(box, 0) for box in LOWER)
    bonus_points = yahtzee_bonuses * YAHTZEE_BONUS
    return {
        "upper_subtotal": upper_subtotal,
        "upper_bonus": upper_bonus,
        "upper_total": upper_total,
        "lower_total": lower_total,
        "yahtzee_bonus": bonus_points,
        "grand_total": upper_total + lower_total + bonus_points,
    }


class GameTotals(TypedDict):
    columns: list[dict[str, int]]
    yahtzee_bonus: int
    grand_total: int


def game_totals(kind: GameKind, cards: Sequence[Card], yahtzee_bonuses: int = 0) -> GameTotals:
    """Totals per column and the weighted grand total of a whole card of any kind."""
    columns = [totals(card) for card in cards]
    weighted = sum(m * col["grand_total"] for m, col in zip(kind.multipliers, columns, strict=True))
    bonus_points = yahtzee_bonuses * YAHTZEE_BONUS
    return {
        "columns": columns,
        "yahtzee_bonus": bonus_points,
        "grand_total": weighted + bonus_points,
    }
