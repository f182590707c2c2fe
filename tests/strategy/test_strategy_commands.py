"""The two management commands, on the session's table (no database)."""

from __future__ import annotations

from io import StringIO
from pathlib import Path

import pytest
from django.core.management import call_command

from games.strategy import StrategyTable


def run(*args: str) -> str:
    out = StringIO()
    call_command(*args, stdout=out)
    return out.getvalue()


def test_build_strategy_skips_a_valid_table(
    settings: pytest.FixtureRequest, strategy_dir: Path, table: StrategyTable
) -> None:
    settings.STRATEGY_DIR = strategy_dir  # type: ignore[attr-defined]
    out = run("build_strategy")
    assert "is up to date" in out
    assert "Expected score of a new game: 254.5877" in out
    assert "bench: checked and mapped in" in out


def test_simulate_prints_the_mean_and_its_interval(
    settings: pytest.FixtureRequest, strategy_dir: Path, table: StrategyTable
) -> None:
    settings.STRATEGY_DIR = strategy_dir  # type: ignore[attr-defined]
    out = run("simulate", "--bot", "beginner", "--games", "20", "--seed", "3", "--kind", "triple")
    assert "beginner bot, 20 Triple Yahtzee games, seed 3" in out
    assert "95% CI of the mean" in out
    assert "games/s" in out


def test_simulate_grades_each_game_when_asked(
    settings: pytest.FixtureRequest, strategy_dir: Path, table: StrategyTable
) -> None:
    settings.STRATEGY_DIR = strategy_dir  # type: ignore[attr-defined]
    out = run("simulate", "--bot", "perfect", "--games", "6", "--seed", "3", "--accuracy")
    assert "accuracy mean 100.00  sd 0.00  lowest 100.0  highest 100.0" in out
    assert "accuracy" not in run("simulate", "--bot", "perfect", "--games", "2", "--seed", "3")


def test_simulate_plays_yatzy_on_its_own_table(
    settings: pytest.FixtureRequest, strategy_dir: Path, yatzy_table: StrategyTable
) -> None:
    settings.STRATEGY_DIR = strategy_dir  # type: ignore[attr-defined]
    out = run("simulate", "--bot", "perfect", "--games", "10", "--seed", "3", "--kind", "yatzy")
    assert "perfect bot, 10 Yatzy games, seed 3" in out
