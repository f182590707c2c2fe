"""Code run in a fresh process that has loaded a served entry point, as gunicorn's workers do."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
ENTRY_POINTS = ["yahtzee_site.wsgi", "yahtzee_site.asgi"]


def run_served(entry: str, code: str, tmp_path: Path) -> str:
    """What ``code`` prints, run after importing ``entry`` (the real settings, a database of
    the test's own)."""
    env = dict(os.environ, DEBUG="1", SQLITE_PATH=str(tmp_path / "db.sqlite3"))
    env.pop("DJANGO_SETTINGS_MODULE", None)
    probe = f"import importlib; importlib.import_module({entry!r}); {code}"
    result = subprocess.run(
        [sys.executable, "-c", probe],
        cwd=ROOT, env=env, capture_output=True, text=True, check=True, timeout=120,
    )  # fmt: skip
    return result.stdout
