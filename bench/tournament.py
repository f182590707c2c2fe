"""A tournament under watch (issue 38): a thousand players in one started tournament, a thousand
anonymous watchers holding its standings stream, on one two-core node. Two goals:

- **A score reaches every watcher.** Client processes play turns (roll, then score) across the
  players while the watchers hold ``/tournaments/t/<token>/stream/`` (``bench.streams.Holder``
  with ``standings``). Every event says when the server read the standings (``read_at``); a
  score is counted as heard by a watcher at the first reading made after the score's answer
  came (so surely holding it: the score committed before it answered), from just before its
  POST left (so at the latest: the commit came after). Per score, the p95 over the watchers;
  the goal: 95 scores in 100 reach 95% of the watchers within ``GOAL_P95_MS``, and none is
  missed. The soonest it could have been (from the answer to the first reading made after
  the POST left) is reported beside it.
- **The moves keep their ratios to the front page.** The same turns, with the signed-in front
  page between them, timed as the HTTP scenario times them (``bench.load.figures``): first
  without the watchers, then with them held, in the same run. The goal: with the watchers a
  move keeps its ratio (at least ``KEPT`` of the ratio without them: what the watchers cost
  the players). The HTTP scenario's targets for a roll and a score are printed beside it, not
  judged here: every move misses them alike, watched or not (issue 36's note says why).

The node is served as deploy/ serves it when a Redis answers (``scaleout.live_redis``): the sync
pool (two workers) for the pages and moves, one uvicorn worker for the streams, told of each
score through Redis; else one uvicorn worker serves everything. The players are ``PREFIX``
accounts, registered, entered, the tournament started and every game begun through the
tournament's services; all of it is deleted again afterwards.
"""

from __future__ import annotations

import http.client
import multiprocessing
import secrets
import time
from collections.abc import Iterator, Sequence
from contextlib import ExitStack, contextmanager
from dataclasses import asdict, dataclass, replace
from typing import Any

from django.conf import settings
from django.contrib.auth.hashers import make_password
from django.db import connection, connections
from django.utils import timezone

from accounts.models import Serial, SerialBatch, User
from bench import fill, http_players, load, push
from bench.client import Client, Recorder, Sample, parse_cookies
from bench.http_scenario import cookie_header, session_cookie
from bench.output import BenchError, Console
from bench.scaleout.scenario import live_redis
from bench.scenarios import allowed_host
from bench.serve import WORKERS, free_port, gunicorn
from bench.streams import Delivered, Holder, StreamPlan
from bench.turns import Seat
from games.models import Game
from games.tournaments import services
from games.tournaments.models import MAX_PLAYERS

KEY = "tournament"
PREFIX = f"{fill.PREFIX}tourney-"
BATCH = "bench-tournament"
"""The serial batch of the players' serials (written straight: each registers one player)."""
PLAYERS = MAX_PLAYERS
WATCHERS = 1_000
MOVES = 300
"""Turns timed with the watchers held, each by another player; as many again without them."""
CLIENTS = WORKERS  # the movers' client processes: as many as the sync pool's workers
HOLDERS = 2  # the watchers' client processes
WARMUP_TURNS = 3  # per client, untimed, before the turns without the watchers
GOAL_P95_MS = 1000.0
KEPT = 0.90
"""A move with the watchers held keeps its ratio to the front page when it is at least this
share of the ratio without them (two runs of the same turns differ by a few percent)."""
HEARD_WITHIN = 15.0
"""Seconds the watchers are given, after the last score, to hear a reading made after it."""


# --- The tournament ------------------------------------------------------------------------------


@dataclass(frozen=True)
class Prepared:
    token: str
    players: list[User]  # every one entered, their game begun
    games: list[int]  # each player's game, in the same order


def clear(console: Console | None = None) -> None:
    """Delete the tournament's players (their tournament, entries and games go with them) and
    their serials."""
    started = time.perf_counter()
    gone = http_players.delete_players(User.objects.filter(username__startswith=PREFIX))
    Serial.objects.filter(batch__name=BATCH).delete()
    SerialBatch.objects.filter(name=BATCH).delete()
    if gone and console is not None:
        console.line(f"  cleared the tournament's players in {time.perf_counter() - started:.1f} s")


