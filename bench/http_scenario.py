"""The HTTP scenario: the site served by gunicorn as in production, loaded from client processes
with every request type interleaved, next to the front page of a signed-in player.

``prepare`` makes two registered ``bench-http-…`` players in the bench database: a mover, who
plays (its games started through ``games.tables.services``, one of them left unchanged for the 304
check), and a dashboard player with 300 unfinished and 5,000 finished games (the finished ones
written as ``bench.fill`` writes them). Their sessions and a CSRF secret are made without timing.
``run`` serves the site with gunicorn on a free port, drives it from ``bench.load`` clients, and
counts each type's queries in this process (``django.test.Client``, same database and cache).
``clear`` takes the players and their games out again, so the page figures never see them.

Playing together (issue 12) runs in the same scenario: a third player, the waiter, sits with the
mover in online two-player games (invited, joined, begun through ``games.tables.services``). The
clients
interleave the waiter's update check of one such game (the mover on turn: 304s) and roll/score in
six-seat games (the mover with five guests at one screen) with the other types. After the load,
``bench.follow`` times the moves of the mover in the other two-player games until the waiter's
page, asking every second, shows them; then the update check against one gunicorn worker.
"""

from __future__ import annotations

import multiprocessing
import os
import random
import secrets
import time
from contextlib import ExitStack
from dataclasses import dataclass, replace

from django.conf import settings
from django.core.cache import cache
from django.db import connection, connections, transaction
from django.db.models import ForeignObjectRel
from django.test import Client
from django.utils import timezone

from accounts import licensing
from accounts.models import User
from bench import fill, load, push, tables
from bench import follow as follow_mod
from bench.cards import card_pool
from bench.client import HTMX, Recorder
from bench.http_queries import count_queries
from bench.output import BenchError, Console
from bench.scenarios import allowed_host
from bench.serve import WORKERS, free_port, gunicorn
from bench.streams import StreamPlan
from games import rules
from games.models import Game, Invitation, Seat
from games.tables import services

PREFIX = f"{fill.PREFIX}http-"
MOVER = f"{PREFIX}mover"
DASHBOARD_PLAYER = f"{PREFIX}dashboard"
WAITER = f"{PREFIX}waiter"
GUESTS = ("Ann", "Ben", "Cid", "Dot", "Eve")  # five guests at the mover's screen: six seats
SIX_SEAT_GAMES = 6  # per client: 78 turns each, more than a run's client plays
ONE_WORKER_SECONDS = 5.0  # at most: a quarter of the run's seconds on a short run


