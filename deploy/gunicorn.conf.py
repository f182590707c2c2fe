"""gunicorn's settings for one node behind nginx (``gunicorn -c deploy/gunicorn.conf.py
yahtzee_site.wsgi``), chosen from ``make bench`` (docs/deployment.md; figures there).

- Sync workers, one thread each, as many as the machine has cores (``GUNICORN_WORKERS``
  overrides). A move is CPU (Python rendering the partial) plus two or three short queries.
  Measured (``make bench``'s scale-out run, 2 nodes on one 2-core machine with nginx,
  PostgreSQL, Redis and 4 playing clients, 15 s each): 1 worker a node 96.5 req/s (roll p95
  90 ms), 2 a node 125.6 req/s (roll p95 61 ms), 4 a node 124.4 req/s (roll p95 60 ms): past
  one worker a core, more workers only queue for the same CPU and cost memory. Threads would
  help a worker waiting on slow I/O; here nginx does the slow part (it buffers requests and
  answers), so a sync worker is never held by a slow client.
- ``timeout`` 30 s: the slowest request in the bench is far under a second (p99), and a worker
  must outlive SQLite's 20 s busy timeout so it reports a lock instead of being killed.
  nginx gives a node 35 s (deploy/proxy_headers.conf), so gunicorn always answers first.
- ``max_requests`` recycles a worker now and then (with jitter, never all at once): a leak
  cannot grow without end, and the bench's fault run shows a lost worker costs one request.
"""

from __future__ import annotations

import os

bind = os.environ.get("GUNICORN_BIND", "127.0.0.1:8000")
workers = int(os.environ.get("GUNICORN_WORKERS", str(os.cpu_count() or 2)))
worker_class = "sync"
threads = 1
timeout = 30
graceful_timeout = 20
keepalive = 2
max_requests = 2000
max_requests_jitter = 200
# nginx on the same machine or a private network: gunicorn itself believes no forwarded
# header; the site reads X-Forwarded-For/-Proto as TRUSTED_PROXY_COUNT and
# TRUST_X_FORWARDED_PROTO say.
forwarded_allow_ips = ""
accesslog = os.environ.get("GUNICORN_ACCESS_LOG") or None
loglevel = os.environ.get("GUNICORN_LOG_LEVEL", "info")
