"""What every stream of server-sent events shares (a game's: ``games.play.stream``; a watcher's:
``games.watching.stream``; a quick-play wait's: ``games.quickplay.stream``; a tournament's
standings: ``games.tournaments.stream``): whether one can be had here, who asks and whether their
session still holds, where a page resumes from, the refusal a page falls back from, the answer's
headers, an event's lines, a body that gives its inbox back however the stream ends, and the
loop that tells a game's changes."""

from __future__ import annotations

import asyncio
import hashlib
import json
import random
import weakref
from collections.abc import AsyncGenerator, AsyncIterator, Callable, Iterable
from contextlib import aclosing
from dataclasses import dataclass

from asgiref.sync import SyncToAsync
from django.contrib.auth import HASH_SESSION_KEY, get_user
from django.core.handlers.asgi import ASGIRequest
from django.db import connections
from django.http import HttpRequest, HttpResponse, StreamingHttpResponse
from django.utils.cache import patch_vary_headers
from django.utils.crypto import constant_time_compare

from games.play import broadcast, listening
from yahtzee_site import numbers


def session_mark(session_key: str) -> str:
    """How a session is named in the news that it ended (never the key itself)."""
    return hashlib.sha256(f"live-session:{session_key}".encode()).hexdigest()[:24]


@dataclass(frozen=True)
class Viewer:
    """Who opened a stream, and the session it was opened in."""

    account_id: int
    session_hash: str
    session: str

    def session_over(self, inbox: broadcast.Inbox) -> bool:
        """Whether the inbox heard that this session ended (logged out) or no longer holds
        (the account's credential stamp changed: a password changed, the account closed)."""
        if self.session in inbox.sessions_ended:
            return True
        return inbox.stamp is not None and not constant_time_compare(inbox.stamp, self.session_hash)


def viewer_of(request: HttpRequest) -> Viewer | None:
    """The logged-in account asking, or ``None`` (run in a thread, as a request would)."""
    viewer = get_user(request)  # refuses (and ends) a session whose password changed
    if not viewer.is_authenticated or viewer.pk is None:
        return None
    return Viewer(
        account_id=viewer.pk,
        session_hash=str(request.session.get(HASH_SESSION_KEY, "")),
        session=session_mark(request.session.session_key or ""),
    )


def since(request: HttpRequest) -> int:
    """The version the page last saw: the browser's ``Last-Event-ID`` after a break, else the
    page's own ``?since=``; 0 (send the game's version at once) when neither is a number."""
    for given in (request.headers.get("Last-Event-ID"), request.GET.get("since")):
        try:
            return numbers.whole(given)
        except numbers.NotANumber:
            continue
    return 0


@dataclass(frozen=True)
class Refused:
    status: int
    reason: str


async def unavailable(
    request: HttpRequest, resync: Callable[[Iterable[int]], None]
) -> Refused | None:
    """Why no stream can be had here (the page then asks instead), or ``None``."""
    if not isinstance(request, ASGIRequest):
        # A WSGI server would hold one of its few threads for each stream (and Django would
        # read the whole endless stream before sending any of it): the page asks instead.
        return Refused(503, "Live updates need the ASGI server: this page asks instead.")
    if not await listening.ready(resync):
        return Refused(503, "Live updates are unavailable: this page asks instead.")
    return None


def refusal(refused: Refused) -> HttpResponse:
    response = HttpResponse(refused.reason, status=refused.status, content_type="text/plain")
    response["Cache-Control"] = "no-store"
    return response


def answer(body: Body) -> StreamingHttpResponse:
    """The stream's answer, never cached and passed on by proxies event by event."""
    response = StreamingHttpResponse(body, content_type="text/event-stream")
    response["Cache-Control"] = "no-store"
    response["X-Accel-Buffering"] = "no"  # nginx: pass each event on at once
    patch_vary_headers(response, ["Cookie"])
    return response


def event(data: str, *, kind: str = "", version: int | None = None) -> bytes:
    lines = [f"event: {kind}"] if kind else []
    if version is not None:
        lines.append(f"id: {version}")
    lines.append(f"data: {data}")
    return ("\n".join(lines) + "\n\n").encode()


