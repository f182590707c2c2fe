"""`manage.py bench --quickplay-only`: quick play's pairing figure alone, on a small crowd."""

from __future__ import annotations

import json
from io import StringIO
from pathlib import Path

import pytest
from django.core.management import CommandError, call_command

from accounts.models import User
from games.models import Game
from games.quickplay.models import QuickWait

pytestmark = pytest.mark.django_db


def test_times_the_arrivals_prints_the_figure_and_clears_its_crowd(tmp_path: Path) -> None:
    out, path = StringIO(), tmp_path / "quick.json"

    call_command(
        "bench",
        "--quickplay-only",
        "--quickplay-waiting",
        "40",
        "--quickplay-arrivals",
        "10",
        "--json",
        str(path),
        stdout=out,
    )

    figure = json.loads(path.read_text())["quickplay"]
    assert (figure["waiting"], figure["arrivals"]) == (40, 10)
    assert figure["paired"] + figure["waited"] == 10 and figure["paired"] >= 1
    assert 0 < figure["median_ms"] <= figure["p95_ms"] <= figure["max_ms"]
    assert figure["queries"] > 0 and figure["met"]
    assert "until both are seated" in out.getvalue()
    assert not User.objects.exists() and not Game.objects.exists()
    assert not QuickWait.objects.exists()


def test_alone_it_needs_a_crowd() -> None:
    with pytest.raises(CommandError, match="--quickplay-waiting above 0"):
        call_command("bench", "--quickplay-only", "--quickplay-waiting", "0", stdout=StringIO())
