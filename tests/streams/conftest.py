"""The stream tests' players and game, and the two ways a change reaches a stream: this process's
broadcast, and Redis pub/sub when one answers at ``TEST_REDIS_URL``."""

from __future__ import annotations

import os
from typing import Any

import pytest
import redis

from accounts.models import User
from games.models import Game
from games.tables import services
from tests.factories import make_user

TEST_REDIS_URL = os.environ.get("TEST_REDIS_URL", "redis://127.0.0.1:6379/7")


def _redis_answers() -> bool:
    try:
        return bool(redis.Redis.from_url(TEST_REDIS_URL, socket_connect_timeout=1).ping())
    except redis.RedisError:
        return False


@pytest.fixture(params=["in-process", "redis"])
def transport(request: pytest.FixtureRequest, settings: Any) -> str:
    """Each test twice: changes told in this process, and through Redis pub/sub."""
    if request.param == "redis":
        if not _redis_answers():
            pytest.skip(f"no Redis answers at {TEST_REDIS_URL}")
        settings.LIVE_REDIS_URL = TEST_REDIS_URL
    else:
        settings.LIVE_REDIS_URL = ""
    return str(request.param)


@pytest.fixture
def alice() -> User:
    return make_user("alice", display_name="Alice")


@pytest.fixture
def bob() -> User:
    return make_user("bob", display_name="Bob")


@pytest.fixture
def online(alice: User, bob: User) -> Game:
    """Alice and Bob at one table, each on their own device; Alice plays first."""
    game = services.open_game(owner=alice, invites=1, kind="classic", roll_for_first=False)
    services.join_game(token=game.invitations.get().token, user=bob)
    services.begin_game(game_id=game.pk, user=alice)
    game.refresh_from_db()
    return game
