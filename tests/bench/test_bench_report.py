"""The bench report's maths and limits, on known numbers."""

from __future__ import annotations

import pytest
from django.test import Client

from bench import report
from bench.scenarios import PLAIN, TRIVIAL, Page

MS = 0.001


def page(key: str, times_ms: list[float], *, queries: int = 0, gated: bool = False) -> Page:
    timed = Page(key, key.title(), f"/{key}/", Client(), gated=gated)
    timed.times = [t * MS for t in times_ms]
    timed.query_counts = timed.page_query_counts = [queries]
    return timed


def yardsticks() -> list[Page]:
    return [page(TRIVIAL, [1.0, 1.0, 1.2]), page(PLAIN, [0.5, 0.5, 0.5])]


def test_median_and_nearest_rank_p95() -> None:
    times = [n * MS for n in range(1, 21)]  # 1 to 20 ms

    assert report.median_ms(times) == pytest.approx(10.5)
    assert report.percentile_ms(times, 0.95) == pytest.approx(19.0)
    assert report.percentile_ms(times[:1], 0.95) == pytest.approx(1.0)


def test_figures_are_ratios_of_medians_to_the_yardsticks() -> None:
    pages = [*yardsticks(), page("top", [2.0, 3.0, 2.5], queries=2)]

    got = report.figures(pages)["top"]

    assert got.median_ms == pytest.approx(2.5)
    assert got.x_trivial == pytest.approx(2.5)
    assert got.x_plain == pytest.approx(5.0)
    assert got.queries == 2 and got.data_ms is None


def test_a_gated_page_fails_on_its_time_and_its_queries() -> None:
    slow = page("slow", [2.5, 2.5, 2.5], queries=report.MAX_QUERIES + 1, gated=True)
    fine = page("fine", [2.0, 2.0, 2.0], queries=report.MAX_QUERIES, gated=True)
    pages = [*yardsticks(), slow, fine]

    failures = report.over_limits(pages, report.figures(pages))

    assert failures == [
        "/slow/ made 4 queries (limit 3)",
        "/slow/ took 2.50 ms median, 2.5x the trivial page's 1.00 ms (limit 2x)",
    ]


def test_a_page_not_gated_never_fails() -> None:
    pages = [*yardsticks(), page("heavy", [9.0], queries=50)]

    assert report.over_limits(pages, report.figures(pages)) == []
