"""What the bench prints: the set-up, the data, each page's figures against its limits, the lobby,
the HTTP scenario, playing together, the query plans and the verdict (``bench.report`` makes the
figures)."""

from __future__ import annotations

import os
from collections.abc import Sequence
from datetime import timedelta

import django
from django.conf import settings
from django.db import connection
from django.utils import timezone

from bench import load, push
from bench.http_scenario import Outcome
from bench.lobby import KEY as LOBBY
from bench.lobby import Lobby
from bench.output import Console
from bench.report import MAX_QUERIES, MAX_RATIO, Figures, Results, follow_target, per_worker
from bench.scenarios import TRIVIAL, Dataset, Page

# --- What is printed -------------------------------------------------------------------------


def print_setup(console: Console) -> None:
    console.line(
        f"Database: {connection.vendor} {connection.settings_dict['NAME']} · "
        f"Django {django.get_version()} · DEBUG={settings.DEBUG}"
    )
    if settings.DEBUG:
        console.warning("DEBUG is on: timings are not representative.")


def print_dataset(dataset: Dataset, console: Console) -> None:
    table, typical, heaviest = dataset.classic_human_table, dataset.typical, dataset.heaviest
    console.line(
        f"Data: {dataset.games:,} games, {dataset.scores:,} scores, "
        f"{dataset.players:,} accounts; classic top-ten table: {table['all']:,} all time, "
        f"{table['30d']:,} in 30 days, {table['7d']:,} in 7 days."
    )
    console.line(
        f"Typical player #{typical.id} ({typical.classic_games} classic games, not in the top "
        f"ten); heaviest player #{heaviest.id} ({heaviest.classic_games} classic games)."
    )
    newest, now = dataset.newest_score, timezone.now()
    if newest and now - newest > timedelta(days=1):
        console.warning(
            f"The newest score is {(now - newest).days} day(s) old: the 7- and 30-day "
            "tables have shrunk since the fill. Use --refill for fresh dates."
        )


def _range(seen: Sequence[int]) -> str:
    return str(seen[0]) if seen[0] == seen[-1] else f"{seen[0]}-{seen[-1]}"


def print_pages(
    pages: Sequence[Page], numbers: dict[str, Figures], results: Results, console: Console
) -> None:
    fill = results["fill_seconds"]
    console.line()
    console.line(
        f"Bench on {results['vendor']}: {results['data']['scores']:,} scores, "
        f"{results['requests_per_page']} requests per page"
        + (f", filled in {fill:.1f} s" if fill is not None else ", fill skipped")
    )
    header = (
        f"{'page':<22} {'url':<24} {'median ms':>9} {'p95 ms':>8} {'x trivial':>9} "
        f"{'queries':>7} {'page q.':>7} {'data ms':>8}"
    )
    console.line(header)
    console.line("-" * len(header))
    for page in pages:
        got = numbers[page.key]
        flag = "  <-- over limit" if page.gated and got.over_limits() else ""
        data = "" if got.data_ms is None else f"{got.data_ms:.2f}"
        console.line(
            f"{page.title:<22} {page.url:<24} {got.median_ms:>9.2f} {got.p95_ms:>8.2f} "
            f"{got.x_trivial:>9.2f} {_range(got.queries_seen):>7} "
            f"{_range(got.page_queries_seen):>7} {data:>8}{flag}"
        )
    console.line(
        "queries: all queries of a request; page q.: less the session and user lookups of "
        "a logged-in request;\ndata ms: median time of the page's selector called directly, "
        "uncached (what the page's reads cost on a cache miss)."
    )
    for row in results["pages"]:
        if row.get("logged_in"):
            shown = row.get("my_rank")
            text = f"#{shown[0]} with {shown[1]}" if shown else "no rank shown"
            console.line(f"Logged-in top ten shows: You: {text}")
    console.line()


def print_lobby(opened: Lobby, numbers: dict[str, Figures], console: Console) -> None:
    """The lobby's line: its page at this many open games, next to the trivial page."""
    got, trivial = numbers[LOBBY], numbers[TRIVIAL]
    data = "" if got.data_ms is None else f"; its reads alone {got.data_ms:.2f} ms"
    console.line(
        f"Lobby with {opened.open_games:,} games waiting ({opened.open_seats:,} seats open) and "
        f"{opened.closed_games:,} whose seats have closed: {got.median_ms:.2f} ms median, "
        f"p95 {got.p95_ms:.2f} ms, {got.x_trivial:.2f}x the trivial page's "
        f"{trivial.median_ms:.2f} ms, {got.page_queries} page queries{data}."
    )
    console.line()


