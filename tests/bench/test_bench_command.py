"""`manage.py bench` on a tiny database: it fills, measures, prints the table and the JSON."""

from __future__ import annotations

import json
from io import StringIO
from pathlib import Path

import pytest
from django.core.management import CommandError, call_command

from accounts.models import User
from games import rules
from games.models import Game, Score, Seat

pytestmark = pytest.mark.django_db

TINY = [
    "--games",
    "300",
    "--players",
    "20",
    "--requests",
    "5",
    "--warmup",
    "2",
    "--no-http",
    "--no-scaleout",
    "--no-strategy",
]


def bench(tmp_path: Path, *args: str) -> tuple[str, dict]:
    out = StringIO()
    path = tmp_path / "bench.json"
    call_command("bench", *TINY, "--json", str(path), "--no-fail", *args, stdout=out)
    return out.getvalue(), json.loads(path.read_text())


def test_fills_then_prints_a_table_with_times_and_query_counts(tmp_path: Path) -> None:
    printed, results = bench(tmp_path)

    assert Game.objects.count() == 300
    assert User.objects.count() == 20
    assert Score.objects.count() == Seat.objects.count() >= 300
    assert not User.objects.exclude(username__startswith="bench-").exists()
    assert "median ms" in printed and "p95 ms" in printed and "x trivial" in printed
    pages = {page["key"]: page for page in results["pages"]}
    assert {"trivial", "top10_all", "top10_7d", "top10_all_member", "player_typical"} <= set(pages)
    for key in ("top10_all", "top10_7d", "player_heaviest"):
        assert pages[key]["url"] in printed
    assert pages["trivial"]["queries"] == 0
    assert pages["top10_all"]["queries"] <= 3
    # Logged in, the session and user lookups come on top of the page's own queries.
    member = pages["top10_all_member"]
    assert member["logged_in"] and member["queries"] > member["page_queries"]
    assert member["my_rank"] is not None  # the viewer is outside the ten: "You: #N with M"
    for page in pages.values():
        assert 0 < page["median_ms"] <= page["p95_ms"]
    assert results["fill_seconds"] is not None


def test_seats_and_scores_carry_the_same_numbers_from_one_card(tmp_path: Path) -> None:
    bench(tmp_path)

    for score in Score.objects.select_related("seat", "game"):
        seat = score.seat
        in_boxes = sum(1 for card in seat.cards if card["yahtzee"] == rules.YAHTZEE_POINTS)
        assert (score.yahtzees, score.yahtzee_bonuses, score.grand_total) == (
            seat.yahtzees,
            seat.yahtzee_bonuses,
            seat.grand_total,
        )
        assert seat.yahtzees >= in_boxes + seat.yahtzee_bonuses
        assert seat.grand_total == seat.sheet(score.game.rules_kind).grand_total
        assert score.player_kind == seat.player_kind


def test_a_second_run_keeps_the_data_it_finds(tmp_path: Path) -> None:
    bench(tmp_path)
    first_game = Game.objects.order_by("id").first()

    printed, results = bench(tmp_path)

    assert "Fill skipped" in printed and results["fill_seconds"] is None
    assert Game.objects.order_by("id").first() == first_game


def test_refuses_a_database_with_real_accounts(tmp_path: Path, make_user) -> None:
    make_user("alice")

    with pytest.raises(CommandError, match="not bench-"):
        bench(tmp_path)

    assert not Game.objects.exists()


def test_with_force_a_refill_spares_real_accounts(tmp_path: Path, make_user) -> None:
    alice = make_user("alice")

    bench(tmp_path, "--force")
    bench(tmp_path, "--force", "--refill")

    assert User.objects.filter(pk=alice.pk).exists()
    assert User.objects.filter(username__startswith="bench-").count() == 20
    assert Game.objects.count() == 300
