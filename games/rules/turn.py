"""One player's turn and score sheet as a state machine: roll, hold and score.

Every action comes as a trio: ``verify_x`` raises an ``IllegalMove`` saying why not, ``can_x``
says yes or no, and ``x`` verifies, then returns the new state and an immutable record of what
happened.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field

from games.rules.boxes import Box
from games.rules.dice import (
    DICE_COUNT,
    MAX_ROLLS,
    NO_HOLD,
    Dice,
    DiceSource,
    Held,
    is_yahtzee,
    system_dice,
    validate_dice,
)
from games.rules.errors import (
    BoxFilled,
    IllegalMove,
    InvalidHold,
    JokerForbids,
    NoRollsLeft,
    NotRolledYet,
    ScorecardComplete,
    UnknownBox,
)
from games.rules.scoring import (
    CLASSIC,
    GameKind,
    GameTotals,
    column_scores,
    game_totals,
    joker_applies,
    totals,
    yahtzee_bonus,
)


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
    """One player's score card: a column of boxes per column of the kind, and bonuses.

    ``yahtzees`` counts every five of a kind scored, wherever it went (the YAHTZEE box, a Joker,
    Chance, a zeroed YAHTZEE box, any column of Triple).
    """

    kind: GameKind = CLASSIC
    cards: tuple[Mapping[str, int], ...] = field(default=())
    yahtzee_bonuses: int = 0
    yahtzees: int = 0

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
    """What one scoring did: the box filled, its points, any Yahtzee bonus earned, and the
    upper bonus when this box took its column to 63."""

    column: int
    box: str
    points: int
    yahtzee_bonus: int
    dice: Dice
    joker: bool
    upper_bonus: int = 0


def _can(verify: Callable[[], object]) -> bool:
    try:
        verify()
    except IllegalMove:
        return False
    return True


def verify_roll(turn: Turn) -> None:
    if turn.rolls_left <= 0:
        raise NoRollsLeft("You have used all three rolls: choose a box to score.")


def can_roll(turn: Turn) -> bool:
    return _can(lambda: verify_roll(turn))


def roll(turn: Turn, source: DiceSource = system_dice) -> tuple[Turn, Roll]:
    """Throw every die that is not held. The first roll of a turn throws all five."""
    verify_roll(turn)
    held = turn.held if turn.dice is not None else NO_HOLD
    wanted = held.count(False)
    fresh = iter(validate_dice(source(wanted), wanted))
    old = turn.dice or (0,) * DICE_COUNT
    dice = tuple(old[i] if held[i] else next(fresh) for i in range(DICE_COUNT))
    new = Turn(dice=dice, held=held, rolls_used=turn.rolls_used + 1)
    return new, Roll(dice=dice, held=held, roll_number=new.rolls_used)


def verify_hold(turn: Turn, held: Sequence[bool]) -> None:
    if turn.dice is None:
        raise NotRolledYet("Roll the dice before holding any.")
    if len(held) != DICE_COUNT or not all(isinstance(h, bool) for h in held):
        raise InvalidHold("Say for each of the five dice whether it is held.")
    verify_roll(turn)


def can_hold(turn: Turn, held: Sequence[bool]) -> bool:
    return _can(lambda: verify_hold(turn, held))


def hold(turn: Turn, held: Sequence[bool]) -> Turn:
    verify_hold(turn, held)
    return Turn(dice=turn.dice, held=tuple(held), rolls_used=turn.rolls_used)


def verify_score(sheet: Sheet, turn: Turn, box: str, column: int = 0) -> int:
    """Raise with a reason if ``box`` cannot take this roll now; else return its points."""
    if sheet.is_complete:
        raise ScorecardComplete("Every box is filled: the game is over.")
    if turn.dice is None:
        raise NotRolledYet("Roll the dice before scoring.")
    if box not in sheet.kind.boxes:
        raise UnknownBox(f"There is no box called {box!r}.")  # a box of another kind's card too
    if not 0 <= column < sheet.kind.columns:
        raise UnknownBox(f"There is no column {column + 1}.")
    card = sheet.cards[column]
    if box in card:
        raise BoxFilled(f"{Box(box).label} is already filled.")
    legal = column_scores(turn.dice, card, sheet.kind)
    if box not in legal:
        allowed = ", ".join(Box(b).label for b in legal)
        raise JokerForbids(f"The Joker rule says this five of a kind must go in: {allowed}.")
    return legal[box]


def can_score(sheet: Sheet, turn: Turn, box: str, column: int = 0) -> bool:
    return _can(lambda: verify_score(sheet, turn, box, column))


def score(sheet: Sheet, turn: Turn, box: str, column: int = 0) -> tuple[Sheet, Scoring]:
    """Fill ``box`` with this roll; returns the new sheet and a record of the scoring."""
    points = verify_score(sheet, turn, box, column)
    assert turn.dice is not None
    card, key = sheet.cards[column], Box(box).value
    bonus = yahtzee_bonus(turn.dice, card, kind=sheet.kind)
    joker = joker_applies(turn.dice, card, kind=sheet.kind)
    cards = tuple({**c, key: points} if i == column else dict(c) for i, c in enumerate(sheet.cards))
    kind = sheet.kind
    upper_bonus = (
        totals(cards[column], kind=kind)["upper_bonus"] - totals(card, kind=kind)["upper_bonus"]
    )
    new_sheet = Sheet(
        kind=sheet.kind,
        cards=cards,
        yahtzee_bonuses=sheet.yahtzee_bonuses + (1 if bonus else 0),
        yahtzees=sheet.yahtzees + (1 if is_yahtzee(turn.dice) else 0),
    )
    return new_sheet, Scoring(
        column=column,
        box=key,
        points=points,
        yahtzee_bonus=bonus,
        dice=turn.dice,
        joker=joker,
        upper_bonus=upper_bonus,
    )
