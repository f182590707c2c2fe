"""Slow work off the request, on Django's Tasks framework (``django.tasks``) as the site uses it.

- ``later(task, **kwargs)`` enqueues ``task`` once the current transaction commits: the rows
  the task reads are there when a worker picks it up, and a move rolled back enqueues nothing.
  Enqueuing itself never fails the request: a queue that refuses is logged. With ``run_after``,
  the worker runs it no sooner (where the backend can wait; else at once, so a task run early
  must find nothing due and do nothing: the tournaments' clock is such).
- ``@retried`` (under ``@task``): a task that raises is logged with its arguments and enqueued
  again, ``RETRY_AFTER`` later each time, up to ``ATTEMPTS`` runs in all. Every task of the
  site is idempotent (a claimed row, a unique key, a check of what is done already), so a run
  that is repeated (a retry, or a worker killed halfway: ``manage.py run_tasks`` runs it again)
  changes nothing twice.

The backend is ``TASKS``' (settings): the database queue of ``django-tasks-db`` served by
``manage.py run_tasks``, which ``make run`` starts beside the server; tests run tasks at once.
"""

from __future__ import annotations

import functools
import logging
from collections.abc import Callable
from datetime import datetime, timedelta
from typing import Any, Final

from django.db import transaction
from django.tasks import Task
from django.utils import timezone
from django.utils.module_loading import import_string

logger = logging.getLogger(__name__)

ATTEMPTS: Final = 5
"""Runs of a task in all, its first included, before it is given up (and logged as such)."""
RETRY_AFTER: Final = (timedelta(seconds=10), timedelta(minutes=1), timedelta(minutes=10),
                      timedelta(hours=1))  # fmt: skip
"""How long before each retry (the last one again for any later)."""


def later(task: Task[Any, Any], /, *, run_after: datetime | None = None, **kwargs: Any) -> None:
    """Enqueue ``task`` with ``kwargs`` once the current transaction commits (at once outside
    one), to run no sooner than ``run_after`` when given."""
    enqueue = functools.partial(_enqueue, task, kwargs, run_after=run_after)
    transaction.on_commit(enqueue, robust=True)


def _enqueue(
    task: Task[Any, Any],
    kwargs: dict[str, Any],
    *,
    attempt: int = 1,
    run_after: datetime | None = None,
) -> None:
    try:
        if run_after is not None and task.get_backend().supports_defer:
            task = task.using(run_after=run_after)
        if attempt > 1:
            wait = RETRY_AFTER[min(attempt - 2, len(RETRY_AFTER) - 1)]
            if task.get_backend().supports_defer:
                task = task.using(run_after=timezone.now() + wait)
            kwargs = kwargs | {"attempt": attempt}
        task.enqueue(**kwargs)
    except Exception:
        logger.exception("Could not enqueue %s(%s)", task.name, kwargs)


def retried[**P, R](function: Callable[P, R]) -> Callable[P, R]:
    """Run ``function`` (a task's, keyword arguments only, among them ``attempt``); when it
    raises, log it and enqueue the task again, then raise (the queue marks this run failed)."""

    @functools.wraps(function)
    def run(*args: P.args, **kwargs: P.kwargs) -> R:
        attempt = int(kwargs.get("attempt", 1))  # type: ignore[call-overload]  # an int or none
        try:
            return function(*args, **kwargs)
        except Exception:
            given = {k: v for k, v in kwargs.items() if k != "attempt"}
            name = f"{function.__module__}.{function.__qualname__}"
            if attempt >= ATTEMPTS:
                logger.exception("%s(%s) failed %d times: given up.", name, given, attempt)
                raise
            logger.exception("%s(%s) failed (run %d): it runs again.", name, given, attempt)
            task = import_string(name)  # the module's name for it is the Task object
            _enqueue(task, given, attempt=attempt + 1)
            raise

    return run
