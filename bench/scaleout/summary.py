"""A scale-out run as the report shows it: its figures by request type, the JSON section, the
problems that fail it, the printed lines."""

from __future__ import annotations

from dataclasses import dataclass

from django.conf import settings

from accounts.models import TRIAL_GAMES
from bench import load
from bench.client import Sample
from bench.output import Console
from bench.scaleout.checks import Replay
from bench.scaleout.players import EXPECTED, KILLED, TITLES


@dataclass(frozen=True)
class Run:
    """One run (plain or with faults) as the report shows it."""

    fault: bool
    nodes: int
    workers: int
    clients: int
    seconds: float
    samples: list[Sample]
    node_split: dict[str, int]
    finished_games: int
    online_games: int
    acknowledged: int
    missing: int
    stale_304s: int
    session_lost: int
    trial_games: int
    trial_used: int
    serial_refused_at: int | None
    locked_out: bool
    kills: int
    replay: Replay
    unplayable: int
    integrity: str
    locked: int  # "database is locked" in the nodes' logs
    streams: bool = False  # each online page held its game's stream (a stream pool a node)
    pushed_ms: tuple[float, ...] = ()  # a turn's end, from the mover's answer to the other's stream
    push_missed: int = 0  # turns the other player's stream never told
    stream_reconnects: int = 0

    @property
    def unexpected(self) -> dict[str, int]:
        """Unexpected answers by request type and status (under faults, a cut-off is expected)."""
        allowed = {KILLED} if self.fault else set()
        found: dict[str, int] = {}
        for s in self.samples:
            if s.status != EXPECTED.get(s.kind, 200) and s.status not in allowed:
                key = f"{s.kind} {s.status}"
                found[key] = found.get(key, 0) + 1
        return found

    @property
    def errors(self) -> int:
        return sum(self.unexpected.values())


def figures(run: Run) -> dict[str, dict[str, float]]:
    by_kind: dict[str, list[Sample]] = {}
    for sample in run.samples:
        by_kind.setdefault(sample.kind, []).append(sample)
    result = {}
    for kind in [k for k in TITLES if k in by_kind]:
        seconds = [s.seconds for s in by_kind[kind]]
        expected = EXPECTED.get(kind, 200)
        result[kind] = {
            "requests": len(seconds),
            "rate": len(seconds) / run.seconds,
            "p50_ms": load.percentile(seconds, 0.50) * 1000,
            "p95_ms": load.percentile(seconds, 0.95) * 1000,
            "p99_ms": load.percentile(seconds, 0.99) * 1000,
            "errors": sum(
                1
                for s in by_kind[kind]
                if s.status != expected and not (run.fault and s.status == KILLED)
            ),
            "cut_off": sum(1 for s in by_kind[kind] if run.fault and s.status == KILLED),
        }
    return result


def section(run: Run) -> dict[str, object]:
    """The run for the JSON results."""
    return {
        "fault": run.fault,
        "nodes": run.nodes,
        "workers": run.workers,
        "clients": run.clients,
        "seconds": run.seconds,
        "requests_per_second": len(run.samples) / run.seconds,
        "types": figures(run),
        "node_split": run.node_split,
        "errors": run.errors,
        "finished_games": run.finished_games,
        "online_games": run.online_games,
        "unexpected": run.unexpected,
        "acknowledged_moves": run.acknowledged,
        "missing_moves": run.missing,
        "stale_304s": run.stale_304s,
        "session_lost": run.session_lost,
        "trial_games_started": run.trial_games,
        "trial_games_used": run.trial_used,
        "serial_refused_at": run.serial_refused_at,
        "locked_out": run.locked_out,
        "kills": run.kills,
        "replayed_games": run.replay.games,
        "replayed_moves": run.replay.moves,
        "replay_mismatches": run.replay.mismatches[:20],
        "unplayable_games": run.unplayable,
        "integrity_check": run.integrity,
        "database_locked": run.locked,
        "streams": {
            "on": run.streams,
            "turns_pushed": len(run.pushed_ms),
            "missed": run.push_missed,
            "p50_ms": round(load.percentile(run.pushed_ms, 0.50), 1) if run.pushed_ms else None,
            "p95_ms": round(load.percentile(run.pushed_ms, 0.95), 1) if run.pushed_ms else None,
            "reconnects": run.stream_reconnects,
        },
    }


