"""The bench's ratings part on a small crowd: the season's table timed with the other pages
(gated: at most three queries), the rated players kept for the next run, and the move that ends
a rated game timed with the rating and without, each rated game then rated as the worker would."""

from __future__ import annotations

import json
from io import StringIO
from pathlib import Path

import pytest
from django.core.management import call_command

from games.ratings.models import RatingChange, SeasonRating
from tests.bench.test_bench_command import TINY

pytestmark = pytest.mark.django_db


def run(tmp_path: Path, *args: str) -> tuple[str, dict]:
    out, path = StringIO(), tmp_path / "bench.json"
    tiny = [a for a in TINY]
    for flag in ("--rated-players", "--rating-moves"):
        at = tiny.index(flag)
        del tiny[at : at + 2]
    call_command("bench", *tiny, "--json", str(path), "--no-fail", *args, stdout=out)
    return out.getvalue(), json.loads(path.read_text())


def test_the_season_table_and_the_ending_move_are_measured(tmp_path: Path) -> None:
    printed, results = run(
        tmp_path, "--rated-players", "40", "--rating-moves", "2", "--page", "ratings_season"
    )

    page = next(p for p in results["pages"] if p["key"] == "ratings_season")
    assert page["url"] == "/ratings/"
    assert page["queries"] <= 3
    assert SeasonRating.objects.filter(user__username__startswith="bench-rated-").count() == 40
    assert "Season table: 40 rated players written" in printed

    move = results["rating_move"]
    assert move["pairs"] == 2 and move["limit"] == 1.1
    assert move["with_rating_median_ms"] > 0 and move["without_rating_median_ms"] > 0
    assert move["ratio"] == pytest.approx(
        move["with_rating_median_ms"] / move["without_rating_median_ms"], abs=0.001
    )
    assert "The move that ends a rated game:" in printed
    # The two rated games of the timed moves (ABBA: the first and the fourth) were rated.
    assert RatingChange.objects.filter(user__username="bench-rater-b").count() == 2

    printed, _ = run(tmp_path, "--rated-players", "40", "--rating-moves", "0", "--page",
                     "ratings_season")  # fmt: skip
    assert "Season table: 40 rated players kept from an earlier run." in printed
