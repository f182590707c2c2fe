"""gunicorn's settings for one node's stream pool behind nginx (``gunicorn -c
deploy/gunicorn_streams.conf.py yahtzee_site.asgi``): the game's streams of changes
(``/play/<id>/stream/``, routed here by deploy/nginx.conf), beside the sync pool of
deploy/gunicorn.conf.py that serves every page and move.

- uvicorn's worker (``yahtzee_site.asgi_worker.Worker``): one event loop holds thousands of
  idle streams, each a socket and a few kilobytes, no thread; an event costs a wake-up and one
  small write per stream. One worker a core (``GUNICORN_STREAM_WORKERS``): the node's moves are
  told to each worker by Redis, and each fans them out to its own streams.
- ``timeout`` is the workers' heartbeat here, not a request's limit: a stream lasts up to half
  an hour (games/play/stream.py, LIFETIME), then its page reconnects.
- No ``max_requests``: recycling a worker would cut every stream it holds, for no leak seen.
- The worker's own guards hold here too: ``ASGI_CONNECTIONS`` connections at most, and a
  connection that has not sent its whole request within ``ASGI_REQUEST_TIMEOUT`` seconds
  (10) is closed; an open stream is never cut by it (its request came whole).
- Each stream is an open file: raise the node's limit (``ulimit -n`` / LimitNOFILE=65536 in
  the systemd unit) beyond the streams it should hold, and nginx's worker_connections too.
"""

from __future__ import annotations

import os

bind = os.environ.get("GUNICORN_STREAMS_BIND", "127.0.0.1:8001")
workers = int(os.environ.get("GUNICORN_STREAM_WORKERS", str(os.cpu_count() or 2)))
worker_class = "yahtzee_site.asgi_worker.Worker"
timeout = 30
graceful_timeout = 10
keepalive = 5
forwarded_allow_ips = ""
accesslog = os.environ.get("GUNICORN_ACCESS_LOG") or None
loglevel = os.environ.get("GUNICORN_LOG_LEVEL", "info")
