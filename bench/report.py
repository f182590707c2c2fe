"""What the bench makes of its measurements: medians, p95s and ratios to the trivial page, the
limits the anonymous top ten is held to, and the JSON results file (``bench.printout`` prints
them).

Another scenario's results are another section: its figures under a key of its own in
``results`` and a ``print_…`` function of its own in ``bench.printout``.
"""

from __future__ import annotations

import json
import math
import re
import statistics
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import django
from django.conf import settings
from django.db import connection
from django.utils import timezone

from bench import follow as follow_mod
from bench import load, push
from bench.http_scenario import Outcome
from bench.lobby import Lobby
from bench.scenarios import PLAIN, TRIVIAL, Dataset, Page

MAX_QUERIES = 3
MAX_RATIO = 2.0

Results = dict[str, Any]
"""The JSON document of a run (``var/bench-<vendor>.json``)."""


# --- The maths -------------------------------------------------------------------------------


def median_ms(seconds: Sequence[float]) -> float:
    return statistics.median(seconds) * 1000


def percentile_ms(seconds: Sequence[float], share: float) -> float:
    """The nearest-rank percentile: the smallest time that ``share`` of the times reach."""
    ordered = sorted(seconds)
    return ordered[max(0, math.ceil(share * len(ordered)) - 1)] * 1000


@dataclass(frozen=True)
class Figures:
    """One page's numbers, as reported and checked."""

    median_ms: float
    p95_ms: float
    x_trivial: float  # median over the trivial page's median
    x_plain: float
    data_ms: float | None  # median of the page's reads alone
    queries: int  # the most any warm-up request made
    page_queries: int  # the same, less a logged-in request's session and user lookups
    queries_seen: tuple[int, ...]
    page_queries_seen: tuple[int, ...]

    @classmethod
    def of(cls, page: Page, *, trivial_ms: float, plain_ms: float) -> Figures:
        median = median_ms(page.times)
        return cls(
            median_ms=median,
            p95_ms=percentile_ms(page.times, 0.95),
            x_trivial=median / trivial_ms,
            x_plain=median / plain_ms,
            data_ms=median_ms(page.data_times) if page.data_times else None,
            queries=max(page.query_counts),
            page_queries=max(page.page_query_counts),
            queries_seen=tuple(sorted(set(page.query_counts))),
            page_queries_seen=tuple(sorted(set(page.page_query_counts))),
        )

    def over_limits(self) -> bool:
        return self.queries > MAX_QUERIES or self.x_trivial > MAX_RATIO


def figures(pages: Sequence[Page]) -> dict[str, Figures]:
    """Every page's figures, by page key, against the trivial and plain pages among them."""
    by_key = {page.key: page for page in pages}
    trivial_ms = median_ms(by_key[TRIVIAL].times)
    plain_ms = median_ms(by_key[PLAIN].times)
    return {page.key: Figures.of(page, trivial_ms=trivial_ms, plain_ms=plain_ms) for page in pages}


def over_limits(pages: Sequence[Page], numbers: dict[str, Figures]) -> list[str]:
    """Why each gated page fails its limits, one line a reason; empty when all pass."""
    trivial_ms = numbers[TRIVIAL].median_ms
    failures = []
    for page in (page for page in pages if page.gated):
        got = numbers[page.key]
        if got.queries > MAX_QUERIES:
            failures.append(f"{page.url} made {got.queries} queries (limit {MAX_QUERIES})")
        if got.x_trivial > MAX_RATIO:
            failures.append(
                f"{page.url} took {got.median_ms:.2f} ms median, {got.x_trivial:.1f}x the "
                f"trivial page's {trivial_ms:.2f} ms (limit {MAX_RATIO:g}x)"
            )
    return failures


# --- The results file ------------------------------------------------------------------------


def page_rows(pages: Sequence[Page], numbers: dict[str, Figures]) -> list[dict[str, Any]]:
    rows = []
    for page in pages:
        got = numbers[page.key]
        row: dict[str, Any] = {
            "key": page.key,
            "title": page.title,
            "url": page.url,
            "logged_in": page.viewer_id is not None,
            "median_ms": round(got.median_ms, 3),
            "p95_ms": round(got.p95_ms, 3),
            "ratio_to_trivial": round(got.x_trivial, 2),
            "ratio_to_plain": round(got.x_plain, 2),
            "data_median_ms": round(got.data_ms, 3) if got.data_ms is not None else None,
            "queries": got.queries,
            "page_queries": got.page_queries,
            "queries_seen": list(got.queries_seen),
            "gated": page.gated,
            "sql_last_request": page.sql,
            "plans": page.plans,
        }
        if page.viewer_id is not None:
            found = re.search(r"You: <strong>#(\d+)</strong> with (\d+)", page.body)
            row["my_rank"] = [int(found[1]), int(found[2])] if found else None
        rows.append(row)
    return rows


def results(
    *,
    dataset: Dataset,
    fill_seconds: float | None,
    requested: dict[str, int],
    requests_per_page: int,
    pages: list[dict[str, Any]],
    failures: list[str],
    http: dict[str, Any] | None = None,
) -> Results:
    return {
        "vendor": connection.vendor,
        "database": str(connection.settings_dict["NAME"]),
        "django": django.get_version(),
        "debug": settings.DEBUG,
        "measured_at": timezone.now().isoformat(),
        "fill_seconds": round(fill_seconds, 1) if fill_seconds is not None else None,
        "requested": requested,
        "requests_per_page": requests_per_page,
        "data": dataset.as_json(),
        "limits": {"max_queries": MAX_QUERIES, "max_ratio": MAX_RATIO},
        "pages": pages,
        "failures": failures,
        "ok": not failures,
        "http": http,
    }


