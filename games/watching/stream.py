"""A watcher's stream of a game's changes (``/watch/.../stream/``): the same events as a
player's (``games.play.stream``, through ``streaming.Changes``), for anyone holding the link.

No account and no session: the link is the whole permission, checked when the stream opens; a
withdrawn watch link's streams are told to end (``services.stop_watching``). A watcher is no
player: their stream never marks a page open for the turn mail. Each client address may hold
``ANONYMOUS_STREAMS_PER_ADDRESS`` of them in a process; past it, the page asks instead (429).
"""

from __future__ import annotations

from dataclasses import dataclass

from asgiref.sync import sync_to_async
from django.conf import settings
from django.db import close_old_connections
from django.http import HttpRequest, HttpResponseBase, StreamingHttpResponse
from django.views.decorators.http import require_GET

from accounts.client_ip import client_address_key
from games.models import Game, GameStatus
from games.play import broadcast, streaming
from games.play import stream as game_stream
from games.play.streaming import Refused
from games.watching.services import link_mark
from games.watching.views import NO_SUCH_GAME


@dataclass(frozen=True)
class Opened:
    """A stream a watcher may have: where the game stood, and the link it is watched by
    (``mark``: ``None`` for a tournament's, which is never withdrawn)."""

    seen: streaming.Seen
    closed: bool
    """A tournament's game its tournament's end left unfinished: nothing more comes."""
    mark: str | None


@require_GET
async def tournament_stream(request: HttpRequest, token: str, game_id: int) -> HttpResponseBase:
    return await _stream(request, game_id=game_id, token=token, by_tournament=True)


@require_GET
async def game_stream_by_link(request: HttpRequest, token: str) -> HttpResponseBase:
    game_id = await sync_to_async(_game_of_link, thread_sensitive=False)(token)
    if game_id is None:
        return streaming.refusal(Refused(404, NO_SUCH_GAME))
    return await _stream(request, game_id=game_id, token=token, by_tournament=False)


async def _stream(
    request: HttpRequest, *, game_id: int, token: str, by_tournament: bool
) -> HttpResponseBase:
    unavailable = await streaming.unavailable(request, game_stream.resync)
    if unavailable is not None:
        return streaming.refusal(unavailable)
    address = client_address_key(request)
    if broadcast.hub.streams_from(address) >= settings.ANONYMOUS_STREAMS_PER_ADDRESS:
        # One address cannot take a node's streams for itself; its further pages ask instead.
        return streaming.refusal(Refused(429, "Too many games watched from here: this page asks."))
    since = streaming.since(request)
    # Listening before reading the game: a change (or the link's withdrawal) committed in
    # between is not missed.
    inbox = broadcast.hub.open(game_id=game_id)
    answer: HttpResponseBase | None = None
    try:
        opened = await sync_to_async(_open, thread_sensitive=False)(
            game_id, token, by_tournament=by_tournament
        )
        if isinstance(opened, Refused):
            answer = streaming.refusal(opened)
        else:
            broadcast.hub.for_address(inbox, address)
            answer = streaming.answer(_Watched(inbox, opened, since=since))
        return answer
    finally:
        # As a player's stream: the inbox is given back unless a stream now owns it.
        if not isinstance(answer, StreamingHttpResponse):
            broadcast.hub.close(inbox)


def _game_of_link(token: str) -> int | None:
    close_old_connections()
    try:
        return Game.objects.filter(watch_token=token).values_list("pk", flat=True).first()
    finally:
        close_old_connections()


def _open(game_id: int, token: str, *, by_tournament: bool) -> Opened | Refused:
    """Whether the link still opens the game, and where the game stands (run in a thread)."""
    close_old_connections()
    try:
        games = Game.objects.filter(pk=game_id)
        if by_tournament:
            games = games.filter(tournament__token=token)
        else:
            games = games.filter(watch_token=token)
        found = games.values_list("version", "status", "rematch_id", "tournament__ended_at").first()
        if found is None:
            return Refused(404, NO_SUCH_GAME)
        version, status, rematch_id, ended_at = found
        over = status in (GameStatus.FINISHED, GameStatus.ABANDONED)
        seen = streaming.Seen(version=int(version), over=over, rematch=rematch_id is not None)
        return Opened(
            seen=seen,
            closed=by_tournament and ended_at is not None,
            mark=None if by_tournament else link_mark(token),
        )
    finally:
        close_old_connections()


class _Watched(streaming.Changes):
    """The game's changes for a watcher's page, until the game is over (or closed by its
    tournament's end) or its watch link is withdrawn."""

    def __init__(self, inbox: broadcast.Inbox, opened: Opened, *, since: int) -> None:
        pace = streaming.Pace(
            heartbeat=game_stream.HEARTBEAT,
            lifetime=game_stream.LIFETIME,
            retry_ms=game_stream.RETRY_MS,
        )
        super().__init__(inbox, opened.seen, since=since, pace=pace)
        self.opened = opened

    def cut_short(self) -> str | None:
        mark = self.opened.mark
        return "withdrawn" if mark is not None and mark in self.inbox.withdrawn else None

    def finished(self) -> bool:
        return self.inbox.over or self.opened.closed
