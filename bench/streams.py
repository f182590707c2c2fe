"""The games' streams of changes from outside: many open at once, and one followed as a page does.

**Holding streams.** A ``Holder`` is a client process (forked) that opens streams of one game with
one player's cookies, each a raw HTTP/1.1 connection read by an asyncio task, and keeps them open;
told a version, it reports when each of its streams heard an event with that version (or a later
one). perf_counter is the machine's monotonic clock: its times compare with this process's.

**Watching standings.** ``Holder(plan, standings=True)`` holds a tournament's standings streams
instead (anonymous: ``plan.cookie`` empty): each ``standings`` event read whole (``EventReader``)
and noted with its wall-clock arrival, and its ``read_at`` (when the server read the standings)
parsed once per version; told when scores were sent and answered, it says how long each stream
took to hear a reading made after each one (``deliveries``). time.time is compared here, not
perf_counter: ``read_at`` is the server's clock, the same machine's.

**Following by stream.** ``StreamPage`` is B's page as ``static/js/live.js`` has it: a stream of
the game open; on each event newer than the page, a conditional GET of the game (as the page asks
for the game after an event), its answer timed as ``bench.follow``'s polls are, so the delay of a
move is measured the same way with either.

Nothing here touches Django or the database.
"""

from __future__ import annotations

import asyncio
import bisect
import contextlib
import http.client
import multiprocessing
import re
import socket
import threading
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from multiprocessing.connection import Connection
from typing import Any

from bench.client import HTMX, Client
from bench.follow import Poll, version_from_etag

_ID = re.compile(rb"\nid: (\d+)\n")
OPEN_AT_ONCE = 200  # streams being opened at the same moment (a page load's worth, many times)


@dataclass(frozen=True)
class StreamPlan:
    host: str
    port: int
    host_header: str
    cookie: str  # the ``Cookie`` header of the player whose streams these are


def request_bytes(plan: StreamPlan, path: str) -> bytes:
    cookie = f"Cookie: {plan.cookie}\r\n" if plan.cookie else ""  # none: an anonymous viewer
    return (
        f"GET {path} HTTP/1.1\r\nHost: {plan.host_header}\r\n{cookie}"
        "Accept: text/event-stream\r\nCache-Control: no-cache\r\n\r\n"
    ).encode()


# --- Reading events whole ----------------------------------------------------------------------

_READ_AT = re.compile(rb'"read_at"\s*:\s*(-?\d+(?:\.\d+)?(?:[eE][-+]?\d+)?)')
_DATA_VERSION = re.compile(rb'"version"\s*:\s*(\d+)')


@dataclass(frozen=True)
class Event:
    """One server-sent event: its name, its ``id`` (a version; else the data's ``version``)
    and its data (the ``data:`` lines joined)."""

    kind: str
    version: int | None
    data: bytes

    def read_at(self) -> float | None:
        """The data's ``read_at`` (a JSON number), found without parsing the whole document: in
        JSON text a quote inside a string is escaped, so the key cannot be matched in the HTML."""
        found = _READ_AT.search(self.data)
        return float(found[1]) if found else None


def parse_event(block: bytes) -> Event | None:
    """An event from its lines (the blank line that ends it taken off); ``None`` for a comment
    alone (a heartbeat)."""
    kind, version, data = "message", None, []
    for line in block.split(b"\n"):
        name, _, value = line.rstrip(b"\r").partition(b":")
        value = value[1:] if value.startswith(b" ") else value
        if name == b"event":
            kind = value.decode()
        elif name == b"id":
            version = int(value) if value.isdigit() else None
        elif name == b"data":
            data.append(value)
    if not data:
        return None
    joined = b"\n".join(data)
    if version is None and (found := _DATA_VERSION.search(joined)):
        version = int(found[1])
    return Event(kind, version, joined)


