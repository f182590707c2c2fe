"""A position to decide, as a value: a Classic solitaire card as it stood, the dice on the table,
the dice held through the last roll and the rolls used; kept as JSON on its row, read back
checked. ``played`` reaches a position through the rules engine itself, proving it legal."""

from __future__ import annotations

import itertools
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from games import rules
from games.strategy import Action, RollDice, ScoreBox


class BadPosition(ValueError):
    """Data that is not a Classic solitaire position the rules allow; the message says why."""


@dataclass(frozen=True)
class Position:
    """A decision of a Classic game alone: after roll ``rolls_used`` (1 to 3) of a turn, with
    ``dice`` on the table (``held`` the dice held through that roll) and ``card`` filled so far.
    """

    card: Mapping[str, int]
    dice: rules.Dice
    rolls_used: int
    held: rules.Held = rules.NO_HOLD
    yahtzee_bonuses: int = 0
    sheet: rules.Sheet = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        try:
            dice = rules.validate_dice(tuple(self.dice))
        except (TypeError, ValueError) as exc:
            raise BadPosition(str(exc)) from None
        held = tuple(self.held)
        if len(held) != rules.DICE_COUNT or not all(isinstance(h, bool) for h in held):
            raise BadPosition("A position says for each of the five dice whether it is held.")
        if not isinstance(self.rolls_used, int) or not 1 <= self.rolls_used <= rules.MAX_ROLLS:
            raise BadPosition("A position comes after the first, second or third roll.")
        if self.rolls_used == 1 and any(held):
            raise BadPosition("Nothing is held through the first roll of a turn.")
        card = dict(self.card)
        for box, points in card.items():
            if box not in rules.CATEGORIES or not isinstance(points, int) or points < 0:
                raise BadPosition(f"{box!r}: {points!r} is no box of a card and its points.")
        if len(card) >= len(rules.CATEGORIES):
            raise BadPosition("A full card has nothing left to decide.")
        bonuses = self.yahtzee_bonuses
        if bonuses and card.get(rules.Box.YAHTZEE) != rules.YAHTZEE_POINTS:
            raise BadPosition("Yahtzee bonuses are earned only over a YAHTZEE of 50.")
        yahtzees = (card.get(rules.Box.YAHTZEE) == rules.YAHTZEE_POINTS) + bonuses
        sheet = rules.Sheet(cards=(card,), yahtzee_bonuses=bonuses, yahtzees=yahtzees)
        object.__setattr__(self, "card", card)
        object.__setattr__(self, "dice", dice)
        object.__setattr__(self, "held", held)
        object.__setattr__(self, "sheet", sheet)

    @property
    def turn(self) -> rules.Turn:
        return rules.Turn(dice=self.dice, held=self.held, rolls_used=self.rolls_used)

    @property
    def turn_number(self) -> int:
        """The turn of the game this decision falls in (1 to 13)."""
        return len(self.card) + 1

    def to_json(self) -> dict[str, Any]:
        return {
            "card": dict(self.card),
            "dice": list(self.dice),
            "held": list(self.held),
            "rolls_used": self.rolls_used,
            "yahtzee_bonuses": self.yahtzee_bonuses,
        }

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Position:
        try:
            return cls(
                card=dict(data["card"]),
                dice=tuple(data["dice"]),
                rolls_used=data["rolls_used"],
                held=tuple(data["held"]),
                yahtzee_bonuses=int(data.get("yahtzee_bonuses", 0)),
            )
        except (KeyError, TypeError) as exc:
            raise BadPosition(f"Not a position: {exc}") from None


# --- An answer: a box to score, or dice to hold and roll --------------------------------------


def action_to_json(action: Action) -> dict[str, Any]:
    if isinstance(action, ScoreBox):
        return {"box": action.box.value}
    return {"held": list(action.held)}


def action_from_json(data: Mapping[str, Any]) -> Action:
    if "box" in data:
        return ScoreBox(0, rules.Box(data["box"]))
    return RollDice(tuple(bool(h) for h in data["held"]))


def verify_action(position: Position, action: Action) -> None:
    """Raise the rules' own ``IllegalMove`` (saying why) when ``action`` cannot be played here."""
    if isinstance(action, ScoreBox):
        rules.verify_score(position.sheet, position.turn, action.box.value)
    else:
        rules.verify_hold(position.turn, action.held)


# --- Reaching a position through the rules engine -------------------------------------------

_ROLLS = tuple(itertools.combinations_with_replacement(range(1, rules.FACES + 1), 5))
"""Every roll of five dice, as sorted faces (252 of them)."""


def _witness(sheet: rules.Sheet, box: str, points: int) -> rules.Dice | None:
    """Dice the rules let ``sheet`` score as ``points`` in ``box``, five of a kind last."""
    for dice in sorted(_ROLLS, key=rules.is_yahtzee):
        turn = rules.Turn(dice=dice, rolls_used=1)
        if rules.can_score(sheet, turn, box) and rules.verify_score(sheet, turn, box) == points:
            return dice
    return None


def _thrown(dice: tuple[int, ...]) -> rules.DiceSource:
    """A throw that gives ``dice`` (as many as asked: all of them)."""
    return lambda n: dice


def played(position: Position) -> tuple[rules.Sheet, rules.Turn]:
    """The position reached by play under the rules: each filled box scored with dice that give
    its points (boxes only a five of a kind can fill first, the YAHTZEE box last, so no Joker
    is needed), then the turn rolled, held and rolled again to its dice. ``BadPosition`` when
    no such play exists. Positions with Yahtzee bonuses (only ever taken from a game played
    through the rules) are not rebuilt."""
    if position.yahtzee_bonuses:
        raise BadPosition("Only a position without Yahtzee bonuses is rebuilt here.")
    sheet = rules.Sheet()
    boxes = sorted(
        (box for box in position.card if box != rules.Box.YAHTZEE),
        key=lambda box: (
            not all(
                rules.is_yahtzee(d) for d in _ROLLS if rules.box_score(box, d) == position.card[box]
            )
        ),
    )
    if rules.Box.YAHTZEE in position.card:
        boxes.append(rules.Box.YAHTZEE)
    for box in boxes:
        points = position.card[box]
        dice = _witness(sheet, box, points)
        if dice is None:
            raise BadPosition(f"No roll scores {points} in {rules.Box(box).label}.")
        sheet, _ = rules.score(sheet, rules.Turn(dice=dice, rolls_used=1), box)
    turn, _ = rules.roll(rules.Turn(), _thrown(position.dice))
    for _ in range(position.rolls_used - 1):
        turn = rules.hold(turn, position.held)
        fresh = tuple(d for d, h in zip(position.dice, position.held, strict=True) if not h)
        turn, _ = rules.roll(turn, _thrown(fresh))
    return sheet, turn
