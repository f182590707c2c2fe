"""Accuracy, measured: what grading a game costs the store as the game finishes (a Classic game
alone, a Triple game of four), and the accuracy of each computer player over whole Classic
solitaire games (the figures the help page cites)."""

from __future__ import annotations

import random
import statistics
import time
from collections.abc import Callable
from pathlib import Path

from django.db import transaction
from django.test.utils import override_settings

from accounts.models import User
from bench.output import Console
from games import advice, rules, store, strategy
from games.models import Game, GameStatus
from games.play import actions as play
from games.review import grading
from games.rules import actions
from games.tables import services

SIMULATED_GAMES = 1000
THREE = ["good", "perfect", "beginner"]
PLAYED: tuple[tuple[str, list[str], int], ...] = (
    (rules.CLASSIC.key, [], 12),
    (rules.CLASSIC.key, THREE, 6),
    (rules.TRIPLE.key, THREE, 4),
)
"""Games played to the end through the site's door: (kind, computer players beside the owner,
games). The first half of each are then graded again and timed, once the later games have
filled the advisor's cache with their own positions, as a server's advisor is at a game's end."""


def _play_out(game: Game, user: User, rng: random.Random) -> None:
    """``game`` played to its end through the door every move takes: the owner's turns as the
    good computer player would play them, the computers' turns their own."""
    while True:
        table = store.load(game_id=game.pk, user=user)
        match, version = table.match(), table.game.version
        if table.game.status != GameStatus.IN_PROGRESS:
            return
        if match.computer_on_turn:
            play.play_computer(game_id=game.pk, user=user, version=version, to_the_end=True)
            continue
        seat, by = match.on_turn, table.position_of(user)  # a guest's moves are the host's
        assert seat is not None
        bot = strategy.make_bot("good", advice.advisor(), rng)
        decided = bot.decide(match.sheets[seat], match.turn)
        action: actions.Action
        if isinstance(decided, strategy.RollDice):
            action = actions.Roll(by, decided.held if match.turn.has_rolled else None)
        else:
            action = actions.Score(by, decided.box, decided.column)
        with transaction.atomic():
            play.act(game_id=game.pk, user=user, version=version, choose=_chosen(action))


def _chosen(action: actions.Action) -> play.Choose:
    return lambda *_: action


def grading_costs(directory: Path, console: Console, *, seed: int) -> dict[str, float]:
    """Milliseconds ``grading.grade_game`` takes (the store's work at a game's end: the log
    replayed, every card analysed, the grades written), median per kind of game: wall clock,
    and this process's processor time."""
    user, _ = User.objects.get_or_create(
        username="bench-grading",
        defaults={"display_name": "Bench Grading", "email_confirmed": True},
    )
    rng = random.Random(seed)
    figures = {}
    with override_settings(STRATEGY_DIR=directory):
        for kind, computers, count in PLAYED:
            players = len(computers) + 1
            console.line(f"  {count} {kind} games of {players} played out, then graded again ...")
            games = []
            for _ in range(count):
                User.objects.filter(pk=user.pk).update(trial_games_used=0)
                user.refresh_from_db()
                game = services.start_game(owner=user, kind=kind, computers=computers)
                _play_out(game, user, rng)
                games.append(game)
            timed, cpu = [], []
            for game in games[: count // 2]:
                seats = list(game.seats.order_by("position"))
                started, cpu_started = time.perf_counter(), time.process_time()
                with transaction.atomic():
                    grading.grade_game(game, seats)
                timed.append(time.perf_counter() - started)
                cpu.append(time.process_time() - cpu_started)
            name = f"grading_{kind}_{players}"
            figures[f"{name}_ms"] = round(statistics.median(timed) * 1000, 1)
            # This process's own time: what a busy machine does not inflate (SQLite's work
            # is in it; a PostgreSQL server's is not).
            figures[f"{name}_cpu_ms"] = round(statistics.median(cpu) * 1000, 1)
    return figures


def _maker(name: str, advisor: strategy.Advisor) -> Callable[[random.Random], strategy.Bot]:
    return lambda rng: strategy.make_bot(name, advisor, rng)


def bot_accuracy(table: strategy.StrategyTable, console: Console, *, seed: int) -> dict[str, float]:
    """Each computer player's accuracy over ``SIMULATED_GAMES`` Classic solitaire games (seeded:
    the same games every run): mean, standard deviation, lowest and highest."""
    figures: dict[str, float] = {}
    for name in strategy.BOT_NAMES:
        console.line(f"Accuracy: {SIMULATED_GAMES} Classic games of the {name} bot, graded ...")
        report = strategy.simulate(
            _maker(name, strategy.Advisor(table)),
            games=SIMULATED_GAMES,
            seed=seed,
            processes=2,
            grader=strategy.Advisor(table),
        )
        spread = report.accuracy
        assert spread is not None
        figures |= {
            f"accuracy_{name}_mean": round(spread.mean, 2),
            f"accuracy_{name}_sd": round(spread.sd, 2),
            f"accuracy_{name}_lowest": spread.least,
            f"accuracy_{name}_highest": spread.most,
            f"accuracy_{name}_score_mean": round(report.mean, 2),
        }
    return figures
