"""The Redis cache's connection pools are one per process, not one per request: under the ASGI
server each request (a game's stream among them) has cache objects of its own."""

from __future__ import annotations

import contextvars

from django.core.cache import CacheHandler

from yahtzee_site.redis_cache import RedisCache

SETTINGS = {"default": {"BACKEND": "yahtzee_site.redis_cache.RedisCache",
                        "LOCATION": "redis://127.0.0.1:6379/9"}}  # fmt: skip


def _pool_in_a_context_of_its_own(handler: CacheHandler) -> object:
    def pool() -> object:
        cache = handler["default"]
        assert isinstance(cache, RedisCache)
        return cache._cache._get_connection_pool(write=True)

    return contextvars.Context().run(pool)  # as two ASGI requests would each ask


def test_two_requests_share_one_connection_pool() -> None:
    handler = CacheHandler(SETTINGS)

    first, second = _pool_in_a_context_of_its_own(handler), _pool_in_a_context_of_its_own(handler)

    assert first is second


def test_another_database_has_a_pool_of_its_own() -> None:
    other = {"default": {**SETTINGS["default"], "LOCATION": "redis://127.0.0.1:6379/10"}}

    ours = _pool_in_a_context_of_its_own(CacheHandler(SETTINGS))
    theirs = _pool_in_a_context_of_its_own(CacheHandler(other))

    assert ours is not theirs


def test_every_command_goes_through_one_client_per_pool() -> None:
    # Django makes a client for every command; ours are kept with the pools they lend from.
    cache = CacheHandler(SETTINGS)["default"]
    assert isinstance(cache, RedisCache)

    reading, writing = cache._cache.get_client(), cache._cache.get_client(write=True)
    again = contextvars.Context().run(lambda: CacheHandler(SETTINGS)["default"]._cache.get_client())

    assert reading is writing is again
    assert reading.connection_pool is cache._cache._get_connection_pool(write=True)


def test_the_kept_client_reads_and_writes() -> None:
    cache = CacheHandler(SETTINGS)["default"]
    cache.set("kept-client", {"version": 3}, 30)

    assert cache.get_many(["kept-client", "missing"]) == {"kept-client": {"version": 3}}
    assert cache.add("kept-client", 1, 30) is False
    cache.delete("kept-client")
    assert cache.get("kept-client") is None
