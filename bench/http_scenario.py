"""The HTTP scenario: the site served by gunicorn as in production, loaded from client processes
with every request type interleaved, next to the front page of a signed-in player.

``run`` has ``bench.http_players`` make the players and their games, makes their sessions and a
CSRF secret without timing, serves the site with gunicorn on a free port, drives it from
``bench.load`` clients, and counts each type's queries in this process (``django.test.Client``,
same database and cache); the players are cleared again afterwards.

Playing together (issue 12) runs in the same scenario: the waiter sits with the mover in online
two-player games. The clients interleave the waiter's update check of one such game (the mover
on turn: 304s) and roll/score in six-seat games (the mover with five guests at one screen) with
the other types. After the load, ``bench.follow`` times the moves of the mover in the other
two-player games until the waiter's page, asking every second, shows them; then the update
check against one gunicorn worker.
"""

from __future__ import annotations

import multiprocessing
import os
import secrets
import time
from contextlib import ExitStack
from dataclasses import dataclass, field, replace

from django.conf import settings
from django.core.cache import cache
from django.db import connection, connections
from django.test import Client

from accounts.models import User
from bench import follow as follow_mod
from bench import http_players, load, push
from bench.client import HTMX, Recorder
from bench.http_players import Prepared
from bench.http_queries import count_queries, cpu_per_request
from bench.output import BenchError, Console
from bench.scenarios import allowed_host
from bench.serve import WORKERS, free_port, gunicorn
from bench.streams import StreamPlan

ONE_WORKER_SECONDS = 5.0  # at most: a quarter of the run's seconds on a short run


