"""Tasks for the worker's own tests: one that marks that it began, waits to be let go, then
marks that it finished; one that fails its first run."""

from __future__ import annotations

import os
import time
from pathlib import Path

from django.tasks import task

from yahtzee_site.tasking import retried


@task()
def mark_and_wait(*, folder: str) -> int:
    path = Path(folder)
    (path / f"began-{os.getpid()}").touch()
    while not (path / "release").exists():
        time.sleep(0.05)
    (path / "done").write_text(str(os.getpid()))
    return os.getpid()


@task()
@retried
def fail_once(*, folder: str, attempt: int = 1) -> None:
    (Path(folder) / f"run-{attempt}").touch()
    if attempt == 1:
        raise RuntimeError("the first run fails")