def problems(run: Run) -> list[str]:
    """What makes the run fail: anything one node would not do."""
    found = []
    if run.errors:
        found.append(
            f"{run.errors} request(s) answered with an unexpected status: {run.unexpected}"
        )
    if run.missing:
        found.append(f"{run.missing} acknowledged move(s) missing from the log")
    if run.stale_304s:
        found.append(f"{run.stale_304s} update check(s) said unchanged for a changed game")
    if run.session_lost:
        found.append(f"{run.session_lost} signed-in page(s) came back signed out")
    if run.trial_games != TRIAL_GAMES or run.trial_used != TRIAL_GAMES:
        found.append(f"the trial started {run.trial_games} games, counted {run.trial_used}")
    if run.serial_refused_at != settings.SERIAL_ATTEMPTS_PER_ACCOUNT + 1:
        found.append(f"wrong serials were first refused at attempt {run.serial_refused_at}")
    if not run.locked_out:
        found.append("the right password still logged in after the failure limit")
    if run.replay.mismatches:
        found.append(
            f"{len(run.replay.mismatches)} replay mismatch(es): {run.replay.mismatches[:3]}"
        )
    if run.unplayable:
        found.append(f"{run.unplayable} game(s) no longer playable")
    if run.integrity not in ("ok", "n/a"):
        found.append(f"integrity_check: {run.integrity}")
    if run.locked:
        found.append(f'{run.locked} "database is locked" in the nodes\' logs')
    if run.streams and run.push_missed:
        found.append(f"{run.push_missed} turn(s) never reached the other player's stream")
    if run.streams and run.online_games and not run.pushed_ms:
        found.append("no turn was heard on a stream")
    if run.nodes > 1 and len([n for n in run.node_split if n != "?"]) < run.nodes:
        found.append(f"requests did not reach every node: {run.node_split}")
    return found


def print_run(run: Run, console: Console) -> None:
    total = len(run.samples)
    console.line(
        f"  {total:,} requests in {run.seconds:g} s: {total / run.seconds:.1f} req/s "
        "through nginx, "
        f"{run.nodes} node(s), {run.workers} workers; {run.errors} errors"
    )
    console.line(
        f"  {'request':<26}{'n':>7}{'req/s':>8}{'p50 ms':>9}{'p95 ms':>9}{'p99 ms':>9}{'err':>5}"
        + (f"{'cut':>5}" if run.fault else "")
    )
    for kind, f in figures(run).items():
        console.line(
            f"  {TITLES[kind]:<26}{f['requests']:>7.0f}{f['rate']:>8.1f}{f['p50_ms']:>9.1f}"
            f"{f['p95_ms']:>9.1f}{f['p99_ms']:>9.1f}{f['errors']:>5.0f}"
            + (f"{f['cut_off']:>5.0f}" if run.fault else "")
        )
    split = ", ".join(f"{node}: {n}" for node, n in sorted(run.node_split.items()))
    console.line(f"  answered by: {split}")
    console.line(
        f"  sessions lost {run.session_lost}; stale 304s {run.stale_304s}; trial started "
        f"{run.trial_games} games of {TRIAL_GAMES} (counted {run.trial_used}); wrong serial "
        f"refused at attempt {run.serial_refused_at}; locked out after "
        f"{settings.AXES_FAILURE_LIMIT} wrong passwords: {run.locked_out}; "
        f'"database is locked" {run.locked}'
    )
    console.line(
        f"  replayed {run.replay.games} games ({run.replay.finished} finished, "
        f"{run.online_games} of them online two-player games, "
        f"{run.replay.moves} moves): {len(run.replay.mismatches)} mismatches; "
        f"acknowledged moves {run.acknowledged}, missing {run.missing}; "
        f"games unplayable {run.unplayable}; integrity_check {run.integrity}"
        + (f"; workers killed {run.kills}" if run.fault else "")
    )
    if run.streams and run.pushed_ms:
        console.line(
            f"  streams on (a stream pool a node, through nginx): {len(run.pushed_ms)} turns "
            f"reached the other player's stream, p50 {load.percentile(run.pushed_ms, 0.5):.1f} ms, "
            f"p95 {load.percentile(run.pushed_ms, 0.95):.1f} ms after the mover's answer; "
            f"missed {run.push_missed}; streams reopened {run.stream_reconnects}"
        )
    elif not run.streams:
        console.line("  streams off: no Redis to tell the nodes' stream pools of each move")
    for problem in problems(run):
        console.failure(f"  ✗ {problem}")
