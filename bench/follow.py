"""Playing together, measured from outside: how soon a move shows on the other player's page, and
how many update checks one gunicorn worker answers.

**Move to the other page.** Player A and player B sit in an online two-player game, A on turn.
B's page asks every second, as ``followLiveGame`` in ``static/js/site.js`` does: a conditional
GET of ``/play/<id>/`` (``HX-Request``, ``If-None-Match`` with the last ETag). A moves (roll,
roll, score) at random moments. The delay of a move is the time from A's POST acknowledged to
the end of B's first GET that answers 200 with that move's version (or a later one): about half
a poll interval on average, at most one interval plus a request. The server-side part is timed
too: a GET of B's right after A's acknowledgement, with B's old ETag, that answers 200 at once.

**One worker.** A single client asks for the waiting player's update check again and again of a
gunicorn with one worker; the answers a second are what one worker gives.

Like ``bench.load``, nothing here touches Django or the database.
"""

from __future__ import annotations

import random
import re
import threading
import time
from collections.abc import Sequence
from dataclasses import dataclass

from bench import load
from bench.client import HTMX, Client, Recorder
from bench.turns import SCORE, Seat, Step, play_turn

POLL_SECONDS = 1.0  # LIVE_EVERY_MS in static/js/site.js
_ETAG_VERSION = re.compile(r"v(\d+)-")  # as followLiveGame reads it


def version_from_etag(etag: str) -> int | None:
    """The game version an ETag names (``"g12v7-…"`` or ``W/"g12v7-…"``), as the page reads it."""
    found = _ETAG_VERSION.search(etag)
    return int(found[1]) if found else None


@dataclass(frozen=True)
class Move:
    game: int
    version: int  # the version the move made
    acked: float  # perf_counter when A's answer was read
    server_seconds: float  # B's GET straight after the ack, until its 200
    sent: float | None = None  # perf_counter when A's POST left (None: the ack)

    @property
    def since(self) -> float:
        """From when a poll may show the move: B's page can see it once it commits, before A
        has read its own answer."""
        return self.acked if self.sent is None else self.sent


@dataclass(frozen=True)
class Poll:
    game: int
    done: float  # perf_counter when B's answer was read
    version: int | None  # the version it showed (None for a 304 or an error)
    seconds: float = 0.0  # how long the request took


TIMER_SLACK_MS = 20.0  # how late the waiting page's timer may fire on a busy machine


def showing_polls(moves: Sequence[Move], polls: Sequence[Poll]) -> list[Poll | None]:
    """Each move's showing poll: B's first poll, ending after the move's POST left, that shows
    its version or a later one in its game (``None`` when no poll ever did)."""
    found: list[Poll | None] = []
    for move in moves:
        seen = [
            poll
            for poll in polls
            if poll.game == move.game
            and poll.done > move.since
            and poll.version is not None
            and poll.version >= move.version
        ]
        found.append(min(seen, key=lambda poll: poll.done) if seen else None)
    return found


def delays(moves: Sequence[Move], polls: Sequence[Poll]) -> list[float | None]:
    """Each move's delay: from its ack to the end of its showing poll, none when the page saw
    the move before A had read its answer (``None``: never shown)."""
    return [
        max(0.0, poll.done - move.acked) if poll else None
        for move, poll in zip(moves, showing_polls(moves, polls), strict=True)
    ]


def waits(moves: Sequence[Move], polls: Sequence[Poll]) -> list[float | None]:
    """Each move's wait for the page to ask: its delay less its showing poll's own time."""
    return [
        max(0.0, poll.done - poll.seconds - move.acked) if poll else None
        for move, poll in zip(moves, showing_polls(moves, polls), strict=True)
    ]


@dataclass(frozen=True)
class FollowFigures:
    moves: int
    missed: int  # moves the other page never showed
    mean_ms: float
    p95_ms: float
    max_ms: float
    server_mean_ms: float
    server_p95_ms: float
    slowest_poll_ms: float = 0.0  # B's slowest check: a late tick shows up here
    delays_ms: tuple[float, ...] = ()  # each move's, in order (nan: never shown)
    max_wait_ms: float = 0.0  # the longest a move waited for the page to ask (delay less the
    # showing request's own time)
    poll_seconds: float = POLL_SECONDS

    def met(self) -> bool:
        """The issue's "within about a second": every move shown, none waiting longer than a
        poll interval (and the timer's slack) for the request that showed it."""
        limit = self.poll_seconds * 1000 + TIMER_SLACK_MS
        return self.missed == 0 and self.max_wait_ms <= limit


def follow_figures(moves: Sequence[Move], polls: Sequence[Poll]) -> FollowFigures:
    if not moves:
        raise ValueError("no moves: nothing to measure")
    seen = delays(moves, polls)
    shown = [d for d in seen if d is not None] or [float("nan")]
    server = [m.server_seconds for m in moves]
    return FollowFigures(
        moves=len(moves),
        missed=sum(d is None for d in seen),
        mean_ms=load.mean(shown) * 1000,
        p95_ms=load.percentile(shown, 0.95) * 1000,
        max_ms=max(shown) * 1000,
        server_mean_ms=load.mean(server) * 1000,
        server_p95_ms=load.percentile(server, 0.95) * 1000,
        slowest_poll_ms=max((p.seconds for p in polls), default=0.0) * 1000,
        delays_ms=tuple(d * 1000 if d is not None else float("nan") for d in seen),
        max_wait_ms=max((w for w in waits(moves, polls) if w is not None), default=0.0) * 1000,
    )


