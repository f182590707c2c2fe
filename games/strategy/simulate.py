"""Whole games played by a bot through ``games.rules``, with seeded dice, and their statistics."""

from __future__ import annotations

import math
import multiprocessing
import random
import statistics
import time
from collections.abc import Callable
from dataclasses import dataclass
from multiprocessing.connection import Connection

from games.rules.dice import FACES, Dice, DiceSource, Held
from games.rules.scoring import CLASSIC, GameKind
from games.rules.turn import Sheet, Turn, hold, roll, score
from games.strategy.advisor import Advisor, RollDice
from games.strategy.analysis import GameRecord, TurnRecord, analyse
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
class Spread:
    """How a figure varied over the games: mean, standard deviation, 95% confidence interval
    of the mean (normal approximation), lowest and highest."""

    mean: float
    sd: float
    low: float
    high: float
    least: float
    most: float

    @classmethod
    def of(cls, values: list[float]) -> Spread:
        mean = statistics.fmean(values)
        sd = statistics.stdev(values) if len(values) > 1 else 0.0
        margin = 1.96 * sd / math.sqrt(len(values))
        return cls(mean, sd, mean - margin, mean + margin, min(values), max(values))


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
    accuracy: Spread | None = None
    """Each game's accuracy (``analysis.accuracy``), when the games were graded."""

    @property
    def games_per_second(self) -> float:
        return self.games / self.seconds if self.seconds else math.inf


@dataclass(frozen=True)
class _Tally:
    scores: list[int]
    bonuses: int
    yahtzees: int
    accuracies: list[float]


def _play(
    make: Callable[[random.Random], Bot],
    numbers: range,
    seed: int,
    kind: GameKind,
    grader: Advisor | None = None,
) -> tuple[str, _Tally]:
    """Games ``numbers``; game ``i`` has its own dice and bot generators, so a game's play does
    not depend on which process plays it or on the games before it. With a ``grader``, each
    game is analysed as the site analyses a finished game, for its accuracy."""
    scores, bonuses, yahtzees, accuracies, name = [], 0, 0, [], ""
    for number in numbers:
        bot = make(random.Random(f"bot-{seed}-{number}"))
        sheet, record = play_game(bot, seeded_dice(random.Random(f"dice-{seed}-{number}")), kind)
        totals = sheet.totals()
        scores.append(totals["grand_total"])
        bonuses += sum(1 for column in totals["columns"] if column["upper_bonus"])
        yahtzees += sheet.yahtzees
        if grader is not None:
            accuracies.append(analyse(grader, record).accuracy)
        name = bot.name
    return name, _Tally(scores, bonuses, yahtzees, accuracies)


def _helper(
    connection: Connection,
    make: Callable[[random.Random], Bot],
    numbers: range,
    seed: int,
    kind: GameKind,
    grader: Advisor | None,
) -> None:
    connection.send(_play(make, numbers, seed, kind, grader))
    connection.close()


def simulate(
    make: Callable[[random.Random], Bot],
    *,
    games: int,
    seed: int = 0,
    kind: GameKind = CLASSIC,
    processes: int = 1,
    grader: Advisor | None = None,
) -> Report:
    """Play ``games`` games; ``make(rng)`` builds each game's bot with its own seeded generator.
    With a ``grader`` (an advisor), each game's accuracy is measured too (``Report.accuracy``).

    ``processes=2`` plays the second half of the games in a forked process (where fork is
    available); the games, and so the figures, are the same either way.
    """
    if games < 1:
        raise ValueError("Simulate at least one game.")
    started = time.perf_counter()
    half = (
        games // 2 if processes > 1 and "fork" in multiprocessing.get_all_start_methods() else games
    )
    helper = None
    if half < games:
        context = multiprocessing.get_context("fork")
        ours, theirs = context.Pipe(duplex=False)
        helper = context.Process(
            target=_helper,
            args=(theirs, make, range(half, games), seed, kind, grader),
            daemon=True,
        )
        helper.start()
    name, tally = _play(make, range(half), seed, kind, grader)
    if helper is not None:
        other_name, other = ours.recv()
        helper.join()
        name = name or other_name
        tally = _Tally(
            tally.scores + other.scores,
            tally.bonuses + other.bonuses,
            tally.yahtzees + other.yahtzees,
            tally.accuracies + other.accuracies,
        )
    seconds = time.perf_counter() - started
    scores = Spread.of([float(total) for total in tally.scores])
    return Report(
        bot=name,
        kind=kind,
        games=games,
        mean=scores.mean,
        sd=scores.sd,
        low=scores.low,
        high=scores.high,
        upper_bonus_rate=tally.bonuses / (games * kind.columns),
        yahtzees_per_game=tally.yahtzees / games,
        seconds=seconds,
        accuracy=Spread.of(tally.accuracies) if tally.accuracies else None,
    )
