"""Each served application leaves the garbage collector set for a long-lived worker: the loaded
site frozen out of every collection, the young generation collected less often
(``yahtzee_site.collector``)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent

PROBE = (
    "import gc, importlib, sys; importlib.import_module(sys.argv[1]); "
    "print(*gc.get_threshold(), gc.get_freeze_count())"
)


@pytest.mark.parametrize("entry", ["yahtzee_site.wsgi", "yahtzee_site.asgi"])
def test_the_loaded_site_is_frozen_and_young_objects_collected_less_often(
    entry: str, tmp_path: Path
) -> None:
    env = dict(os.environ, DEBUG="1", SQLITE_PATH=str(tmp_path / "db.sqlite3"))
    env.pop("DJANGO_SETTINGS_MODULE", None)
    result = subprocess.run(
        [sys.executable, "-c", PROBE, entry],
        cwd=ROOT, env=env, capture_output=True, text=True, check=True, timeout=120,
    )  # fmt: skip

    *threshold, frozen = map(int, result.stdout.split())

    assert threshold == [10_000, 20, 20]
    # The app registry, URL patterns and templates: tens of thousands of objects, not a few.
    assert frozen > 20_000
