"""The load of the HTTP scenario, from outside: client processes that each play their own game
over plain HTTP (``http.client``, a new connection a request, as gunicorn's sync workers close
every one), every request type interleaved in one loop, and the maths made of their samples.

Nothing here touches Django or the database: a client process only knows the address, the
cookies of a session made for it, and the URLs. ``bench.http_scenario`` prepares all that.

Throughput of a request type is worked out from its latencies: with as many clients as server
workers, a request never waits for a worker, so its latency is its cost, and ``clients / mean``
is the rate this run's clients would get asking for that type alone. Its ratio to the front page
is the front page's mean over its own, both from the same run.
"""

from __future__ import annotations

import math
import time
from collections.abc import Sequence
from dataclasses import dataclass, field

from bench.client import HTMX, Client, Recorder, Sample, parse_cookies
from bench.turns import Seat, game_id_from

FRONT = "front"
ROLL = "roll"
SCORE = "score"
NOT_MODIFIED = "not_modified"
DASHBOARD = "dashboard"
NEW_GAME = "new_game"
WAIT_CHECK = "wait_check"  # a waiting player's update check on a two-player online game
ROLL6 = "roll6"  # a roll in a six-seat game (the host with five guests at one screen)
SCORE6 = "score6"
ROLL_YATZY = "roll_yatzy"  # a roll in a Yatzy game alone (issue 39: the same targets as Classic)
SCORE_YATZY = "score_yatzy"

TITLES = {
    FRONT: "Front page (signed in)",
    ROLL: "Roll (htmx)",
    SCORE: "Score (htmx)",
    NOT_MODIFIED: "Unchanged game, 304",
    DASHBOARD: "Dashboard 300+5000",
    NEW_GAME: "New game (untargeted)",
    WAIT_CHECK: "Update check, waiting",
    ROLL6: "Roll, six seats",
    SCORE6: "Score, six seats",
    ROLL_YATZY: "Roll, Yatzy",
    SCORE_YATZY: "Score, Yatzy",
}
TYPES = (FRONT, ROLL, SCORE, NOT_MODIFIED, DASHBOARD, WAIT_CHECK, ROLL6, SCORE6, ROLL_YATZY,
         SCORE_YATZY, NEW_GAME)  # fmt: skip

# One turn of a client's loop: every type once, two rolls a turn (the second holding dice), in
# the solo game, the six-seat one and the Yatzy one.
CYCLE = (FRONT, ROLL, NOT_MODIFIED, WAIT_CHECK, DASHBOARD, ROLL, SCORE, ROLL6, ROLL6, SCORE6,
         ROLL_YATZY, ROLL_YATZY, SCORE_YATZY)  # fmt: skip


# --- The maths -------------------------------------------------------------------------------


def mean(values: Sequence[float]) -> float:
    return sum(values) / len(values)


def percentile(values: Sequence[float], share: float) -> float:
    """The nearest-rank percentile: the smallest value that ``share`` of the values reach."""
    ordered = sorted(values)
    return ordered[max(0, math.ceil(share * len(ordered)) - 1)]


@dataclass(frozen=True)
class TypeFigures:
    """One request type's figures in one run."""

    kind: str
    requests: int
    errors: int  # answers with another status than expected
    mean_ms: float
    p95_ms: float
    rate: float  # requests/s at this run's concurrency: clients / mean latency
    ratio: float  # rate over the front page's rate (= front page mean / this mean)
    statuses: dict[int, int] = field(default_factory=dict)


EXPECTED = {NOT_MODIFIED: 304, WAIT_CHECK: 304, NEW_GAME: 302}


def figures(samples: Sequence[Sample], *, clients: int) -> dict[str, TypeFigures]:
    """Every type's figures, by type, with ratios to the front page (which must be there)."""
    by_kind: dict[str, list[Sample]] = {}
    for sample in samples:
        by_kind.setdefault(sample.kind, []).append(sample)
    if not by_kind.get(FRONT):
        raise ValueError("no front page requests: nothing to compare with")
    front_mean = mean([s.seconds for s in by_kind[FRONT]])
    result = {}
    for kind in [k for k in TYPES if k in by_kind] + sorted(set(by_kind) - set(TYPES)):
        taken = by_kind[kind]
        seconds = [s.seconds for s in taken]
        statuses: dict[int, int] = {}
        for s in taken:
            statuses[s.status] = statuses.get(s.status, 0) + 1
        expected = EXPECTED.get(kind, 200)
        average = mean(seconds)
        result[kind] = TypeFigures(
            kind=kind,
            requests=len(taken),
            errors=sum(n for status, n in statuses.items() if status != expected),
            mean_ms=average * 1000,
            p95_ms=percentile(seconds, 0.95) * 1000,
            rate=clients / average,
            ratio=front_mean / average,
            statuses=dict(sorted(statuses.items())),
        )
    return result


# --- The targets -------------------------------------------------------------------------------


@dataclass(frozen=True)
class Target:
    kind: str
    what: str  # "ratio" or "queries"
    limit: float
    at_least: bool  # a floor (ratio) or a ceiling (queries)

    def met(self, value: float) -> bool:
        return value >= self.limit if self.at_least else value <= self.limit

    def describe(self) -> str:
        if self.what == "ratio":
            return f"≥ {self.limit:.2f}× front page"
        return f"≤ {self.limit:g} queries"