def _fields(head: bytes) -> tuple[str, int | None]:
    """An event's name and id from the whole lines of its head (an id after its data, or cut
    off: ``None``, and the event is then read whole)."""
    kind, version = "message", None
    for line in head.split(b"\n")[:-1]:
        name, _, value = line.rstrip(b"\r").partition(b":")
        value = value[1:] if value.startswith(b" ") else value
        if name == b"data":
            break
        if name == b"event":
            kind = value.decode()
        elif name == b"id" and value.isdigit():
            version = int(value)
    return kind, version


class EventReader:
    """A stream's body as it comes, turned into events: the chunked transfer coding taken off
    when the answer has it (an ASGI server streams with it), the events split at the blank line
    that ends each. A piece may end anywhere, even inside a chunk's size.

    An event's data is kept only if ``wanted`` says so once its head (the fields before the
    data) has come; else only its name and id are: a thousand streams of one process all get
    the same 100 KB, and one of them reading it is enough. Nothing is copied for the rest but
    the head."""

    HEAD = 256  # bytes kept of an event not wanted whole: its name and id come first

    def __init__(self, *, chunked: bool, wanted: Callable[[int | None], bool] | None = None):
        self.chunked = chunked
        self.wanted = wanted
        self.ended = False  # the last chunk (size 0) came: the server ended the stream
        self._raw = b""  # chunked bytes not yet read (an unfinished size line)
        self._left = 0  # bytes left of the current chunk's data
        self._skip = 0  # bytes of the CRLF after a chunk's data still to pass
        self._event = bytearray()  # the event so far: its head, or all of it when kept whole
        self._whole: bool | None = None  # None: not yet known
        self._head: Event | None = None  # its name and id, once known (data not kept)
        self._newline = False  # the last byte read was a newline

    def feed(self, piece: bytes) -> list[Event]:
        events: list[Event] = []
        if not self.chunked:
            self._scan(piece, 0, len(piece), events)
            return events
        raw, at = self._raw + piece, 0
        while at < len(raw) and not self.ended:
            if self._left:
                end = min(len(raw), at + self._left)
                self._scan(raw, at, end, events)
                self._left -= end - at
                at = end
                self._skip = 0 if self._left else 2
            elif self._skip:
                passed = min(self._skip, len(raw) - at)
                at, self._skip = at + passed, self._skip - passed
            else:
                end = raw.find(b"\r\n", at)
                if end == -1:
                    break
                size = int(raw[at:end].split(b";", 1)[0], 16)
                at = end + 2
                self._left, self.ended = size, size == 0
        self._raw = raw[at:]
        return events

    def _scan(self, raw: bytes, at: int, end: int, events: list[Event]) -> None:
        """The body's bytes ``raw[at:end]``, a line at a time (a data line of JSON is one line,
        found by ``memchr``); each blank line ends an event."""
        while at < end:
            newline = raw.find(b"\n", at, end)
            if newline == -1:
                self._take(raw, at, end)
                self._newline = False
                return
            if newline == at and self._newline:  # a blank line: the event is whole
                self._newline = False
                self._finish(events)
            else:
                self._take(raw, at, newline + 1)
                self._newline = True
            at = newline + 1

    def _take(self, raw: bytes, at: int, end: int) -> None:
        if self._whole is False or at >= end:
            return
        if self._whole:
            self._event += raw[at:end]
            return
        room = max(0, self.HEAD - len(self._event))
        self._event += raw[at : min(end, at + room)]
        head = bytes(self._event)
        if b"\ndata:" not in head and not head.startswith(b"data:") and len(head) < self.HEAD:
            return  # the head is not all here yet
        kind, version = _fields(head)
        self._whole = self.wanted is None or version is None or self.wanted(version)
        if self._whole:
            self._event += raw[at + room : end]
        else:
            self._head = Event(kind, version, b"")

    def _finish(self, events: list[Event]) -> None:
        event = self._head if self._whole is False else parse_event(bytes(self._event))
        if event is not None:
            events.append(event)
        self._event, self._whole, self._head = bytearray(), None, None


# --- How long each stream took to hear a reading made after each score --------------------------


