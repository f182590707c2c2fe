"""The scale-out run: its players made, the gunicorn nodes (``deploy/gunicorn.conf.py``) and nginx
served, the client processes forked and their records gathered, the checks made afterwards; then,
with faults, the same while a gunicorn worker is SIGKILLed every few seconds."""

from __future__ import annotations

import multiprocessing
import os
import random
import signal
import threading
from collections.abc import Sequence
from contextlib import ExitStack
from pathlib import Path

import redis
from django.conf import settings
from django.db import connection, connections

from accounts import serials
from accounts.models import User
from bench import fill, http_players, serve
from bench.output import Console
from bench.scaleout.checks import integrity, missing_acknowledged, replay_games, unplayable
from bench.scaleout.players import PASSWORD, Plan, drive, drive_trial
from bench.scaleout.proxy import DEPLOY, nginx, nginx_binary
from bench.scaleout.summary import Run, print_run
from bench.scenarios import allowed_host
from games.models import Game

PREFIX = f"{fill.PREFIX}scale-"


STREAM_CONFIG = DEPLOY / "gunicorn_streams.conf.py"
BENCH_LIVE_REDIS_URL = "redis://127.0.0.1:6379/8"


def live_redis() -> str:
    """Where the nodes tell every stream pool of each move: the site's Redis, else one answering
    at ``BENCH_LIVE_REDIS_URL`` (a run on SQLite has none of its own); "" for none (streams off:
    a node's stream pool would hear only its own process's moves)."""
    url = settings.LIVE_REDIS_URL or os.environ.get("BENCH_LIVE_REDIS_URL", BENCH_LIVE_REDIS_URL)
    try:
        redis.Redis.from_url(url, socket_connect_timeout=1).ping()
    except redis.RedisError:
        return ""
    return str(url)


def nodes_for(vendor: str) -> int:
    """Two nodes on a database server; SQLite is a file on one machine, so one node."""
    return 1 if vendor == "sqlite" else 2


# --- The players ------------------------------------------------------------------------------


def clear() -> None:
    """Delete the scenario's players and their games (as ``http_players.clear`` does)."""
    players = User.objects.filter(username__startswith=PREFIX)
    for game in Game.objects.filter(owner__in=players):
        game.delete()
    players.delete()


def prepare(clients: int) -> tuple[list[tuple[str, str]], str]:
    """A registered player per client, and a partner for every other client (who plays online
    games with it); one trial player (address confirmed); all with the same password."""
    clear()
    names = []
    for n in range(clients):
        pair = [f"{PREFIX}{n}", f"{PREFIX}{n}-guest" if n % 2 else ""]
        for name in filter(None, pair):
            user = http_players.registered_player(name, f"Scale Player {name[len(PREFIX) :]}")
            user.set_password(PASSWORD)
            user.save(update_fields=["password"])
        names.append((pair[0], pair[1]))
    trial = User.objects.create_user(
        username=f"{PREFIX}trial", display_name="Scale Trial", email="", password=PASSWORD
    )
    trial.email_confirmed = True
    trial.save(update_fields=["email_confirmed"])
    User.objects.create_user(
        username=f"{PREFIX}trial-locked", display_name="Scale Locked", password=PASSWORD
    )
    return names, trial.username


def worker_pids(master: int) -> list[int]:
    try:
        return [int(p) for p in Path(f"/proc/{master}/task/{master}/children").read_text().split()]
    except OSError:
        return []


def killer(masters: Sequence[int], every: float, stop: threading.Event, kills: list[int]) -> None:
    """SIGKILL one worker of one of our gunicorn masters every ``every`` seconds."""
    rng = random.Random(7)
    while not stop.wait(every):
        pids = [pid for master in masters for pid in worker_pids(master)]
        if pids:
            pid = rng.choice(pids)
            try:
                os.kill(pid, signal.SIGKILL)
                kills.append(pid)
            except ProcessLookupError:
                pass


