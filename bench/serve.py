"""The site served by gunicorn for the bench's HTTP scenarios, as in production: on a free
loopback port, against the very database and cache this process uses, up once ``/healthz``
answers; stopped (and its log kept only if it says anything) afterwards."""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import time
import urllib.request
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from urllib.parse import urlsplit, urlunsplit

from django.conf import settings
from django.db import connection

from bench.output import BenchError

WORKERS = 2


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def server_env() -> dict[str, str]:
    """This process's environment (DEBUG, keys, the database, the cache), pointed at the very
    database this process uses."""
    env = dict(os.environ)
    name = str(connection.settings_dict["NAME"])
    if connection.vendor == "sqlite":
        env["SQLITE_PATH"] = name
        env.pop("DATABASE_URL", None)
    elif url := env.get("DATABASE_URL"):
        # The same server, this very database (a test run's is not the one the URL names).
        parts = urlsplit(url)
        env["DATABASE_URL"] = urlunsplit(parts._replace(path=f"/{name}"))
    return env


@contextmanager
def gunicorn(
    port: int,
    *,
    workers: int | None = WORKERS,
    config: Path | None = None,
    env: dict[str, str] | None = None,
    asgi: bool = False,
) -> Iterator[subprocess.Popen[bytes]]:
    """The site served by gunicorn (sync workers) on ``port``, up and answering /healthz.

    ``config`` is a gunicorn configuration file (its workers win when ``workers`` is None);
    ``env`` adds to the environment the server gets; ``asgi`` serves the ASGI application with
    uvicorn's worker instead (the streams' pool: ``deploy/gunicorn_streams.conf.py``)."""
    # A log of its own per run (a test may serve at the same time); kept only if it says anything.
    log = Path(settings.BASE_DIR) / "var" / f"bench-gunicorn-{port}.log"
    log.parent.mkdir(parents=True, exist_ok=True)
    command = [
        sys.executable, "-m", "gunicorn", "yahtzee_site.asgi" if asgi else "yahtzee_site.wsgi",
        "--bind", f"127.0.0.1:{port}",
        "--forwarded-allow-ips", "", "--log-level", "warning",
    ]  # fmt: skip
    if asgi:
        command += ["--worker-class", "yahtzee_site.asgi_worker.Worker"]
    if config is not None:
        command += ["--config", str(config)]
    if workers is not None:
        command += ["--workers", str(workers)]
    with log.open("wb") as out:
        server = subprocess.Popen(
            command,
            cwd=settings.BASE_DIR,
            # Mail links to where this serves (and the log has no warning that they are guessed).
            env=server_env() | {"SITE_URL": f"http://127.0.0.1:{port}"} | (env or {}),
            stdout=out,
            stderr=subprocess.STDOUT,
            start_new_session=True,
        )
        try:
            wait_healthy(port, server, log)
            yield server
        finally:
            server.send_signal(signal.SIGTERM)
            try:
                server.wait(timeout=20)
            except subprocess.TimeoutExpired:
                server.kill()
                server.wait()
    if log.stat().st_size == 0:
        log.unlink()


def wait_healthy(port: int, server: subprocess.Popen[bytes], log: Path) -> None:
    deadline = time.monotonic() + 60
    url = f"http://127.0.0.1:{port}/healthz"
    while time.monotonic() < deadline:
        if server.poll() is not None:
            raise BenchError(f"gunicorn ended ({server.returncode}); see {log}")
        try:
            with urllib.request.urlopen(url, timeout=2) as answer:
                if answer.status == 200:
                    return
        except OSError:
            time.sleep(0.2)
    raise BenchError(f"gunicorn did not answer {url} within 60 s; see {log}")
