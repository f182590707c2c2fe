"""gunicorn's worker for the ASGI application: uvicorn's, as the site wants it.

- No lifespan protocol: Django has none (uvicorn would only say so in the log).
- At most ``ASGI_CONNECTIONS`` connections at once per worker (open streams and requests
  together); past that uvicorn answers 503, and a page refused a stream asks every second
  instead, so a full node sheds load rather than running out of memory or file descriptors.
- A client has ``ASGI_REQUEST_TIMEOUT`` seconds to send its whole request (head, and body if
  any), counted from the connection and, on a kept-alive connection, from the end of the
  previous answer; past that the connection is closed. uvicorn (0.55) has no such deadline
  (its ``timeout_keep_alive`` ends only once a byte arrives, its connection limit counts every
  socket), so sockets that send nothing or half a request took every connection for good:
  12,100 of them and ``/healthz`` answered 503 until they went. A stream's request came whole,
  so an open stream is never cut. Served directly (``make run``) this is the only guard;
  behind nginx (deploy/) nginx's own timeouts come first.
"""

from __future__ import annotations

import asyncio
import logging
import os
from typing import Any

import h11
from uvicorn.protocols.http.h11_impl import H11Protocol
from uvicorn_worker import UvicornWorker

CONNECTIONS = int(os.environ.get("ASGI_CONNECTIONS", "12000"))
REQUEST_TIMEOUT = float(os.environ.get("ASGI_REQUEST_TIMEOUT", "10"))

log = logging.getLogger("uvicorn.error")

_SENDING = (h11.IDLE, h11.SEND_BODY)
"""The client's states in which the server waits for its request: none yet, or its body."""


class DeadlineProtocol(H11Protocol):
    """uvicorn's HTTP/1.1 protocol (h11) with a deadline for the client's request."""

    request_timeout = REQUEST_TIMEOUT

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._deadline: asyncio.TimerHandle | None = None

    def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]  # as uvicorn's own
        super().connection_made(transport)
        self._watch()

    def connection_lost(self, exc: Exception | None) -> None:
        self._stop_watching()
        super().connection_lost(exc)

    def handle_events(self) -> None:
        # Also called once an answer is complete, to read the next request of the connection.
        super().handle_events()
        self._watch()

    def _watch(self) -> None:
        """Start the deadline when the server begins to wait for a request (no restart while
        it arrives in parts), stop it once the request is whole."""
        waiting = (
            self.conn.their_state in _SENDING
            and not self.transport.is_closing()
            and self.transport.get_protocol() is self  # not handed on (an upgrade)
        )
        if not waiting:
            self._stop_watching()
        elif self._deadline is None:
            self._deadline = self.loop.call_later(self.request_timeout, self._too_slow)

    def _stop_watching(self) -> None:
        if self._deadline is not None:
            self._deadline.cancel()
            self._deadline = None

    def _too_slow(self) -> None:
        self._deadline = None
        if not self.transport.is_closing():
            log.debug("Connection closed: no whole request within %s s", self.request_timeout)
            self.transport.close()


class Worker(UvicornWorker):  # type: ignore[misc]  # untyped base (no stubs)
    CONFIG_KWARGS: dict[str, Any] = {
        **UvicornWorker.CONFIG_KWARGS,
        # h11 with the deadline, even where httptools is installed (uvicorn would pick it).
        "http": DeadlineProtocol,
        "lifespan": "off",
        "limit_concurrency": CONNECTIONS,
        # A stream never finishes by itself: on a restart, wait this long, then cut the rest
        # (their pages reconnect to another worker and catch up).
        "timeout_graceful_shutdown": 5,
    }
