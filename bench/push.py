"""The games' streams of changes in the HTTP scenario (issue 23), next to the polling they replace.

The streams are served as deploy/ serves them: a pool of its own (gunicorn with uvicorn's worker,
the ASGI application), one worker here. With a shared Redis the moves go to the sync pool and
reach the stream pool through Redis pub/sub; without one (SQLite, ``make run``) the one ASGI
worker serves the moves too, since only its own moves reach its streams.

- **Held**: ``--streams N`` idle streams of the waiting player's game, opened before the load and
  held through it (the moves' ratios are the load's own figures, taken while they are held): how
  long they took to open, the stream worker's memory before and after (per stream), how many
  were still open after the load.
- **Move to the other page by stream**: as ``bench.follow`` times it with polling, with B's page
  holding its stream and asking for the game at each event (``bench.streams.StreamPage``).
- **A move's cost with W watchers** (1, 100 and N): W streams of one game, three moves in it:
  each move's own time (A's POST), the time until every watcher heard it, and the stream worker's
  CPU time for it.
"""

from __future__ import annotations

import os
import random
import subprocess
import time
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

from bench import load
from bench.client import HTMX, Recorder
from bench.follow import FollowFigures, FollowPlan, _Watched, follow_figures, version_from_etag
from bench.output import Console
from bench.serve import gunicorn
from bench.streams import Holder, StreamPage, StreamPlan
from bench.turns import Seat, play_turn

GOAL_P95_MS = 150.0  # a move on the other page within this, 95 times in 100
GOAL_STREAMS = 10_000  # idle streams one node holds
TICKS = os.sysconf("SC_CLK_TCK")


def worker_pids(master: int) -> list[int]:
    try:
        return [int(p) for p in Path(f"/proc/{master}/task/{master}/children").read_text().split()]
    except OSError:
        return []


def status_field(pid: int, name: str) -> int:
    """A number from ``/proc/<pid>/status`` (``VmRSS`` in KB, ``Threads``)."""
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith(f"{name}:"):
            return int(line.split()[1])
    return 0


def rss_kb(pid: int) -> int:
    return status_field(pid, "VmRSS")


def cpu_seconds(pid: int) -> float:
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / TICKS  # utime + stime


@dataclass(frozen=True)
class Held:
    requested: int
    opened: int
    failed: int
    open_seconds: float
    rss_before_kb: int
    rss_after_kb: int
    alive_after_load: int = 0
    threads_before: int = 0  # the stream worker's threads before the streams opened
    threads_after: int = 0  # ... and with them open: an idle stream holds none

    @property
    def per_stream_kb(self) -> float:
        return (self.rss_after_kb - self.rss_before_kb) / max(1, self.opened)

    def met(self) -> bool:
        """Every stream opened, and every one still open after the load."""
        return self.failed == 0 and self.alive_after_load == self.opened

    def goal_met(self) -> bool:
        return self.met() and self.opened >= GOAL_STREAMS


@dataclass(frozen=True)
class WatcherCost:
    watchers: int
    opened: int
    moves: int
    move_ms: float  # A's POSTs, mean
    heard_p50_ms: float  # from A's POST to the median watcher hearing the move, mean of moves
    heard_all_ms: float  # ... to the last watcher, the worst move
    missing: int  # watcher-moves never heard
    cpu_ms_per_move: float  # the stream worker's CPU time, per move


@dataclass(frozen=True)
class StreamOutcome:
    mode: str
    follow: FollowFigures
    held: Held | None
    watchers: tuple[WatcherCost, ...]

    def follow_met(self) -> bool:
        return self.follow.missed == 0 and self.follow.p95_ms <= GOAL_P95_MS


def stream_worker(master: int) -> int:
    found = worker_pids(master)
    if len(found) != 1:
        raise RuntimeError(f"the stream pool has {len(found)} workers, not one")
    return found[0]


@contextmanager
def stream_pool(port: int, streams: int) -> Iterator[subprocess.Popen[bytes]]:
    """The stream pool: gunicorn with uvicorn's worker, one worker. The bench's one waiting
    player opens every stream, past the site's limit for one account: raised for it (the idle
    ones held, and beside them the 100 watchers and the following page)."""
    per_account = {"LIVE_STREAMS_PER_ACCOUNT": str(streams + 1_000)}
    with gunicorn(port, workers=1, asgi=True, env=per_account) as pool:
        yield pool


