"""The online SQLite backup (``manage.py backup_sqlite``): taken while a writer keeps writing,
restored by putting the file in place, and the site reads everything back from it."""

from __future__ import annotations

import os
import sqlite3
import stat
import subprocess
import sys
import threading
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def manage(*args: str, database: Path) -> subprocess.CompletedProcess[str]:
    env = {k: v for k, v in os.environ.items() if k not in {"DATABASE_URL", "NODES", "VAR_DIR"}}
    env |= {
        "DEBUG": "1",
        "SQLITE_PATH": str(database),
        "DJANGO_SETTINGS_MODULE": "yahtzee_site.settings",
    }
    return subprocess.run(
        [sys.executable, "manage.py", *args],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )


COUNT_PROBES = (
    "from django.db import connection; c = connection.cursor(); "
    "print(*c.execute('SELECT count(*), max(n) FROM probe').fetchone())"
)


def test_a_backup_taken_while_writing_restores_every_committed_row(tmp_path):
    live = tmp_path / "live" / "db.sqlite3"
    assert manage("migrate", "-v0", database=live).returncode == 0
    # A table of its own, written by a plain connection while the backup runs, as a serving
    # site writes: one committed row at a time.
    with sqlite3.connect(live) as db:
        db.execute("CREATE TABLE probe (n INTEGER PRIMARY KEY)")
    stop = threading.Event()

    def writer() -> None:
        db = sqlite3.connect(live, timeout=20)
        db.execute("PRAGMA journal_mode=WAL")
        n = 0
        while not stop.is_set() and n < 20_000:
            n += 1
            db.execute("INSERT INTO probe (n) VALUES (?)", (n,))
            db.commit()
        db.close()

    thread = threading.Thread(target=writer)
    thread.start()
    try:
        backup = tmp_path / "backup" / "copy.sqlite3"
        backup.parent.mkdir()
        result = manage("backup_sqlite", str(backup), database=live)
    finally:
        stop.set()
        thread.join()

    assert result.returncode == 0, result.stderr
    assert "integrity_check: ok" in result.stdout
    assert stat.S_IMODE(backup.stat().st_mode) == 0o600
    # Restore: the backup file put where the database lives (the site stopped), then served.
    restored = tmp_path / "restored" / "db.sqlite3"
    restored.parent.mkdir()
    restored.write_bytes(backup.read_bytes())
    shell = manage("shell", "-v0", "-c", COUNT_PROBES, database=restored)
    assert shell.returncode == 0, shell.stderr
    count, highest = map(int, shell.stdout.split())
    # One consistent state: every row committed before the copy's last step, with no gaps.
    assert count == highest > 0
    assert manage("migrate", "--check", database=restored).returncode == 0


def test_backup_refuses_to_overwrite_its_own_database(tmp_path):
    live = tmp_path / "db.sqlite3"
    assert manage("migrate", "-v0", database=live).returncode == 0

    result = manage("backup_sqlite", str(live), database=live)

    assert result.returncode != 0
    assert "cannot overwrite the database it copies" in result.stderr