def prepare(players: int, console: Console) -> Prepared:
    """``players`` registered accounts, one of them the host, all entered in one tournament
    (``services.join``), started, each game begun (``services.play``)."""
    clear()
    started = time.perf_counter()
    password = make_password(None)  # unusable: the bench logs them in itself
    users = User.objects.bulk_create(
        User(
            username=f"{PREFIX}{n:04d}",
            display_name=f"Entrant {n}",
            email="",
            password=password,
            confirm_zero=False,  # a zero is scored at once: each turn is one roll, one score
        )
        for n in range(players)
    )
    # Registered: a live serial each, redeemed now (random digests no serial number hashes to).
    batch = SerialBatch.objects.create(name=BATCH)
    now = timezone.now()
    Serial.objects.bulk_create(
        Serial(batch=batch, digest=secrets.token_hex(32), last4="TEST", redeemed_by=user,
               redeemed_at=now)
        for user in users
    )  # fmt: skip
    tournament = services.open_tournament(
        host=users[0], name="Bench tournament", listed=False, cap=players
    )
    for user in users:
        services.join(user=user, token=tournament.token)
    services.start(user=users[0], token=tournament.token)
    games = [services.play(user=user, token=tournament.token).pk for user in users]
    console.line(
        f"  {players:,} registered players entered, the tournament started and every game "
        f"begun in {time.perf_counter() - started:.1f} s"
    )
    return Prepared(token=tournament.token, players=users, games=games)


def stream_path(token: str) -> str:
    return f"/tournaments/t/{token}/stream/"


# --- The movers ----------------------------------------------------------------------------------


Scored = tuple[float, float]
"""A score: time.time just before its POST left, and once its answer was read."""


@dataclass(frozen=True)
class MoverPlan:
    """One mover process: where, and its turns in order, each (the player's cookies, their
    game, the game's version); the first ``warmup`` untimed."""

    host: str
    port: int
    host_header: str
    csrf_cookie: str
    turns: tuple[tuple[str, int, int], ...] = ()
    warmup: int = 0


def drive(plan: MoverPlan) -> tuple[list[Sample], list[Scored]]:
    """Each turn: the player's front page, a roll, a score of the first box offered; the
    samples (``bench.load``'s kinds) and the scores answered, warm-up left out."""
    recorder = Recorder()
    seats: dict[int, Seat] = {}
    scored: list[Scored] = []
    for n, (cookie, game_id, version) in enumerate(plan.turns):
        recorder.recording = n >= plan.warmup
        if game_id not in seats:
            client = Client(plan.host, plan.port, host_header=plan.host_header,
                            cookies=parse_cookies(cookie), csrf_cookie=plan.csrf_cookie,
                            gzip=True, recorder=recorder)  # fmt: skip
            seats[game_id] = Seat(client, game_id, version, kinds=(load.ROLL, load.SCORE))
        seat = seats[game_id]
        seat.client.get(load.FRONT, "/")
        if not seat.roll().ok:
            continue
        sent = time.time()
        step = seat.score()
        acked = time.time()
        if step.ok and recorder.recording:
            scored.append((sent, acked))
    return recorder.samples, scored


def plans(
    base: MoverPlan,
    prepared: Prepared,
    cookies: dict[int, str],
    players: Sequence[int],
    *,
    clients: int,
    warmup: int = 0,
) -> list[MoverPlan]:
    """The turns of ``players`` (indices, each once) dealt out to ``clients`` processes; each
    process first plays ``warmup`` untimed turns of its first players."""
    games = [prepared.games[i] for i in players]
    versions = dict(Game.objects.filter(pk__in=games).values_list("pk", "version"))
    turns = [(cookies[i], prepared.games[i], versions[prepared.games[i]]) for i in players]
    dealt = [turns[c::clients] for c in range(clients)]
    return [
        replace(base, turns=tuple(mine[:warmup] + mine), warmup=min(warmup, len(mine)))
        for mine in dealt
        if mine
    ]