@dataclass(frozen=True)
class Delivered:
    """One score, as the streams of one holder heard it: for each stream that did, the time
    from just before the score's POST left until it heard the first reading made after the
    POST's answer came (``latest``: surely a reading holding the score, as the score committed
    before its answer); and from the answer until it heard the first reading made after the
    POST left (``earliest``: no sooner could a reading holding it have come). The truth lies
    between. ``missing``: streams that heard no reading made after the answer."""

    latest: list[float]
    earliest: list[float]
    missing: int


def deliveries(
    heard: Sequence[Mapping[int, float]],
    read_at: Mapping[int, float],
    scores: Sequence[tuple[float, float]],
) -> list[Delivered]:
    """``heard``: per stream, version -> when it came; ``read_at``: version -> when the server
    read it; ``scores``: (just before the POST, its answer read), all on time.time's clock."""
    timelines = []
    for stream in heard:
        seen = sorted((read_at[v], t) for v, t in stream.items() if v in read_at)
        firsts = [t for _, t in seen]
        for i in range(len(firsts) - 2, -1, -1):  # the soonest arrival from each reading on
            firsts[i] = min(firsts[i], firsts[i + 1])
        timelines.append(([r for r, _ in seen], firsts))
    result = []
    for sent, acked in scores:
        latest, earliest, missing = [], [], 0
        for reads, firsts in timelines:
            after = bisect.bisect_right(reads, acked)
            if after == len(reads):
                missing += 1
                continue
            latest.append(firsts[after] - sent)
            earliest.append(max(0.0, firsts[bisect.bisect_right(reads, sent)] - acked))
        result.append(Delivered(latest, earliest, missing))
    return result


# --- Many streams in a process of their own ----------------------------------------------------


@dataclass
class _Stream:
    writer: asyncio.StreamWriter
    heard: dict[int, float] = field(default_factory=dict)  # version -> when its event came
    task: asyncio.Task[None] | None = None


class _Held:
    """The holder's side: its streams and the loop that reads them."""

    def __init__(self, plan: StreamPlan) -> None:
        self.plan = plan
        self.streams: list[_Stream] = []
        self.failed: list[str] = []

    async def open(self, path: str, count: int) -> tuple[int, int, float]:
        started = time.perf_counter()
        gate = asyncio.Semaphore(OPEN_AT_ONCE)

        async def one() -> None:
            async with gate:
                try:
                    self.streams.append(await self._connect(path))
                except (OSError, ValueError, asyncio.IncompleteReadError) as error:
                    self.failed.append(str(error) or type(error).__name__)

        failed_before = len(self.failed)
        await asyncio.gather(*(one() for _ in range(count)))
        return (
            count - (len(self.failed) - failed_before),
            len(self.failed) - failed_before,
            (time.perf_counter() - started),
        )

    async def _answered(
        self, path: str, *, limit: int = 2**16
    ) -> tuple[asyncio.StreamReader, asyncio.StreamWriter, bytes]:
        """A stream of ``path`` asked for and answered 200: its reader, writer and head."""
        reader, writer = await asyncio.open_connection(self.plan.host, self.plan.port, limit=limit)
        writer.write(request_bytes(self.plan, path))
        head = await asyncio.wait_for(reader.readuntil(b"\r\n\r\n"), 60)
        status = head.split(b" ", 2)[1]
        if status != b"200":
            writer.close()
            raise ValueError(f"HTTP {status.decode()}")
        return reader, writer, head

    async def _connect(self, path: str) -> _Stream:
        reader, writer, _ = await self._answered(path)
        seen = b""
        while b"event: ready" not in seen:  # the stream is open once it says so
            seen += await asyncio.wait_for(reader.read(4096), 60)
            if not seen:
                raise ValueError("closed before ready")
        stream = _Stream(writer)
        stream.task = asyncio.create_task(self._read(reader, stream, seen))
        return stream

    async def _read(self, reader: asyncio.StreamReader, stream: _Stream, seen: bytes) -> None:
        tail = seen[-64:]
        while chunk := await reader.read(4096):
            now = time.perf_counter()
            text = tail + chunk
            for found in _ID.finditer(text):
                stream.heard.setdefault(int(found[1]), now)
            tail = text[-64:]

    def heard(self, version: int) -> tuple[list[float], int]:
        """When each stream first heard ``version`` or later; how many never did."""
        times, missing = [], 0
        for stream in self.streams:
            when = [t for v, t in stream.heard.items() if v >= version]
            if when:
                times.append(min(when))
            else:
                missing += 1
        return times, missing

    async def close(self) -> None:
        for stream in self.streams:
            if stream.task is not None:
                stream.task.cancel()
            stream.writer.close()
        self.streams.clear()


