"""Whole games played by a bot through ``games.rules``, with seeded dice, and their statistics."""

from __future__ import annotations

import math
import random
import statistics
import time
from collections.abc import Callable
from dataclasses import dataclass

from games.rules.dice import FACES, Dice, DiceSource, Held
from games.rules.scoring import CLASSIC, GameKind
from games.rules.turn import Sheet, Turn, hold, roll, score
from games.strategy.advisor import RollDice
from games.strategy.analysis import GameRecord, TurnRecord
from games.strategy.bots import Bot


def seeded_dice(rng: random.Random) -> DiceSource:
    """Dice for ``games.rules.roll`` drawn from a seeded generator (reproducible games)."""

    def throw(n: int) -> tuple[int, ...]:
        return tuple(rng.randint(1, FACES) for _ in range(n))

    return throw


def play_game(bot: Bot, dice: DiceSource, kind: GameKind = CLASSIC) -> tuple[Sheet, GameRecord]:
    """One solitaire game from an empty card to a full one: the final sheet and its record."""
    sheet = Sheet(kind=kind)
    turns = []
    while not sheet.is_complete:
        turn = Turn()
        rolls: list[Dice] = []
        holds: list[Held] = []
        while True:
            action = bot.decide(sheet, turn)
            if isinstance(action, RollDice):
                if turn.dice is not None:
                    turn = hold(turn, action.held)
                    holds.append(action.held)
                turn, thrown = roll(turn, dice)
                rolls.append(thrown.dice)
            else:
                sheet, _ = score(sheet, turn, action.box, action.column)
                turns.append(TurnRecord(tuple(rolls), tuple(holds), action.box, action.column))
                break
    return sheet, GameRecord(tuple(turns), kind)


@dataclass(frozen=True)
class Report:
    """What ``games`` games of one bot scored."""

    bot: str
    kind: GameKind
    games: int
    mean: float
    sd: float
    low: float
    high: float
    """The 95% confidence interval of the mean (normal approximation)."""
    upper_bonus_rate: float
    """Share of columns that earned the upper bonus."""
    yahtzees_per_game: float
    seconds: float

    @property
    def games_per_second(self) -> float:
        return self.games / self.seconds if self.seconds else math.inf


def simulate(
    make: Callable[[random.Random], Bot],
    *,
    games: int,
    seed: int = 0,
    kind: GameKind = CLASSIC,
) -> Report:
    """Play ``games`` games; ``make(rng)`` builds the bot with its own seeded generator."""
    if games < 1:
        raise ValueError("Simulate at least one game.")
    started = time.perf_counter()
    bot = make(random.Random(f"bot-{seed}"))
    dice = seeded_dice(random.Random(f"dice-{seed}"))
    scores, bonuses, yahtzees = [], 0, 0
    for _ in range(games):
        sheet, _ = play_game(bot, dice, kind)
        totals = sheet.totals()
        scores.append(totals["grand_total"])
        bonuses += sum(1 for column in totals["columns"] if column["upper_bonus"])
        yahtzees += sheet.yahtzees
    seconds = time.perf_counter() - started
    mean = statistics.fmean(scores)
    sd = statistics.stdev(scores) if games > 1 else 0.0
    half = 1.96 * sd / math.sqrt(games)
    return Report(
        bot=bot.name,
        kind=kind,
        games=games,
        mean=mean,
        sd=sd,
        low=mean - half,
        high=mean + half,
        upper_bonus_rate=bonuses / (games * kind.columns),
        yahtzees_per_game=yahtzees / games,
        seconds=seconds,
    )
