"""A tournament's standings pushed to its page as they change: ``/tournaments/t/<token>/stream/``,
server-sent events, for anyone holding its link (logged in or not).

Every change of the standings (a score, a game's start or end, a join, the start and end, an
accuracy graded) publishes the tournament's news once it commits (``news``). Each process with
streams of the tournament then reads and renders the standings once, at most every ``EVERY``
seconds (``games.play.coalescing``), and every stream of it there is sent the same bytes::

    event: standings
    id: <version>
    data: {"version": <version>, "read_at": <time.time() of the read>, "html": <the fragment>}

An open stream costs no query: a stream that falls behind is sent only the newest standings.
The fragment names nobody as "you" (the page marks its viewer's line: ``standings.js``). A
stream ends once the tournament is over and its final standings sent, when its session's
account has too many open, or after ``games.play.stream.LIFETIME`` (the page reconnects).
"""

from __future__ import annotations

import asyncio
import json
import random
import time
from collections.abc import AsyncGenerator

from asgiref.sync import sync_to_async
from django.conf import settings
from django.db import close_old_connections
from django.http import HttpRequest, HttpResponseBase, StreamingHttpResponse
from django.template import engines
from django.views.decorators.http import require_GET

from accounts.client_ip import client_address_key
from games.play import broadcast, coalescing, streaming
from games.play import stream as game_stream
from games.play.streaming import Refused, event
from games.tournaments import selectors
from games.tournaments.models import Tournament
from games.tournaments.views import standings_context

FRAGMENT = "games/tournaments/standings.html"
"""The standings' fragment (Jinja2), as the page draws it inside its own."""
EVERY = 0.5
"""Seconds between two reads of one tournament's standings in one process, at the least."""


def read(tournament_id: int) -> broadcast.Message | None:
    """The tournament's standings read and rendered now, as every stream of it is sent them
    (run on the coalescer's thread)."""
    close_old_connections()
    try:
        tournament = Tournament.objects.filter(pk=tournament_id).first()
        if tournament is None:
            return None
        board = selectors.board(tournament)
        read_at = time.time()
        html = engines["jinja2"].get_template(FRAGMENT).render(standings_context(tournament, board))
    finally:
        close_old_connections()
    data = json.dumps({"version": board.version, "read_at": read_at, "html": html})
    sent = event(data, kind="standings", version=board.version)
    return broadcast.pushed(tournament_id, broadcast.Pushed(board.version, sent, board.final))


readings = coalescing.Coalescer(read, every=EVERY, name="standings")
broadcast.hub.hear_tournament_news(readings.news)


@require_GET
async def stream(request: HttpRequest, token: str) -> HttpResponseBase:
    """The tournament's standings, pushed as they change."""
    unavailable = await streaming.unavailable(request, game_stream.resync)
    if unavailable is not None:
        return streaming.refusal(unavailable)
    opened = await sync_to_async(_open, thread_sensitive=False)(request, token)
    if isinstance(opened, Refused):
        return streaming.refusal(opened)
    tournament_id, account_id = opened
    address = "" if account_id else client_address_key(request)
    if account_id and broadcast.hub.streams_of(account_id) >= settings.LIVE_STREAMS_PER_ACCOUNT:
        return streaming.refusal(Refused(429, "Too many pages open: this page asks instead."))
    if address and broadcast.hub.streams_from(address) >= settings.STANDINGS_STREAMS_PER_ADDRESS:
        return streaming.refusal(Refused(429, "Too many pages open: this page asks instead."))
    inbox = broadcast.hub.open(tournament_id=tournament_id, address=address)
    answer: HttpResponseBase | None = None
    try:
        if account_id:
            broadcast.hub.for_account(inbox, account_id)
        if inbox.pushed is None:  # nobody here follows it yet: read it (once for all)
            readings.want(tournament_id)
        answer = streaming.answer(_Standings(inbox, since=streaming.resumed_from(request)))
        return answer
    finally:
        if not isinstance(answer, StreamingHttpResponse):  # no slot kept on the way out
            broadcast.hub.close(inbox)


def _open(request: HttpRequest, token: str) -> tuple[int, int] | Refused:
    """The tournament of ``token`` and the account asking (0: nobody logged in), run in a
    thread as a request would."""
    close_old_connections()
    try:
        found = Tournament.objects.filter(token=token).values_list("pk", flat=True).first()
        if found is None:
            return Refused(404, "There is no such tournament: check the link.")
        viewer = streaming.viewer_of(request)
        return found, viewer.account_id if viewer is not None else 0
    finally:
        close_old_connections()


class _Standings(streaming.Body):
    """The newest standings, each time they are newer than those the page shows."""

    def __init__(self, inbox: broadcast.Inbox, *, since: int) -> None:
        super().__init__(inbox)
        self.since = since

    async def events(self) -> AsyncGenerator[bytes]:
        inbox = self.inbox
        yield f"retry: {random.randint(*game_stream.RETRY_MS)}\n".encode()
        yield event("{}", kind="ready")
        sent = self.since
        loop = asyncio.get_running_loop()
        ends_at = loop.time() + game_stream.LIFETIME * random.uniform(0.9, 1.1)
        while True:
            inbox.woken.clear()  # before looking: news noted at a yield still wakes the wait
            if inbox.cut:
                return
            pushed = inbox.pushed
            if pushed is not None and pushed.version > sent:
                sent = pushed.version
                yield pushed.event
                continue
            if pushed is not None and pushed.final:
                yield event("over", kind="end")
                return
            left = ends_at - loop.time()
            if left <= 0:
                return  # the page reconnects, from the version it shows
            try:
                await asyncio.wait_for(inbox.woken.wait(), timeout=min(game_stream.HEARTBEAT, left))
            except TimeoutError:
                yield b": still here\n\n"