def follow_games(seconds: float) -> int:
    """Two-player games to follow moves in (three moves, about 4 s each): one per 5 s of the
    run's length, 1 to 10."""
    return max(1, min(10, int(seconds // 5)))


OPEN_GAMES = 300
FINISHED_GAMES = 5_000
BATCH = "bench-http"


@dataclass(frozen=True)
class Prepared:
    mover: User
    dashboard: User
    games: list[int]  # one game of the mover's per client process, then one to count queries
    unchanged: int  # the mover's game fetched again and again, never changed
    waiter: User | None = None  # seated with the mover in the online games below
    waiting: int = 0  # a two-player online game, the mover on turn, never changed
    follow: tuple[int, ...] = ()  # two-player online games, the mover on turn, A moves in them
    stream_follow: tuple[int, ...] = ()  # as many again, followed by stream
    watched: tuple[int, ...] = ()  # one per watcher count: A moves in them, watched by streams
    six_seats: tuple[tuple[int, ...], ...] = ()  # per client (then one to count queries)


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

    @property
    def errors(self) -> int:
        answered = sum(f.errors for f in self.figures.values())
        return answered + (self.one_worker.errors if self.one_worker else 0)


def shared_cache() -> bool:
    """Whether the cache is one every worker shares (Redis): sessions and versions live there."""
    return bool(settings.GAME_VERSIONS_IN_CACHE)


# --- The data ---------------------------------------------------------------------------------


def clear(console: Console | None = None) -> None:
    """Delete the HTTP scenario's players and every game they own (and nothing else)."""
    players = User.objects.filter(username__startswith=PREFIX)
    if not players.exists():
        return
    owned = Game.objects.filter(owner__in=players).values("id")
    dependants = [r.related_model for r in Game._meta.related_objects]
    dependants.sort(key=lambda model: model is Seat)
    # Rows that point at the seats (the trainer's positions and harvests of the games finished).
    of_seats = [
        (f.related_model, f.field.name)
        for f in Seat._meta.get_fields(include_hidden=True)
        if isinstance(f, ForeignObjectRel)
    ]
    with transaction.atomic():
        for model, field in of_seats:
            rows = model._base_manager.filter(**{f"{field}__game_id__in": owned})
            rows._raw_delete(connection.alias)
        for model in dependants:
            model._base_manager.filter(game_id__in=owned)._raw_delete(connection.alias)
        Game.objects.filter(id__in=owned)._raw_delete(connection.alias)
        players.delete()
    if console:
        console.line("  cleared the HTTP scenario's players and games")


def registered_player(username: str, display_name: str) -> User:
    """A new account registered with a serial, as a player would (mint, then redeem)."""
    user = User.objects.create_user(
        username=username, display_name=display_name, email="", password=None
    )
    user.confirm_zero = False  # a zero is scored at once, as the player chose in their options
    user.save(update_fields=["confirm_zero"])
    serial = licensing.mint_serials(count=1, batch_name=BATCH)[0]
    licensing.redeem_serial(user=user, text=serial, client_ip="127.0.0.1")
    return user


def finished_games(user: User, count: int, *, seed: int, console: Console) -> None:
    """``count`` finished games of ``user``'s, with seats and scores, as ``bench.fill`` writes."""
    rng = random.Random(seed)
    now = timezone.now().replace(microsecond=0)
    pools = {
        rules.CLASSIC: card_pool(rng, rules.CLASSIC, 1_000),
        rules.TRIPLE: card_pool(rng, rules.TRIPLE, 200),
    }
    rows = fill.GameRows(rng, now, pools, {user.pk: user.display_name})
    ages = sorted((rng.random() * 30 * 86400 + 86400 for _ in range(count)), reverse=True)
    owners = [user.pk] * count
    fill.insert_games(rows, owners, ages, time.perf_counter(), console)
    tables.reset_sequences(fill.FILLED)


def prepare(
    *, clients: int, seed: int, console: Console, follow_count: int = 1, watched_count: int = 0
) -> Prepared:
    started = time.perf_counter()
    clear()
    mover = registered_player(MOVER, "Bench Mover")
    dashboard = registered_player(DASHBOARD_PLAYER, "Bench Dashboard")
    finished_games(dashboard, FINISHED_GAMES, seed=seed, console=console)
    with transaction.atomic():
        for _ in range(OPEN_GAMES):
            services.start_game(owner=dashboard, kind=rules.CLASSIC.key)
        games = [services.start_game(owner=mover).pk for _ in range(clients + 1)]
        unchanged = services.start_game(owner=mover).pk
    tables.analyze(fill.FILLED)
    # An open game was just left: the dashboard's newest games are open ones, the rest finished.
    open_count = Seat.objects.filter(user=dashboard, game_over=False).count()
    over_count = Seat.objects.filter(user=dashboard, game_over=True).count()
    if (open_count, over_count) != (OPEN_GAMES, FINISHED_GAMES):
        raise BenchError(f"dashboard player has {open_count} open, {over_count} over games")
    console.line(
        f"  players {mover.username} (plays) and {dashboard.username} ({OPEN_GAMES} open, "
        f"{FINISHED_GAMES:,} finished games) ready in {time.perf_counter() - started:.1f} s"
    )
    waiter = registered_player(WAITER, "Bench Waiter")
    with transaction.atomic():
        waiting = two_player_game(mover, waiter)
        follow = tuple(two_player_game(mover, waiter) for _ in range(follow_count))
        by_stream = tuple(two_player_game(mover, waiter) for _ in range(follow_count))
        watched = tuple(two_player_game(mover, waiter) for _ in range(watched_count))
        six_seats = tuple(
            tuple(
                services.start_game(owner=mover, guests=list(GUESTS)).pk
                for _ in range(SIX_SEAT_GAMES)
            )
            for _ in range(clients + 1)
        )
    console.line(
        f"  {WAITER} waits in a two-player game; {follow_count} more to follow moves in; "
        f"{SIX_SEAT_GAMES} six-seat games per client"
    )
    return Prepared(
        mover=mover,
        dashboard=dashboard,
        games=games,
        unchanged=unchanged,
        waiter=waiter,
        waiting=waiting,
        follow=follow,
        stream_follow=by_stream if watched_count else (),
        watched=watched,
        six_seats=six_seats,
    )


def two_player_game(host: User, guest: User) -> int:
    """An online game as friends start one: the host invites, the guest follows the link, the
    host begins; the host is on turn."""
    game = services.open_game(owner=host, invites=1)
    token = Invitation.objects.get(game=game).token
    services.join_game(token=token, user=guest)
    seated = services.begin_game(game_id=game.pk, user=host)
    if len(seated.seats) != 2 or seated.match().on_turn != seated.position_of(host):
        raise BenchError(f"game {game.pk}: the host is not on turn in a two-player game")
    return game.pk


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
        prepared = prepare(
            clients=clients,
            seed=seed,
            console=console,
            follow_count=follow_games(seconds),
            watched_count=len(push.watcher_counts(streams)) if streams else 0,
        )
        return measure(prepared, seconds=seconds, clients=clients, console=console, streams=streams)
    finally:
        clear()


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
                }
            )
            for game_id, six in zip(
                prepared.games[:clients],
                prepared.six_seats[:clients] or [()] * clients,
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
    )


def flush_shared_cache(console: Console) -> None:
    """Empty a shared (Redis) cache before a run: versions cached by an earlier run of ids
    since reused would answer 304s for games that moved on."""
    if shared_cache():
        cache.clear()
        console.line(f"Shared cache flushed ({settings.CACHES['default']['LOCATION']}).")
