"""A watcher's page (for anyone holding the link, logged in or not) and its partial, and the
host's switch that gives out or withdraws a game's watch link.

The page is the same for every watcher of a link at a version: its fragment is drawn once per
version and kept in the cache, so a thousand watchers asking after a move cost one drawing
(and one read of the moves) and a read of the game and its seats each. An unchanged game
answers ``304 Not Modified`` to the partial's revalidation.
"""

from __future__ import annotations

from django.contrib.auth.decorators import login_required
from django.core.cache import cache
from django.http import HttpRequest, HttpResponse, HttpResponseBase, HttpResponseNotModified
from django.shortcuts import render
from django.template import engines
from django.urls import reverse
from django.utils.cache import patch_vary_headers
from django.utils.http import parse_etags
from django.utils.safestring import SafeString, mark_safe
from django.views.decorators.http import require_POST, require_safe

from accounts.http import AuthedRequest, HtmxRequest
from games.errors import GameError, GameNotFound, status_for
from games.models import Game
from games.play import live
from games.play.selectors import recent_moves
from games.watching import selectors, services
from games.watching.presenters import watch_context
from games.web import redirect_to

FRAGMENT_KEPT = 60 * 60
"""Seconds a drawn fragment is kept: a game's version moves on long before, as a rule."""

NO_SUCH_GAME = "There is no such game to watch: the link is wrong, or its game's host withdrew it."


@require_safe
def tournament_game(request: HtmxRequest, token: str, game_id: int) -> HttpResponseBase:
    """A tournament's game, for anyone holding the tournament's link."""
    return _watch(request, selectors.tournament_game(token, game_id))


@require_safe
def linked_game(request: HtmxRequest, token: str) -> HttpResponseBase:
    """A game whose host gave out this watch link."""
    return _watch(request, selectors.linked_game(token))


def _watch(request: HtmxRequest, watched: selectors.Watched | None) -> HttpResponseBase:
    if watched is None:
        return refused(request, NO_SUCH_GAME, status=404)
    tag = _etag(watched)
    response: HttpResponseBase
    if request.htmx and _asked(request, tag):
        response = HttpResponseNotModified()
    else:
        context = {"fragment": _fragment(watched, tag), "title": _title(watched)}
        page = "games/watching/partial.html" if request.htmx else "games/watching/watch.html"
        response = render(request, page, context)
    if request.htmx:
        response["ETag"] = tag
    # A browser may keep the partial but must ask every time (htmx's GETs go through its cache).
    response["Cache-Control"] = "private, no-cache"
    response["X-Robots-Tag"] = "noindex"  # a private tournament's link is its secret
    patch_vary_headers(response, ["HX-Request", "Cookie"])
    return response


def _etag(watched: selectors.Watched) -> str:
    """The partial's tag: the game's version, the link it is watched by (its addresses are in
    the partial) and whether its tournament has closed it, keyed with the secret."""
    game = watched.seated.game
    whose = f"watch:{watched.token}:{int(watched.closed)}"
    return live.etag(game_id=game.pk, version=game.version, user_id=whose, csrf_secret="")


def _asked(request: HttpRequest, tag: str) -> bool:
    asked = request.headers.get("If-None-Match")
    if not asked:
        return False
    # Weak comparison (RFC 9110): compression on the way out marks the tag weak ("W/").
    return tag in {found.removeprefix("W/") for found in parse_etags(asked)}


def _title(watched: selectors.Watched) -> str:
    names = ", ".join(seat.display_name for seat in watched.seated.seats)
    return f"Watching {names} — Yahtzee"


def _fragment(watched: selectors.Watched, tag: str) -> SafeString:
    """The watched game drawn, once per version and link (the cache), the same for everyone."""
    key = f"watch-fragment:{tag}"
    drawn = cache.get(key)
    if not isinstance(drawn, str):
        context = watch_context(watched, moves=recent_moves(watched.seated.game))
        drawn = engines["jinja2"].get_template("games/watching/game.html").render(context)
        cache.set(key, drawn, timeout=FRAGMENT_KEPT)
    return mark_safe(drawn)  # drawn by the autoescaping Jinja2 backend


def refused(request: HttpRequest, message: str, *, status: int) -> HttpResponse:
    """A watcher's or the host's request that cannot be met, said plainly."""
    context = {"message": message, "status": status}
    return render(request, "games/watching/refused.html", context, status=status)


# --- The host's switch -------------------------------------------------------------------------


@login_required
@require_POST
def allow(request: AuthedRequest, game_id: int) -> HttpResponse:
    """The host gives out the game's watch link; their game page then shows it."""
    return _switched(request, game_id, on=True)


@login_required
@require_POST
def withdraw(request: AuthedRequest, game_id: int) -> HttpResponse:
    """The host withdraws the link: it opens nothing from now on, and its streams end."""
    return _switched(request, game_id, on=False)


def _switched(request: AuthedRequest, game_id: int, *, on: bool) -> HttpResponse:
    switch = services.allow_watching if on else services.stop_watching
    try:
        game: Game = switch(game_id=game_id, user=request.user)
    except GameNotFound as exc:
        return refused(request, str(exc), status=404)
    except GameError as exc:
        return refused(request, str(exc), status=status_for(exc))
    return redirect_to(request, reverse("games:play", kwargs={"game_id": game.pk}))
