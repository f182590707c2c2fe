"""What every room's views share: a seated player's game or 404, a redirect that works for
htmx and for a plain form alike, and choices read from a query string (numbers are read by
``yahtzee_site.numbers``)."""

from __future__ import annotations

from django.http import (
    Http404,
    HttpResponse,
    HttpResponseRedirect,
)
from django_htmx.http import HttpResponseClientRedirect

from accounts.http import AuthedRequest, HtmxRequest
from accounts.models import User
from games import rules, store
from games.errors import GameNotFound
from games.store import SeatedGame

KINDS = list(rules.PLAYABLE)
"""The kinds a query string or form may choose: those the site offers (not yet Yatzy)."""


def seated_or_404(game_id: int, user: User) -> SeatedGame:
    try:
        return store.load(game_id=game_id, user=user)
    except GameNotFound as exc:
        raise Http404(str(exc)) from exc


def redirect_to(request: AuthedRequest, url: str) -> HttpResponse:
    if request.htmx:
        return HttpResponseClientRedirect(url)
    return HttpResponseRedirect(url)


def choice(request: HtmxRequest, name: str, choices: list[str], default: str) -> str:
    value = request.GET.get(name, default)
    return value if value in choices else default