def print_http(outcome: Outcome, console: Console) -> None:
    """The HTTP scenario's table, then its targets, each met or missed."""
    cache = "Redis: sessions and game versions shared" if outcome.shared_cache else "local memory"
    console.line(
        f"HTTP on {connection.vendor} (cache: {cache}): gunicorn {outcome.workers} sync "
        f"workers, {outcome.clients} clients, {outcome.seconds:g} s, all types interleaved; "
        f"load average {outcome.load_average[0]:.1f} -> {outcome.load_average[1]:.1f} on "
        f"{os.cpu_count()} CPUs"
    )
    header = (
        f"{'request':<24} {'requests':>8} {'req/s':>8} {'mean ms':>8} {'p95 ms':>8} "
        f"{'x front':>7} {'errors':>6} {'queries':>7} {'CPU ms':>7} {'x healthz':>9}"
    )
    healthz = outcome.cpu.get("healthz")
    console.line(header)
    console.line("-" * len(header))
    for kind, got in outcome.figures.items():
        seen = sorted(set(outcome.queries.get(kind, [])))
        queries = _range(seen) if seen else "-"
        cpu = outcome.cpu.get(kind)
        spent = f"{cpu:>7.2f}" if cpu is not None else f"{'-':>7}"
        times = f"{cpu / healthz:>8.1f}×" if cpu is not None and healthz else f"{'-':>9}"
        console.line(
            f"{load.TITLES.get(kind, kind):<24} {got.requests:>8} {got.rate:>8.1f} "
            f"{got.mean_ms:>8.2f} {got.p95_ms:>8.2f} {got.ratio:>7.2f} {got.errors:>6} "
            f"{queries:>7} {spent} {times}"
        )
    console.line(
        "req/s: clients / mean latency, what this run's clients would get asking for that type "
        "alone;\nx front: that rate over the front page's, in the same run (its mean over this "
        "mean); queries: counted in process;\nCPU ms: this thread's CPU a request in process "
        f"(test client, median of 12), x healthz: over /healthz's ({healthz or 0:.2f} ms)."
    )
    for target, value, met in outcome.targets:
        title = load.TITLES.get(target.kind, target.kind)
        shown = f"{value:.2f}×" if target.what == "ratio" else f"{value:g} queries"
        line = f"  {'met   ' if met else 'MISSED'} {title}: {shown} (target {target.describe()})"
        (console.success if met else console.warning)(line)
    for kind, got in outcome.figures.items():
        if got.errors:
            console.failure(f"ERRORS: {load.TITLES.get(kind, kind)} answered {got.statuses}")
    print_playing_together(outcome, console)
    console.line()


def print_playing_together(outcome: Outcome, console: Console) -> None:
    """Issue 12's lines: the waiting player's check per worker, the delay to the other page,
    six seats against the front page (all from the run above)."""
    console.line("Playing together (same run, next to the front page):")
    front, check = per_worker(outcome, load.FRONT), per_worker(outcome, load.WAIT_CHECK)
    got = outcome.figures.get(load.WAIT_CHECK)
    if got and front and check:
        seen = outcome.queries.get(load.WAIT_CHECK, [])
        console.line(
            f"  update check, waiting player: {check:.0f} req/s per worker under the mixed load "
            f"(front page {front:.0f}), {got.ratio:.2f}× front, "
            f"{max(seen) if seen else '?'} queries, p95 {got.p95_ms:.1f} ms"
        )
    if one := outcome.one_worker:
        console.line(
            f"  update check against one worker alone: {one.rate:.0f} req/s "
            f"({one.requests} in {one.seconds:.1f} s, mean {one.mean_ms:.2f} ms, "
            f"p95 {one.p95_ms:.2f} ms, {one.errors} errors)"
        )
    if shown := outcome.follow:
        line = (
            f"  move to the other page (polled every {shown.poll_seconds:g} s): mean "
            f"{shown.mean_ms:.0f} ms, p95 {shown.p95_ms:.0f} ms, max {shown.max_ms:.0f} ms over "
            f"{shown.moves} moves ({shown.missed} missed); server side (B's GET right after "
            f"the ack): mean {shown.server_mean_ms:.1f} ms, p95 {shown.server_p95_ms:.1f} ms; "
            f"the waiting page's slowest check {shown.slowest_poll_ms:.0f} ms; longest wait "
            f"for the page to ask {shown.max_wait_ms:.0f} ms"
        )
        (console.success if shown.met() else console.warning)(
            f"{line}\n  {'met   ' if shown.met() else 'MISSED'} target: "
            f"{follow_target(shown.poll_seconds)}"
        )
    if streamed := outcome.streams:
        good = streamed.follow_met() and (streamed.held is None or streamed.held.met())
        (console.success if good else console.warning)("\n".join(push.summary_lines(streamed)))
    for kind in (load.ROLL6, load.SCORE6):
        if six := outcome.figures.get(kind):
            console.line(
                f"  {load.TITLES[kind].lower()}: {six.ratio:.2f}× front, "
                f"mean {six.mean_ms:.1f} ms, p95 {six.p95_ms:.1f} ms"
            )


def print_plans(pages: Sequence[Page], console: Console) -> None:
    for page in pages:
        for item in page.plans:
            console.line(f"--- {page.title} ({page.url})")
            console.line(item["sql"])
            for step in item["plan"]:
                console.line(f"    {step}")
    console.line()


def print_verdict(failures: Sequence[str], console: Console) -> None:
    for failure in failures:
        console.failure(f"FAIL: {failure}")
    if not failures:
        console.success(
            f"OK: the anonymous top-ten page costs at most {MAX_QUERIES} queries and "
            f"stays within {MAX_RATIO:g}x the trivial page."
        )
