"""Fixtures shared by every test folder, built on ``tests.factories``.

Tests that touch the database are marked ``db`` as they are collected, so ``pytest -m "not db"``
runs the pure suite (rules, serials, charts) alone, in seconds.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from datetime import timedelta
from pathlib import Path
from typing import Any

import hypothesis
import pytest
from django.core.cache import cache
from django.db import connection
from django.test import Client
from django.utils import timezone

from accounts.models import User
from games import rules, store
from games.models import Game, GameStatus, Score, Seat
from games.strategy import Convention, StrategyTable, ensure_table
from games.tables import services
from tests import factories

# A loaded machine (CI, a mutation run sharing its cores) can take longer than hypothesis's
# 200 ms per example, which is no failure of the code under test.
hypothesis.settings.register_profile("suite", deadline=None)
hypothesis.settings.load_profile("suite")

DB_FIXTURES = {"db", "transactional_db", "django_db_setup", "live_server", "client", "admin_client"}


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    for item in items:
        fixtures = set(getattr(item, "fixturenames", ()))
        if fixtures & DB_FIXTURES or item.get_closest_marker("django_db"):
            item.add_marker(pytest.mark.db)


@pytest.fixture(autouse=True)
def _empty_cache(request: pytest.FixtureRequest) -> Iterator[None]:
    """Each database test starts with an empty cache (the top ten keeps rendered tables in it)."""
    if "db" not in request.keywords:
        yield
        return
    cache.clear()
    yield
    cache.clear()


@pytest.fixture(autouse=True)
def _on_turn_flags_follow_the_games(request: pytest.FixtureRequest) -> Iterator[None]:
    """After every database test, each seat's ``on_turn`` says what its game says: an account's
    seat on turn in play, or still to throw in the draw for first. A way of changing a game that
    writes its state without the store fails whichever test takes it."""
    if "db" not in request.keywords or "transactional_db" in request.fixturenames:
        yield
        return
    request.getfixturevalue("db")  # set up first, so torn down after this check
    yield
    if connection.needs_rollback:  # the test ended inside a failed transaction, on purpose
        return
    wrong = []
    for seat in Seat.objects.select_related("game"):
        game, expected = seat.game, False
        if seat.user_id is not None and game.status == GameStatus.IN_PROGRESS:
            match = store.match_of(game)
            if match.contenders:
                expected = (
                    seat.position in match.contenders and match.first_rolls[seat.position] is None
                )
            else:
                expected = game.current_seat == seat.position
        if seat.on_turn != expected:
            wrong.append((seat.game_id, seat.position, seat.on_turn))
    assert not wrong, wrong


@pytest.fixture
def make_user(db: None) -> Callable[..., User]:
    return factories.make_user


@pytest.fixture
def client_for(db: None) -> Callable[..., Client]:
    return factories.client_for


@pytest.fixture
def player(make_user: Callable[..., User]) -> User:
    return make_user("alice", display_name="Alice")


@pytest.fixture
def alice_client(player: User) -> Client:
    return factories.client_for(player)


@pytest.fixture
def game(player: User) -> Game:
    return services.start_game(owner=player)


@pytest.fixture
def roll(player: User) -> Callable[..., store.SeatedGame]:
    """Roll scripted dice in ``game`` as its player: ``roll(game, 1, 2, 3, 4, 5)``."""

    def do(game: Game, *dice: int, held: Sequence[bool] | None = None) -> store.SeatedGame:
        return factories.roll_now(game, player, *dice, held=held)

    return do


@pytest.fixture
def fill_card() -> Callable[..., None]:
    return factories.fill_card


NOW = timezone.now()


@pytest.fixture
def finished(db: None) -> Callable[..., Score]:
    """Record a finished game: ``finished(user, 250, days_ago=3)``."""

    def make(user: User, total: int, *, days_ago: float = 0.0, **fields: Any) -> Score:
        return factories.finished_game(user, total, when=NOW - timedelta(days=days_ago), **fields)

    return make


@pytest.fixture
def next_dice(monkeypatch: pytest.MonkeyPatch) -> Callable[..., factories.ScriptedDice]:
    """Script the dice the server will roll next: ``next_dice(6, 6, 6, 6, 6)``."""
    from games import rules

    def script(*values: int) -> factories.ScriptedDice:
        dice = factories.ScriptedDice(*values)
        monkeypatch.setattr(rules, "system_dice", dice)
        return dice

    return script


# --- The perfect-play table, built once per test session (about a second) and shared --------


@pytest.fixture(scope="session")
def strategy_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return tmp_path_factory.mktemp("strategy")


@pytest.fixture(scope="session")
def table(strategy_dir: Path) -> StrategyTable:
    """The forced-Joker table of RULES.md, stored and memory-mapped as a server would use it."""
    # One process: forking from a test process that runs browser threads risks a deadlock.
    return ensure_table(strategy_dir, Convention.FORCED, processes=1).table


@pytest.fixture(scope="session")
def yatzy_table(strategy_dir: Path) -> StrategyTable:
    """Yatzy's table (docs/YATZY.md), stored beside Classic's (a few seconds)."""
    return ensure_table(strategy_dir, kind=rules.YATZY).table


@pytest.fixture
def strategy_ready(settings: Any, strategy_dir: Path, table: StrategyTable) -> Path:
    """The site reads the session's table (hints, computer players)."""
    settings.STRATEGY_DIR = strategy_dir
    return strategy_dir
