"""What the bench times: the high-score and statistics pages, requested in this process through
``django.test.Client`` (the whole middleware, view and template path, no network) next to the
site's trivial page, round robin so drift hits them all alike, with their queries counted.

Each page is a ``Page`` in ``in_process_pages``; another request to time is another ``Page``
there. A scenario of another sort (HTTP load, several nodes, faults) is a function of its own
beside ``measure``, returning its own measurements for the report.
"""

from __future__ import annotations

import re
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from typing import Any

from django.conf import settings
from django.contrib.sessions.models import Session
from django.db import connection, transaction
from django.db.models import Count, Max
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from django.utils import timezone

from accounts.models import User
from bench.output import BenchError, Console
from games import rules
from games.models import Game, HighScorePeriod, PlayerKind, Score
from games.scores.selectors import player_stats, top_ten

TYPICAL_GAMES = 100
TRIVIAL = "trivial"
"""The yardstick page: the site's simplest page in its layout (the front page, no query)."""
PLAIN = "plain"
"""A plain-text page (/healthz): the floor of any request."""


# --- The data measured ---------------------------------------------------------------------


@dataclass(frozen=True)
class Player:
    id: int
    classic_games: int


@dataclass(frozen=True)
class Dataset:
    """What the database holds, as far as the pages under test care."""

    scores: int
    games: int
    players: int
    classic_human_table: dict[str, int]  # rows in the classic top-ten table, by period
    typical: Player  # about TYPICAL_GAMES classic games, not in the top ten
    heaviest: Player  # the most classic games
    newest_score: datetime | None

    def as_json(self) -> dict[str, Any]:
        return {
            "scores": self.scores,
            "games": self.games,
            "players": self.players,
            "classic_human_table": self.classic_human_table,
            "typical_player": {"id": self.typical.id, "classic_games": self.typical.classic_games},
            "heaviest_player": {
                "id": self.heaviest.id,
                "classic_games": self.heaviest.classic_games,
            },
            "newest_score": self.newest_score,
        }


def survey() -> Dataset:
    """Count what the pages will read, and pick the players whose statistics are timed."""
    human = Score.objects.filter(kind=rules.CLASSIC.key, player_kind=PlayerKind.HUMAN)
    counts: dict[int, int] = dict(
        human.filter(user__isnull=False)
        .order_by()
        .values_list("user_id")
        .annotate(n=Count("id"))
        .values_list("user_id", "n")
    )
    if not counts:
        raise BenchError("No finished classic games by players: nothing to measure.")
    now = timezone.now()
    top_ids = {row.user_id for row in top_ten(kind=rules.CLASSIC.key).rows}
    outside = [u for u in counts if u not in top_ids] or list(counts)
    typical = min(outside, key=lambda u: (abs(counts[u] - TYPICAL_GAMES), u))
    heaviest = max(counts, key=lambda u: (counts[u], -u))
    return Dataset(
        scores=Score.objects.count(),
        games=Game.objects.count(),
        # The accounts of the fill (the season table's rated players are counted apart).
        players=User.objects.exclude(username__startswith="bench-rated-").count(),
        classic_human_table={
            HighScorePeriod.ALL_TIME.value: human.count(),
            HighScorePeriod.MONTH.value: human.filter(
                finished_at__gte=now - timedelta(days=30)
            ).count(),
            HighScorePeriod.WEEK.value: human.filter(
                finished_at__gte=now - timedelta(days=7)
            ).count(),
        },
        typical=Player(typical, counts[typical]),
        heaviest=Player(heaviest, counts[heaviest]),
        newest_score=human.aggregate(m=Max("finished_at"))["m"],
    )


# --- Pages requested in this process ---------------------------------------------------------


@dataclass
class Page:
    """One page to request, and what its requests measured."""

    key: str
    title: str
    url: str
    client: Client
    viewer_id: int | None = None
    gated: bool = False  # held to the report's query and time limits
    # The page's reads alone (the selector it calls), timed apart to split data from rendering.
    data: Callable[[], object] | None = None
    data_times: list[float] = field(default_factory=list)
    times: list[float] = field(default_factory=list)
    query_counts: list[int] = field(default_factory=list)
    page_query_counts: list[int] = field(default_factory=list)
    sql: list[str] = field(default_factory=list)
    # Every distinct query the page made (less auth lookups), by shape: a cached page may
    # make different queries on a miss and on a hit.
    page_sql: dict[str, str] = field(default_factory=dict)
    body: str = ""
    plans: list[dict[str, Any]] = field(default_factory=list)


