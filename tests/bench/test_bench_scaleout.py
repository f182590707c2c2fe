"""`manage.py bench`'s scale-out scenario for a few seconds: nginx in front of the gunicorn nodes
(two on PostgreSQL, one on SQLite), whole solo and online games through the proxy, then the
fault run; nothing lost, nothing counted twice, sessions, trial, serial and login limits and the
update check as on one node."""

from __future__ import annotations

import json
from io import StringIO
from pathlib import Path

import pytest
from django.conf import settings
from django.core.management import call_command
from django.db import connection

from accounts.models import TRIAL_GAMES, User
from bench import scaleout
from bench.scaleout.scenario import live_redis

# Committed data: the nodes read the test database through connections of their own.
pytestmark = [
    pytest.mark.django_db(transaction=True),
    pytest.mark.skipif(
        scaleout.nginx_binary() is None,
        reason="nginx is not installed (apt-get install nginx-light): the scale-out smoke "
        "needs it, as .ci/run installs it",
    ),
]

SMOKE = ["--games", "100", "--players", "5", "--requests", "2", "--warmup", "1", "--no-http"]
SMOKE += ["--rated-players", "0", "--rating-moves", "0"]  # tested in test_bench_ratings.py
SMOKE += ["--no-strategy"]  # its figures have tests of their own (test_bench_strategy_figures.py)
SMOKE += ["--quickplay-waiting", "0"]  # tested in test_bench_quickplay.py
SMOKE += ["--no-tournament"]  # tested in test_bench_tournament.py
# --no-fail: the tiny fill's page limits are not this test's business; it reads the JSON.
SMOKE += ["--scaleout-seconds", "4", "--scaleout-clients", "2", "--no-fail"]


def test_whole_games_through_nginx_on_every_node_lose_nothing_even_with_workers_killed(
    tmp_path: Path,
) -> None:
    out = StringIO()
    path = tmp_path / "bench.json"

    call_command("bench", *SMOKE, "--json", str(path), stdout=out, stderr=out)

    plain, faulty = json.loads(path.read_text())["scaleout"]
    nodes = 1 if connection.vendor == "sqlite" else 2
    for run in (plain, faulty):
        assert run["nodes"] == nodes
        assert run["errors"] == 0, out.getvalue()
        assert len([n for n in run["node_split"] if n != "?"]) >= nodes
        assert run["types"]["roll"]["requests"] > 0 and run["types"]["update_check"]["requests"] > 0
        assert run["acknowledged_moves"] > 0 and run["missing_moves"] == 0
        assert run["replayed_games"] > 0 and run["replay_mismatches"] == []
        assert run["stale_304s"] == run["session_lost"] == run["unplayable_games"] == 0
        assert run["trial_games_started"] == run["trial_games_used"] == TRIAL_GAMES
        assert run["serial_refused_at"] == settings.SERIAL_ATTEMPTS_PER_ACCOUNT + 1
        assert run["locked_out"] is True
        assert run["integrity_check"] in ("ok", "n/a") and run["database_locked"] == 0
        # With a Redis to tell every node's stream pool (issue 23), each turn reaches the other
        # player's stream through nginx, even while workers (the stream pools' too) are killed.
        streams = run["streams"]
        assert streams["on"] is bool(live_redis())
        if streams["on"]:
            assert streams["turns_pushed"] > 0 and streams["missed"] == 0, streams
    assert faulty["fault"] and faulty["kills"] >= 1
    assert "Scale-out scenario with faults" in out.getvalue()
    assert not User.objects.filter(username__startswith=scaleout.PREFIX).exists()
