"""The site's own fuzzer: every URL pattern and form, every method, hostile ids, bodies, query
strings and headers, from every kind of visitor, against games in every state. Any 5xx fails.

A fixed seed and a budget keep it to seconds in the suite; ``make fuzz`` runs it longer
(``FUZZ_REQUESTS``, ``FUZZ_SEED``). Each request runs in a savepoint rolled back after it (its
on-commit work run first), so every request meets the same world and a failure replays alone.
"""

from __future__ import annotations

import os
import random
import traceback
from collections import Counter
from collections.abc import Iterator
from http.cookies import SimpleCookie
from typing import Any
from urllib.parse import urlsplit

import pytest
from django.core.signals import got_request_exception
from django.db import transaction
from django.test import Client, TestCase

from tests.fuzz import world as fuzz_world
from tests.fuzz.walker import Request, Walker, harvest

REQUESTS = int(os.environ.get("FUZZ_REQUESTS", "1500"))
SEED = int(os.environ.get("FUZZ_SEED", "35"))


WSGI_REFUSAL = b"Live updates need the ASGI server: this page asks instead."


def _asks_instead(request: Request, response: Any) -> bool:
    """The one 5xx by design: a stream (a game's, or the quick-play waiting page's) refused by a
    WSGI server (the test client is one), so the page asks every second instead
    (``games.play.stream``, ``games.quickplay.stream``; their own tests open streams through the
    ASGI client)."""
    return (
        response.status_code == 503
        and urlsplit(request.path).path.endswith("/stream/")
        and response.content == WSGI_REFUSAL
    )


@pytest.fixture
def errors() -> Iterator[list[str]]:
    """The tracebacks of the exceptions requests raised (a 5xx says what, this says where)."""
    caught: list[str] = []

    def keep(sender: object, request: object = None, **kwargs: Any) -> None:
        caught.append(traceback.format_exc(limit=-6))

    got_request_exception.connect(keep)
    yield caught
    got_request_exception.disconnect(keep)


class Sender:
    """Sends a ``Request`` as its persona, in a savepoint rolled back afterwards."""

    def __init__(self, world: fuzz_world.World) -> None:
        self.clients = {
            (p, csrf): world.client(p, csrf=csrf)
            for p in fuzz_world.PERSONAS
            for csrf in (False, True)
        }
        self.cookies = {key: _copy(c.cookies) for key, c in self.clients.items()}

    def send(self, request: Request) -> Any:
        key = (request.persona, request.csrf)
        client = self.clients[key]
        saved = transaction.savepoint_create()
        try:
            with TestCase.captureOnCommitCallbacks(execute=True):
                return self._request(client, request)
        finally:
            transaction.savepoint_rollback(saved)
            client.cookies = _copy(self.cookies[key])

    @staticmethod
    def _request(client: Client, request: Request) -> Any:
        kwargs: dict[str, Any] = {"headers": request.headers}
        method = request.method.lower()
        if request.content_type is not None:
            return client.generic(
                request.method, request.path, request.data or b"", request.content_type,
                **kwargs,
            )  # fmt: skip
        if request.method in {"GET", "HEAD", "OPTIONS", "DELETE"}:
            return getattr(client, method)(request.path, **kwargs)
        return getattr(client, method)(request.path, request.data or {}, **kwargs)


def _copy(cookies: SimpleCookie) -> SimpleCookie:
    return SimpleCookie(cookies.output(header=""))


def test_no_request_answers_a_server_error(
    db: None, strategy_ready: Any, errors: list[str]
) -> None:
    world = fuzz_world.build()
    sender = Sender(world)
    walker = Walker(world, random.Random(SEED))
    statuses: Counter[int] = Counter()
    failures: list[str] = []

    def check(request: Request) -> Any:
        errors.clear()
        response = sender.send(request)
        statuses[response.status_code] += 1
        if response.status_code >= 500 and not _asks_instead(request, response):
            failures.append(f"{response.status_code} {request.describe()}\n" + "".join(errors))
        return response

    # Every page each persona can open, first as it is: the forms and links it shows are learned.
    for persona in fuzz_world.PERSONAS:
        for path in walker.seeds():
            response = check(Request(persona, "GET", path))
            if response.status_code == 200 and "html" in response.get("Content-Type", ""):
                forms, _ = harvest(persona, path, response.content.decode())
                walker.learn(forms)
    seeded = sum(statuses.values())
    for request in walker.sweep():
        check(request)
    swept = sum(statuses.values()) - seeded
    for _ in range(REQUESTS):
        check(walker.next())

    print(
        f"\nfuzz: {sum(statuses.values())} requests ({seeded} to open every page, {swept} in "
        f"the sweep, {REQUESTS} drawn with seed {SEED}), {len(walker.forms)} forms learned; "
        "statuses " + ", ".join(f"{code}: {n}" for code, n in sorted(statuses.items()))
    )
    shown = "\n\n".join(failures[:10])
    assert not failures, f"{len(failures)} request(s) answered 5xx (FUZZ_SEED={SEED}):\n\n{shown}"
