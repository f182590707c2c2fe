"""The ASGI server as ``make run`` and the stream pools start it (gunicorn with
``yahtzee_site.asgi_worker.Worker``): a connection that does not send its whole request in time
is cut, so idle sockets cannot hold the worker's connections; a stream, whose request came
whole, is never cut.

One worker with a small connection limit and a short deadline, against the test database."""

from __future__ import annotations

import selectors
import socket
import time
import urllib.error
import urllib.request
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from django.conf import settings
from django.test import Client

from accounts.models import User
from bench import serve
from games.models import Game
from tests.streams.reader import stream_url

LIMIT = 50
DEADLINE = 1.0
"""Seconds a client has to send its request (``ASGI_REQUEST_TIMEOUT``), short for the test."""
FULL = "Exceeded concurrency limit."
SERVER_ENV = {"ASGI_CONNECTIONS": str(LIMIT), "ASGI_REQUEST_TIMEOUT": str(DEADLINE)}

# Committed data: the server reads the test database through connections of its own.
pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture(scope="module")
def port(django_db_setup: None) -> Iterator[int]:
    """The site served as ``make run`` serves it, one worker; its log says nothing but the
    503s of the full worker (and is then removed)."""
    port = serve.free_port()
    with serve.gunicorn(port, workers=1, asgi=True, env=SERVER_ENV):
        yield port
    log = Path(settings.BASE_DIR) / "var" / f"bench-gunicorn-{port}.log"
    if log.exists():
        said = [line for line in log.read_text().splitlines() if FULL not in line]
        assert not said, "\n".join(said)
        log.unlink()


def status_of(port: int, path: str) -> int:
    try:
        with urllib.request.urlopen(f"http://127.0.0.1:{port}{path}", timeout=5) as answer:
            return int(answer.status)
    except urllib.error.HTTPError as refused:
        return int(refused.code)


Connect = Callable[[bytes], socket.socket]


@pytest.fixture
def connect(port: int) -> Iterator[Connect]:
    """Open a connection to the server and send it ``sent``; each closed after the test."""
    opened: list[socket.socket] = []

    def connect(sent: bytes = b"") -> socket.socket:
        client = socket.create_connection(("127.0.0.1", port), timeout=DEADLINE + 5)
        opened.append(client)
        if sent:
            client.sendall(sent)
        return client

    yield connect
    for client in opened:
        client.close()


def read_until(client: socket.socket, end: bytes) -> bytes:
    heard = b""
    while end not in heard:
        chunk = client.recv(65536)
        assert chunk, f"closed before {end!r}: {heard!r}"
        heard += chunk
    return heard


def seconds_until_cut(*clients: socket.socket, since: float | None = None) -> list[float]:
    """How long (from ``since``, else now) until the server closed each of ``clients`` (an end
    of file, nothing answered); fails when any is still open ``DEADLINE`` + 3 seconds later."""
    started = time.monotonic() if since is None else since
    waited: list[float] = []
    with selectors.DefaultSelector() as waiting:
        for client in clients:
            waiting.register(client, selectors.EVENT_READ)
        while len(waited) < len(clients):
            left = started + DEADLINE + 3 - time.monotonic()
            ready = waiting.select(timeout=max(0.0, left))
            if not ready:
                still = len(clients) - len(waited)
                pytest.fail(f"{still} connections still held {DEADLINE + 3} s on")
            for key, _ in ready:
                received = key.fileobj.recv(65536)  # type: ignore[union-attr]
                assert received == b"", received
                waiting.unregister(key.fileobj)
                waited.append(time.monotonic() - started)
    return waited


def test_idle_connections_are_cut_and_the_site_answers_again(port: int, connect: Connect) -> None:
    opened = time.monotonic()
    idle = [connect(b"") for _ in range(LIMIT + 10)]

    full = status_of(port, "/healthz")  # every connection of the worker taken by idle ones
    waited = seconds_until_cut(*idle, since=opened)
    answers = status_of(port, "/healthz")

    assert full == 503
    assert min(waited) >= DEADLINE - 0.5 and max(waited) <= DEADLINE + 1.5
    assert answers == 200


@pytest.mark.parametrize(
    "sent",
    [
        b"GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\n",
        b"POST /accounts/login/ HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: 100\r\n\r\nuser",
    ],
    ids=["head", "body"],
)
def test_a_request_sent_in_part_is_cut_at_the_deadline(connect: Connect, sent: bytes) -> None:
    (waited,) = seconds_until_cut(connect(sent))

    assert DEADLINE - 0.5 <= waited <= DEADLINE + 1.5


def test_the_next_request_on_a_kept_connection_has_the_same_deadline(connect: Connect) -> None:
    client = connect(b"GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
    answer = read_until(client, b"\r\n\r\nok")
    client.sendall(b"GET /healthz HTTP/1.1\r\n")  # ...and no more

    (waited,) = seconds_until_cut(client)

    assert answer.startswith(b"HTTP/1.1 200 ")
    assert waited <= DEADLINE + 1.5


def test_an_open_stream_outlives_the_deadline(connect: Connect, bob: User, online: Game) -> None:
    browser = Client()
    browser.force_login(bob)
    cookie = browser.cookies[settings.SESSION_COOKIE_NAME].value
    stream = connect(
        f"GET {stream_url(online, since=online.version)} HTTP/1.1\r\nHost: 127.0.0.1\r\n"
        f"Cookie: {settings.SESSION_COOKIE_NAME}={cookie}\r\n\r\n".encode(),
    )
    heard = read_until(stream, b"event: ready")
    # A connection opened after the stream, cut at its deadline: the stream's has passed too.
    seconds_until_cut(connect(b"GET /healthz HTTP/1.1\r\n"))

    stream.setblocking(False)
    try:
        more = stream.recv(65536)  # b"" had the server closed it
    except BlockingIOError:
        more = None

    assert heard.startswith(b"HTTP/1.1 200 ") and b"text/event-stream" in heard
    assert more is None
