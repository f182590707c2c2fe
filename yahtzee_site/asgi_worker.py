"""gunicorn's worker for the ASGI application: uvicorn's, as the site wants it.

- No lifespan protocol: Django has none (uvicorn would only say so in the log).
- At most ``ASGI_CONNECTIONS`` connections at once per worker (open streams and requests
  together); past that uvicorn answers 503, and a page refused a stream asks every second
  instead, so a full node sheds load rather than running out of memory or file descriptors.
"""

from __future__ import annotations

import os
from typing import Any

from uvicorn_worker import UvicornWorker

CONNECTIONS = int(os.environ.get("ASGI_CONNECTIONS", "12000"))


class Worker(UvicornWorker):  # type: ignore[misc]  # untyped base (no stubs)
    CONFIG_KWARGS: dict[str, Any] = {
        **UvicornWorker.CONFIG_KWARGS,
        "lifespan": "off",
        "limit_concurrency": CONNECTIONS,
        # A stream never finishes by itself: on a restart, wait this long, then cut the rest
        # (their pages reconnect to another worker and catch up).
        "timeout_graceful_shutdown": 5,
    }