def play(move_plans: Sequence[MoverPlan]) -> tuple[list[Sample], list[Scored]]:
    """The mover processes, forked, until each has played its turns."""
    connections.close_all()  # forked: no connection shared with them
    with multiprocessing.get_context("fork").Pool(len(move_plans)) as pool:
        driven = pool.map(drive, move_plans)
        pool.close()  # they exit by themselves, never by terminate()'s SIGTERM
        pool.join()
    return [s for samples, _ in driven for s in samples], [s for _, got in driven for s in got]


# --- The figures ---------------------------------------------------------------------------------


@dataclass(frozen=True)
class Reach:
    """How the scores reached the watchers (ms; ``latest`` bound unless said)."""

    scores: int
    per_score_p95_median_ms: float  # per score, the p95 over its watchers: their median ...
    per_score_p95_p95_ms: float  # ... their p95 (the goal's figure) ...
    per_score_p95_max_ms: float  # ... and the worst
    p50_ms: float  # over every score and watcher
    p95_ms: float
    max_ms: float
    earliest_p95_ms: float  # the same p95, at the soonest it could have been
    missed: int  # watcher-scores never heard
    scores_over: int  # scores whose p95 over the watchers is over the goal

    def met(self) -> bool:
        return self.scores > 0 and self.missed == 0 and self.per_score_p95_p95_ms <= GOAL_P95_MS


def reach(by_holder: Sequence[Sequence[Delivered]]) -> Reach:
    """The holders' deliveries (each holder's list in the same order of scores), summed up."""
    per_score_p95, latest, earliest, missed = [], [], [], 0
    for parts in zip(*by_holder, strict=True):
        heard = [t for part in parts for t in part.latest]
        missed += sum(part.missing for part in parts)
        latest += heard
        earliest += [t for part in parts for t in part.earliest]
        if heard:
            per_score_p95.append(load.percentile(heard, 0.95))
    if not per_score_p95:
        nothing = float("nan")
        return Reach(len(by_holder[0]) if by_holder else 0, nothing, nothing, nothing, nothing,
                     nothing, nothing, nothing, missed, 0)  # fmt: skip
    ms = 1000
    return Reach(
        scores=len(per_score_p95),
        per_score_p95_median_ms=load.percentile(per_score_p95, 0.5) * ms,
        per_score_p95_p95_ms=load.percentile(per_score_p95, 0.95) * ms,
        per_score_p95_max_ms=max(per_score_p95) * ms,
        p50_ms=load.percentile(latest, 0.5) * ms,
        p95_ms=load.percentile(latest, 0.95) * ms,
        max_ms=max(latest) * ms,
        earliest_p95_ms=load.percentile(earliest, 0.95) * ms,
        missed=missed,
        scores_over=sum(1 for p in per_score_p95 if p * ms > GOAL_P95_MS),
    )


@dataclass(frozen=True)
class Ratio:
    """A move's ratio to the front page with the watchers held and without, and the HTTP
    scenario's target for it (shown, not judged: ``met`` asks that the ratio be kept)."""

    kind: str
    target: float
    held: float
    alone: float

    def met(self) -> bool:
        """The watchers cost the move no more than ``KEPT`` allows."""
        return self.alone > 0 and self.held >= KEPT * self.alone

    def as_json(self) -> dict[str, Any]:
        return {
            "kind": self.kind,
            "target": self.target,
            "with_watchers": round(self.held, 3),
            "without_watchers": round(self.alone, 3),
            "met": self.met(),
        }


