"""Computer players: legal, reproducible, and as strong as their stated averages."""

from __future__ import annotations

import math
import random

import pytest

from games import rules
from games.strategy import Advisor, make_bot, play_game, seeded_dice, simulate
from games.strategy.bots import MEASURED_MEAN


@pytest.mark.parametrize("name", ["perfect", "good", "beginner"])
@pytest.mark.parametrize("kind", [rules.CLASSIC, rules.TRIPLE])
def test_each_bot_finishes_a_game_through_the_rules(
    advisor: Advisor, name: str, kind: rules.GameKind
) -> None:
    sheet, record = play_game(
        make_bot(name, advisor, random.Random(5)), seeded_dice(random.Random(6)), kind
    )
    assert sheet.is_complete
    assert len(record.turns) == kind.rounds


@pytest.mark.parametrize("name", ["good", "beginner"])
def test_the_same_seed_plays_the_same_game(advisor: Advisor, name: str) -> None:
    games = [
        play_game(make_bot(name, advisor, random.Random(7)), seeded_dice(random.Random(8)))[1]
        for _ in range(2)
    ]
    assert games[0] == games[1]


def test_an_unknown_bot_is_refused(advisor: Advisor) -> None:
    with pytest.raises(ValueError, match="perfect, good, beginner"):
        make_bot("grandmaster", advisor, random.Random())


@pytest.mark.parametrize(("name", "games"), [("perfect", 150), ("good", 150), ("beginner", 400)])
def test_a_bots_mean_agrees_with_its_stated_average(
    advisor: Advisor, name: str, games: int
) -> None:
    report = simulate(lambda rng: make_bot(name, advisor, rng), games=games, seed=2024)
    standard_error = report.sd / math.sqrt(games)
    assert abs(report.mean - MEASURED_MEAN[name]) < 3.5 * standard_error


def test_the_bots_are_ordered_by_strength() -> None:
    assert MEASURED_MEAN["perfect"] > MEASURED_MEAN["good"] > MEASURED_MEAN["beginner"]
