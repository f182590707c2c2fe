"""The HTTP scenario's query counts: every request type asked a few times in this process
(``django.test.Client``, the same database and cache as gunicorn's workers), its queries counted."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext

from bench import load
from bench.client import HTMX
from bench.output import BenchError
from bench.scenarios import allowed_host
from bench.turns import open_boxes, version_of

if TYPE_CHECKING:
    from bench.http_players import Prepared


def count_queries(prepared: Prepared, *, rounds: int = 3) -> dict[str, list[int]]:
    """Every type's query count, ``rounds`` times, through ``django.test.Client``."""
    host = allowed_host()
    mover = Client(HTTP_HOST=host)
    mover.force_login(prepared.mover)
    viewer = Client(HTTP_HOST=host)
    viewer.force_login(prepared.dashboard)
    counts: dict[str, list[int]] = {kind: [] for kind in load.TYPES if kind != load.NEW_GAME}
    game_id, version = prepared.games[-1], 0
    unchanged = f"/play/{prepared.unchanged}/"
    first = mover.get(unchanged, headers=HTMX)
    etag = first.headers.get("ETag", "")

    def counted(kind: str, expected: int, call: Any) -> Any:
        with CaptureQueriesContext(connection) as captured:
            response = call()
        if response.status_code != expected:
            raise BenchError(f"{kind} answered {response.status_code} in process, not {expected}")
        counts[kind].append(len(captured.captured_queries))
        return response

    roll_url, score_url = f"/play/{game_id}/roll/", f"/play/{game_id}/score/"
    for _ in range(rounds):
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
    if prepared.waiter is not None:
        count_playing_together(prepared, counts, counted, rounds=rounds)
    return {kind: seen for kind, seen in counts.items() if seen}


def count_playing_together(
    prepared: Prepared, counts: dict[str, list[int]], counted: Any, *, rounds: int
) -> None:
    """The waiting player's update check and the six-seat moves, counted as the others."""
    assert prepared.waiter is not None
    host = allowed_host()
    waiter = Client(HTTP_HOST=host)
    waiter.force_login(prepared.waiter)
    mover = Client(HTTP_HOST=host)
    mover.force_login(prepared.mover)
    waiting = f"/play/{prepared.waiting}/"
    etag = waiter.get(waiting, headers=HTMX).headers.get("ETag", "")
    game_id, version = prepared.six_seats[-1][0], 0
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