class _Watching(_Held):
    """The holder's side of a tournament's standings streams: a stream is open once answered
    (it says no ``ready``); each ``standings`` event read whole, its version noted per stream
    with its wall-clock arrival, and the version's ``read_at`` (every stream gets the same
    bytes: parsed once) and size."""

    READ_SIZE = 2**18  # an event of a thousand entrants' standings is over 100 KB

    def __init__(self, plan: StreamPlan) -> None:
        super().__init__(plan)
        self.read_at: dict[int, float] = {}
        self.sizes: dict[int, int] = {}
        self.reading: set[int] = set()  # versions some stream of this process reads whole

    def _claim(self, version: int | None) -> bool:
        """Whether this stream reads the event of ``version`` whole: the first to ask does."""
        if version is None or version in self.read_at or version in self.reading:
            return version is None
        self.reading.add(version)
        return True

    async def _connect(self, path: str) -> _Stream:
        reader, writer, head = await self._answered(path, limit=self.READ_SIZE)
        chunked = b"transfer-encoding: chunked" in head.lower()
        events = EventReader(chunked=chunked, wanted=self._claim)
        stream = _Stream(writer)
        stream.task = asyncio.create_task(self._watch(reader, stream, events))
        return stream

    async def _watch(
        self, reader: asyncio.StreamReader, stream: _Stream, events: EventReader
    ) -> None:
        while piece := await reader.read(self.READ_SIZE):
            now = time.time()
            for event in events.feed(piece):
                version = event.version
                if event.kind != "standings" or version is None:
                    continue
                stream.heard.setdefault(version, now)
                if version not in self.read_at and (read := event.read_at()) is not None:
                    self.read_at[version], self.sizes[version] = read, len(event.data)
                    self.reading.discard(version)
            if events.ended:
                return

    def unheard(self, after: float) -> int:
        """Streams that have heard no reading made after ``after`` (time.time)."""
        later = {v for v, read in self.read_at.items() if read > after}
        return sum(1 for stream in self.streams if later.isdisjoint(stream.heard))

    def delivered(self, scores: Sequence[tuple[float, float]]) -> list[Delivered]:
        return deliveries([s.heard for s in self.streams], self.read_at, scores)


def _hold(plan: StreamPlan, pipe: Connection, standings: bool) -> None:
    asyncio.run(_serve(plan, pipe, standings))


async def _serve(plan: StreamPlan, pipe: Connection, standings: bool = False) -> None:
    held = _Watching(plan) if standings else _Held(plan)
    loop = asyncio.get_running_loop()
    while True:
        command, *args = await loop.run_in_executor(None, pipe.recv)
        if command == "open":
            pipe.send(await held.open(*args))
        elif command == "heard":
            version, within = args
            deadline = time.perf_counter() + within
            times, missing = held.heard(version)
            while missing and time.perf_counter() < deadline:
                await asyncio.sleep(0.005)
                times, missing = held.heard(version)
            pipe.send((times, missing))
        elif command == "delivered" and isinstance(held, _Watching):
            scores, within = args
            deadline = time.perf_counter() + within
            last = max((acked for _, acked in scores), default=0.0)
            while held.unheard(last) and time.perf_counter() < deadline:
                await asyncio.sleep(0.02)
            pipe.send((held.delivered(scores), dict(held.sizes)))
        elif command == "failures":
            pipe.send(sorted(set(held.failed)))
        elif command == "count":
            alive = sum(1 for s in held.streams if s.task is not None and not s.task.done())
            pipe.send(alive)
        elif command == "close":
            await held.close()
            pipe.send(True)
        else:
            await held.close()
            pipe.send(True)
            return


