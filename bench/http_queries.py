"""The HTTP scenario's figures taken in this process (``django.test.Client``, the same database
and cache as gunicorn's workers): every request type asked a few times, its queries counted
(``count_queries``); then asked again, uncounted, for the CPU each request costs, as a multiple
of ``/healthz``'s, the floor of any request (``cpu_per_request``)."""

from __future__ import annotations

import statistics
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import TYPE_CHECKING, Any

from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext

from bench import load
from bench.client import HTMX
from bench.output import BenchError
from bench.scenarios import allowed_host
from bench.turns import open_boxes, version_of
from games.models import Game
from games.tables import services

if TYPE_CHECKING:
    from bench.http_players import Prepared


HEALTHZ = "healthz"
"""The plain-text page's key among the CPU figures: what every other type is a multiple of."""

Recorder = Callable[[str, int, Callable[..., Any]], Any]


def count_queries(prepared: Prepared, *, rounds: int = 3) -> dict[str, list[int]]:
    """Every type's query count, ``rounds`` times, through ``django.test.Client``."""
    counts: dict[str, list[int]] = {}

    def measured(kind: str) -> Any:
        return CaptureQueriesContext(connection)

    def kept(kind: str, captured: Any) -> None:
        counts.setdefault(kind, []).append(len(captured.captured_queries))

    _ask_each(prepared, prepared.games[-1], rounds=rounds, recorder=_recorder(measured, kept))
    if prepared.waiter is not None:
        _ask_playing_together(prepared, _recorder(measured, kept), rounds=rounds)
    return counts


def cpu_per_request(prepared: Prepared, *, rounds: int = 12) -> dict[str, float]:
    """Every type's median CPU time (ms, this thread's) a request, ``rounds`` times each, and
    ``/healthz``'s: what a worker spends on each, the client's own work included alike."""
    spent: dict[str, list[float]] = {}

    @contextmanager
    def timed(kind: str) -> Iterator[list[float]]:
        started = [time.thread_time()]
        yield started
        started.append(time.thread_time())

    def kept(kind: str, started: list[float]) -> None:
        spent.setdefault(kind, []).append((started[1] - started[0]) * 1000)

    fresh = services.start_game(owner=prepared.mover).pk  # twelve turns of its thirteen
    _ask_each(prepared, fresh, rounds=rounds, recorder=_recorder(timed, kept), healthz=True)
    return {kind: statistics.median(seen) for kind, seen in spent.items()}


def _recorder(measured: Callable[[str], Any], kept: Callable[[str, Any], None]) -> Recorder:
    def record(kind: str, expected: int, call: Callable[..., Any]) -> Any:
        with measured(kind) as taken:
            response = call()
        if response.status_code != expected:
            raise BenchError(f"{kind} answered {response.status_code} in process, not {expected}")
        kept(kind, taken)
        return response

    return record


def _ask_each(
    prepared: Prepared, game_id: int, *, rounds: int, recorder: Recorder, healthz: bool = False
) -> None:
    """Each type asked ``rounds`` times through ``django.test.Client``, each request handed to
    ``recorder``; a turn of ``game_id`` each round (fewer than the turns it has left)."""
    host = allowed_host()
    mover = Client(HTTP_HOST=host)
    mover.force_login(prepared.mover)
    viewer = Client(HTTP_HOST=host)
    viewer.force_login(prepared.dashboard)
    version = version_now(game_id)
    unchanged = f"/play/{prepared.unchanged}/"
    first = mover.get(unchanged, headers=HTMX)
    etag = first.headers.get("ETag", "")
    counted = recorder

    roll_url, score_url = f"/play/{game_id}/roll/", f"/play/{game_id}/score/"
    for _ in range(rounds):
        if healthz:
            counted(HEALTHZ, 200, lambda: mover.get("/healthz"))
        counted(load.FRONT, 200, lambda: mover.get("/"))
        form: dict[str, Any] = {"version": version, "held": []}
        answer = counted(load.ROLL, 200, lambda f=form: mover.post(roll_url, f, headers=HTMX))
        text = answer.content.decode()
        form = {"version": version_of(text), "box": open_boxes(text)[0]}
        answer = counted(load.SCORE, 200, lambda f=form: mover.post(score_url, f, headers=HTMX))
        version = version_of(answer.content.decode()) or 0
        counted(
            load.NOT_MODIFIED,
            304,
            lambda: mover.get(unchanged, headers=HTMX | {"If-None-Match": etag}),
        )
        counted(load.DASHBOARD, 200, lambda: viewer.get("/play/"))


def version_now(game_id: int) -> int:
    return Game.objects.values_list("version", flat=True).get(pk=game_id)


def _ask_playing_together(prepared: Prepared, counted: Recorder, *, rounds: int) -> None:
    """The waiting player's update check and the six-seat moves, counted as the others."""
    assert prepared.waiter is not None
    host = allowed_host()
    waiter = Client(HTTP_HOST=host)
    waiter.force_login(prepared.waiter)
    mover = Client(HTTP_HOST=host)
    mover.force_login(prepared.mover)
    waiting = f"/play/{prepared.waiting}/"
    etag = waiter.get(waiting, headers=HTMX).headers.get("ETag", "")
    game_id = prepared.six_seats[-1][0]
    version = version_now(game_id)
    roll_url, score_url = f"/play/{game_id}/roll/", f"/play/{game_id}/score/"
    for _ in range(rounds):
        counted(
            load.WAIT_CHECK,
            304,
            lambda: waiter.get(waiting, headers=HTMX | {"If-None-Match": etag}),
        )
        form: dict[str, Any] = {"version": version, "held": []}
        answer = counted(load.ROLL6, 200, lambda f=form: mover.post(roll_url, f, headers=HTMX))
        text = answer.content.decode()
        form = {"version": version_of(text), "box": open_boxes(text)[0]}
        answer = counted(load.SCORE6, 200, lambda f=form: mover.post(score_url, f, headers=HTMX))
        version = version_of(answer.content.decode()) or 0