def hold(
    plan: StreamPlan, *, game: int, count: int, pool: subprocess.Popen[bytes]
) -> tuple[Holder, Held]:
    """``count`` idle streams of ``game`` opened and held by a client process of their own: held
    through the load, of a game nobody moves in until then, they are afterwards the watchers of
    the largest count."""
    worker = stream_worker(pool.pid)
    holder = Holder(plan)
    time.sleep(0.5)
    before, threads = rss_kb(worker), status_field(worker, "Threads")
    opened, failed, seconds = holder.open(f"/play/{game}/stream/", count)
    time.sleep(1.0)  # the worker's memory settles
    return holder, Held(
        count,
        opened,
        failed,
        seconds,
        before,
        rss_kb(worker),
        threads_before=threads,
        threads_after=status_field(worker, "Threads"),
    )


def follow_by_stream(plan: FollowPlan, stream: StreamPlan) -> FollowFigures:
    """A moves three times in each game while B's page holds its stream (as ``measure_follow``
    does with polling); the delays, summed up."""
    rng = random.Random(plan.seed)
    mover = load.client_for(plan.client, plan.client.cookie, Recorder())
    probe = load.client_for(plan.client, plan.waiter_cookie, Recorder())
    page = StreamPage(stream, load.client_for(plan.client, plan.waiter_cookie, Recorder()))
    page.start()
    moves = []
    try:
        for game in plan.games:
            page.follow(game)
            watched = _Watched(Seat(mover, game), probe, page.etag)
            play_turn(
                watched.seat,
                before=lambda move: time.sleep(rng.uniform(*plan.gap)),
                after=watched.seen,
            )
            moves += watched.moves
            time.sleep(0.5)  # the last move shown (or missed) before the next game
    finally:
        page.close()
    if page.error:
        raise RuntimeError(f"the page following by stream failed: {page.error}")
    return follow_figures(moves, page.polls)


