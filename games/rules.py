"""The rules of Yahtzee as pure Python: dice, boxes, legal moves, totals and the turn.

Nothing here imports Django, reads the clock or touches a global random generator. Dice come
from a ``DiceSource`` passed in, so tests script them and production draws them from
``secrets.SystemRandom``. ``../shared/RULES.md`` is the specification this module implements.
"""

from __future__ import annotations

import secrets
from collections import Counter
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Final, TypedDict

DICE_COUNT: Final = 5
FACES: Final = 6
MAX_ROLLS: Final = 3
UPPER_BONUS_THRESHOLD: Final = 63
UPPER_BONUS: Final = 35
YAHTZEE_POINTS: Final = 50
YAHTZEE_BONUS: Final = 100
FULL_HOUSE_POINTS: Final = 25
SMALL_STRAIGHT_POINTS: Final = 30
LARGE_STRAIGHT_POINTS: Final = 40

Dice = tuple[int, ...]
Held = tuple[bool, ...]
Card = Mapping[str, int]
"""One column of a score card: the filled box keys and their points."""
Slot = tuple[int, str]
"""Where a roll can be scored: (column index, box key)."""

UPPER: Final = ("aces", "twos", "threes", "fours", "fives", "sixes")
LOWER: Final = (
    "three_of_a_kind",
    "four_of_a_kind",
    "full_house",
    "small_straight",
    "large_straight",
    "yahtzee",
    "chance",
)
CATEGORIES: Final = UPPER + LOWER
"""The 13 box keys of RULES.md, in score-card order."""

LABELS: Final[Mapping[str, str]] = {
    "aces": "Aces",
    "twos": "Twos",
    "threes": "Threes",
    "fours": "Fours",
    "fives": "Fives",
    "sixes": "Sixes",
    "three_of_a_kind": "3 of a Kind",
    "four_of_a_kind": "4 of a Kind",
    "full_house": "Full House",
    "small_straight": "Sm. Straight",
    "large_straight": "Lg. Straight",
    "yahtzee": "YAHTZEE",
    "chance": "Chance",
}

FACE_OF: Final[Mapping[str, int]] = {box: face for face, box in enumerate(UPPER, start=1)}
UPPER_BOX_OF_FACE: Final[Mapping[int, str]] = {face: box for box, face in FACE_OF.items()}

NO_HOLD: Final[Held] = (False,) * DICE_COUNT


# --- Errors a player can cause --------------------------------------------------------------


class IllegalMove(ValueError):
    """A move the rules do not allow; the message is written for the player."""


class UnknownBox(IllegalMove):
    pass


class BoxFilled(IllegalMove):
    pass


class NoRollsLeft(IllegalMove):
    pass


class NotRolledYet(IllegalMove):
    pass


class JokerForbids(IllegalMove):
    pass


class InvalidHold(IllegalMove):
    pass


class ScorecardComplete(IllegalMove):
    pass


# --- Dice ------------------------------------------------------------------------------------

DiceSource = Callable[[int], Sequence[int]]
"""Returns ``n`` dice values, each 1..6."""

_system_random = secrets.SystemRandom()


def system_dice(n: int) -> tuple[int, ...]:
    """Production dice: the operating system's cryptographically sound generator."""
    return tuple(_system_random.randint(1, FACES) for _ in range(n))


def validate_dice(dice: Sequence[int]) -> Dice:
    if len(dice) != DICE_COUNT or any(
        not isinstance(d, int) or isinstance(d, bool) or not 1 <= d <= FACES for d in dice
    ):
        raise ValueError(f"five dice of 1 to 6 are needed, not {list(dice)!r}")
    return tuple(dice)


def is_yahtzee(dice: Sequence[int]) -> bool:
    return len(set(dice)) == 1


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
        case "three_of_a_kind":
            return total if most >= 3 else 0
        case "four_of_a_kind":
            return total if most >= 4 else 0
        case "full_house":
            return FULL_HOUSE_POINTS if sorted(counts.values()) == [2, 3] else 0
        case "small_straight":
            return SMALL_STRAIGHT_POINTS if _has_run(set(dice), 4) else 0
        case "large_straight":
            return LARGE_STRAIGHT_POINTS if _has_run(set(dice), 5) else 0
        case "yahtzee":
            return YAHTZEE_POINTS if most == DICE_COUNT else 0
        case "chance":
            return total
    raise UnknownBox(f"There is no box called {box!r}.")