class Holder:
    """A forked client process holding streams open (``open``), asked what they heard: a
    game's streams, or with ``standings`` a tournament's (``delivered``)."""

    def __init__(self, plan: StreamPlan, *, standings: bool = False) -> None:
        self.pipe, theirs = multiprocessing.get_context("fork").Pipe()
        self.process = multiprocessing.get_context("fork").Process(
            target=_hold, args=(plan, theirs, standings), daemon=True
        )
        self.process.start()

    def _ask(self, *command: Any, timeout: float = 600) -> Any:
        self.pipe.send(command)
        if not self.pipe.poll(timeout):
            raise TimeoutError(f"the stream holder did not answer {command[0]!r}")
        return self.pipe.recv()

    def open(self, path: str, count: int) -> tuple[int, int, float]:
        """Open ``count`` more streams of ``path``: how many opened, failed, and in how long."""
        opened, failed, seconds = self._ask("open", path, count)
        return int(opened), int(failed), float(seconds)

    def heard(self, version: int, *, within: float = 30.0) -> tuple[list[float], int]:
        times, missing = self._ask("heard", version, within, timeout=within + 30)
        return list(times), int(missing)

    def delivered(
        self, scores: Sequence[tuple[float, float]], *, within: float = 15.0
    ) -> tuple[list[Delivered], dict[int, int]]:
        """Standings streams: each score's ``Delivered`` (``scores``: time.time just before
        each score's POST and once its answer was read), once every stream has heard a
        reading made after the last answer or ``within`` seconds have passed; and the size of
        each version's data."""
        found, sizes = self._ask("delivered", list(scores), within, timeout=within + 60)
        return list(found), dict(sizes)

    def alive(self) -> int:
        return int(self._ask("count"))

    def failures(self) -> list[str]:
        """Why streams failed to open, each reason once ("HTTP 429", "closed before ready")."""
        return list(self._ask("failures"))

    def close(self) -> None:
        self._ask("close")

    def stop(self) -> None:
        try:
            self._ask("quit", timeout=30)
        finally:
            self.process.join(timeout=10)
            if self.process.is_alive():
                self.process.kill()


# --- One page following its game by the stream -------------------------------------------------


class StreamPage(threading.Thread):
    """B's page with the stream open: on each event newer than the page, the game asked for
    (``client``, with the page's ETag); each such answer recorded as a ``Poll``."""

    def __init__(self, plan: StreamPlan, client: Client) -> None:
        super().__init__(daemon=True)
        self.plan, self.client = plan, client
        self.game: int | None = None
        self.etag = ""
        self.version = 0
        self.polls: list[Poll] = []
        self.events = 0
        self.ready = threading.Event()
        self.stop = threading.Event()
        self.switch = threading.Event()
        self.conn: http.client.HTTPConnection | None = None
        self.error: BaseException | None = None

    def follow(self, game: int) -> None:
        """Load ``game`` as the page does, then hold its stream (the one before closed)."""
        self.ready.clear()
        answer = self.client.get("stream-page", f"/play/{game}/", headers=HTMX)
        self.etag = answer.headers.get("etag", "")
        self.version = version_from_etag(self.etag) or 0
        self.game = game
        self._hang_up()
        self.switch.set()
        if not self.ready.wait(timeout=30) or self.error:
            raise RuntimeError(f"game {game}'s stream did not open: {self.error}")

    def close(self) -> None:
        self.stop.set()
        self.switch.set()
        self._hang_up()
        self.join(timeout=10)

    def _hang_up(self) -> None:
        conn = self.conn
        if conn is not None and conn.sock is not None:
            with contextlib.suppress(OSError):
                conn.sock.shutdown(socket.SHUT_RDWR)

    def run(self) -> None:
        try:
            while not self.stop.is_set():
                self.switch.wait()
                self.switch.clear()
                if self.game is not None and not self.stop.is_set():
                    self._hold(self.game)
        except BaseException as error:  # reported by the caller
            self.error = error
            self.ready.set()

    def _hold(self, game: int) -> None:
        conn = self.conn = http.client.HTTPConnection(self.plan.host, self.plan.port, timeout=60)
        path = f"/play/{game}/stream/?since={self.version}"
        conn.request("GET", path, headers={"Host": self.plan.host_header,
                                           "Cookie": self.plan.cookie})  # fmt: skip
        answer = conn.getresponse()
        if answer.status != 200:
            raise RuntimeError(f"{path} answered {answer.status}")
        event: dict[str, str] = {}
        try:
            while line := answer.readline():  # empty once hung up
                text = line.decode().rstrip("\n")
                if text:
                    name, _, value = text.partition(": ")
                    event[name] = value
                    continue
                if event.get("event") == "ready":
                    self.ready.set()
                elif "id" in event and int(event["id"]) > self.version:
                    self.events += 1
                    self._ask(game)
                event = {}
        except (OSError, http.client.HTTPException):
            pass  # hung up to follow another game, or stopped
        finally:
            conn.close()

    def _ask(self, game: int) -> None:
        headers = HTMX | ({"If-None-Match": self.etag} if self.etag else {})
        started = time.perf_counter()
        answer = self.client.get("follow-stream", f"/play/{game}/", headers=headers)
        done = time.perf_counter()
        etag = answer.headers.get("etag", "")
        version = version_from_etag(etag) if answer.status == 200 else None
        if answer.status == 200 and etag:
            self.etag, self.version = etag, version or self.version
        self.polls.append(Poll(game, done, version, done - started))


