"""The shared cache on Redis (django-redis) keeps its connection pools once per process, not once
per request: under the ASGI server each request (a game's stream among them, half an hour long)
has cache objects of its own, and 10,000 open streams must not hold 10,000 Redis connections."""

from __future__ import annotations

import asyncio
import contextvars
import functools
import os
import threading
from collections.abc import Callable
from typing import Any

import pytest
import redis
from django.core.cache import BaseCache, caches
from django_redis import get_redis_connection

from tests.streams.conftest import TEST_REDIS_URL

BACKEND = "django_redis.cache.RedisCache"
OTHER_REDIS_URL = TEST_REDIS_URL.rsplit("/", 1)[0] + "/10"
REQUESTS = 50


def _named_url(test: str) -> str:
    """``TEST_REDIS_URL`` with a connection name of this test's and process's own: Redis's
    ``CLIENT LIST`` then tells this test's connections from any other's."""
    return f"{TEST_REDIS_URL}?client_name=yahtzee-test-{test}-{os.getpid()}"


def _connections(url: str) -> int:
    """The connections Redis holds open under ``url``'s connection name."""
    name = url.rsplit("client_name=", 1)[1]
    with redis.Redis.from_url(TEST_REDIS_URL) as counter:
        return sum(client["name"] == name for client in counter.client_list())


def _use(settings: Any, url: str) -> None:
    """The site's cache on Redis at ``url``, as with ``REDIS_URL`` set (its keys prefixed, apart
    from those of a suite run with the same Redis as its cache)."""
    settings.CACHES = {
        "default": {"BACKEND": BACKEND, "LOCATION": url, "KEY_PREFIX": "test-redis-cache"}
    }


def _in_a_context_of_its_own[T](work: Callable[[], T]) -> T:
    return contextvars.Context().run(work)  # as two ASGI requests would each ask


def _pool() -> object:
    """The connection pool the cache's client lends from (django-redis's documented client)."""
    return get_redis_connection("default").connection_pool


def test_two_requests_share_one_connection_pool(settings: Any) -> None:
    _use(settings, TEST_REDIS_URL)

    first = _in_a_context_of_its_own(lambda: caches["default"])
    second = _in_a_context_of_its_own(lambda: caches["default"])

    assert first is not second  # each request has a cache object of its own ...
    assert _in_a_context_of_its_own(_pool) is _in_a_context_of_its_own(_pool)  # ... one pool


def test_another_database_has_a_pool_of_its_own(settings: Any) -> None:
    _use(settings, TEST_REDIS_URL)
    ours = _in_a_context_of_its_own(_pool)
    _use(settings, OTHER_REDIS_URL)
    theirs = _in_a_context_of_its_own(_pool)

    assert ours is not theirs


def test_streams_open_at_once_hold_one_connection_between_them(settings: Any) -> None:
    # Each stream a task in a context of its own, as the ASGI server runs every request; each
    # has read the cache (its session) and then waits, its cache object kept.
    url = _named_url("tasks")
    _use(settings, url)

    async def stream(opened: list[BaseCache], release: asyncio.Event) -> None:
        cache = caches["default"]
        cache.get("session")
        opened.append(cache)
        await release.wait()

    async def held() -> tuple[list[BaseCache], int]:
        opened: list[BaseCache] = []
        release = asyncio.Event()
        streams = [
            asyncio.create_task(stream(opened, release), context=contextvars.Context())
            for _ in range(REQUESTS)
        ]
        while len(opened) < REQUESTS:
            await asyncio.sleep(0)
        connected = _connections(url)
        release.set()
        await asyncio.gather(*streams)
        return opened, connected

    opened, connected = asyncio.run(held())

    assert len({id(cache) for cache in opened}) == REQUESTS
    assert connected == 1


def test_requests_in_threads_of_their_own_hold_one_connection_between_them(
    settings: Any,
) -> None:
    # As sync views run under the ASGI server: a thread each, one command at a time.
    url = _named_url("threads")
    _use(settings, url)
    one_at_a_time, all_opened = threading.Lock(), threading.Barrier(REQUESTS + 1)
    release = threading.Event()
    opened: list[BaseCache] = []

    def request() -> None:
        cache = caches["default"]
        with one_at_a_time:
            cache.get("session")
            opened.append(cache)
        all_opened.wait(timeout=10)
        release.wait(timeout=10)

    threads = [threading.Thread(target=request) for _ in range(REQUESTS)]
    for thread in threads:
        thread.start()
    try:
        all_opened.wait(timeout=10)
        connected = _connections(url)
    finally:
        release.set()
        for thread in threads:
            thread.join()

    assert len({id(cache) for cache in opened}) == REQUESTS
    assert connected == 1


def test_a_requests_commands_go_through_one_client(
    settings: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Django's own backend builds a redis.Redis for every command (~60 µs each: its table of
    # reply parsers); django-redis one per cache object, so one a request under ASGI.
    _use(settings, TEST_REDIS_URL)
    built: list[redis.Redis] = []
    real = redis.Redis.__init__

    @functools.wraps(real)
    def counted(client: redis.Redis, *args: Any, **kwargs: Any) -> None:
        built.append(client)
        real(client, *args, **kwargs)

    monkeypatch.setattr(redis.Redis, "__init__", counted)

    def request() -> None:
        cache = caches["default"]
        cache.set("one-client", 3, 30)
        cache.get_many(["one-client", "missing"])
        cache.add("one-client", 4, 30)
        cache.delete("one-client")

    _in_a_context_of_its_own(request)

    assert len(built) == 1


def test_the_cache_calls_the_site_makes(settings: Any) -> None:
    _use(settings, TEST_REDIS_URL)
    cache = caches["default"]
    cache.set("calls", {"version": 3}, 30)

    assert cache.get_many(["calls", "missing"]) == {"calls": {"version": 3}}
    assert cache.add("calls", 1, 30) is False
    assert cache.get_or_set("calls-made", lambda: "made", timeout=30) == "made"
    cache.set_many({"calls-a": 1.5, "calls-b": 2.5}, timeout=30)
    assert cache.get("calls-b") == 2.5
    cache.set("calls-kept", 7, timeout=None)
    assert get_redis_connection().ttl(cache.make_and_validate_key("calls-kept")) == -1
    cache.delete("calls")
    assert cache.get("calls") is None


def test_a_whole_number_set_beside_the_cache_reads_back_as_itself(settings: Any) -> None:
    # games.play.broadcast.publish_and_set writes a game's version with the streams' own
    # client, in the pipeline that publishes it; the update check reads it through the cache.
    _use(settings, TEST_REDIS_URL)
    cache = caches["default"]
    with redis.Redis.from_url(TEST_REDIS_URL) as streams_client:
        streams_client.set(cache.make_and_validate_key("game-version:7"), 41)

    assert cache.get("game-version:7") == 41
    assert cache.incr("game-version:7") == 42
