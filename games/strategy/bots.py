"""Computer players of known strength. A bot only chooses; the game is played through
``games.rules`` (``roll``, ``hold``, ``score``) like any player's.

- ``perfect``: the advisor's best move (exact for Classic solitaire).
- ``good``: the advisor's best move, except that now and then (seeded, so reproducible) it takes
  a near miss: another move within a few points of the best.
- ``beginner``: no table at all; keeps its most common face, takes a made straight or full house,
  and scores the box that pays most now.

On a Triple card the same names play the advisor's heuristic (``perfect``, ``good``) or the
greedy rule weighted by the columns' multipliers (``beginner``).
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass
from typing import Final, Protocol

from games.rules.boxes import Box
from games.rules.dice import NO_HOLD, Dice
from games.rules.scoring import legal_moves
from games.rules.turn import Sheet, Turn
from games.strategy.advisor import Action, Advisor, RollDice, ScoreBox, held_for


class Bot(Protocol):
    name: str

    def decide(self, sheet: Sheet, turn: Turn) -> Action: ...


@dataclass
class PerfectBot:
    advisor: Advisor
    name: str = "perfect"

    def decide(self, sheet: Sheet, turn: Turn) -> Action:
        if turn.dice is None:
            return RollDice(NO_HOLD)
        return self.advisor.best_action(sheet, turn)


@dataclass
class GoodBot:
    """Plays the best move, but with chance ``slip`` takes another within ``slack`` points."""

    advisor: Advisor
    rng: random.Random
    slip: float = 0.1
    slack: float = 3.0
    name: str = "good"

    def decide(self, sheet: Sheet, turn: Turn) -> Action:
        if turn.dice is None:
            return RollDice(NO_HOLD)
        if self.rng.random() >= self.slip:
            return self.advisor.best_action(sheet, turn)
        options = self.advisor.options(sheet, turn)
        near = [o for o in options[1:] if options[0].expected - o.expected <= self.slack]
        return self.rng.choice(near).action if near else options[0].action


_MADE: Final = frozenset(
    {Box.YAHTZEE, Box.LARGE_STRAIGHT, Box.FULL_HOUSE}
    | {Box.YATZY, Box.YATZY_LARGE_STRAIGHT, Box.YATZY_FULL_HOUSE}
)
"""The boxes a beginner fills as soon as the dice make them (Yahtzee's, then Yatzy's)."""
_STRAIGHTS: Final = frozenset(
    {Box.SMALL_STRAIGHT, Box.LARGE_STRAIGHT, Box.YATZY_SMALL_STRAIGHT, Box.YATZY_LARGE_STRAIGHT}
)
_STRAIGHT_RUNS: Final = ((1, 2, 3, 4, 5), (2, 3, 4, 5, 6), (1, 2, 3, 4), (2, 3, 4, 5), (3, 4, 5, 6))


@dataclass
class BeginnerBot:
    """A greedy player who never looks past this turn."""

    name: str = "beginner"

    def decide(self, sheet: Sheet, turn: Turn) -> Action:
        if turn.dice is None:
            return RollDice(NO_HOLD)
        dice = turn.dice
        moves = legal_moves(sheet.kind, dice, sheet.cards)
        made = [slot for slot, points in moves.items() if points > 0 and slot[1] in _MADE]
        if turn.rolls_left == 0 or made:
            return self._score(sheet, moves, made)
        return RollDice(held_for(self._keep(sheet, dice), dice, turn.held))

    def _keep(self, sheet: Sheet, dice: Dice) -> tuple[int, ...]:
        faces = set(dice)
        straights_open = any(
            box in _STRAIGHTS and box not in card
            for card in sheet.cards
            for box in sheet.kind.boxes
        )
        if straights_open:
            for run in _STRAIGHT_RUNS:
                if (len(set(run) & faces) >= 4 and len(run) == 5) or set(run) <= faces:
                    return tuple(sorted(set(run) & faces))
        face, count = max(Counter(dice).items(), key=lambda fc: (fc[1], fc[0]))
        return (face,) * count

    def _score(
        self, sheet: Sheet, moves: dict[tuple[int, str], int], made: list[tuple[int, str]]
    ) -> ScoreBox:
        weights = sheet.kind.multipliers

        def worth(slot: tuple[int, str]) -> tuple[float, float]:
            points = moves[slot]
            if points == 0:  # a zero goes where it hurts least: the box worth least at best
                return (-1.0, -Box(slot[1]).best * weights[slot[0]] - slot[0])
            return (points * weights[slot[0]], -slot[0])

        column, box = max(made or moves, key=worth)
        return ScoreBox(column, Box(box))


BOT_NAMES: Final = ("perfect", "good", "beginner")

MEASURED_MEAN: Final[dict[str, float]] = {
    "perfect": 254.59,  # the solver's value; 10,000 games: 253.98, 95% CI [252.82, 255.14]
    "good": 250.2,  # 10,000 games: 250.21 [249.07, 251.36]
    "beginner": 208.0,  # 10,000 games: 207.96 [206.81, 209.11]
}
"""Classic solitaire averages, from ``manage.py simulate --bot NAME --games 10000 --seed 1``.
On a Triple card (1,000 games; 2,000 for the beginner, same seed): perfect 1643.0, good 1640.3,
beginner 1360.8."""


MEASURED_ACCURACY: Final[dict[str, dict[str, float]]] = {
    "perfect": {"mean": 100.0, "sd": 0.0, "lowest": 100.0, "highest": 100.0},
    "good": {"mean": 98.32, "sd": 1.21, "lowest": 93.1, "highest": 100.0},
    "beginner": {"mean": 81.29, "sd": 6.33, "lowest": 52.3, "highest": 96.2},
}
"""Each bot's accuracy (``analysis.accuracy``) over 1,000 Classic solitaire games, seed 2026:
mean, standard deviation, lowest and highest game, as ``make bench`` measured them on
3 December 2026 (``bench/accuracy_figures.py``; the help page cites them). One bot's again:
``manage.py simulate --bot NAME --games 1000 --seed 2026 --accuracy``."""
MEASURED_ACCURACY_SEED: Final = 2026
MEASURED_ACCURACY_DATE: Final = "3 December 2026"


def make_bot(name: str, advisor: Advisor, rng: random.Random) -> Bot:
    """A bot by name: ``perfect``, ``good`` or ``beginner``."""
    makers: dict[str, Callable[[], Bot]] = {
        "perfect": lambda: PerfectBot(advisor),
        "good": lambda: GoodBot(advisor, rng),
        "beginner": lambda: BeginnerBot(),
    }
    if name not in makers:
        raise ValueError(f"No bot called {name!r}: choose from {', '.join(BOT_NAMES)}.")
    return makers[name]()