class Body:
    """A stream's body: an async iterator Django's ASGI handler sends as it goes, closed by
    Django (``close``) however the stream ends, so its inbox is never left behind. An answer
    that is dropped unsent and unclosed (a middleware failing on the way out, the page gone
    before it was sent) gives its inbox back when it is collected. ``events`` says what is sent."""

    def __init__(self, inbox: broadcast.Inbox) -> None:
        self.inbox = inbox
        self._release = weakref.finalize(self, broadcast.hub.close, inbox)
        self._release.atexit = False

    def __aiter__(self) -> AsyncIterator[bytes]:
        return self._sent()

    def close(self) -> None:
        self._release()

    def events(self) -> AsyncGenerator[bytes]:
        raise NotImplementedError

    async def _sent(self) -> AsyncIterator[bytes]:
        try:
            _let_go_of_request_thread()
            async with aclosing(self.events()) as events:
                async for chunk in events:
                    yield chunk
        finally:
            self._release()


def _let_go_of_request_thread() -> None:
    """Django gives each ASGI request a thread of its own for its synchronous parts (the
    middleware) and keeps it until the request ends: for a stream, for as long as it is open.
    Those parts are done once the body begins, so the thread (and any connection it opened) is
    let go now; an idle stream holds none."""
    context = SyncToAsync.thread_sensitive_context.get(None)
    if context is None:
        return
    executor = SyncToAsync.context_to_thread_executor.pop(context, None)
    if executor is not None:
        executor.submit(connections.close_all)
        executor.shutdown(wait=False)


@dataclass(frozen=True)
class Pace:
    """How a game's stream keeps time: a comment every ``heartbeat`` seconds when idle, an end
    after about ``lifetime`` seconds (the page reconnects), and the range of milliseconds a
    page waits before reconnecting a broken stream (``retry_ms``)."""

    heartbeat: float
    lifetime: float
    retry_ms: tuple[int, int]


@dataclass(frozen=True)
class Seen:
    """Where the game stood when its stream was opened (read after its inbox was listening)."""

    version: int
    over: bool
    rematch: bool


class Changes(Body):
    """A game's changes, one event each from the version the page last saw (``since``): what
    a player's stream and a watcher's share. A subclass says what ends it before any news
    (``cut_short``: a session over, a watch link withdrawn) and when nothing more can change
    for its page (``finished``)."""

    def __init__(self, inbox: broadcast.Inbox, seen: Seen, *, since: int, pace: Pace) -> None:
        super().__init__(inbox)
        self.seen, self.since, self.pace = seen, since, pace

    def cut_short(self) -> str | None:
        """Why the stream must end now, before any news (the ``end`` event's data), or
        ``None``."""
        return None

    def finished(self) -> bool:
        """Whether nothing more can change for the page once its news is sent."""
        raise NotImplementedError

    async def events(self) -> AsyncGenerator[bytes]:
        inbox, seen, pace = self.inbox, self.seen, self.pace
        if seen.version > inbox.version:
            inbox.version, inbox.over, inbox.rematch = seen.version, seen.over, seen.rematch
        yield f"retry: {random.randint(*pace.retry_ms)}\n".encode()
        yield event(json.dumps({"version": inbox.version}), kind="ready")
        sent = self.since
        loop = asyncio.get_running_loop()
        ends_at = loop.time() + pace.lifetime * random.uniform(0.9, 1.1)
        while True:
            # Cleared before looking, never after: news noted while this stream was
            # sending (at a yield) must still wake the wait below.
            inbox.woken.clear()
            if inbox.cut:
                return
            if (reason := self.cut_short()) is not None:  # before any news: not theirs to see
                yield event(reason, kind="end")
                return
            if inbox.version > sent:
                sent = inbox.version
                change = {"version": sent, "rolled": inbox.take_rolled()}
                yield event(json.dumps(change), version=sent)
                continue  # look again: more may have come while this was sent
            if self.finished():
                yield event("over", kind="end")
                return
            left = ends_at - loop.time()
            if left <= 0:
                return  # the page reconnects at once, from the version it has
            try:
                await asyncio.wait_for(inbox.woken.wait(), timeout=min(pace.heartbeat, left))
            except TimeoutError:
                yield b": still here\n\n"
