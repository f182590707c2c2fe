"""The site's task worker: django-tasks-db's ``db_worker``, which first puts back in the queue
what a worker killed halfway left running (``yahtzee_site.tasking``: tasks are idempotent).

``make run`` starts one beside the server; deploy/ runs it as a service of its own. A worker's
id names its host and process, so one starting again knows which of its host's tasks were
left by a process that is gone; a task left running on another host is put back once it has
run for ``TASK_LEASE`` seconds, far past any task of the site's.
"""

from __future__ import annotations

import os
import socket
from datetime import timedelta
from typing import Any

from django.conf import settings
from django.db.models import Q
from django.tasks import TaskResultStatus
from django.utils import timezone
from django.utils.crypto import get_random_string
from django_tasks_db.management.commands import db_worker
from django_tasks_db.models import DBTaskResult


def worker_id() -> str:
    """``host:pid:random``: unique, and telling which process on which host ran a task."""
    return f"{socket.gethostname()[:30]}:{os.getpid()}:{get_random_string(8)}"


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True


def left_running(*, host: str | None = None) -> list[DBTaskResult[Any, Any]]:
    """The tasks marked running whose worker is gone: a process of this host that no longer
    runs, or any worker that has held its task past ``TASK_LEASE``."""
    host = host or socket.gethostname()[:30]
    lease = timezone.now() - timedelta(seconds=settings.TASK_LEASE)
    orphans = []
    for result in DBTaskResult.objects.filter(status=TaskResultStatus.RUNNING):
        last = result.worker_ids[-1] if result.worker_ids else ""
        on_host, _, rest = last.partition(":")
        pid = rest.split(":", 1)[0]
        gone = on_host == host and pid.isascii() and pid.isdigit() and not _alive(int(pid))
        if gone or (result.started_at is not None and result.started_at < lease):
            orphans.append(result)
    return orphans


def requeue_left_running(*, host: str | None = None) -> int:
    """Put the tasks ``left_running`` back in the queue; how many. Conditional on their still
    being marked running, so a worker finishing one meanwhile keeps its result."""
    ids = [result.id for result in left_running(host=host)]
    return DBTaskResult.objects.filter(Q(id__in=ids), status=TaskResultStatus.RUNNING).update(
        status=TaskResultStatus.READY, started_at=None
    )


class Command(db_worker.Command):
    help = "Run the site's tasks (mail, grading, the trainer's harvest); a killed worker's again."

    def add_arguments(self, parser: Any) -> None:
        super().add_arguments(parser)
        parser.set_defaults(worker_id=worker_id(), reload=False)

    def handle(self, *args: Any, **options: Any) -> None:
        self.configure_logging(options["verbosity"])
        if requeued := requeue_left_running():
            db_worker.logger.warning("Put back %d task(s) a stopped worker had left running.",
                                     requeued)  # fmt: skip
        super().handle(*args, **options)