@dataclass(frozen=True)
class Outcome:
    players: int
    watchers: int
    opened: int
    failed: int
    open_seconds: float
    alive: int  # watchers still open after the scores
    mode: str
    reach: Reach
    ratios: tuple[Ratio, ...]
    errors: int  # answers with another status than expected, both runs
    sent: int  # readings of the standings the watchers heard
    event_kb: float  # their mean size
    rss_before_kb: int  # the stream worker's, before the watchers opened ...
    rss_after_kb: int  # ... and with them open
    cpu_ms_per_reading: float | None  # the stream worker's (None: it served the moves too)
    watchers_cpu: float  # the holders' CPU seconds a second of the turns (of this machine's)
    with_watchers: dict[str, load.TypeFigures]
    without_watchers: dict[str, load.TypeFigures]

    @property
    def per_watcher_kb(self) -> float:
        return (self.rss_after_kb - self.rss_before_kb) / max(1, self.opened)

    def met(self) -> bool:
        """Every watcher opened and stayed, the scores reached them in time, the moves kept
        their ratios, and nothing answered amiss."""
        return (
            self.opened == self.watchers == self.alive
            and self.reach.met()
            and all(r.met() for r in self.ratios)
            and not self.errors
        )

    def as_json(self) -> dict[str, Any]:
        def rounded(value: float | None) -> float | None:
            return None if value is None or value != value else round(value, 2)

        def requests(figures: dict[str, load.TypeFigures]) -> dict[str, Any]:
            return {
                kind: {"requests": f.requests, "errors": f.errors, "mean_ms": rounded(f.mean_ms),
                       "p95_ms": rounded(f.p95_ms), "ratio_to_front": rounded(f.ratio)}
                for kind, f in figures.items()
            }  # fmt: skip

        return {
            "players": self.players,
            "watchers": self.watchers,
            "opened": self.opened,
            "failed": self.failed,
            "open_seconds": rounded(self.open_seconds),
            "alive_after": self.alive,
            "mode": self.mode,
            "reach": {
                k: rounded(v) if isinstance(v, float) else v for k, v in asdict(self.reach).items()
            },
            "reach_goal_p95_ms": GOAL_P95_MS,
            "reach_met": self.reach.met(),
            "ratios": [ratio.as_json() for ratio in self.ratios],
            "errors": self.errors,
            "readings_sent": self.sent,
            "event_kb": rounded(self.event_kb),
            "rss_before_kb": self.rss_before_kb,
            "rss_after_kb": self.rss_after_kb,
            "per_watcher_kb": rounded(self.per_watcher_kb),
            "cpu_ms_per_reading": rounded(self.cpu_ms_per_reading),
            "watchers_cpu_seconds_a_second": rounded(self.watchers_cpu),
            "with_watchers": requests(self.with_watchers),
            "without_watchers": requests(self.without_watchers),
            "met": self.met(),
        }


def ratios(
    held: dict[str, load.TypeFigures], alone: dict[str, load.TypeFigures], *, shared_cache: bool
) -> tuple[Ratio, ...]:
    """A roll's and a score's ratio to the front page, against the HTTP scenario's targets."""
    return tuple(
        Ratio(t.kind, t.limit, held[t.kind].ratio if t.kind in held else 0.0,
              alone[t.kind].ratio if t.kind in alone else 0.0)
        for t in load.targets(vendor=connection.vendor, shared_cache=shared_cache)
        if t.kind in (load.ROLL, load.SCORE) and t.what == "ratio"
    )  # fmt: skip


# --- The run ------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Served:
    moves_port: int
    stream_port: int
    stream_worker: int
    apart: bool  # the streams in a pool of their own, told by Redis

    @property
    def mode(self) -> str:
        if self.apart:
            return (
                f"gunicorn's {WORKERS} sync workers for the pages and moves, one uvicorn worker "
                "for the streams, told of each score by Redis"
            )
        return "one uvicorn worker serving the pages, the moves and the streams (no Redis)"


@contextmanager
def served(watchers: int) -> Iterator[Served]:
    """The node: as deploy/ has it when a Redis answers, else one ASGI worker for all. Every
    watcher of the bench comes from one address, past the standings streams the site lets an
    address hold (``ANONYMOUS_STREAMS_PER_ADDRESS``): raised for it, as a crowd comes from many."""
    live = live_redis()
    env = {"LIVE_REDIS_URL": live} if live else {}
    stream_pool = env | {"ANONYMOUS_STREAMS_PER_ADDRESS": str(watchers + 100)}
    stream_port = free_port()
    with ExitStack() as stack:
        moves_port = stream_port
        if live:
            moves_port = free_port()
            stack.enter_context(gunicorn(moves_port, env=env))
        pool = stack.enter_context(gunicorn(stream_port, workers=1, asgi=True, env=stream_pool))
        yield Served(moves_port, stream_port, push.stream_worker(pool.pid), bool(live))


def watchers_cpu(holders: Sequence[Holder]) -> float:
    """The holders' CPU seconds so far (each is started: it has a pid)."""
    pids = [holder.process.pid for holder in holders]
    return sum(push.cpu_seconds(pid) for pid in pids if pid is not None)


