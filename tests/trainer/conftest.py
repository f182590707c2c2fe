"""The trainer's tests read the session's solved table."""

from __future__ import annotations

import pytest

from games.strategy import Advisor, StrategyTable


@pytest.fixture(scope="session")
def advisor(table: StrategyTable) -> Advisor:
    return Advisor(table)
