"""This process's ear on Redis: one daemon thread subscribed to the site's channel
(``broadcast.channel``), handing every message published on any node to this process's
``broadcast.hub``; and whether a stream may be had now (``ready``: subscribed, or no Redis to
hear). Without ``REDIS_URL`` there is nothing to listen to: ``publish`` delivers in process."""

from __future__ import annotations

import asyncio
import json
import os
import threading
import time
from collections.abc import Callable, Iterable

import redis
import redis.asyncio as aioredis

from games.play.broadcast import channel, hub, log, redis_url, standings_news

LISTENER_NAME = f"yahtzee-live-{os.getpid()}"
"""How this process's listener names itself to Redis (``CLIENT LIST`` shows it)."""


class RedisListener:
    """A daemon thread subscribed to the channel, handing every message to ``hub``.

    After each (re)subscription it asks every game with a stream here to recheck its version
    (``resync``), and every tournament's standings to be read again: a message published while
    it was not subscribed is never lost for good.
    """

    RETRY_SECONDS = (0.2, 0.5, 1.0, 2.0, 5.0)

    def __init__(self, url: str, name: str, resync: Callable[[Iterable[int]], None]) -> None:
        self.url, self.name, self.resync = url, name, resync
        self.subscribed = threading.Event()
        self.thread = threading.Thread(target=self._run, name="live-redis", daemon=True)
        self.thread.start()

    def _run(self) -> None:
        asyncio.run(self._listen())

    async def _listen(self) -> None:
        failures = 0
        while True:
            try:
                # A connection that died without a word is found out within a health check.
                client = aioredis.Redis.from_url(
                    self.url,
                    socket_connect_timeout=2,
                    health_check_interval=15,
                    client_name=LISTENER_NAME,
                )
                async with client.pubsub(ignore_subscribe_messages=True) as pubsub:
                    await pubsub.subscribe(self.name)
                    self.subscribed.set()
                    failures = 0
                    await asyncio.to_thread(self.resync, hub.games())
                    for tournament_id in hub.tournaments():  # their standings read afresh
                        hub.deliver(standings_news(tournament_id))
                    while True:
                        # Waking every 15 s at least: the next read then pings (the health
                        # check), so a connection that died silently raises and is replaced.
                        message = await pubsub.get_message(timeout=15.0)
                        if message is not None and message.get("type") == "message":
                            hub.deliver(json.loads(message["data"]))
            except (redis.RedisError, OSError, ValueError) as exc:
                self.subscribed.clear()
                pause = self.RETRY_SECONDS[min(failures, len(self.RETRY_SECONDS) - 1)]
                failures += 1
                log.warning(
                    "The streams' Redis listener lost %s (%s); again in %ss", self.url, exc, pause
                )
                await asyncio.sleep(pause)


_listeners: dict[tuple[str, str], RedisListener] = {}
_listeners_lock = threading.Lock()


def listener(resync: Callable[[Iterable[int]], None]) -> RedisListener | None:
    """This process's Redis listener (started on first use), or ``None`` without Redis."""
    url = redis_url()
    if not url:
        return None
    key = (url, channel())
    with _listeners_lock:
        if key not in _listeners:
            _listeners[key] = RedisListener(url, key[1], resync)
        return _listeners[key]


async def ready(resync: Callable[[Iterable[int]], None], *, within: float = 3.0) -> bool:
    """Whether this process hears every change now (subscribed to Redis, or no Redis to hear)."""
    found = listener(resync)
    if found is None:
        return True
    deadline = time.monotonic() + within
    while not found.subscribed.is_set():
        if time.monotonic() > deadline:
            return False
        await asyncio.sleep(0.02)
    return True
