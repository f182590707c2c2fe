"""The bench's one HTTP client: what every client process (``bench.load``, ``bench.follow``,
``bench.scaleout``) sends the site through, and how it times and records each request.

A ``Client`` is one browser, reduced: the address (``http.client``), the ``Host`` header the site
allows, a cookie jar (the session and CSRF cookies, updated from ``Set-Cookie``), the CSRF token
sent with every form (``X-CSRFToken``, the CSRF cookie's value), and the headers asked for. Each
request is timed from before its connection opens to after its answer is read and the connection
closed, and recorded in a ``Recorder`` (shared by the clients of one process) while it records.

By default every request opens a connection of its own, as gunicorn's sync workers close every
one anyway: the figures include the connection, as they always have. ``keep_alive`` keeps one
open between requests (nginx keeps it; a server that closes it gets a new one).

Nothing here touches Django or the database.
"""

from __future__ import annotations

import gzip
import http.client
import time
from collections.abc import Mapping
from dataclasses import dataclass, field
from functools import cached_property
from urllib.parse import urlencode

HTMX = {"HX-Request": "true"}  # what htmx adds to each of its requests
_STALE = (http.client.RemoteDisconnected, BrokenPipeError, ConnectionResetError)


@dataclass(frozen=True)
class Sample:
    """One timed request: its type (the bench's name for it), its status, its seconds."""

    kind: str
    status: int
    seconds: float


@dataclass
class Recorder:
    """The samples of one client process, taken only while ``recording`` (not in the warm-up);
    with ``tally_header``, every answer (recording or not) counted by that header's value."""

    samples: list[Sample] = field(default_factory=list)
    recording: bool = False
    tally_header: str = ""
    tally: dict[str, int] = field(default_factory=dict)

    def record(self, kind: str, status: int, seconds: float) -> None:
        if self.recording:
            self.samples.append(Sample(kind, status, seconds))

    def count(self, headers: Mapping[str, str]) -> None:
        if self.tally_header:
            value = headers.get(self.tally_header.lower(), "?")
            self.tally[value] = self.tally.get(value, 0) + 1


@dataclass
class Response:
    status: int
    headers: dict[str, str]  # names in lower case
    raw: bytes  # as sent (gzip-compressed when the server compressed it)
    seconds: float
    cut_off: bool = False  # the connection broke before the answer was read (no answer at all)

    @cached_property
    def text(self) -> str:
        """The body, decompressed and decoded (only when asked for: never inside the timing)."""
        raw = self.raw
        if self.headers.get("content-encoding") == "gzip":
            raw = gzip.decompress(raw)
        return raw.decode(errors="replace")


def parse_cookies(header: str) -> dict[str, str]:
    """A ``Cookie`` header's pairs (``"a=1; b=2"``), in order."""
    pairs = (part.strip().partition("=") for part in header.split(";"))
    return {name: value for name, _, value in pairs if name}


class Client:
    """One browser's requests to ``host:port``, timed and recorded.

    ``gzip`` asks for compressed answers, as any browser does. ``cut_off`` is the status that a
    broken connection is recorded and answered with (``None``: the error is raised).
    """

    def __init__(
        self,
        host: str,
        port: int,
        *,
        host_header: str,
        cookies: Mapping[str, str] | None = None,
        csrf_cookie: str = "csrftoken",
        gzip: bool = False,
        timeout: float = 30.0,
        keep_alive: bool = False,
        cut_off: int | None = None,
        recorder: Recorder | None = None,
    ) -> None:
        self.host, self.port, self.host_header = host, port, host_header
        self.cookies = dict(cookies or {})
        self.csrf_cookie = csrf_cookie
        self.gzip, self.timeout, self.keep_alive, self.cut_off = gzip, timeout, keep_alive, cut_off
        self.recorder = recorder if recorder is not None else Recorder()
        self._connection: http.client.HTTPConnection | None = None

    @property
    def csrf_token(self) -> str:
        return self.cookies.get(self.csrf_cookie, "")

    def get(self, kind: str, url: str, *, headers: Mapping[str, str] | None = None) -> Response:
        return self.request(kind, "GET", url, headers=headers)

    def post(
        self,
        kind: str,
        url: str,
        form: Mapping[str, object],
        *,
        headers: Mapping[str, str] | None = None,
    ) -> Response:
        return self.request(kind, "POST", url, form=form, headers=headers)

    def request(
        self,
        kind: str,
        method: str,
        url: str,
        *,
        form: Mapping[str, object] | None = None,
        headers: Mapping[str, str] | None = None,
    ) -> Response:
        """One request, timed and recorded as ``kind``; a form is sent with the CSRF token."""
        sent = {
            "Host": self.host_header,
            "Cookie": "; ".join(f"{name}={value}" for name, value in self.cookies.items()),
            "Accept": "text/html",
        }
        if self.gzip:
            sent["Accept-Encoding"] = "gzip"  # the HTML comes back compressed, as to a browser
        sent.update(headers or {})
        body = None
        if form is not None:
            body = urlencode(form, doseq=True).encode()
            sent["Content-Type"] = "application/x-www-form-urlencoded"
            sent["X-CSRFToken"] = self.csrf_token
        started = time.perf_counter()
        try:
            status, answer, raw = self._exchange(method, url, body, sent)
        except (http.client.HTTPException, OSError):
            if self.cut_off is None:
                raise
            # Broken off mid-way (say, its worker killed): no answer, nothing acknowledged.
            seconds = time.perf_counter() - started
            self.recorder.record(kind, self.cut_off, seconds)
            return Response(self.cut_off, {}, b"", seconds, cut_off=True)
        seconds = time.perf_counter() - started
        self.recorder.record(kind, status, seconds)
        self.recorder.count(answer)
        for value in answer.get("set-cookie", "").splitlines():
            key, _, rest = value.partition("=")
            self.cookies[key.strip()] = rest.split(";", 1)[0]
        return Response(status, answer, raw, seconds)

    def _exchange(
        self, method: str, url: str, body: bytes | None, headers: dict[str, str]
    ) -> tuple[int, dict[str, str], bytes]:
        """Send and read on a new connection (closed again), or on the kept one."""
        reused = self._connection is not None
        connection = self._connection or http.client.HTTPConnection(
            self.host, self.port, timeout=self.timeout
        )
        self._connection = None
        try:
            connection.request(method, url, body=body, headers=headers)
            response = connection.getresponse()
            raw = response.read()
        except _STALE:
            connection.close()
            if not reused:
                raise
            # The kept connection had been closed by the server meanwhile: once more, anew.
            return self._exchange(method, url, body, headers)
        except BaseException:
            connection.close()
            raise
        # Set-Cookie may come more than once: each kept, one a line.
        answer: dict[str, str] = {}
        for name, value in response.getheaders():
            name = name.lower()
            if name == "set-cookie" and name in answer:
                answer[name] += "\n" + value
            else:
                answer[name] = value
        if self.keep_alive and not response.will_close:
            self._connection = connection
        else:
            connection.close()
        return response.status, answer, raw

    def close(self) -> None:
        if self._connection is not None:
            self._connection.close()
            self._connection = None