def watcher_cost(
    plan: FollowPlan,
    stream: StreamPlan,
    *,
    game: int,
    watchers: int,
    worker: int,
    holder: Holder | None = None,
) -> WatcherCost:
    """``watchers`` streams of ``game`` (those ``holder`` already holds, else opened now), then
    A's three moves in it, each heard by all; each watcher's time counted from the move's POST
    leaving A (the streams may hear it before A has read its own answer)."""
    own = holder is None
    holder = holder if holder is not None else Holder(stream)
    try:
        opened = holder.alive() if not own else holder.open(f"/play/{game}/stream/", watchers)[0]
        mover = load.client_for(plan.client, plan.client.cookie, Recorder())
        shown = mover.get("setup", f"/play/{game}/", headers=HTMX).headers.get("etag", "")
        seat = Seat(mover, game, version_from_etag(shown) or 0)
        times, medians, worst, missing, cpu = [], [], 0.0, 0, 0.0
        for _ in range(3):
            time.sleep(0.3)
            spent = cpu_seconds(worker)
            step = seat.move()
            if step.status != 200:
                raise RuntimeError(f"A's move in game {game} answered {step.status}")
            # A score answers A with nothing to ask: the turn passed, one version on.
            version = step.version if step.version is not None else seat.version + 1
            heard, lost = holder.heard(version, within=30)
            cpu += cpu_seconds(worker) - spent
            times.append(step.acked - step.sent)
            after = sorted(t - step.sent for t in heard) or [float("nan")]
            medians.append(after[len(after) // 2])
            worst, missing = max(worst, after[-1]), missing + lost
        return WatcherCost(
            watchers=watchers,
            opened=opened,
            moves=3,
            move_ms=load.mean(times) * 1000,
            heard_p50_ms=load.mean(medians) * 1000,
            heard_all_ms=worst * 1000,
            missing=missing,
            cpu_ms_per_move=cpu / 3 * 1000,
        )
    finally:
        if own:
            holder.stop()


def measure(
    plan: load.ClientPlan,
    *,
    follow_games: tuple[int, ...],
    watched_games: tuple[int, ...],
    shared_redis: bool,
    held: tuple[Holder, Held] | None,
    stream_port: int,
    worker: int,
    waiter_cookie: str,
    streams: int,
    console: Console,
) -> StreamOutcome:
    """The move to the other page by stream, then a move's cost with 1, 100 and ``streams``
    watchers (the last: the streams ``held`` through the load, of the last watched game).
    Without a shared Redis the stream pool's one worker takes the moves too: only its own moves
    reach its streams."""
    moves_to = plan if shared_redis else load.ClientPlan(**{**plan.__dict__, "port": stream_port})
    mode = (
        "a stream pool of one uvicorn worker, told each move by Redis"
        if shared_redis
        else "one uvicorn worker serving the moves and the streams (no Redis)"
    )
    stream_plan = StreamPlan("127.0.0.1", stream_port, plan.host_header, waiter_cookie)
    follow_plan = FollowPlan(client=moves_to, waiter_cookie=waiter_cookie, games=follow_games)
    console.line(f"  move to the other page by stream: {len(follow_games) * 3} moves ...")
    followed = follow_by_stream(follow_plan, stream_plan)
    costs = []
    for game, watchers in zip(watched_games, watcher_counts(streams), strict=True):
        console.line(f"  a move's cost with {watchers:,} watcher(s) ...")
        holding = held[0] if held is not None and watchers == streams else None
        costs.append(
            watcher_cost(
                follow_plan,
                stream_plan,
                game=game,
                watchers=watchers,
                worker=worker,
                holder=holding,
            )
        )
    return StreamOutcome(
        mode=mode, follow=followed, held=held[1] if held else None, watchers=tuple(costs)
    )


def watcher_counts(streams: int) -> list[int]:
    """1, 100 and the held count (10,000 by default), each once; the held count last."""
    return [*sorted({n for n in (1, 100) if n < streams}), streams]


def summary_lines(outcome: StreamOutcome) -> Sequence[str]:
    follow = outcome.follow
    lines = [
        f"  streams ({outcome.mode}):",
        f"    move to the other page by stream: {follow.moves} moves, mean "
        f"{follow.mean_ms:.0f} ms, p95 {follow.p95_ms:.0f} ms, max {follow.max_ms:.0f} ms, "
        f"{follow.missed} missed (goal p95 <= {GOAL_P95_MS:.0f} ms: "
        f"{'met' if outcome.follow_met() else 'MISSED'})",
    ]
    if held := outcome.held:
        lines.append(
            f"    idle streams held: {held.opened:,} of {held.requested:,} opened in "
            f"{held.open_seconds:.1f} s ({held.failed} failed), {held.alive_after_load:,} still "
            f"open after the load; stream worker {held.rss_before_kb / 1024:.0f} -> "
            f"{held.rss_after_kb / 1024:.0f} MB, {held.per_stream_kb:.1f} KB a stream, threads "
            f"{held.threads_before} -> {held.threads_after} "
            f"(goal {GOAL_STREAMS:,} a node: {'met' if held.goal_met() else 'not shown'})"
        )
    for cost in outcome.watchers:
        lines.append(
            f"    a move with {cost.watchers:,} watcher(s) ({cost.opened:,} open): the move "
            f"{cost.move_ms:.1f} ms, heard by the median watcher {cost.heard_p50_ms:.1f} ms and "
            f"by all {cost.heard_all_ms:.1f} ms after it was sent, stream worker CPU "
            f"{cost.cpu_ms_per_move:.1f} ms a move, {cost.missing} missed"
        )
    return lines


def section(outcome: StreamOutcome) -> dict[str, Any]:
    """The streams' figures for the results file."""
    follow, held = outcome.follow, outcome.held
    return {
        "mode": outcome.mode,
        "move_to_other_page": {
            "moves": follow.moves,
            "missed": follow.missed,
            "mean_ms": round(follow.mean_ms, 1),
            "p95_ms": round(follow.p95_ms, 1),
            "max_ms": round(follow.max_ms, 1),
            "goal_p95_ms": GOAL_P95_MS,
            "met": outcome.follow_met(),
        },
        "held": None
        if held is None
        else {
            **asdict(held),
            "per_stream_kb": round(held.per_stream_kb, 2),
            "open_seconds": round(held.open_seconds, 2),
            "goal": GOAL_STREAMS,
            "met": held.goal_met(),
        },
        "watchers": [
            {k: round(v, 2) if isinstance(v, float) else v for k, v in asdict(cost).items()}
            for cost in outcome.watchers
        ],
    }
