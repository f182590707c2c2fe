"""The waiting page's stream (``/play/quick/stream/``): the moment its account is seated, one
``seated`` event with the game's address, and the page goes there; its check every second
(``views.check``) stays the way when no stream can be had.

Like a game's stream (``games.play.stream``, whose shared parts are ``games.play.streaming``): an
async view for the ASGI server, an inbox of the account's news alone (``broadcast``), woken by
the pairing's ``seated`` news once it commits (``services.seated``). It ends after its one
``seated`` event, when its session ends, or after ``stream.LIFETIME`` (the page reconnects). A
stream opened after the seating (a page loaded just before it) is told at once: its inbox is
listening before the wait is read.
"""

from __future__ import annotations

import asyncio
import json
import random
from collections.abc import AsyncGenerator

from asgiref.sync import sync_to_async
from django.conf import settings
from django.db import close_old_connections
from django.http import HttpRequest, HttpResponseBase, StreamingHttpResponse
from django.urls import reverse
from django.views.decorators.http import require_GET

from games.play import broadcast, streaming
from games.play import stream as game_stream
from games.play.streaming import Refused, Viewer
from games.quickplay import services


@require_GET
async def stream(request: HttpRequest) -> HttpResponseBase:
    """The stream of a waiting account's page: where it was seated, once it is."""
    unavailable = await streaming.unavailable(request, game_stream.resync)
    if unavailable is not None:
        return streaming.refusal(unavailable)
    inbox = broadcast.hub.open()  # of no game: its account's news alone, once known
    answer: HttpResponseBase | None = None
    try:
        found = await sync_to_async(_open, thread_sensitive=False)(request, inbox)
        if isinstance(found, Refused):
            answer = streaming.refusal(found)
        else:
            answer = streaming.answer(_Seated(inbox, *found))
        return answer
    finally:
        if not isinstance(answer, StreamingHttpResponse):  # as a game's stream: no slot kept
            broadcast.hub.close(inbox)


def _open(request: HttpRequest, inbox: broadcast.Inbox) -> tuple[Viewer, int | None] | Refused:
    """Who asks, their inbox listening for their news, then where their wait stands (run in a
    thread, as a request would): a seating committed in between is heard, or read, or both."""
    close_old_connections()
    try:
        viewer = streaming.viewer_of(request)
        if viewer is None:
            return Refused(403, "Log in to wait for a game.")
        if broadcast.hub.streams_of(viewer.account_id) >= settings.LIVE_STREAMS_PER_ACCOUNT:
            return Refused(429, "Too many pages open: this page asks instead.")
        broadcast.hub.for_account(inbox, viewer.account_id)
        try:
            return viewer, services.seated_in(user_id=viewer.account_id)
        except services.NotWaiting:
            return Refused(404, "You are not waiting for a game.")
    finally:
        close_old_connections()


class _Seated(streaming.Body):
    def __init__(self, inbox: broadcast.Inbox, viewer: Viewer, game_id: int | None) -> None:
        super().__init__(inbox)
        self.viewer, self.game_id = viewer, game_id

    async def events(self) -> AsyncGenerator[bytes]:
        inbox, viewer = self.inbox, self.viewer
        yield f"retry: {random.randint(*game_stream.RETRY_MS)}\n".encode()
        yield streaming.event("{}", kind="ready")
        loop = asyncio.get_running_loop()
        ends_at = loop.time() + game_stream.LIFETIME * random.uniform(0.9, 1.1)
        while True:
            inbox.woken.clear()  # before looking: news noted at a yield still wakes the wait
            if inbox.cut:
                return
            if viewer.session_over(inbox):
                yield streaming.event("session", kind="end")
                return
            game_id = inbox.seated or self.game_id
            if game_id is not None:
                url = reverse("games:play", kwargs={"game_id": game_id})
                yield streaming.event(json.dumps({"game": game_id, "url": url}), kind="seated")
                return
            left = ends_at - loop.time()
            if left <= 0:
                return  # the page reconnects, and its wait is read afresh
            try:
                await asyncio.wait_for(inbox.woken.wait(), timeout=min(game_stream.HEARTBEAT, left))
            except TimeoutError:
                yield b": still here\n\n"