def targets(*, vendor: str, shared_cache: bool) -> list[Target]:
    """The issue's targets (36): moves near the front page, a 304 well above it, a flat
    dashboard; the same for a waiting player and six seats."""
    sqlite = vendor == "sqlite"
    roll, score = (0.95, 0.85) if sqlite else (0.75, 0.65)
    dashboard = 0.75 if sqlite else 0.67
    check_queries = 1 if shared_cache else 2
    return [
        Target(ROLL, "ratio", roll, True),
        Target(SCORE, "ratio", score, True),
        Target(NOT_MODIFIED, "ratio", 2.0, True),
        Target(DASHBOARD, "ratio", dashboard, True),
        Target(NOT_MODIFIED, "queries", check_queries, False),
        Target(WAIT_CHECK, "ratio", 2.0, True),
        Target(WAIT_CHECK, "queries", check_queries, False),
        Target(ROLL6, "ratio", roll, True),
        Target(SCORE6, "ratio", score, True),
        Target(ROLL_YATZY, "ratio", roll, True),
        Target(SCORE_YATZY, "ratio", score, True),
    ]


# --- One client process --------------------------------------------------------------------


@dataclass(frozen=True)
class ClientPlan:
    """What one client process needs: where, who, which game, for how long."""

    host: str
    port: int
    host_header: str
    cookie: str  # the mover's session and CSRF cookies
    csrf_cookie: str  # the CSRF cookie's name (its value, in each cookie, is the token)
    dashboard_cookie: str  # the dashboard player's
    game_id: int  # the client's own game, version 0
    unchanged_url: str
    etag: str
    seconds: float
    warmup_seconds: float = 1.0
    waiter_cookie: str = ""  # the waiting player's, seated in the two-player game below
    wait_url: str = ""  # that game, the other player on turn: its update check answers 304
    wait_etag: str = ""
    six_seat_games: tuple[int, ...] = ()  # six-seat games, played one after the other
    yatzy_games: tuple[int, ...] = ()  # Yatzy games alone, played one after the other


class Load:
    """One client process's loop: the mover, the dashboard player and the waiter (a client each,
    one recorder between them), every type in turn until the time is up."""

    def __init__(self, plan: ClientPlan) -> None:
        self.plan = plan
        self.recorder = Recorder()
        self.mover = client_for(plan, plan.cookie, self.recorder)
        self.viewer = client_for(plan, plan.dashboard_cookie, self.recorder)
        self.waiter = client_for(plan, plan.waiter_cookie, self.recorder)

    def run(self) -> list[Sample]:
        plan, recorder = self.plan, self.recorder
        seat = Seat(self.mover, plan.game_id)
        six = SixSeats(self.mover, list(plan.six_seat_games))
        yatzy = SixSeats(self.mover, list(plan.yatzy_games), kinds=(ROLL_YATZY, SCORE_YATZY))
        started = time.perf_counter()
        warm_until = started + plan.warmup_seconds
        end = warm_until + plan.seconds
        while True:
            for kind in CYCLE:
                now = time.perf_counter()
                if now >= end:
                    return recorder.samples
                recorder.recording = now >= warm_until
                if kind == FRONT:
                    self.mover.get(FRONT, "/")
                elif kind == NOT_MODIFIED:
                    headers = HTMX | {"If-None-Match": plan.etag}
                    self.mover.get(NOT_MODIFIED, plan.unchanged_url, headers=headers)
                elif kind == DASHBOARD:
                    self.viewer.get(DASHBOARD, "/play/")
                elif kind == WAIT_CHECK:
                    if plan.wait_url:
                        headers = HTMX | {"If-None-Match": plan.wait_etag}
                        self.waiter.get(WAIT_CHECK, plan.wait_url, headers=headers)
                elif kind in (ROLL6, SCORE6):
                    six.step(kind)
                elif kind in (ROLL_YATZY, SCORE_YATZY):
                    yatzy.step(kind)
                elif kind == ROLL:
                    step = seat.roll()
                    if not step.ok or not step.boxes:
                        seat = Seat(self.mover, self.new_game())
                elif kind == SCORE:
                    step = seat.score()
                    if not step.ok or step.over:
                        seat = Seat(self.mover, self.new_game())

    def new_game(self) -> int:
        """Start another classic game over HTTP (as the page's "new game" form does)."""
        answer = self.mover.post(NEW_GAME, "/play/new/", {"kind": "classic"})
        game_id = game_id_from(answer.headers.get("location", ""))
        if answer.status != 302 or game_id is None:
            raise RuntimeError(f"starting a game answered {answer.status}")
        return game_id


def client_for(plan: ClientPlan, cookie: str, recorder: Recorder) -> Client:
    """A client of the plan's address with one player's cookies (``Cookie`` header's pairs)."""
    return Client(
        plan.host,
        plan.port,
        host_header=plan.host_header,
        cookies=parse_cookies(cookie),
        csrf_cookie=plan.csrf_cookie,
        gzip=True,  # as any browser: the HTML goes out compressed
        timeout=30,
        recorder=recorder,
    )


class SixSeats:
    """A client's six-seat games (the host plays every seat at one screen), or its Yatzy games
    alone (``kinds``: the roll's and the score's): two rolls and a score a turn, whoever's turn
    it is; the next game when one ends, nothing once all have."""

    def __init__(
        self, client: Client, games: list[int], *, kinds: tuple[str, str] = (ROLL6, SCORE6)
    ) -> None:
        self.client, self.games, self.kinds = client, games, kinds
        self.seat = Seat(client, games[0], kinds=kinds) if games else None

    def step(self, kind: str) -> None:
        seat = self.seat
        if seat is None:
            return
        if kind == self.kinds[0] or not seat.boxes:
            step = seat.roll()
            if not step.ok or not step.boxes:
                self.next_game()
            return
        step = seat.score()
        if not step.ok or step.over:
            self.next_game()

    def next_game(self) -> None:
        self.games.pop(0)
        self.seat = Seat(self.client, self.games[0], kinds=self.kinds) if self.games else None


def drive(plan: ClientPlan) -> list[Sample]:
    """One client process's whole run: its samples, warm-up left out."""
    return Load(plan).run()
