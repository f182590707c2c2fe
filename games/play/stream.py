"""A game's changes pushed to its open pages as they happen: server-sent events.

``/play/<id>/stream/`` answers a seated player's page with ``text/event-stream``: one event per
change, its ``id`` the game's new version, so a stream that breaks resumes where it stopped (the
browser sends ``Last-Event-ID``; a page's first stream says ``?since=`` the version it shows) and
anything newer is sent at once. Each event only says "version N" (and whether it was a roll): the
page then asks for the game as it always did, so every viewer gets their own view of it.

Opening a stream costs a few queries (the session, the account, the seats); an open one costs
none, nor a thread: it waits in the event loop of an ASGI server for its ``broadcast.Inbox`` to be
woken, sending a comment now and then so that proxies keep it open. It ends when the game is over
for its page (over, and a rematch offered or nobody else to offer one), when its session ends
(logged out, the password changed, the account closed), or after ``LIFETIME`` (the page
reconnects, and its session is checked again).
"""

from __future__ import annotations

import asyncio
import json
import random
import threading
from collections.abc import AsyncGenerator, Iterable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from asgiref.sync import sync_to_async
from django.conf import settings
from django.db import close_old_connections, transaction
from django.http import HttpRequest, HttpResponseBase, StreamingHttpResponse
from django.views.decorators.http import require_GET

from accounts import credentials
from games.models import Game, GameStatus, Seat
from games.play import broadcast, live, streaming
from games.play.streaming import Refused, event, session_mark

if TYPE_CHECKING:
    from django.contrib.auth.base_user import AbstractBaseUser

HEARTBEAT = 15.0
"""Seconds between the comments an idle stream sends: proxies close a connection idle for 60 s
(nginx's default), and a page that hears nothing for much longer gives the stream up."""
LIFETIME = 30 * 60.0
"""Seconds a stream lasts at most (give or take a tenth, so a node's streams don't all come
back at once): its page then reconnects, and the session is checked afresh."""
RETRY_MS = (500, 1500)
"""How long a page waits before reconnecting a broken stream, drawn per stream in this range:
a restarted node's pages come back spread over a second, not all at once."""


@dataclass(frozen=True)
class Opened:
    """A stream the viewer may have: who they are and where the game stands."""

    viewer: streaming.Viewer
    version: int
    over: bool
    rematch: bool
    people: int

    def ends(self, *, over: bool, rematch: bool) -> bool:
        """Whether nothing more can change for the page: the game is over and a rematch has
        been offered (its page's last news), or nobody else is there to offer one."""
        return over and (rematch or self.people < 2)


@require_GET
async def stream(request: HttpRequest, game_id: int) -> HttpResponseBase:
    """The game's stream of changes, for a player seated in it."""
    unavailable = await streaming.unavailable(request, resync)
    if unavailable is not None:
        return streaming.refusal(unavailable)
    since = streaming.resumed_from(request)
    # Listening before reading the version: a change committed in between is not missed.
    inbox = broadcast.hub.open(game_id=game_id)
    answer: HttpResponseBase | None = None
    try:
        answer = await _stream_or_refusal(request, game_id, inbox, since=since)
        return answer
    finally:
        # The inbox (and the account's slot) is given back unless a stream now owns it: on a
        # refusal, and on any error or cancellation on the way, so no bug can use slots up.
        if not isinstance(answer, StreamingHttpResponse):
            broadcast.hub.close(inbox)


async def _stream_or_refusal(
    request: HttpRequest, game_id: int, inbox: broadcast.Inbox, *, since: int
) -> HttpResponseBase:
    opened = await sync_to_async(_open, thread_sensitive=False)(request, game_id)
    if isinstance(opened, Refused):
        return streaming.refusal(opened)
    account_id = opened.viewer.account_id
    if broadcast.hub.streams_of(account_id) >= settings.LIVE_STREAMS_PER_ACCOUNT:
        # One account cannot take a node's streams for itself; its further pages ask instead.
        return streaming.refusal(
            Refused(429, "Too many pages of games open: this page asks instead.")
        )
    broadcast.hub.for_account(inbox, account_id)
    _keep_presence()
    return streaming.answer(_Events(inbox, opened, since=since))


def _open(request: HttpRequest, game_id: int) -> Opened | Refused:
    """Who asks and where the game stands (run in a thread, as a request would)."""
    close_old_connections()
    try:
        viewer = streaming.viewer_of(request)
        if viewer is None:
            return Refused(403, "Log in to follow this game.")
        rows = list(
            Seat.objects.filter(game_id=game_id).values_list(
                "user_id", "game__version", "game__status", "game__rematch_id"
            )
        )
        if not any(user_id == viewer.account_id for user_id, *_ in rows):
            return Refused(404, "There is no such game.")
        _, version, status, rematch_id = rows[0]
        live.saw_page(game_id=game_id, user_id=viewer.account_id)
        return Opened(
            viewer=viewer,
            version=int(version),
            over=status in (GameStatus.FINISHED, GameStatus.ABANDONED),
            rematch=rematch_id is not None,
            people=len({user_id for user_id, *_ in rows if user_id is not None}),
        )
    finally:
        close_old_connections()