def lobby_section(opened: Lobby, got: Figures) -> dict[str, Any]:
    """The lobby's figures for the results file: what it held, and its page's time."""
    return {
        **opened.as_json(),
        "median_ms": round(got.median_ms, 3),
        "p95_ms": round(got.p95_ms, 3),
        "ratio_to_trivial": round(got.x_trivial, 2),
        "data_median_ms": round(got.data_ms, 3) if got.data_ms is not None else None,
        "page_queries": got.page_queries,
    }


def http_section(outcome: Outcome) -> dict[str, Any]:
    """The HTTP scenario's figures for the results file."""
    rows = []
    for kind, got in outcome.figures.items():
        seen = outcome.queries.get(kind, [])
        rows.append(
            {
                "key": kind,
                "title": load.TITLES.get(kind, kind),
                "requests": got.requests,
                "requests_per_second": round(got.rate, 1),
                "mean_ms": round(got.mean_ms, 3),
                "p95_ms": round(got.p95_ms, 3),
                "ratio_to_front": round(got.ratio, 3),
                "errors": got.errors,
                "statuses": {str(k): v for k, v in got.statuses.items()},
                "queries": max(seen) if seen else None,
                "queries_seen": sorted(set(seen)),
                "cpu_ms_in_process": round(outcome.cpu[kind], 3) if kind in outcome.cpu else None,
            }
        )
    return {
        "server": f"gunicorn, {outcome.workers} sync workers",
        "clients": outcome.clients,
        "seconds": outcome.seconds,
        "shared_cache": outcome.shared_cache,
        "load_average": [round(x, 2) for x in outcome.load_average],
        "healthz_cpu_ms_in_process": round(outcome.cpu.get("healthz", 0), 3),
        "requests": rows,
        "targets": [
            {
                "key": target.kind,
                "what": target.what,
                "target": target.describe(),
                "value": round(value, 3),
                "met": met,
            }
            for target, value, met in outcome.targets
        ],
        "targets_met": all(met for _, _, met in outcome.targets),
        "errors": outcome.errors,
        "playing_together": playing_together(outcome),
        # Issue 23: the games' streams, next to the polling above.
        "streams": push.section(outcome.streams) if outcome.streams else None,
    }


PLAYING_TOGETHER = (load.WAIT_CHECK, load.ROLL6, load.SCORE6)


def per_worker(outcome: Outcome, kind: str) -> float | None:
    """Requests a second one worker answers of ``kind``, from the interleaved run: with as many
    clients as workers none waits, so one worker answers ``1 / mean latency``."""
    got = outcome.figures.get(kind)
    return 1000 / got.mean_ms if got and got.mean_ms > 0 else None


def playing_together(outcome: Outcome) -> dict[str, Any]:
    """Issue 12's figures, next to the front page of the same run, with their targets."""
    section: dict[str, Any] = {
        "front_per_worker_per_second": _rounded(per_worker(outcome, load.FRONT)),
        "update_check_per_worker_per_second": _rounded(per_worker(outcome, load.WAIT_CHECK)),
    }
    for kind in PLAYING_TOGETHER:
        got = outcome.figures.get(kind)
        seen = outcome.queries.get(kind, [])
        section[kind] = {
            "title": load.TITLES[kind],
            "ratio_to_front": round(got.ratio, 3) if got else None,
            "mean_ms": round(got.mean_ms, 3) if got else None,
            "p95_ms": round(got.p95_ms, 3) if got else None,
            "queries": max(seen) if seen else None,
        }
    one = outcome.one_worker
    section["one_worker"] = (
        None
        if one is None
        else {
            "server": "gunicorn, 1 sync worker, 1 client back to back",
            "requests": one.requests,
            "seconds": round(one.seconds, 2),
            "requests_per_second": round(one.rate, 1),
            "mean_ms": round(one.mean_ms, 3),
            "p95_ms": round(one.p95_ms, 3),
            "errors": one.errors,
        }
    )
    shown = outcome.follow
    section["move_to_other_page"] = (
        None
        if shown is None
        else {
            "poll_seconds": shown.poll_seconds,
            "moves": shown.moves,
            "missed": shown.missed,
            "mean_ms": round(shown.mean_ms, 1),
            "p95_ms": round(shown.p95_ms, 1),
            "max_ms": round(shown.max_ms, 1),
            "server_mean_ms": round(shown.server_mean_ms, 2),
            "server_p95_ms": round(shown.server_p95_ms, 2),
            "slowest_poll_ms": round(shown.slowest_poll_ms, 1),
            "max_wait_ms": round(shown.max_wait_ms, 1),
            "delays_ms": [None if math.isnan(d) else round(d, 1) for d in shown.delays_ms],
            "target": follow_target(shown.poll_seconds),
            "met": shown.met(),
        }
    )
    section["targets"] = [
        {"key": t.kind, "what": t.what, "target": t.describe(), "value": round(v, 3), "met": m}
        for t, v, m in outcome.targets
        if t.kind in PLAYING_TOGETHER
    ]
    return section


def follow_target(poll_seconds: float) -> str:
    return (
        f"every move shown by the page's next check: at most {poll_seconds:g} s "
        f"(+{follow_mod.TIMER_SLACK_MS:g} ms timer slack) + that check's own time"
    )


def _rounded(value: float | None) -> float | None:
    return round(value, 1) if value is not None else None


def write_json(results: Results, path: str | None) -> Path:
    """Write the results to ``path``, or to ``var/bench-<vendor>.json``; the path written."""
    var = Path(getattr(settings, "VAR_DIR", Path(settings.BASE_DIR) / "var"))
    target = Path(path) if path else var / f"bench-{connection.vendor}.json"
    target.parent.mkdir(parents=True, exist_ok=True)
    target.write_text(json.dumps(results, indent=2, default=str) + "\n")
    return target
