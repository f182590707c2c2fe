"""Plausible finished score cards for the bench, scored and totalled by the rules engine.

Each box gets points a game could give, drawn to look like a season of real play (about 45% of
columns make the upper bonus, a third score a YAHTZEE). A five of a kind rolled after a column's
YAHTZEE box was filled is placed by ``games.rules`` itself: its bonus, where the Joker rule lets
it go and what it scores there. So a card's totals, bonuses and Yahtzees (every five of a kind
scored, wherever it went, as the site counts them) are the engine's numbers.
"""

from __future__ import annotations

import random
from dataclasses import dataclass

from games import rules
from games.rules import Box

# How many dice of its face an upper box holds, in percent (mean about 3: bonus about 45%).
UPPER_COUNTS = [0] * 3 + [1] * 7 + [2] * 20 + [3] * 40 + [4] * 22 + [5] * 8
# How many five of a kinds came after a column's YAHTZEE box was filled: with a 50 there, each
# earns a Classic game its 100-point bonus (one in ten cards, two in fifty); over a zero (the box
# scratched, mostly late in a game) one comes now and then, as a Joker or in Chance.
LATER_AFTER_50 = ((0.02, 2), (0.12, 1))
LATER_AFTER_0 = ((0.04, 1),)


def random_column(rng: random.Random) -> dict[str, int]:
    """One column of a finished card: every box filled with points a game could give."""
    r = rng.random
    card = {box: face * UPPER_COUNTS[int(r() * 100)] for box, face in rules.FACE_OF.items()}
    card[Box.THREE_OF_A_KIND] = 0 if r() < 0.08 else rng.randint(12, 28)
    card[Box.FOUR_OF_A_KIND] = 0 if r() < 0.35 else rng.randint(10, 29)
    card[Box.FULL_HOUSE] = rules.FULL_HOUSE_POINTS if r() < 0.88 else 0
    card[Box.SMALL_STRAIGHT] = rules.SMALL_STRAIGHT_POINTS if r() < 0.85 else 0
    card[Box.LARGE_STRAIGHT] = rules.LARGE_STRAIGHT_POINTS if r() < 0.65 else 0
    card[Box.YAHTZEE] = rules.YAHTZEE_POINTS if r() < 0.32 else 0
    card[Box.CHANCE] = rng.randint(15, 28)
    return card


def later_five_of_a_kinds(rng: random.Random, card: rules.Card) -> int:
    """How many five of a kinds a column took after its YAHTZEE box was filled."""
    odds = LATER_AFTER_50 if card[Box.YAHTZEE] == rules.YAHTZEE_POINTS else LATER_AFTER_0
    r = rng.random()
    return next((count for below, count in odds if r < below), 0)


def place_five_of_a_kind(
    rng: random.Random, dice: rules.Dice, card: rules.Card, kind: rules.GameKind
) -> tuple[str, int]:
    """Where a five of a kind rolled late went, and what it scored, by the engine's rules.

    Some boxes were still open then (never YAHTZEE, filled before); of the boxes the rules
    allowed, the player took one that scored most.
    """
    others = [box for box in rules.CATEGORIES if box != Box.YAHTZEE]
    still_open = set(rng.sample(others, rng.randint(1, len(others))))
    filled_then = {box: points for box, points in card.items() if box not in still_open}
    allowed = rules.column_scores(dice, filled_then, kind)
    best = max(allowed.values())
    return rng.choice([box for box, points in allowed.items() if points == best]), best


def finished_sheet(rng: random.Random, kind: rules.GameKind) -> rules.Sheet:
    """A finished sheet of ``kind``, with the bonuses and the Yahtzees it took."""
    cards = [random_column(rng) for _ in range(kind.columns)]
    yahtzees = sum(1 for card in cards if card[Box.YAHTZEE] == rules.YAHTZEE_POINTS)
    bonuses = 0
    for card in cards:
        for _ in range(later_five_of_a_kinds(rng, card)):
            dice = (rng.randint(1, rules.FACES),) * rules.DICE_COUNT
            bonuses += 1 if rules.yahtzee_bonus(dice, card, kind=kind) else 0
            box, points = place_five_of_a_kind(rng, dice, card, kind)
            card[box] = points
            yahtzees += 1
    return rules.Sheet(kind=kind, cards=tuple(cards), yahtzee_bonuses=bonuses, yahtzees=yahtzees)


@dataclass(frozen=True)
class FinishedCard:
    """A finished sheet as the bench stores it: the sheet (in its game's state) and the numbers
    a seat and its score row copy (the same ones the site's services copy when a game ends)."""

    sheet: rules.Sheet
    grand_total: int
    upper_bonuses: int
    yahtzee_bonuses: int
    yahtzees: int

    @classmethod
    def of(cls, sheet: rules.Sheet) -> FinishedCard:
        totals = sheet.totals()
        return cls(
            sheet=sheet,
            grand_total=totals["grand_total"],
            upper_bonuses=sum(1 for column in totals["columns"] if column["upper_bonus"]),
            yahtzee_bonuses=sheet.yahtzee_bonuses,
            yahtzees=sheet.yahtzees,
        )


def card_pool(rng: random.Random, kind: rules.GameKind, size: int) -> list[FinishedCard]:
    """``size`` finished cards of a kind, for the fill to deal out again and again."""
    return [FinishedCard.of(finished_sheet(rng, kind)) for _ in range(size)]