def follow_games(seconds: float) -> int:
    """Two-player games to follow moves in (three moves, about 4 s each): one per 5 s of the
    run's length, 1 to 10."""
    return max(1, min(10, int(seconds // 5)))


@dataclass(frozen=True)
class Outcome:
    """What the scenario measured, for the report."""

    seconds: float
    clients: int
    workers: int
    figures: dict[str, load.TypeFigures]
    queries: dict[str, list[int]]  # every count seen, per type
    targets: list[tuple[load.Target, float, bool]]  # target, value, met
    shared_cache: bool
    load_average: tuple[float, float]  # the machine's 1-minute load, before and after
    follow: follow_mod.FollowFigures | None = None  # move to the other player's page
    one_worker: follow_mod.OneWorker | None = None  # the update check, one gunicorn worker
    streams: push.StreamOutcome | None = None  # the same, by stream; streams held (issue 23)
    # CPU ms a request of each type, in process, and /healthz's (``http_queries``).
    cpu: dict[str, float] = field(default_factory=dict)

    @property
    def errors(self) -> int:
        answered = sum(f.errors for f in self.figures.values())
        return answered + (self.one_worker.errors if self.one_worker else 0)


def shared_cache() -> bool:
    """Whether the cache is one every worker shares (Redis): sessions and versions live there."""
    return bool(settings.GAME_VERSIONS_IN_CACHE)


# --- The sessions -----------------------------------------------------------------------------


def session_cookie(user: User) -> str:
    """A session for ``user``, as ``Client.force_login`` makes one; its cookie's value."""
    client = Client()
    client.force_login(user)
    return client.cookies[settings.SESSION_COOKIE_NAME].value


def cookie_header(session_key: str, csrf_secret: str) -> str:
    session, csrf = settings.SESSION_COOKIE_NAME, settings.CSRF_COOKIE_NAME
    return f"{session}={session_key}; {csrf}={csrf_secret}"


def first_etag(plan: load.ClientPlan, url: str, cookie: str) -> str:
    """A game's ETag as ``cookie``'s player sees it, from a first full GET over HTTP."""
    answer = load.client_for(plan, cookie, Recorder()).get("setup", url, headers=HTMX)
    etag = answer.headers.get("etag", "")
    if answer.status != 200 or not etag:
        raise BenchError(f"{url} answered {answer.status} with no ETag")
    return etag


# --- The run ----------------------------------------------------------------------------------


def run(*, seconds: float, clients: int, seed: int, console: Console, streams: int = 0) -> Outcome:
    """Prepare, serve, load, count; the players cleared again whatever happens. ``streams``:
    idle streams held through the load (and the largest watcher count); 0 measures none."""
    console.line(
        f"HTTP scenario: gunicorn ({WORKERS} sync workers), {clients} client processes, "
        f"{seconds:g} s, every request type interleaved"
        + (f", {streams:,} idle streams held" if streams else "")
        + " ..."
    )
    try:
        prepared = http_players.prepare(
            clients=clients,
            seed=seed,
            console=console,
            follow_count=follow_games(seconds),
            watched_count=len(push.watcher_counts(streams)) if streams else 0,
        )
        return measure(prepared, seconds=seconds, clients=clients, console=console, streams=streams)
    finally:
        http_players.clear()


def measure(
    prepared: Prepared, *, seconds: float, clients: int, console: Console, streams: int = 0
) -> Outcome:
    csrf_secret = secrets.token_hex(16)  # 32 characters, as Django's own secrets
    mover_cookie = cookie_header(session_cookie(prepared.mover), csrf_secret)
    viewer_cookie = cookie_header(session_cookie(prepared.dashboard), csrf_secret)
    waiter_cookie = ""
    if prepared.waiter is not None:
        waiter_cookie = cookie_header(session_cookie(prepared.waiter), csrf_secret)
    queries = count_queries(prepared)
    cpu = cpu_per_request(prepared)
    port = free_port()
    connections.close_all()  # the client processes are forked: no connection shared with them
    stream_port = free_port()
    with ExitStack() as stack:
        stack.enter_context(gunicorn(port))
        pool = stack.enter_context(push.stream_pool(stream_port, streams)) if streams else None
        base = load.ClientPlan(
            host="127.0.0.1",
            port=port,
            host_header=allowed_host(),
            cookie=mover_cookie,
            csrf_cookie=settings.CSRF_COOKIE_NAME,
            dashboard_cookie=viewer_cookie,
            game_id=0,
            unchanged_url=f"/play/{prepared.unchanged}/",
            etag="",
            seconds=seconds,
            waiter_cookie=waiter_cookie,
            wait_url=f"/play/{prepared.waiting}/" if prepared.waiting else "",
        )
        etag = first_etag(base, base.unchanged_url, base.cookie)
        wait_etag = first_etag(base, base.wait_url, base.waiter_cookie) if base.wait_url else ""
        plans = [
            load.ClientPlan(
                **{
                    **base.__dict__,
                    "game_id": game_id,
                    "etag": etag,
                    "wait_etag": wait_etag,
                    "six_seat_games": six,
                    "yatzy_games": yatzy,
                }
            )
            for game_id, six, yatzy in zip(
                prepared.games[:clients],
                prepared.six_seats[:clients] or [()] * clients,
                prepared.yatzy[:clients] or [()] * clients,
                strict=True,
            )
        ]
        held = None
        if pool is not None and prepared.watched:
            console.line(f"  {streams:,} idle streams opening ...")
            stream_plan = StreamPlan("127.0.0.1", stream_port, base.host_header, waiter_cookie)
            held = push.hold(stream_plan, game=prepared.watched[-1], count=streams, pool=pool)
            stack.callback(held[0].stop)
        started, load_before = time.perf_counter(), os.getloadavg()[0]
        with multiprocessing.get_context("fork").Pool(clients) as clients_pool:
            per_client = clients_pool.map(load.drive, plans)
            clients_pool.close()  # the clients exit by themselves, never by terminate()'s SIGTERM
            clients_pool.join()
        took, load_after = time.perf_counter() - started, os.getloadavg()[0]
        if held is not None:
            held = (held[0], replace(held[1], alive_after_load=held[0].alive()))
        followed = None
        if prepared.follow:
            console.line(
                f"  move to the other page: {len(prepared.follow) * 3} moves, the other page "
                f"asking every {follow_mod.POLL_SECONDS:g} s ..."
            )
            followed = follow_mod.measure_follow(
                follow_mod.FollowPlan(
                    client=plans[0], waiter_cookie=waiter_cookie, games=prepared.follow
                )
            )
        streamed = None
        if pool is not None:
            streamed = push.measure(
                plans[0],
                follow_games=prepared.stream_follow,
                watched_games=prepared.watched,
                shared_redis=shared_cache(),
                held=held,
                stream_port=stream_port,
                worker=push.stream_worker(pool.pid),
                waiter_cookie=waiter_cookie,
                streams=streams,
                console=console,
            )
    one_worker = None
    if base.wait_url:
        console.line("  the update check against one gunicorn worker alone ...")
        port = free_port()
        with gunicorn(port, workers=1):
            one = load.ClientPlan(**{**plans[0].__dict__, "port": port})
            one_worker = follow_mod.hammer(one, seconds=min(ONE_WORKER_SECONDS, seconds / 4))
    samples = [sample for taken in per_client for sample in taken]
    console.line(f"  {len(samples):,} requests timed in {took:.1f} s")
    numbers = load.figures(samples, clients=clients)
    cached = shared_cache()
    checked = []
    for target in load.targets(vendor=connection.vendor, shared_cache=cached):
        ratio = target.what == "ratio"
        value = numbers[target.kind].ratio if ratio else max(queries[target.kind])
        checked.append((target, value, target.met(value)))
    return Outcome(
        seconds=seconds,
        clients=clients,
        workers=WORKERS,
        figures=numbers,
        queries=queries,
        targets=checked,
        shared_cache=cached,
        load_average=(load_before, load_after),
        follow=followed,
        one_worker=one_worker,
        streams=streamed,
        cpu=cpu,
    )


def flush_shared_cache(console: Console) -> None:
    """Empty a shared (Redis) cache before a run: versions cached by an earlier run of ids
    since reused would answer 304s for games that moved on."""
    if shared_cache():
        cache.clear()
        console.line(f"Shared cache flushed ({settings.CACHES['default']['LOCATION']}).")
