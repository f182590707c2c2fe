"""One read for many streams: news of a key (a tournament) starts a read of it, at most one
every ``every`` seconds per key in this process, on a thread of its own; what the read gives is
handed to the hub (``broadcast.hub.deliver``), which sends every stream of the key the same
bytes. News that comes while a read is due or running is folded into it (or into one more read
just after it): never a read per news, never a read per stream.

A read is started at once by news after a quiet spell (a move's standings are out within the
read's own time), and no sooner than ``every`` after the last one otherwise.
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor

from games.play import broadcast

log = logging.getLogger(__name__)

Read = Callable[[int], broadcast.Message | None]


class Coalescer:
    """Reads of ``read(key)`` for the streams of this process, coalesced per key."""

    def __init__(self, read: Read, *, every: float = 0.5, workers: int = 2, name: str) -> None:
        self.read, self.every, self.name = read, every, name
        self._lock = threading.Lock()
        self._changed = threading.Condition(self._lock)
        self._due: dict[int, float] = {}
        """Each key with a read to start, and from when (``time.monotonic``)."""
        self._running: set[int] = set()
        self._again: set[int] = set()
        """Keys whose news came while their read ran: read once more after it."""
        self._started: dict[int, float] = {}
        self._pool = ThreadPoolExecutor(workers, thread_name_prefix=name)
        self._scheduler: threading.Thread | None = None

    def news(self, key: int) -> None:
        """``key`` changed (from any thread): its read is due, if none is due already (one
        running started before the change: one more is due after it)."""
        self._due_read(key, again=True)

    def want(self, key: int) -> None:
        """A stream of ``key`` opened with nothing read for it here: a read, unless one is due
        or running (a running one is sent to the new stream too, and any change since it
        started brings its own news)."""
        self._due_read(key, again=False)

    def _due_read(self, key: int, *, again: bool) -> None:
        with self._lock:
            if key in self._running:
                if again:
                    self._again.add(key)
                return
            if key in self._due:
                return  # folded into the read already due
            self._due[key] = max(time.monotonic(), self._started.get(key, 0.0) + self.every)
            if self._scheduler is None or not self._scheduler.is_alive():
                self._scheduler = threading.Thread(
                    target=self._schedule, name=self.name, daemon=True
                )
                self._scheduler.start()
            self._changed.notify()

    def settle(self, within: float = 5.0) -> bool:
        """Wait until no read is due or running (the tests' lever); whether that came."""
        deadline = time.monotonic() + within
        with self._lock:
            while self._due or self._running:
                left = deadline - time.monotonic()
                if left <= 0:
                    return False
                self._changed.wait(min(left, 0.05))
        return True

    def _schedule(self) -> None:
        with self._lock:
            while True:
                now = time.monotonic()
                for key in [key for key, at in self._due.items() if at <= now]:
                    del self._due[key]
                    self._running.add(key)
                    self._started[key] = now
                    self._pool.submit(self._run, key)
                for key in [k for k, at in self._started.items() if at < now - self.every]:
                    if key not in self._running and key not in self._due:
                        del self._started[key]
                soonest = min(self._due.values(), default=None)
                self._changed.wait(None if soonest is None else max(0.0, soonest - now))

    def _run(self, key: int) -> None:
        try:
            message = self.read(key)
            if message is not None:
                broadcast.hub.deliver(message)
        except Exception:  # the next news reads it again; the pages poll meanwhile
            log.exception("%s: the read of %s failed", self.name, key)
        finally:
            with self._lock:
                self._running.discard(key)
                if key in self._again:
                    self._again.discard(key)
                    self._due[key] = self._started[key] + self.every
                    self._changed.notify()