class _Events(streaming.Body):
    """The game's changes, one event each, from the version the page last saw."""

    def __init__(self, inbox: broadcast.Inbox, opened: Opened, *, since: int) -> None:
        super().__init__(inbox)
        self.opened, self.since = opened, since

    async def events(self) -> AsyncGenerator[bytes]:
        inbox, opened = self.inbox, self.opened
        if opened.version > inbox.version:
            inbox.version, inbox.over, inbox.rematch = (
                opened.version,
                opened.over,
                opened.rematch,
            )
        yield f"retry: {random.randint(*RETRY_MS)}\n".encode()
        yield event(json.dumps({"version": inbox.version}), kind="ready")
        sent = self.since
        loop = asyncio.get_running_loop()
        ends_at = loop.time() + LIFETIME * random.uniform(0.9, 1.1)
        while True:
            # Cleared before looking, never after: news noted while this stream was
            # sending (at a yield) must still wake the wait below.
            inbox.woken.clear()
            if inbox.cut:
                return
            if opened.viewer.session_over(inbox):  # before any news: no longer theirs to see
                yield event("session", kind="end")
                return
            if inbox.version > sent:
                sent = inbox.version
                change = {"version": sent, "rolled": inbox.take_rolled()}
                yield event(json.dumps(change), version=sent)
                continue  # look again: more may have come while this was sent
            if opened.ends(over=inbox.over, rematch=inbox.rematch):
                yield event("over", kind="end")
                return
            left = ends_at - loop.time()
            if left <= 0:
                return  # the page reconnects at once, from the version it has
            try:
                await asyncio.wait_for(inbox.woken.wait(), timeout=min(HEARTBEAT, left))
            except TimeoutError:
                yield b": still here\n\n"


def resync(game_ids: Iterable[int]) -> None:
    """Tell this process's streams where their games stand (after the Redis listener was away,
    and may have missed news): one query for all of them."""
    ids = list(game_ids)
    if not ids:
        return
    close_old_connections()
    try:
        found = Game.objects.filter(pk__in=ids).values_list("pk", "version", "status", "rematch_id")
        for game_id, version, status, rematch_id in found:
            broadcast.hub.deliver(
                {
                    "game": game_id,
                    "version": version,
                    "over": status in (GameStatus.FINISHED, GameStatus.ABANDONED),
                    "rematch": rematch_id is not None,
                }
            )
    finally:
        close_old_connections()


# --- An open stream is an open page (no turn mail for its player) -----------------------------

_presence: threading.Thread | None = None
_presence_lock = threading.Lock()


def _keep_presence() -> None:
    """Start this process's presence keeper once: every few seconds it marks each game's page
    as open for each player with a stream of it here, in one write for them all."""
    global _presence
    with _presence_lock:
        if _presence is None or not _presence.is_alive():
            _presence = threading.Thread(target=_mark_pages, name="live-presence", daemon=True)
            _presence.start()


def _mark_pages() -> None:
    stop = threading.Event()
    while not stop.wait(live.SEEN_EVERY):
        watching = broadcast.hub.watching()
        if watching:
            try:
                live.saw_pages(watching)
            except Exception:  # a cache hiccup: the next round marks them again
                broadcast.log.exception("The open streams' pages could not be marked open")


# --- A session's end, told to its streams ----------------------------------------------------


def credentials_changed(
    sender: type[AbstractBaseUser],
    instance: AbstractBaseUser,
    update_fields: frozenset[str] | None = None,
    **kwargs: Any,
) -> None:
    """``post_save`` of the user model: once a change of the credentials commits, every stream
    of the account compares its session with the new stamp (a password changed elsewhere, an
    account made inactive: the stream ends)."""
    if update_fields is not None and not credentials.CREDENTIAL_FIELDS & set(update_fields):
        return
    news = {"account": instance.pk, "stamp": credentials.stamp(instance)}
    transaction.on_commit(lambda: broadcast.publish(news))


def account_deleted(
    sender: type[AbstractBaseUser], instance: AbstractBaseUser, **kwargs: Any
) -> None:
    news = {"account": instance.pk, "stamp": ""}
    transaction.on_commit(lambda: broadcast.publish(news))


def logged_out(sender: type[Any], request: HttpRequest | None, user: Any, **kwargs: Any) -> None:
    """``user_logged_out``: the streams of that session (that browser) end."""
    key = request.session.session_key if request is not None else None
    if user is not None and key:
        news = {"account": user.pk, "session_ended": session_mark(key)}
        transaction.on_commit(lambda: broadcast.publish(news))
