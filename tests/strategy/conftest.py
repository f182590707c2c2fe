"""The solved tables, built once per test session into a temporary folder and shared."""

from __future__ import annotations

from pathlib import Path

import pytest

from games.strategy import Advisor, Convention, StrategyTable, compute_table, ensure_table


@pytest.fixture(scope="session")
def strategy_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return tmp_path_factory.mktemp("strategy")


@pytest.fixture(scope="session")
def table(strategy_dir: Path) -> StrategyTable:
    """The forced-Joker table of RULES.md, stored and memory-mapped as a server would use it."""
    return ensure_table(strategy_dir, Convention.FORCED).table


@pytest.fixture(scope="session")
def free_table() -> StrategyTable:
    """Tom Verhoeff's free-Joker convention, in memory: only its new-game value is checked."""
    return compute_table(Convention.FREE)


@pytest.fixture(scope="session")
def advisor(table: StrategyTable) -> Advisor:
    return Advisor(table)
