"""SQLite's write-ahead log copied back into the database between requests, not in one.

In WAL mode each commit appends its pages to the log, and by default the commit that takes the
log past 1,000 pages also copies them into the database file (a checkpoint), with a sync of each
file under ``synchronous=NORMAL``: one write in about a hundred took 12-16 ms longer (counted
in process on the bench's database: the commits' median 0.09 ms, their mean 0.2 ms). Whoever
made that move waited for it, and so did the other worker's next write.

Here the connections' own checkpoint waits for ``settings.SQLITE_AUTOCHECKPOINT_PAGES`` (a
safety net for a process that serves no requests: a management command, a bulk fill), and a
served process (``settle``, called by the WSGI and ASGI entry points)
checkpoints after an answer has gone (Django's ``request_finished``), at most once every
``CHECKPOINT_SECONDS``. A ``PASSIVE`` checkpoint copies what no reader still needs and waits for
nobody: readers and writers carry on meanwhile.
"""

from __future__ import annotations

import time
from typing import Any

from django.core.signals import request_finished
from django.db import connections

CHECKPOINT_SECONDS = 1.0

_last_checkpoint = -CHECKPOINT_SECONDS


def settle() -> None:
    """Call once the application is loaded, in each worker process."""
    request_finished.connect(checkpoint_between_requests, dispatch_uid="wal.checkpoint")


def checkpoint_between_requests(**kwargs: Any) -> bool:
    """After an answer: checkpoint each open SQLite database's log, if the last checkpoint of
    this process is ``CHECKPOINT_SECONDS`` old. Whether it did."""
    global _last_checkpoint
    now = time.monotonic()
    if now - _last_checkpoint < CHECKPOINT_SECONDS:
        return False
    done = False
    for connection in connections.all(initialized_only=True):
        if connection.vendor != "sqlite" or connection.connection is None:
            continue  # a server database, or closed after the request (nothing to reopen for)
        if connection.in_atomic_block:
            continue  # a test's transaction: a checkpoint inside one would not be one
        with connection.cursor() as cursor:
            cursor.execute("PRAGMA wal_checkpoint(PASSIVE)")
        done = True
    if done:
        _last_checkpoint = now
    return done
