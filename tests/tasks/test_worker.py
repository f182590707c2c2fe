"""The task worker as it runs beside the site (``manage.py run_tasks`` on the database queue):
a worker killed halfway through a task loses nothing, the next one runs it again; a task that
fails is run again later, its failure kept. Real processes on a database of the test's own."""

from __future__ import annotations

import json
import os
import signal
import sqlite3
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
TABLE = "django_tasks_database_dbtaskresult"


@pytest.fixture
def site(tmp_path: Path) -> Callable[..., subprocess.Popen[str]]:
    """``manage.py`` commands as the site runs them (its own settings, the database queue), on
    a fresh database in ``tmp_path``."""
    env = dict(os.environ, DEBUG="1", SQLITE_PATH=str(tmp_path / "db.sqlite3"))
    env.pop("DJANGO_SETTINGS_MODULE", None)
    env.pop("DATABASE_URL", None)

    def manage(*args: str) -> subprocess.Popen[str]:
        return subprocess.Popen(
            [sys.executable, "manage.py", *args],
            cwd=ROOT, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
        )  # fmt: skip

    migrated = manage("migrate", "-v0")
    assert migrated.wait(timeout=120) == 0, migrated.stdout and migrated.stdout.read()
    return manage


def enqueue(manage: Callable[..., subprocess.Popen[str]], task: str, folder: Path) -> None:
    code = f"from tests.tasks.worker_support import {task}; {task}.enqueue(folder={str(folder)!r})"
    shell = manage("shell", "--no-imports", "-c", code)
    assert shell.wait(timeout=60) == 0, shell.stdout and shell.stdout.read()


def results(tmp_path: Path) -> list[tuple[str, dict[str, object], str]]:
    """Each task result: status, keyword arguments, run after (oldest first)."""
    with sqlite3.connect(tmp_path / "db.sqlite3") as db:
        rows = db.execute(
            f"SELECT status, args_kwargs, run_after FROM {TABLE} ORDER BY enqueued_at"
        ).fetchall()
    return [(status, json.loads(args)["kwargs"], after) for status, args, after in rows]


def wait_for(condition: Callable[[], bool], seconds: float = 30) -> None:
    deadline = time.monotonic() + seconds
    while not condition():
        assert time.monotonic() < deadline, "waited too long"
        time.sleep(0.05)


WORKER = ("run_tasks", "--interval", "0.1", "--no-startup-delay", "-v", "1")


def test_a_task_a_killed_worker_was_running_runs_again_when_a_worker_starts(
    site, tmp_path: Path
) -> None:
    enqueue(site, "mark_and_wait", tmp_path)
    first = site(*WORKER)
    wait_for(lambda: any(tmp_path.glob("began-*")))

    first.send_signal(signal.SIGKILL)  # halfway: the task is marked running, never finished
    first.wait(timeout=10)
    assert [status for status, *_ in results(tmp_path)] == ["RUNNING"]
    (tmp_path / "release").touch()
    second = site(*WORKER, "--batch")
    output, _ = second.communicate(timeout=60)

    assert second.returncode == 0, output
    assert "Put back 1 task(s) a stopped worker had left running." in output
    assert (tmp_path / "done").read_text() == str(second.pid)
    assert len(list(tmp_path.glob("began-*"))) == 2  # begun by each worker, finished once
    assert [status for status, *_ in results(tmp_path)] == ["SUCCESSFUL"]


def test_a_running_task_of_a_worker_still_alive_is_left_to_it(site, tmp_path: Path) -> None:
    enqueue(site, "mark_and_wait", tmp_path)
    first = site(*WORKER)
    try:
        wait_for(lambda: any(tmp_path.glob("began-*")))
        second = site(*WORKER, "--batch")
        output, _ = second.communicate(timeout=60)
        assert "Put back" not in output
        assert [status for status, *_ in results(tmp_path)] == ["RUNNING"]
        (tmp_path / "release").touch()
        wait_for(lambda: results(tmp_path)[0][0] == "SUCCESSFUL")
        assert (tmp_path / "done").read_text() == str(first.pid)
    finally:
        first.kill()
        first.wait(timeout=10)


def test_a_task_that_fails_is_logged_and_run_again_later(site, tmp_path: Path) -> None:
    enqueue(site, "fail_once", tmp_path)

    worker = site(*WORKER, "--batch")
    output, _ = worker.communicate(timeout=60)

    assert "fail_once({'folder': " in output and "failed (run 1): it runs again." in output
    (failed, _, _), (waiting, kwargs, after) = results(tmp_path)
    assert (failed, waiting, kwargs["attempt"]) == ("FAILED", "READY", 2)
    assert after > time.strftime("%Y-%m-%d %H:%M:%S", time.gmtime())  # not before its delay
    with sqlite3.connect(tmp_path / "db.sqlite3") as db:  # the delay has passed
        db.execute(f"UPDATE {TABLE} SET run_after = '2000-01-01 00:00:00' WHERE status = 'READY'")

    again = site(*WORKER, "--batch")
    again.communicate(timeout=60)

    assert [status for status, *_ in results(tmp_path)] == ["FAILED", "SUCCESSFUL"]
    assert sorted(p.name for p in tmp_path.glob("run-*")) == ["run-1", "run-2"]
