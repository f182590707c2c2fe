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

import gzip
import http.client
import math
import re
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any
from urllib.parse import urlencode

FRONT = "front"
ROLL = "roll"
SCORE = "score"
NOT_MODIFIED = "not_modified"
DASHBOARD = "dashboard"
NEW_GAME = "new_game"
WAIT_CHECK = "wait_check"  # a waiting player's update check on a two-player online game
ROLL6 = "roll6"  # a roll in a six-seat game (the host with five guests at one screen)
SCORE6 = "score6"

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
}
TYPES = (FRONT, ROLL, SCORE, NOT_MODIFIED, DASHBOARD, WAIT_CHECK, ROLL6, SCORE6, NEW_GAME)

# One turn of a client's loop: every type once, two rolls a turn (the second holding dice), in
# the solo game and in the six-seat one.
CYCLE = (FRONT, ROLL, NOT_MODIFIED, WAIT_CHECK, DASHBOARD, ROLL, SCORE, ROLL6, ROLL6, SCORE6)


# --- Reading the answers ---------------------------------------------------------------------

_VERSION = re.compile(r'name="version" value="(\d+)"')
_BOX = re.compile(r'name="box" value="([^"]+)"')
_FORM_CLASS = re.compile(r'<form id="game" class="([^"]*)"')
_GAME_URL = re.compile(r"/play/(\d+)/$")


def version_of(html: str) -> int | None:
    """The game's version in an answer (the hidden ``version`` field, in or out of band)."""
    found = _VERSION.search(html)
    return int(found[1]) if found else None


def open_boxes(html: str) -> list[str]:
    """The values of the score buttons an answer offers (``box`` or ``box:column``)."""
    return _BOX.findall(html)


def game_over(html: str) -> bool:
    """Whether a game partial shows a game that is no longer live (finished or abandoned)."""
    found = _FORM_CLASS.search(html)
    return found is not None and "is-live" not in found[1].split()


def game_id_from(location: str) -> int | None:
    """The game a ``/play/<id>/`` redirect points at."""
    found = _GAME_URL.search(location)
    return int(found[1]) if found else None


# --- The maths -------------------------------------------------------------------------------


def mean(values: Sequence[float]) -> float:
    return sum(values) / len(values)


def percentile(values: Sequence[float], share: float) -> float:
    """The nearest-rank percentile: the smallest value that ``share`` of the values reach."""
    ordered = sorted(values)
    return ordered[max(0, math.ceil(share * len(ordered)) - 1)]


@dataclass(frozen=True)
class Sample:
    kind: str
    status: int
    seconds: float


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
    """The issue's targets: moves near the front page, a 304 well above it, a flat dashboard."""
    move = 0.75 if vendor == "sqlite" else 0.6
    check_queries = 1 if shared_cache else 2
    return [
        Target(ROLL, "ratio", move, True),
        Target(SCORE, "ratio", move, True),
        Target(NOT_MODIFIED, "ratio", 1.5, True),
        Target(DASHBOARD, "ratio", round(1 / 1.5, 2), True),
        Target(NOT_MODIFIED, "queries", check_queries, False),
        # Playing together (issue 12): the same ratios for a waiting player and six seats.
        Target(WAIT_CHECK, "ratio", 1.5, True),
        Target(WAIT_CHECK, "queries", check_queries, False),
        Target(ROLL6, "ratio", move, True),
        Target(SCORE6, "ratio", move, True),
    ]


# --- One client process --------------------------------------------------------------------


@dataclass(frozen=True)
class ClientPlan:
    """What one client process needs: where, who, which game, for how long."""

    host: str
    port: int
    host_header: str
    cookie: str  # the mover's session and CSRF cookies
    csrf_token: str
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


@dataclass
class Answer:
    status: int
    headers: dict[str, str]
    body: str


