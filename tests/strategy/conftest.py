"""The solved tables, built once per test session into a temporary folder and shared."""

from __future__ import annotations

import pytest

from games.strategy import Advisor, Convention, StrategyTable, compute_table


@pytest.fixture(scope="session")
def free_table() -> StrategyTable:
    """Tom Verhoeff's free-Joker convention, in memory: only its new-game value is checked."""
    return compute_table(Convention.FREE)


@pytest.fixture(scope="session")
def advisor(table: StrategyTable) -> Advisor:
    return Advisor(table)