@dataclass(frozen=True)
class FollowPlan:
    client: load.ClientPlan  # address, host header, A's cookie (``cookie``) and CSRF token
    waiter_cookie: str  # B's
    games: tuple[int, ...]  # two-player games, A on turn; three moves in each
    seed: int = 2026
    gap: tuple[float, float] = (0.3, 1.5)  # seconds between A's moves, uniformly


class _Poller(threading.Thread):
    """B's page: every second a conditional GET of the current game, as ``followLiveGame``."""

    def __init__(self, client: Client) -> None:
        super().__init__(daemon=True)
        self.client = client
        self.game: int | None = None
        self.etag = ""
        self.polls: list[Poll] = []
        self.ready = threading.Event()  # the current game fetched once: an ETag to send
        self.stop = threading.Event()
        self.error: BaseException | None = None

    def follow(self, game: int) -> None:
        self.ready.clear()
        self.game, self.etag = game, ""
        self.ready.wait(timeout=10)

    def run(self) -> None:
        tick = time.perf_counter()
        try:
            while not self.stop.is_set():
                if self.game is not None:
                    self.poll(self.game)
                tick += POLL_SECONDS
                self.stop.wait(max(0.0, tick - time.perf_counter()))
        except BaseException as error:  # reported by the caller
            self.error = error
            self.ready.set()

    def poll(self, game: int) -> None:
        headers = HTMX | ({"If-None-Match": self.etag} if self.etag else {})
        started = time.perf_counter()
        answer = self.client.get("follow", f"/play/{game}/", headers=headers)
        done = time.perf_counter()
        etag = answer.headers.get("etag", "")
        version = version_from_etag(etag) if answer.status == 200 else None
        if answer.status == 200 and etag:
            self.etag = etag
        if game == self.game:
            self.polls.append(Poll(game, done, version, done - started))
            if self.etag:
                self.ready.set()


def measure_follow(plan: FollowPlan) -> FollowFigures:
    """A moves three times in each game while B's page polls; the delays, summed up."""
    rng = random.Random(plan.seed)
    mover = load.client_for(plan.client, plan.client.cookie, Recorder())
    probe = load.client_for(plan.client, plan.waiter_cookie, Recorder())
    poller = _Poller(load.client_for(plan.client, plan.waiter_cookie, Recorder()))
    poller.start()
    moves: list[Move] = []
    try:
        for game in plan.games:
            poller.follow(game)
            if poller.error or not poller.etag:
                raise RuntimeError(f"the waiting page could not load game {game}: {poller.error}")
            watched = _Watched(Seat(mover, game), probe, poller.etag)
            play_turn(
                watched.seat,
                before=lambda move: time.sleep(rng.uniform(*plan.gap)),
                after=watched.seen,
            )
            moves += watched.moves
            # The last move shown (or missed) before the next game.
            time.sleep(POLL_SECONDS + 0.5)
    finally:
        poller.stop.set()
        poller.join(timeout=35)
    return follow_figures(moves, poller.polls)


class _Watched:
    """A's turn in one game, each move checked by a GET of B's straight after it (B's ETag from
    before the move): the server-side part of the delay."""

    def __init__(self, seat: Seat, probe: Client, etag: str) -> None:
        self.seat, self.probe, self.etag = seat, probe, etag
        seat.version = version_from_etag(etag) or 0  # as the game was begun
        self.moves: list[Move] = []

    def seen(self, step: Step) -> None:
        game = self.seat.game_id
        version = step.version
        if version is None and step.move == SCORE and step.status == 200:
            version = self.seat.version + 1  # the turn passed: the partial asks nothing of A
        if version is None:
            raise RuntimeError(f"A's {step.move} in game {game} answered {step.status}")
        started = time.perf_counter()
        headers = HTMX | {"If-None-Match": self.etag}
        answer = self.probe.get("probe", f"/play/{game}/", headers=headers)
        server = time.perf_counter() - started
        if answer.status != 200 or (version_from_etag(answer.headers.get("etag", "")) or 0) < (
            version
        ):
            raise RuntimeError(f"B's GET after A's {step.move} answered {answer.status}")
        self.etag = answer.headers.get("etag", "")
        self.moves.append(Move(game, version, step.acked, server, step.sent))


@dataclass(frozen=True)
class OneWorker:
    requests: int
    seconds: float
    errors: int
    mean_ms: float
    p95_ms: float

    @property
    def rate(self) -> float:
        return self.requests / self.seconds


def hammer(plan: load.ClientPlan, *, seconds: float, warmup: float = 0.5) -> OneWorker:
    """The waiting player's update check asked back to back by one client (of one worker)."""
    recorder = Recorder()
    client = load.client_for(plan, plan.waiter_cookie, recorder)
    headers = HTMX | {"If-None-Match": plan.wait_etag}
    started = time.perf_counter()
    warm_until = started + warmup
    while True:
        now = time.perf_counter()
        if now >= warm_until + seconds:
            break
        recorder.recording = now >= warm_until
        client.get(load.WAIT_CHECK, plan.wait_url, headers=headers)
    took = time.perf_counter() - warm_until
    times = [s.seconds for s in recorder.samples]
    return OneWorker(
        requests=len(times),
        seconds=took,
        errors=sum(s.status != 304 for s in recorder.samples),
        mean_ms=load.mean(times) * 1000,
        p95_ms=load.percentile(times, 0.95) * 1000,
    )
