"""The rating tables, public: a season's (this one, or a past one's final table) and all
time's, per kind of game, a page of rows at a time."""

from __future__ import annotations

import datetime
import re
from typing import Any, Final

from django.http import HttpResponse
from django.shortcuts import render
from django.utils import timezone
from django.utils.cache import patch_vary_headers
from django.views.decorators.http import require_GET

from accounts.http import HtmxRequest
from games import rules
from games.ratings import presenters, selectors
from games.web import KINDS, choice
from yahtzee_site import numbers

MAX_PAGE: Final = 1_000_000
_SEASON: Final = re.compile(r"([0-9]{4})-([0-9]{2})", re.ASCII)


class NoSuchSeason(ValueError):
    """A season asked for that cannot have a table: not a month, or a month still to come."""


def season_from(text: str, *, current: datetime.date) -> datetime.date:
    """The season ``text`` names (``2026-11``), up to the ``current`` one."""
    found = _SEASON.fullmatch(text)
    try:
        if found is None:
            raise ValueError
        season = datetime.date(int(found[1]), int(found[2]), 1)
    except ValueError:
        raise NoSuchSeason(
            f"{text[:20]!r} is not a season: a season is a month, written like "
            f"{presenters.season_value(current)}."
        ) from None
    if season > current:
        raise NoSuchSeason(f"{presenters.season_name(season)} has not begun yet.")
    return season


def _page(request: HtmxRequest) -> int:
    # A page past the last shows the last; anything but a number, the first.
    return numbers.whole_or(request.GET.get("page"), default=1, low=1, high=MAX_PAGE)


def _render(request: HtmxRequest, context: dict[str, Any], status: int = 200) -> HttpResponse:
    if request.htmx and not request.htmx.history_restore_request:
        template = "games/ratings/tables.html#ratings"
    else:
        template = "games/ratings/tables.html"
    response = render(request, template, context, status=status)
    patch_vary_headers(response, ["HX-Request"])
    return response


@require_GET
def season_page(request: HtmxRequest) -> HttpResponse:
    """A season's table: this one by default, a past one's final table by ``?season=``."""
    kind = choice(request, "kind", KINDS, rules.CLASSIC.key)
    today = timezone.localdate()
    current = today.replace(day=1)
    past = selectors.past_seasons(kind=kind, current=current)
    viewer = request.user.pk if request.user.is_authenticated else None
    text = request.GET.get("season")
    try:
        season = current if text is None else season_from(text, current=current)
    except NoSuchSeason as exc:
        context = presenters.table_context(
            None, kind=kind, season=current, current=current, past=past, viewer_id=viewer
        )
        return _render(request, context | {"problem": str(exc)}, status=404)
    table = selectors.season_table(kind=kind, season=season, page=_page(request), today=today)
    context = presenters.table_context(
        table, kind=kind, season=season, current=current, past=past, viewer_id=viewer
    )
    return _render(request, context)


@require_GET
def all_time_page(request: HtmxRequest) -> HttpResponse:
    """Every account's rating now, per kind."""
    kind = choice(request, "kind", KINDS, rules.CLASSIC.key)
    today = timezone.localdate()
    current = today.replace(day=1)
    table = selectors.all_time_table(kind=kind, page=_page(request), today=today)
    past = selectors.past_seasons(kind=kind, current=current)
    viewer = request.user.pk if request.user.is_authenticated else None
    context = presenters.table_context(
        table, kind=kind, season=None, current=current, past=past, viewer_id=viewer
    )
    return _render(request, context)
