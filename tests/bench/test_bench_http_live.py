"""`manage.py bench` with its HTTP scenario, for two seconds against a live gunicorn (a few seconds
in all): every request type answers as it should and lands in the table and the JSON."""

from __future__ import annotations

import json
from io import StringIO
from pathlib import Path

import pytest
from django.core.management import call_command

from accounts.models import User
from bench import http_players

# Committed data: gunicorn's workers read the test database through connections of their own.
pytestmark = pytest.mark.django_db(transaction=True)

TINY = ["--games", "100", "--players", "5", "--requests", "2", "--warmup", "1", "--no-scaleout"]
TINY += ["--rated-players", "0", "--rating-moves", "0"]  # tested in test_bench_ratings.py
TINY += ["--no-strategy"]  # its figures have tests of their own (test_bench_strategy_figures.py)
TINY += ["--no-tournament"]  # tested in test_bench_tournament.py


def test_the_http_scenario_drives_gunicorn_and_reports_every_request_type(
    tmp_path: Path,
) -> None:
    out = StringIO()
    path = tmp_path / "bench.json"

    call_command(
        "bench", *TINY, "--http-seconds", "2", "--streams", "30", "--json", str(path),
        "--no-fail", stdout=out,
    )  # fmt: skip

    printed, http = out.getvalue(), json.loads(path.read_text())["http"]
    rows = {row["key"]: row for row in http["requests"]}
    assert {"front", "roll", "score", "not_modified", "dashboard"} <= set(rows)
    for key in ("front", "roll", "score", "not_modified", "dashboard"):
        assert rows[key]["requests"] > 0 and rows[key]["errors"] == 0, rows[key]
        assert 0 < rows[key]["mean_ms"] <= rows[key]["p95_ms"]
        assert rows[key]["queries"] is not None
    assert rows["not_modified"]["statuses"] == {"304": rows["not_modified"]["requests"]}
    for key in ("roll_yatzy", "score_yatzy"):  # issue 39: a Yatzy move beside the front page
        assert rows[key]["requests"] > 0 and rows[key]["errors"] == 0, rows[key]
        assert rows[key]["ratio_to_front"] > 0
    assert rows["front"]["ratio_to_front"] == 1.0
    assert rows["not_modified"]["queries"] <= 2
    assert {target["key"] for target in http["targets"]} >= {"roll", "score", "dashboard"}
    assert "Unchanged game, 304" in printed and "x front" in printed
    # The streams (issue 23): held through the load, a move followed by stream, a move's cost.
    streams = http["streams"]
    assert streams["held"]["opened"] == streams["held"]["alive_after_load"] == 30
    assert streams["held"]["failed"] == 0 and streams["held"]["per_stream_kb"] > 0
    # 30 idle streams in the worker, and no thread each (Django's request thread let go).
    assert streams["held"]["threads_after"] - streams["held"]["threads_before"] < 10
    follow = streams["move_to_other_page"]
    assert follow["moves"] == 3 and follow["missed"] == 0 and follow["p95_ms"] > 0
    assert [cost["watchers"] for cost in streams["watchers"]] == [1, 30]
    assert [cost["opened"] for cost in streams["watchers"]] == [1, 30]
    assert all(cost["missing"] == 0 and cost["heard_all_ms"] > 0 for cost in streams["watchers"])
    assert "move to the other page by stream" in printed
    # The scenario's players and games are gone again: the pages never see them.
    assert not User.objects.filter(username__startswith=http_players.PREFIX).exists()