def _joker_value(box: str, dice: Sequence[int]) -> int:
    """A five of a kind played as a Joker scores each lower box at its full value."""
    match box:
        case "full_house":
            return FULL_HOUSE_POINTS
        case "small_straight":
            return SMALL_STRAIGHT_POINTS
        case "large_straight":
            return LARGE_STRAIGHT_POINTS
    return box_score(box, dice)


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
    return kind.joker and is_yahtzee(dice) and "yahtzee" in card


def _column_scores(dice: Sequence[int], card: Card, kind: GameKind) -> dict[str, int]:
    open_boxes = [box for box in CATEGORIES if box not in card]
    if not joker_applies(dice, card, kind=kind):
        return {box: box_score(box, dice) for box in open_boxes}
    face_box = UPPER_BOX_OF_FACE[dice[0]]
    if face_box in open_boxes:
        return {face_box: box_score(face_box, dice)}
    open_lower = [box for box in open_boxes if box in LOWER]
    if open_lower:
        return {box: _joker_value(box, dice) for box in open_lower}
    return {box: 0 for box in open_boxes}


def legal_scores(dice: Sequence[int], card: Card) -> dict[str, int]:
    """Every box of a Classic card this roll may be scored in now, with its points.

    The forced Joker rule narrows and revalues the set for a five of a kind.
    """
    return _column_scores(validate_dice(dice), card, CLASSIC)


def legal_moves(kind: GameKind, dice: Sequence[int], cards: Sequence[Card]) -> dict[Slot, int]:
    """Every (column, box) of a kind's card this roll may be scored in now, with its points."""
    dice = validate_dice(dice)
    return {
        (column, box): points
        for column, card in enumerate(cards)
        for box, points in _column_scores(dice, card, kind).items()
    }


def yahtzee_bonus(dice: Sequence[int], card: Card, *, kind: GameKind = CLASSIC) -> int:
    """100 when this roll earns a Yahtzee bonus (a five of a kind over a YAHTZEE of 50)."""
    earned = kind.yahtzee_bonus and is_yahtzee(dice) and card.get("yahtzee") == YAHTZEE_POINTS
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


# --- The turn and the score sheet ------------------------------------------------------------


@dataclass(frozen=True)
class Turn:
    """One player's turn so far: the dice on the table, which are held, and rolls used."""

    dice: Dice | None = None
    held: Held = NO_HOLD
    rolls_used: int = 0

    @property
    def rolls_left(self) -> int:
        return MAX_ROLLS - self.rolls_used

    @property
    def has_rolled(self) -> bool:
        return self.dice is not None


@dataclass(frozen=True)
class Sheet:
    """One player's score card: a column of boxes per column of the kind, and bonuses."""

    kind: GameKind = CLASSIC
    cards: tuple[Mapping[str, int], ...] = field(default=())
    yahtzee_bonuses: int = 0

    def __post_init__(self) -> None:
        if not self.cards:
            object.__setattr__(self, "cards", tuple({} for _ in range(self.kind.columns)))
        if len(self.cards) != self.kind.columns:
            raise ValueError(f"{self.kind.name} has {self.kind.columns} column(s)")

    @property
    def boxes_filled(self) -> int:
        return sum(len(card) for card in self.cards)

    @property
    def is_complete(self) -> bool:
        return self.boxes_filled == self.kind.rounds

    def totals(self) -> GameTotals:
        return game_totals(self.kind, self.cards, self.yahtzee_bonuses)

    @property
    def grand_total(self) -> int:
        return self.totals()["grand_total"]


@dataclass(frozen=True)
class Roll:
    """What one roll did: the dice after it, which were held through it, and its number."""

    dice: Dice
    held: Held
    roll_number: int


@dataclass(frozen=True)
class Scoring:
    """What one scoring did: the box filled, its points, and any Yahtzee bonus earned."""

    column: int
    box: str
    points: int
    yahtzee_bonus: int
    dice: Dice
    joker: bool


