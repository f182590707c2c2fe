"""The coach's cost on a move, in this process: two players alike in all but the coach play the
same Classic games on the same dice, move for move, their requests interleaved (the order
swapped every turn, so drift in the machine falls on both alike). Each turn is the bench's
turn (``bench.turns``): roll, roll again holding the first two dice, score the first box
offered; poor choices, so the coach speaks on most of them (its dearer path). The figure held
to its target is a turn's moves' time with the coach over the same without it."""

from __future__ import annotations

import random
import statistics
import time
from collections import defaultdict
from pathlib import Path
from typing import Any
from unittest import mock

from django.conf import settings
from django.test import Client
from django.test.utils import override_settings

from accounts.models import User
from bench import fill
from bench.output import BenchError, Console
from bench.scenarios import allowed_host
from bench.turns import HOLD, open_boxes, version_of
from games import rules, store
from games.models import Game
from games.strategy import seeded_dice
from games.tables import services

GAMES = 6  # timed, each player; one more is played first, untimed, to warm up
TARGET = 1.2
MOVES = ("roll", "reroll", "score")
NOTE = 'id="coach-note"'


class _Player:
    """One of the two: their client, their game in play and its version, the box to score."""

    def __init__(self, name: str, *, coach: bool) -> None:
        self.user, _ = User.objects.update_or_create(
            username=f"{fill.PREFIX}coach-{name}",
            defaults={
                "display_name": f"Bench Coach {name.title()}",
                "email_confirmed": True,
                "coach": coach,
                "confirm_zero": False,
            },
        )
        self.coach = coach
        self.client = Client(HTTP_HOST=allowed_host())
        self.client.force_login(self.user)
        self.game_id, self.version, self.box = 0, 0, ""

    def start(self) -> None:
        User.objects.filter(pk=self.user.pk).update(trial_games_used=0)
        self.user.refresh_from_db()
        game = services.start_game(owner=self.user)
        self.game_id, self.version = game.pk, game.version

    def move(self, move: str, dice: rules.DiceSource) -> tuple[float, bool]:
        """Make ``move`` on ``dice``: the seconds it took, and whether the coach spoke."""
        url = f"/play/{self.game_id}/{'score' if move == 'score' else 'roll'}/"
        data: dict[str, Any] = {"version": self.version}
        if move == "reroll":
            data["held"] = list(HOLD)
        if move == "score":
            data["box"] = self.box
        secure = bool(settings.SECURE_SSL_REDIRECT)  # ask over https when http would redirect
        with mock.patch.object(rules, "system_dice", dice):
            started = time.perf_counter()
            answer = self.client.post(url, data, headers={"HX-Request": "true"}, secure=secure)
            seconds = time.perf_counter() - started
        text = answer.text
        version = version_of(text)
        assert answer.status_code == 200 and version is not None, (move, answer.status_code)
        self.version = version
        if move != "score":
            self.box = open_boxes(text)[0]
        return seconds, NOTE in text


def run(directory: Path, console: Console, *, seed: int = 2026) -> dict[str, Any]:
    """Mean milliseconds of a move with and without the coach, by kind of move, and their
    ratio (the figure held to ``TARGET``)."""
    coached, plain = _Player("on", coach=True), _Player("off", coach=False)
    times: dict[tuple[bool, str], list[float]] = defaultdict(list)
    spoke = 0
    with override_settings(STRATEGY_DIR=directory):
        for number in range(GAMES + 1):
            timed = number > 0
            for player in (coached, plain):
                player.start()
            # The same dice for both: one generator each, seeded alike.
            dice = {
                p.coach: seeded_dice(random.Random(f"{seed}:{number}")) for p in (coached, plain)
            }
            for turn in range(rules.CLASSIC.rounds):
                order = (coached, plain) if turn % 2 == 0 else (plain, coached)
                for move in MOVES:
                    for player in order:
                        seconds, said = player.move(move, dice[player.coach])
                        if timed:
                            times[(player.coach, move)].append(seconds)
                            spoke += said
            _same_games(coached, plain)
        Game.objects.filter(owner__in=[coached.user, plain.user]).delete()
    moves = len(times[(True, "roll")]) * len(MOVES)
    console.line(f"  {moves} moves each with and without the coach, interleaved; it spoke {spoke}")
    return figures(times, spoke=spoke)


def _same_games(coached: _Player, plain: _Player) -> None:
    """The two games ended alike, box for box: else the comparison is not fair."""
    cards = [store.match_of(Game.objects.get(pk=p.game_id)).sheets[0].cards
             for p in (coached, plain)]  # fmt: skip
    if cards[0] != cards[1]:
        raise BenchError(f"the coach's bench played two different games: {cards}")


def figures(times: dict[tuple[bool, str], list[float]], *, spoke: int) -> dict[str, Any]:
    """Each kind of move's median (ms) with and without the coach, and the ratio held to the
    target: a turn's three moves, each at its median, with the coach over without (medians,
    so a pause of the machine's, which falls on either player, weighs nothing). The ratio of
    the means, every move counted, and of the graded moves alone (a turn's first roll decides
    nothing) are given beside it."""
    found: dict[str, Any] = {}
    for move in MOVES:
        for coach, name in ((True, "coach"), (False, "plain")):
            found[f"{name}_{move}_ms"] = round(statistics.median(times[(coach, move)]) * 1000, 2)
    turn = {name: sum(found[f"{name}_{move}_ms"] for move in MOVES) for name in ("coach", "plain")}
    found["coach_vs_plain"] = round(turn["coach"] / turn["plain"], 3)
    every = {coach: [s for m in MOVES for s in times[(coach, m)]] for coach in (True, False)}
    found["coach_vs_plain_mean"] = round(
        statistics.mean(every[True]) / statistics.mean(every[False]), 3
    )
    graded = [f"{name}_{move}_ms" for move in MOVES[1:] for name in ("coach", "plain")]
    found["coach_vs_plain_graded"] = round(
        sum(found[k] for k in graded[::2]) / sum(found[k] for k in graded[1::2]), 3
    )
    found["coach_notes"] = spoke
    return found
