"""Plausible finished score cards for the bench, totalled by the rules engine.

Each box gets points a game could give, drawn to look like a season of real play (about 45% of
columns make the upper bonus, a third score a YAHTZEE); the totals are ``rules.game_totals``'s.
"""

from __future__ import annotations

import json
import random
from dataclasses import dataclass

from games import rules
from games.rules import Box

# How many dice of its face an upper box holds, in percent (mean about 3: bonus about 45%).
UPPER_COUNTS = [0] * 3 + [1] * 7 + [2] * 20 + [3] * 40 + [4] * 22 + [5] * 8


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


@dataclass(frozen=True)
class FinishedCard:
    """A finished score card, ready to store: its JSON, totals and counts."""

    cards_json: str
    grand_total: int
    upper_bonuses: int
    yahtzee_boxes: int


def card_pool(rng: random.Random, kind: rules.GameKind, size: int) -> list[FinishedCard]:
    """``size`` finished cards of a kind, for the fill to deal out again and again."""
    pool = []
    for _ in range(size):
        cards = [random_column(rng) for _ in range(kind.columns)]
        totals = rules.game_totals(kind, cards)
        pool.append(
            FinishedCard(
                cards_json=json.dumps(cards, separators=(",", ":")),
                grand_total=totals["grand_total"],
                upper_bonuses=sum(1 for col in totals["columns"] if col["upper_bonus"]),
                yahtzee_boxes=sum(1 for c in cards if c[Box.YAHTZEE] == rules.YAHTZEE_POINTS),
            )
        )
    return pool
