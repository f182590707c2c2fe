"""A move's version goes to the shared cache (for the update check) and to the streams (Redis
pub/sub): in one round trip where both are the same Redis, in two where they are not."""

from __future__ import annotations

import json
from typing import Any

import pytest
import redis
from django.core.cache import cache

from accounts.models import User
from games.models import Game
from games.play import broadcast, live
from tests.factories import roll_now
from tests.streams.conftest import TEST_REDIS_URL, _redis_answers

pytestmark = pytest.mark.django_db

_BASE, _NUMBER = TEST_REDIS_URL.rsplit("/", 1)
OTHER_REDIS_URL = f"{_BASE}/{int(_NUMBER) + 1}"
"""The next database of the tests' Redis: CI's two suites at once (7 and 12) never share one."""


@pytest.fixture
def shared_redis(settings: Any) -> str:
    """The shared cache on Redis (as with REDIS_URL set), the update check reading it."""
    if not _redis_answers():
        pytest.skip(f"no Redis answers at {TEST_REDIS_URL}")
    backend = {"BACKEND": "django_redis.cache.RedisCache", "LOCATION": TEST_REDIS_URL}
    settings.CACHES = {"default": backend, "presence": backend}
    settings.GAME_VERSIONS_IN_CACHE = True
    cache.clear()
    return TEST_REDIS_URL


class Counted:
    """Every command sent to Redis by the streams' client, by the round trip it went in."""

    def __init__(self, monkeypatch: pytest.MonkeyPatch) -> None:
        self.trips: list[list[str]] = []
        real_execute = redis.client.Pipeline.execute
        real_publish = redis.Redis.publish

        def execute(pipe: redis.client.Pipeline, *args: Any, **kwargs: Any) -> Any:
            self.trips.append([str(command[0][0]) for command in pipe.command_stack])
            return real_execute(pipe, *args, **kwargs)

        def publish(client: redis.Redis, *args: Any, **kwargs: Any) -> Any:
            if not isinstance(client, redis.client.Pipeline):  # a pipeline's is queued
                self.trips.append(["PUBLISH"])
            return real_publish(client, *args, **kwargs)

        monkeypatch.setattr(redis.client.Pipeline, "execute", execute)
        monkeypatch.setattr(redis.Redis, "publish", publish)


def told(game: Game, player: User, capture: Any, url: str) -> dict[str, Any]:
    """Roll in ``game`` and commit; the message the streams' channel carried."""
    listener = redis.Redis.from_url(url).pubsub()
    listener.subscribe(broadcast.channel())
    try:
        confirmed = listener.get_message(timeout=2.0)  # subscribed before the move is made
        assert confirmed is not None and confirmed["type"] == "subscribe"
        with capture(execute=True):
            roll_now(game, player, 1, 2, 3, 4, 6)
        message = listener.get_message(timeout=2.0)
    finally:
        listener.close()
    assert message is not None, "the streams were told nothing"
    return dict(json.loads(message["data"]))


@pytest.mark.parametrize(
    ("streams_on", "trips"),
    [("the cache's Redis", [["SET", "PUBLISH"]]), ("another Redis", [["PUBLISH"]])],
)
def test_a_moves_version_and_news_go_together_where_one_redis_keeps_both(
    streams_on, trips, shared_redis, settings, alice, online, monkeypatch,
    django_capture_on_commit_callbacks,
) -> None:  # fmt: skip
    url = shared_redis if streams_on == "the cache's Redis" else OTHER_REDIS_URL
    settings.LIVE_REDIS_URL = url
    counted = Counted(monkeypatch)

    news = told(online, alice, django_capture_on_commit_callbacks, url)

    online.refresh_from_db()
    assert news["version"] == online.version and news["game"] == online.pk
    assert cache.get(live._key(online.pk)) == online.version  # the update check reads it
    # One round trip where the streams' Redis is the cache's; else the version went through
    # the cache's own client, and the news apart.
    assert counted.trips == trips