class Client:
    """Sends the requests of one process and keeps their samples."""

    def __init__(self, plan: ClientPlan) -> None:
        self.plan = plan
        self.samples: list[Sample] = []
        self.recording = False

    def request(
        self,
        kind: str,
        method: str,
        url: str,
        *,
        cookie: str,
        form: dict[str, Any] | None = None,
        headers: dict[str, str] | None = None,
        read: bool = False,
    ) -> Answer:
        plan = self.plan
        sent = {
            "Host": plan.host_header,
            "Cookie": cookie,
            "Accept": "text/html",
            "Accept-Encoding": "gzip",  # as any browser: the HTML goes out compressed
            **(headers or {}),
        }
        body = None
        if form is not None:
            body = urlencode(form, doseq=True).encode()
            sent["Content-Type"] = "application/x-www-form-urlencoded"
            sent["X-CSRFToken"] = plan.csrf_token
        started = time.perf_counter()
        connection = http.client.HTTPConnection(plan.host, plan.port, timeout=30)
        try:
            connection.request(method, url, body=body, headers=sent)
            response = connection.getresponse()
            raw = response.read()
        finally:
            connection.close()
        seconds = time.perf_counter() - started
        if self.recording:
            self.samples.append(Sample(kind, response.status, seconds))
        text = ""
        if read:
            if response.getheader("Content-Encoding") == "gzip":
                raw = gzip.decompress(raw)
            text = raw.decode()
        return Answer(response.status, {k.lower(): v for k, v in response.getheaders()}, text)

    def run(self) -> list[Sample]:
        plan = self.plan
        htmx = {"HX-Request": "true"}
        game_id, version, box = plan.game_id, 0, ""
        rolls = 0
        six = SixSeats(list(plan.six_seat_games))
        started = time.perf_counter()
        warm_until = started + plan.warmup_seconds
        end = warm_until + plan.seconds
        while True:
            for kind in CYCLE:
                now = time.perf_counter()
                if now >= end:
                    return self.samples
                self.recording = now >= warm_until
                if kind == FRONT:
                    self.request(FRONT, "GET", "/", cookie=plan.cookie)
                elif kind == NOT_MODIFIED:
                    self.request(
                        NOT_MODIFIED,
                        "GET",
                        plan.unchanged_url,
                        cookie=plan.cookie,
                        headers=htmx | {"If-None-Match": plan.etag},
                    )
                elif kind == DASHBOARD:
                    self.request(DASHBOARD, "GET", "/play/", cookie=plan.dashboard_cookie)
                elif kind == WAIT_CHECK:
                    if plan.wait_url:
                        self.request(
                            WAIT_CHECK,
                            "GET",
                            plan.wait_url,
                            cookie=plan.waiter_cookie,
                            headers=htmx | {"If-None-Match": plan.wait_etag},
                        )
                elif kind in (ROLL6, SCORE6):
                    six.step(self, kind)
                elif kind == ROLL:
                    held = ["0", "1"] if rolls else []  # the second roll keeps two dice
                    answer = self.request(
                        ROLL,
                        "POST",
                        f"/play/{game_id}/roll/",
                        cookie=plan.cookie,
                        form={"version": version, "held": held},
                        headers=htmx,
                        read=True,
                    )
                    rolls += 1
                    found = version_of(answer.body) if answer.status == 200 else None
                    boxes = open_boxes(answer.body)
                    if found is None or not boxes:
                        game_id, version = self.new_game()
                        rolls, box = 0, ""
                        continue
                    version, box = found, boxes[0]
                elif kind == SCORE:
                    answer = self.request(
                        SCORE,
                        "POST",
                        f"/play/{game_id}/score/",
                        cookie=plan.cookie,
                        form={"version": version, "box": box},
                        headers=htmx,
                        read=True,
                    )
                    rolls = 0
                    found = version_of(answer.body) if answer.status == 200 else None
                    if found is None or game_over(answer.body):
                        game_id, version = self.new_game()
                    else:
                        version = found

    def new_game(self) -> tuple[int, int]:
        """Start another classic game over HTTP (as the page's "new game" form does)."""
        answer = self.request(
            NEW_GAME, "POST", "/play/new/", cookie=self.plan.cookie, form={"kind": "classic"}
        )
        game_id = game_id_from(answer.headers.get("location", ""))
        if answer.status != 302 or game_id is None:
            raise RuntimeError(f"starting a game answered {answer.status}")
        return game_id, 0


class SixSeats:
    """A client's six-seat games (the host plays every seat at one screen): two rolls and a
    score a turn, whoever's turn it is; the next game when one ends, nothing once all have."""

    def __init__(self, games: list[int]) -> None:
        self.games = games
        self.version = 0
        self.rolls = 0
        self.box = ""

    def step(self, client: Client, kind: str) -> None:
        if not self.games:
            return
        game_id, htmx = self.games[0], {"HX-Request": "true"}
        if kind == ROLL6 or not self.box:
            held = ["0", "1"] if self.rolls else []
            answer = client.request(
                ROLL6,
                "POST",
                f"/play/{game_id}/roll/",
                cookie=client.plan.cookie,
                form={"version": self.version, "held": held},
                headers=htmx,
                read=True,
            )
            self.rolls += 1
            found = version_of(answer.body) if answer.status == 200 else None
            boxes = open_boxes(answer.body)
            if found is None or not boxes:
                self.next_game()
                return
            self.version, self.box = found, boxes[0]
            return
        answer = client.request(
            SCORE6,
            "POST",
            f"/play/{game_id}/score/",
            cookie=client.plan.cookie,
            form={"version": self.version, "box": self.box},
            headers=htmx,
            read=True,
        )
        self.rolls, self.box = 0, ""
        found = version_of(answer.body) if answer.status == 200 else None
        if found is None or game_over(answer.body):
            self.next_game()
        else:
            self.version = found

    def next_game(self) -> None:
        self.games.pop(0)
        self.version, self.rolls, self.box = 0, 0, ""


def drive(plan: ClientPlan) -> list[Sample]:
    """One client process's whole run: its samples, warm-up left out."""
    return Client(plan).run()