# --- A stream that comes back by itself, as a browser's EventSource does ----------------------


class Listener(threading.Thread):
    """A page's stream of one game through the proxy: each event's version noted with when it
    came; broken or refused (a worker killed, a node restarting), opened again half a second
    later with ``Last-Event-ID``, as a browser does, so nothing between is lost."""

    def __init__(self, plan: StreamPlan, game: int, since: int) -> None:
        super().__init__(daemon=True)
        self.plan, self.game, self.last = plan, game, since
        self.heard: dict[int, float] = {}
        self.reconnects = 0
        self.stop = threading.Event()
        self.changed = threading.Condition()
        self.conn: http.client.HTTPConnection | None = None

    def run(self) -> None:
        while not self.stop.is_set():
            with contextlib.suppress(OSError, http.client.HTTPException, ValueError):
                self._hold()
            if not self.stop.wait(0.5):
                self.reconnects += 1

    def _hold(self) -> None:
        conn = self.conn = http.client.HTTPConnection(self.plan.host, self.plan.port, timeout=60)
        headers = {"Host": self.plan.host_header, "Cookie": self.plan.cookie,
                   "Last-Event-ID": str(self.last)}  # fmt: skip
        conn.request("GET", f"/play/{self.game}/stream/", headers=headers)
        answer = conn.getresponse()
        try:
            if answer.status != 200:
                return
            while line := answer.readline():
                text = line.decode().rstrip("\n")
                if text.startswith("id: "):
                    version = int(text[4:])
                    with self.changed:
                        self.last = max(self.last, version)
                        self.heard.setdefault(version, time.perf_counter())
                        self.changed.notify_all()
                elif text == "event: end":
                    self.stop.set()
        finally:
            conn.close()

    def heard_by(self, version: int, within: float) -> float | None:
        """When the stream first heard ``version`` or later (waiting up to ``within``)."""
        deadline = time.perf_counter() + within
        with self.changed:
            while True:
                found = [t for v, t in self.heard.items() if v >= version]
                if found:
                    return min(found)
                left = deadline - time.perf_counter()
                if left <= 0:
                    return None
                self.changed.wait(left)

    def close(self) -> None:
        self.stop.set()
        conn = self.conn
        if conn is not None and conn.sock is not None:
            with contextlib.suppress(OSError):
                conn.sock.shutdown(socket.SHUT_RDWR)
        self.join(timeout=5)