def check_stream(port: int, host_header: str, path: str) -> None:
    """``BenchError`` unless the standings stream answers 200 (an anonymous viewer's)."""
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
    try:
        conn.request("GET", path, headers={"Host": host_header, "Accept": "text/event-stream"})
        answer = conn.getresponse()
        status = answer.status
        said = "" if status == 200 else answer.read(300).decode(errors="replace").strip()
    finally:
        conn.close()
    if status == 404:
        raise BenchError(
            "The tournament scenario needs the standings stream (issue 38's push of the "
            f"standings to their page), and {path} answered 404: this site has none yet. "
            "--no-tournament skips the scenario."
        )
    if status != 200:
        raise BenchError(f"The standings stream {path} answered {status}: {said[:200]}")


def run(*, players: int, watchers: int, moves: int, console: Console) -> Outcome:
    """Prepare, serve, measure; the tournament's players deleted again whatever happens.
    ``BenchError`` when the standings stream is not there to measure. Nothing is drawn: the
    dice are the tournament's, and each turn scores the first box offered."""
    console.line(
        f"Tournament: {players:,} players, {watchers:,} watchers of its standings, {moves:,} "
        "turns with them held and as many without ..."
    )
    try:
        prepared = prepare(players, console)
        return measure(prepared, watchers=watchers, moves=moves, console=console)
    finally:
        clear(console)


def measure(prepared: Prepared, *, watchers: int, moves: int, console: Console) -> Outcome:
    count = len(prepared.players)
    alone_turns = [i % count for i in range(moves)]
    held_turns = [(moves + i) % count for i in range(moves)]
    closing = (2 * moves) % count
    csrf_secret = secrets.token_hex(16)
    started = time.perf_counter()
    cookies = {
        i: cookie_header(session_cookie(prepared.players[i]), csrf_secret)
        for i in {*alone_turns, *held_turns, closing}
    }
    console.line(f"  {len(cookies):,} players logged in in {time.perf_counter() - started:.1f} s")
    host_header, path = allowed_host(), stream_path(prepared.token)
    connections.close_all()  # the servers and holders are other processes
    with served(watchers) as node, ExitStack() as stack:
        check_stream(node.stream_port, host_header, path)
        base = MoverPlan("127.0.0.1", node.moves_port, host_header, settings.CSRF_COOKIE_NAME)
        console.line(f"  {moves:,} turns without the watchers ...")
        alone, _ = play(
            plans(base, prepared, cookies, alone_turns, clients=CLIENTS, warmup=WARMUP_TURNS)
        )

        console.line(f"  {watchers:,} watchers opening ...")
        rss_before = push.rss_kb(node.stream_worker)
        connections.close_all()
        plan = StreamPlan("127.0.0.1", node.stream_port, host_header, "")
        holders = [Holder(plan, standings=True) for _ in range(min(HOLDERS, watchers))]
        for holder in holders:
            stack.callback(holder.stop)
        opened = failed = 0
        open_seconds = 0.0
        for n, holder in enumerate(holders):
            share = watchers // len(holders) + (n < watchers % len(holders))
            got, lost, took = holder.open(path, share)
            opened, failed, open_seconds = opened + got, failed + lost, open_seconds + took
        time.sleep(1.0)  # the worker's memory settles
        rss_after = push.rss_kb(node.stream_worker)
        refused = sorted({why for holder in holders for why in holder.failures()})
        if refused:
            console.warning(f"  {failed:,} watcher(s) could not open: {', '.join(refused)}")

        console.line(f"  {moves:,} turns with the watchers held ...")
        cpu_before = push.cpu_seconds(node.stream_worker)
        own_before, turns_began = watchers_cpu(holders), time.perf_counter()
        held, scored = play(plans(base, prepared, cookies, held_turns, clients=CLIENTS))
        own = (watchers_cpu(holders) - own_before) / (time.perf_counter() - turns_began)
        # One more score once all are answered: a reading made after the last of them.
        (last,) = plans(base, prepared, cookies, [closing], clients=1)
        drive(last)
        found = [holder.delivered(scored, within=HEARD_WITHIN) for holder in holders]
        cpu = push.cpu_seconds(node.stream_worker) - cpu_before
        alive = sum(holder.alive() for holder in holders)

    sizes = {v: size for _, got in found for v, size in got.items()}
    with_watchers = load.figures(held, clients=CLIENTS)
    without_watchers = load.figures(alone, clients=CLIENTS)
    shared = bool(settings.GAME_VERSIONS_IN_CACHE)
    return Outcome(
        players=count,
        watchers=watchers,
        opened=opened,
        failed=failed,
        open_seconds=open_seconds,
        alive=alive,
        mode=node.mode,
        reach=reach([delivered for delivered, _ in found]),
        ratios=ratios(with_watchers, without_watchers, shared_cache=shared),
        errors=sum(f.errors for f in (*with_watchers.values(), *without_watchers.values())),
        sent=len(sizes),
        event_kb=sum(sizes.values()) / max(1, len(sizes)) / 1024,
        rss_before_kb=rss_before,
        rss_after_kb=rss_after,
        cpu_ms_per_reading=cpu / max(1, len(sizes)) * 1000 if node.apart else None,
        watchers_cpu=own,
        with_watchers=with_watchers,
        without_watchers=without_watchers,
    )