def run_once(*, seconds: float, clients: int, fault: bool, binary: str, console: Console) -> Run:
    nodes = nodes_for(connection.vendor)
    pairs, trial_name = prepare(clients)
    usernames = [u for u, _ in pairs]
    ports = [serve.free_port() for _ in range(nodes)]
    proxy = serve.free_port()
    env = {"NODES": str(nodes), "TRUSTED_PROXY_COUNT": "1", "TRUST_X_FORWARDED_PROTO": "1"}
    live = live_redis()
    if live:
        env["LIVE_REDIS_URL"] = live  # each move told to every node's stream pool
    stream_ports = [serve.free_port() for _ in range(nodes)] if live else []
    config = DEPLOY / "gunicorn.conf.py"
    logs = [Path(settings.BASE_DIR) / "var" / f"bench-gunicorn-{p}.log" for p in ports]
    connections.close_all()
    kills: list[int] = []
    with ExitStack() as stack:
        servers = [
            stack.enter_context(serve.gunicorn(p, workers=None, config=config, env=env))
            for p in ports
        ]
        stream_pools = [
            stack.enter_context(
                serve.gunicorn(p, workers=1, config=STREAM_CONFIG, env=env, asgi=True)
            )
            for p in stream_ports
        ]
        stack.enter_context(
            nginx(binary, port=proxy, upstreams=ports, stream_upstreams=stream_ports)
        )
        workers = sum(len(worker_pids(s.pid)) for s in servers)
        host, csrf = allowed_host(), str(settings.CSRF_COOKIE_NAME)
        trial = drive_trial(
            Plan(port=proxy, host_header=host, username=trial_name, seconds=0, csrf_cookie=csrf),
            unknown_serial=serials.display(serials.new_serial()),
            login_limit=settings.AXES_FAILURE_LIMIT,
            serial_limit=settings.SERIAL_ATTEMPTS_PER_ACCOUNT,
        )
        stop = threading.Event()
        thread = threading.Thread(
            # Any worker, a stream pool's too: its streams come back through the other node.
            target=killer,
            args=([s.pid for s in servers + stream_pools], 3.0, stop, kills),
            daemon=True,
        )
        plans = [
            Plan(
                port=proxy,
                host_header=host,
                username=u,
                seconds=seconds,
                csrf_cookie=csrf,
                partner=partner,
                streams=bool(live),
            )
            for u, partner in pairs
        ]
        try:
            with multiprocessing.get_context("fork").Pool(clients) as pool:
                # The clients are forked first: the killer's thread is never copied into them.
                if fault:
                    thread.start()
                per_client = pool.map(drive, plans)
                # Let the clients exit by themselves: the pool's terminate() would SIGTERM them,
                # and a client forked with this run's SIGTERM handler can hang on the pool's lock.
                pool.close()
                pool.join()
        finally:
            stop.set()
            if fault:
                thread.join()
    locked = sum(
        log.read_text(errors="replace").count("database is locked") for log in logs if log.exists()
    )
    acknowledged = [pair for p in per_client for pair in p.acknowledged]
    split: dict[str, int] = {}
    for p in per_client:
        for node, n in p.nodes.items():
            split[node] = split.get(node, 0) + n
    replay = replay_games(usernames)
    result = Run(
        fault=fault,
        nodes=nodes,
        workers=workers,
        clients=clients,
        seconds=seconds,
        samples=[s for p in per_client for s in p.samples],
        node_split=split,
        finished_games=sum(p.finished_games for p in per_client),
        online_games=sum(p.online_games for p in per_client),
        acknowledged=len(acknowledged),
        missing=missing_acknowledged(acknowledged),
        stale_304s=sum(p.stale_304s for p in per_client),
        session_lost=sum(p.session_lost for p in per_client),
        trial_games=trial.trial_games or 0,
        serial_refused_at=trial.serial_refused_at,
        locked_out=trial.locked_out,
        trial_used=User.objects.get(username=trial_name).trial_games_used,
        kills=len(kills),
        replay=replay,
        unplayable=unplayable(usernames),
        integrity=integrity(),
        locked=locked,
        streams=bool(live),
        pushed_ms=tuple(ms for p in per_client for ms in p.pushed_ms),
        push_missed=sum(p.push_missed for p in per_client),
        stream_reconnects=sum(p.stream_reconnects for p in per_client),
    )
    clear()
    return result


def _stop(signum: int, frame: object) -> None:
    raise SystemExit(128 + signum)


def run(*, seconds: float, clients: int, faults: bool, console: Console) -> list[Run]:
    """The plain run, then (``faults``) the fault run; none, with a message, without nginx."""
    binary = nginx_binary()
    if binary is None:
        console.line(
            "Scale-out scenario skipped: nginx is not installed "
            "(apt-get install nginx-light; --no-scaleout skips it quietly)."
        )
        return []
    nodes = nodes_for(connection.vendor)
    runs = []
    # A SIGTERM unwinds like Ctrl-C: the nodes and nginx (sessions of their own) are stopped.
    main = threading.current_thread() is threading.main_thread()
    previous = signal.signal(signal.SIGTERM, _stop) if main else None
    try:
        for fault in (False, True) if faults else (False,):
            faulty = " with faults (a worker SIGKILLed every 3 s)" if fault else ""
            console.line(
                f"Scale-out scenario{faulty}: nginx in front of {nodes} gunicorn node(s) "
                "(deploy/gunicorn.conf.py), "
                f"{clients} client processes playing whole games, {seconds:g} s ..."
            )
            try:
                runs.append(
                    run_once(
                        seconds=seconds,
                        clients=clients,
                        fault=fault,
                        binary=binary,
                        console=console,
                    )
                )
            finally:
                clear()
            print_run(runs[-1], console)
    finally:
        if main:
            signal.signal(signal.SIGTERM, previous)
    return runs
