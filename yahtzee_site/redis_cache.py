"""Django's Redis cache, with its connection pools kept once per process instead of once per
request under ASGI.

Django keeps a cache object per async context, so under the ASGI server every request makes its
own, with connection pools of its own that live as long as the request. A game's stream is a
request that lasts half an hour: each would hold a Redis connection of its own, idle, and ten
thousand streams would be ten thousand connections (Redis refuses past ``maxclients``, 10,000 by
default). Shared, the pools lend a connection for each command and take it back.

The client in front of each pool is kept too: Django makes a ``redis.Redis`` for every command,
and making one fills its table of ~170 reply parsers (60 µs here, against 150 µs for the whole
round trip of a GET): a third of the cost of the update check's two reads. A client holds no
connection of its own (it borrows one from the pool for each command), so one is safe to share
between threads, as redis-py documents.
"""

from __future__ import annotations

import threading
from typing import Any

from django.core.cache.backends.redis import RedisCache as DjangoRedisCache
from django.core.cache.backends.redis import RedisCacheClient

_pools: dict[str, dict[int, Any]] = {}
# Each pool's client, by the id of the pool (pools are never let go).
_clients: dict[int, Any] = {}
_lock = threading.Lock()


class SharedPoolsClient(RedisCacheClient):
    def __init__(self, servers: list[str], **options: Any) -> None:
        super().__init__(servers, **options)
        key = repr((servers, sorted(options.items())))
        with _lock:
            # Every client of the same servers and options reads and fills the same pools.
            self._pools = _pools.setdefault(key, {})

    def get_client(self, key: Any = None, *, write: bool = False) -> Any:
        django: Any = self  # the stubs leave out the private helpers this overrides around
        pool = django._get_connection_pool(write)
        client = _clients.get(id(pool))
        if client is None:
            client = _clients.setdefault(id(pool), django._client(connection_pool=pool))
        return client


class RedisCache(DjangoRedisCache):
    def __init__(self, server: str | list[str], params: dict[str, Any]) -> None:
        super().__init__(server, params)
        self._class = SharedPoolsClient