def in_process_pages(dataset: Dataset) -> list[Page]:
    """The pages to time: the two yardsticks first, then the top ten and statistics pages."""
    host = allowed_host()
    anonymous = Client(HTTP_HOST=host)
    viewer = User.objects.get(pk=dataset.typical.id)
    member = Client(HTTP_HOST=host)
    member.force_login(viewer)  # outside anything timed
    typical, heaviest = dataset.typical, dataset.heaviest
    classic = rules.CLASSIC.key

    def top(period: str, viewer: User | None = None) -> Callable[[], object]:
        return lambda: top_ten(kind=classic, period=period, viewer=viewer)

    def stats(user_id: int) -> Callable[[], object]:
        return lambda: player_stats(user_id=user_id, kind=classic)

    def page_of(user_id: int) -> str:
        """A player's page, at the random public id the site links to."""
        public_id = User.objects.values_list("public_id", flat=True).get(pk=user_id)
        return reverse("player", kwargs={"public_id": public_id})

    week, month, ever = HighScorePeriod.WEEK, HighScorePeriod.MONTH, HighScorePeriod.ALL_TIME
    return [
        Page(TRIVIAL, "Trivial page (home)", "/", anonymous),
        Page(PLAIN, "Plain text", "/healthz", anonymous),
        Page("top10_all", "Top ten, all time", "/scores/", anonymous, None, True, top(ever)),
        Page("top10_30d", "Top ten, 30 days", "/scores/?period=30d", anonymous, None, True,
             top(month)),
        Page("top10_7d", "Top ten, 7 days", "/scores/?period=7d", anonymous, None, True,
             top(week)),
        Page("top10_all_member", "Top ten, logged in", "/scores/", member, viewer.pk, False,
             top(ever, viewer)),
        Page("player_typical", f"Stats, {typical.classic_games} games",
             page_of(typical.id), anonymous, data=stats(typical.id)),
        Page("player_heaviest", f"Stats, {heaviest.classic_games} games",
             page_of(heaviest.id), anonymous, data=stats(heaviest.id)),
    ]  # fmt: skip


def only(pages: list[Page], keys: Sequence[str]) -> list[Page]:
    """The pages named by ``keys`` and the two yardsticks; all of them when ``keys`` is empty."""
    if not keys:
        return pages
    known = [page.key for page in pages]
    unknown = [key for key in keys if key not in known]
    if unknown:
        raise BenchError(f"No page {', '.join(unknown)} to time: choose from {', '.join(known)}.")
    return [page for page in pages if page.key in (TRIVIAL, PLAIN, *keys)]


def measure(pages: list[Page], *, requests: int, warmup: int, console: Console) -> None:
    """Request every page ``warmup`` rounds (queries counted), then ``requests`` rounds timed,
    round robin; then time each page's reads alone."""
    console.line(
        f"Measuring {len(pages)} pages: {warmup} warm-up rounds (queries counted), then "
        f"{requests} timed rounds, round robin ..."
    )
    clock = time.perf_counter
    secure = bool(settings.SECURE_SSL_REDIRECT)  # ask over https when http would redirect
    for round_no in range(warmup + requests):
        timed = round_no >= warmup
        shift = round_no % len(pages)  # rotate the order, so no page always goes first
        for page in pages[shift:] + pages[:shift]:
            if timed:
                started = clock()
                response = page.client.get(page.url, secure=secure)
                page.times.append(clock() - started)
            else:
                with CaptureQueriesContext(connection) as captured:
                    response = page.client.get(page.url, secure=secure)
                sql = [q["sql"] for q in captured.captured_queries]
                page_sql = [s for s in sql if page.viewer_id is None or not is_auth_query(s)]
                page.query_counts.append(len(sql))
                page.page_query_counts.append(len(page_sql))
                page.sql = sql
                for query in page_sql:
                    page.page_sql.setdefault(shape(query), query)
                page.body = response.content.decode()
            if response.status_code != 200:
                raise BenchError(f"{page.url} answered {response.status_code}, not 200")
    # The reads alone, round robin too: what is left of a page's time is rendering.
    for _ in range(max(5, requests // 5)):
        for page in pages:
            if page.data is not None:
                started = clock()
                page.data()
                page.data_times.append(clock() - started)


def explain_pages(pages: list[Page]) -> None:
    """Note the plan of every distinct query each page made."""
    for page in pages:
        page.plans = [{"sql": sql, "plan": explain(sql)} for sql in page.page_sql.values()]


# --- Queries ---------------------------------------------------------------------------------


def _quoted(table: str, column: str | None = None) -> str:
    qn = connection.ops.quote_name
    return f"{qn(table)}.{qn(column)}" if column else qn(table)


def is_auth_query(sql: str) -> bool:
    """A lookup every logged-in request makes: its session, or its user's whole row."""
    if f"FROM {_quoted(Session._meta.db_table)}" in sql:
        return True
    password = _quoted(User._meta.db_table, User._meta.get_field("password").column)
    return sql.lstrip().upper().startswith("SELECT") and password in sql


def shape(sql: str) -> str:
    """A query with its literals taken out, to tell distinct queries apart."""
    return re.sub(r"\b\d+\b", "?", re.sub(r"'(?:[^']|'')*'", "?", sql))


def allowed_host() -> str:
    """A Host header the site accepts."""
    hosts = settings.ALLOWED_HOSTS
    if not hosts or "localhost" in hosts or "*" in hosts:
        return "localhost"
    if "testserver" in hosts:
        return "testserver"
    return next((h for h in hosts if not h.startswith(".")), hosts[0].lstrip("."))


def explain(sql: str) -> list[str]:
    """The plan of one captured query (with its parameters inlined, as captured)."""
    if connection.vendor == "postgresql":
        prefix = "EXPLAIN (ANALYZE, BUFFERS) "
    elif connection.vendor == "sqlite":
        prefix = "EXPLAIN QUERY PLAN "
    else:
        prefix = "EXPLAIN "
    try:
        with transaction.atomic(), connection.cursor() as cursor:
            cursor.execute(prefix + sql.replace("%", "%%"))
            rows = cursor.fetchall()
    except Exception as exc:  # a plan is a bonus; never let it sink the run
        return [f"(no plan: {exc})"]
    if connection.vendor == "sqlite":
        return [f"{row[1]}|{row[3]}" for row in rows]  # parent | detail
    return [" ".join(str(v) for v in row) for row in rows]