# --- The report ---------------------------------------------------------------------------------


def summary_lines(outcome: Outcome) -> list[str]:
    r = outcome.reach
    lines = [
        f"Tournament, {outcome.players:,} players, {outcome.watchers:,} watchers of its "
        f"standings ({outcome.mode}):",
        f"  a score to every watcher's standings, over {r.scores:,} scores: per score the p95 "
        f"over the watchers {r.per_score_p95_median_ms:.0f} ms median, p95 "
        f"{r.per_score_p95_p95_ms:.0f} ms, max {r.per_score_p95_max_ms:.0f} ms "
        f"({r.scores_over} over {GOAL_P95_MS:.0f} ms); every delivery p50 {r.p50_ms:.0f} ms, "
        f"p95 {r.p95_ms:.0f} ms (at the soonest {r.earliest_p95_ms:.0f} ms), max "
        f"{r.max_ms:.0f} ms; {r.missed:,} missed",
        "    (from just before the score's POST to the first reading of the standings made "
        "after its answer)",
        f"  watchers: {outcome.opened:,} of {outcome.watchers:,} opened in "
        f"{outcome.open_seconds:.1f} s ({outcome.failed} failed), {outcome.alive:,} still open "
        f"after the scores; stream worker {outcome.rss_before_kb / 1024:.0f} -> "
        f"{outcome.rss_after_kb / 1024:.0f} MB, {outcome.per_watcher_kb:.1f} KB a watcher",
        f"  standings sent: {outcome.sent} readings of {outcome.event_kb:.0f} KB to every "
        "watcher"
        + (
            f", stream worker CPU {outcome.cpu_ms_per_reading:.0f} ms a reading"
            if outcome.cpu_ms_per_reading is not None
            else ""
        )
        + f"; the watchers' own processes took {outcome.watchers_cpu:.2f} CPU s a second of the "
        "turns, on this machine",
    ]
    for ratio in outcome.ratios:
        kind = load.TITLES[ratio.kind]
        lines.append(
            f"  {kind} to the front page: {ratio.held:.2f}x with the watchers, "
            f"{ratio.alone:.2f}x without: kept (>= {KEPT:.0%} of it): "
            f"{'met' if ratio.met() else 'MISSED'} (the HTTP scenario's target, "
            f">= {ratio.target:.2f}x, is {'met' if ratio.held >= ratio.target else 'missed'})"
        )
    if outcome.errors:
        lines.append(f"  {outcome.errors} request(s) answered with an unexpected status")
    return lines


def print_outcome(outcome: Outcome, console: Console) -> None:
    """The scenario's lines, and its goals met or missed."""
    for line in summary_lines(outcome):
        console.line(line)
    reach_line = (
        f"  target: a score to every watcher with p95 <= {GOAL_P95_MS:.0f} ms, none missed: "
        f"{'met' if outcome.reach.met() else 'MISSED'}"
    )
    (console.success if outcome.reach.met() else console.warning)(reach_line)
    console.line()
