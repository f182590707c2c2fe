"""What a roll scores: box values, the forced Joker rule, legal moves, bonuses and totals.

``RULES.md`` (Yahtzee) and ``docs/YATZY.md`` are the specification; the game kinds (Classic,
Triple, Yatzy) say which boxes a card has, which bonus rules apply, what the upper bonus is
worth and how the columns of a card are weighted.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from functools import cache, cached_property
from types import MappingProxyType
from typing import Final, TypedDict

from games.rules.boxes import CATEGORIES, YATZY_BOXES, Box
from games.rules.dice import DICE_COUNT, FACES, is_yahtzee, validate_dice
from games.rules.errors import UnknownBox

UPPER_BONUS_THRESHOLD: Final = 63
UPPER_BONUS: Final = 35
YAHTZEE_POINTS: Final = 50
YAHTZEE_BONUS: Final = 100
FULL_HOUSE_POINTS: Final = 25
SMALL_STRAIGHT_POINTS: Final = 30
LARGE_STRAIGHT_POINTS: Final = 40
YATZY_UPPER_BONUS: Final = 50
YATZY_SMALL_STRAIGHT: Final = (1, 2, 3, 4, 5)
YATZY_LARGE_STRAIGHT: Final = (2, 3, 4, 5, 6)
YATZY_SMALL_STRAIGHT_POINTS: Final = 15
YATZY_LARGE_STRAIGHT_POINTS: Final = 20

Card = Mapping[str, int]
"""One column of a score card: the filled box keys and their points."""
Slot = tuple[int, str]
"""Where a roll can be scored: (column index, box key)."""


def _has_run(faces: set[int], length: int) -> bool:
    return any(set(range(start, start + length)) <= faces for start in range(1, FACES + 2 - length))


def _alike(counts: Counter[int], at_least: int) -> list[int]:
    """The faces shown by at least ``at_least`` dice, highest first."""
    return sorted((face for face, n in counts.items() if n >= at_least), reverse=True)


def box_score(box: str, dice: Sequence[int]) -> int:
    """What ``dice`` score in ``box`` on their face value, before any Joker rule."""
    counts = Counter(dice)
    total = sum(dice)
    face = Box(box).face if box in Box else None
    if face is not None:
        return face * counts[face]
    most = max(counts.values())
    match box:
        # Yatzy (docs/YATZY.md): the dice that make the box count, not all five.
        case Box.ONE_PAIR:
            pairs = _alike(counts, 2)
            return 2 * pairs[0] if pairs else 0
        case Box.TWO_PAIRS:
            pairs = _alike(counts, 2)  # two different faces: a four of a kind is one pair
            return 2 * (pairs[0] + pairs[1]) if len(pairs) >= 2 else 0
        case Box.YATZY_THREE_KIND:
            threes = _alike(counts, 3)
            return 3 * threes[0] if threes else 0
        case Box.YATZY_FOUR_KIND:
            fours = _alike(counts, 4)  # five of a kind scores four of its dice
            return 4 * fours[0] if fours else 0
        case Box.YATZY_SMALL_STRAIGHT:
            return YATZY_SMALL_STRAIGHT_POINTS if tuple(sorted(dice)) == YATZY_SMALL_STRAIGHT else 0
        case Box.YATZY_LARGE_STRAIGHT:
            return YATZY_LARGE_STRAIGHT_POINTS if tuple(sorted(dice)) == YATZY_LARGE_STRAIGHT else 0
        case Box.YATZY_FULL_HOUSE:
            return total if sorted(counts.values()) == [2, 3] else 0
        case Box.YATZY:
            return YAHTZEE_POINTS if most == DICE_COUNT else 0
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
    """What sets one kind of game apart: the boxes of its card in order, its columns and their
    weights, what its upper bonus is worth, and whether the Yahtzee bonus and Joker apply."""

    key: str
    name: str
    multipliers: tuple[int, ...]
    yahtzee_bonus: bool
    joker: bool
    boxes: tuple[Box, ...] = CATEGORIES
    upper_bonus: int = UPPER_BONUS
    """Points for a column whose upper boxes total ``UPPER_BONUS_THRESHOLD`` or more."""

    @property
    def columns(self) -> int:
        return len(self.multipliers)

    @property
    def rounds(self) -> int:
        return len(self.boxes) * self.columns

    @cached_property
    def upper(self) -> tuple[Box, ...]:
        """The upper boxes of the card (one per face, the face's order)."""
        return tuple(box for box in self.boxes if box.is_upper)

    @cached_property
    def lower(self) -> tuple[Box, ...]:
        return tuple(box for box in self.boxes if not box.is_upper)

    def upper_box(self, face: int) -> Box:
        """The upper box that counts ``face``."""
        return next(box for box in self.boxes if box.face == face)

    def box(self, key: str) -> Box:
        """The box of this kind's card called ``key``; ``UnknownBox`` when the card has none."""
        if key not in self.boxes:
            raise UnknownBox(f"There is no box called {key!r} on a {self.name} card.")
        return Box(key)

    def position(self, box: Box) -> int:
        """Where ``box`` sits on this kind's card, 0 first."""
        return self.boxes.index(box)

    def letter(self, box: Box) -> str:
        """The key that scores ``box`` on this kind's card: A for the first box on."""
        return chr(ord("A") + self.position(box))

    def box_of_letter(self, letter: str) -> Box | None:
        position = ord(letter.upper()) - ord("A") if len(letter) == 1 else -1
        return self.boxes[position] if 0 <= position < len(self.boxes) else None


CLASSIC: Final = GameKind("classic", "Classic Yahtzee", (1,), yahtzee_bonus=True, joker=True)
TRIPLE: Final = GameKind("triple", "Triple Yahtzee", (1, 2, 3), yahtzee_bonus=False, joker=False)
YATZY: Final = GameKind(
    "yatzy",
    "Yatzy",
    (1,),
    yahtzee_bonus=False,
    joker=False,
    boxes=YATZY_BOXES,
    upper_bonus=YATZY_UPPER_BONUS,
)
KINDS: Final[Mapping[str, GameKind]] = {kind.key: kind for kind in (CLASSIC, TRIPLE, YATZY)}
"""Every kind the rules know: a stored game of any of them loads and plays."""
PLAYABLE: Final[Mapping[str, GameKind]] = {kind.key: kind for kind in (CLASSIC, TRIPLE, YATZY)}
"""The kinds the site offers and its database accepts: every chooser lists them in this order."""


def joker_applies(dice: Sequence[int], card: Card, *, kind: GameKind = CLASSIC) -> bool:
    return kind.joker and is_yahtzee(dice) and Box.YAHTZEE in card


@cache
def _box_scores(dice: tuple[int, ...]) -> Mapping[str, int]:
    """What one roll (its dice in order: 252 rolls in all) scores in every box of every kind,
    before any Joker rule: worked out once per process, as every roll, score and page asks."""
    return MappingProxyType({box: box_score(box, dice) for box in Box})


def column_scores(dice: Sequence[int], card: Card, kind: GameKind) -> dict[str, int]:
    """Every open box of one column this roll may be scored in now, with its points."""
    open_boxes = [box for box in kind.boxes if box not in card]
    scores = _box_scores(tuple(sorted(dice)))
    if not joker_applies(dice, card, kind=kind):
        return {box: scores[box] for box in open_boxes}
    face_box = kind.upper_box(dice[0])
    if face_box in open_boxes:
        return {face_box: scores[face_box]}
    lower = kind.lower
    open_lower = [box for box in open_boxes if box in lower]
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


def totals(card: Card, yahtzee_bonuses: int = 0, *, kind: GameKind = CLASSIC) -> dict[str, int]:
    """The totals of one column of a ``kind``'s card; ``yahtzee_bonuses`` counts bonuses, not
    points."""
    upper_subtotal = sum(card.get(box, 0) for box in kind.upper)
    upper_bonus = kind.upper_bonus if upper_subtotal >= UPPER_BONUS_THRESHOLD else 0
    upper_total = upper_subtotal + upper_bonus
    lower_total = sum(card.get(box, 0) for box in kind.lower)
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
    columns = [totals(card, kind=kind) for card in cards]
    weighted = sum(m * col["grand_total"] for m, col in zip(kind.multipliers, columns, strict=True))
    bonus_points = yahtzee_bonuses * YAHTZEE_BONUS
    return {
        "columns": columns,
        "yahtzee_bonus": bonus_points,
        "grand_total": weighted + bonus_points,
    }
