"""The games' streams of changes from outside: many open at once, and one followed as a page does.

**Holding streams.** A ``Holder`` is a client process (forked) that opens streams of one game with
one player's cookies, each a raw HTTP/1.1 connection read by an asyncio task, and keeps them open;
told a version, it reports when each of its streams heard an event with that version (or a later
one). perf_counter is the machine's monotonic clock: its times compare with this process's.

**Following by stream.** ``StreamPage`` is B's page as ``static/js/live.js`` has it: a stream of
the game open; on each event newer than the page, a conditional GET of the game (as the page asks
for the game after an event), its answer timed as ``bench.follow``'s polls are, so the delay of a
move is measured the same way with either.

Nothing here touches Django or the database.
"""

from __future__ import annotations

import asyncio
import contextlib
import http.client
import multiprocessing
import re
import socket
import threading
import time
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
    return (
        f"GET {path} HTTP/1.1\r\nHost: {plan.host_header}\r\nCookie: {plan.cookie}\r\n"
        "Accept: text/event-stream\r\nCache-Control: no-cache\r\n\r\n"
    ).encode()


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

    async def _connect(self, path: str) -> _Stream:
        reader, writer = await asyncio.open_connection(self.plan.host, self.plan.port)
        writer.write(request_bytes(self.plan, path))
        head = await asyncio.wait_for(reader.readuntil(b"\r\n\r\n"), 60)
        status = head.split(b" ", 2)[1]
        if status != b"200":
            writer.close()
            raise ValueError(f"HTTP {status.decode()}")
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


def _hold(plan: StreamPlan, pipe: Connection) -> None:
    asyncio.run(_serve(plan, pipe))


async def _serve(plan: StreamPlan, pipe: Connection) -> None:
    held = _Held(plan)
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
    """A forked client process holding streams open (``open``), asked what they heard."""

    def __init__(self, plan: StreamPlan) -> None:
        self.pipe, theirs = multiprocessing.get_context("fork").Pipe()
        self.process = multiprocessing.get_context("fork").Process(
            target=_hold, args=(plan, theirs), daemon=True
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

    def alive(self) -> int:
        return int(self._ask("count"))

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