def verify_roll(turn: Turn) -> None:
    if turn.rolls_left <= 0:
        raise NoRollsLeft("You have used all three rolls: choose a box to score.")


def can_roll(turn: Turn) -> bool:
    return turn.rolls_left > 0


def roll(turn: Turn, source: DiceSource = system_dice) -> tuple[Turn, Roll]:
    """Throw every die that is not held. The first roll of a turn throws all five."""
    verify_roll(turn)
    held = turn.held if turn.dice is not None else NO_HOLD
    wanted = held.count(False)
    fresh = iter(validate_dice_values(source(wanted), wanted))
    old = turn.dice or (0,) * DICE_COUNT
    dice = tuple(old[i] if held[i] else next(fresh) for i in range(DICE_COUNT))
    new = Turn(dice=dice, held=held, rolls_used=turn.rolls_used + 1)
    return new, Roll(dice=dice, held=held, roll_number=new.rolls_used)


def validate_dice_values(values: Sequence[int], count: int) -> tuple[int, ...]:
    """What a dice source gave, checked: exactly ``count`` whole numbers from 1 to 6."""
    if len(values) != count or any(
        not isinstance(v, int) or isinstance(v, bool) or not 1 <= v <= FACES for v in values
    ):
        raise ValueError(f"dice source gave {list(values)!r}, not {count} dice of 1 to 6")
    return tuple(values)


def verify_hold(turn: Turn, held: Sequence[bool]) -> None:
    if turn.dice is None:
        raise NotRolledYet("Roll the dice before holding any.")
    if len(held) != DICE_COUNT or not all(isinstance(h, bool) for h in held):
        raise InvalidHold("Say for each of the five dice whether it is held.")
    if turn.rolls_left <= 0:
        raise NoRollsLeft("You have used all three rolls: choose a box to score.")


def can_hold(turn: Turn, held: Sequence[bool]) -> bool:
    try:
        verify_hold(turn, held)
    except IllegalMove:
        return False
    return True


def hold(turn: Turn, held: Sequence[bool]) -> Turn:
    verify_hold(turn, held)
    return Turn(dice=turn.dice, held=tuple(held), rolls_used=turn.rolls_used)


def verify_score(sheet: Sheet, turn: Turn, box: str, column: int = 0) -> int:
    """Raise with a reason if ``box`` cannot take this roll now; else return its points."""
    if sheet.is_complete:
        raise ScorecardComplete("Every box is filled: the game is over.")
    if turn.dice is None:
        raise NotRolledYet("Roll the dice before scoring.")
    if box not in CATEGORIES:
        raise UnknownBox(f"There is no box called {box!r}.")
    if not 0 <= column < sheet.kind.columns:
        raise UnknownBox(f"There is no column {column + 1}.")
    card = sheet.cards[column]
    if box in card:
        raise BoxFilled(f"{LABELS[box]} is already filled.")
    legal = _column_scores(turn.dice, card, sheet.kind)
    if box not in legal:
        allowed = ", ".join(LABELS[b] for b in legal)
        raise JokerForbids(f"The Joker rule says this five of a kind must go in: {allowed}.")
    return legal[box]


def can_score(sheet: Sheet, turn: Turn, box: str, column: int = 0) -> bool:
    try:
        verify_score(sheet, turn, box, column)
    except IllegalMove:
        return False
    return True


def score(sheet: Sheet, turn: Turn, box: str, column: int = 0) -> tuple[Sheet, Scoring]:
    """Fill ``box`` with this roll; returns the new sheet and a record of the scoring."""
    points = verify_score(sheet, turn, box, column)
    assert turn.dice is not None
    card = sheet.cards[column]
    bonus = yahtzee_bonus(turn.dice, card, kind=sheet.kind)
    joker = joker_applies(turn.dice, card, kind=sheet.kind)
    cards = tuple({**c, box: points} if i == column else dict(c) for i, c in enumerate(sheet.cards))
    new_sheet = Sheet(
        kind=sheet.kind,
        cards=cards,
        yahtzee_bonuses=sheet.yahtzee_bonuses + (1 if bonus else 0),
    )
    return new_sheet, Scoring(
        column=column, box=box, points=points, yahtzee_bonus=bonus, dice=turn.dice, joker=joker
    )
