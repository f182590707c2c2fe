"""The rating tables, public: a season's (this one, or a past one's final table) and all
time's, per kind of game, a page of rows at a time.

A visitor's page (logged out) is the same for everyone: what it shows is worked out once a
minute and kept (``KEPT``), so a visitor sees a table at most a minute old; an account sees its
own, fresh, its row marked. ``make bench``, 100,000 rated players: the season table was 2.6
times the trivial page worked out every time, where its limit is twice."""

from __future__ import annotations

import datetime
import re
import time
from collections.abc import Callable
from typing import Any, Final

from django.core.cache import cache
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
    viewer = request.user.pk if request.user.is_authenticated else None
    text = request.GET.get("season")
    try:
        season = current if text is None else season_from(text, current=current)
    except NoSuchSeason as exc:
        past = selectors.past_seasons(kind=kind, current=current)
        context = presenters.table_context(
            None, kind=kind, season=current, current=current, past=past, viewer_id=viewer
        )
        return _render(request, context | {"problem": str(exc)}, status=404)
    page = _page(request)

    def worked_out() -> dict[str, Any]:
        table = selectors.season_table(kind=kind, season=season, page=page, today=today)
        past = selectors.past_seasons(kind=kind, current=current)
        return presenters.table_context(
            table, kind=kind, season=season, current=current, past=past, viewer_id=viewer
        )

    return _render(request, _kept(viewer, f"season:{kind}:{season}:{page}:{today}", worked_out))


@require_GET
def all_time_page(request: HtmxRequest) -> HttpResponse:
    """Every account's rating now, per kind."""
    kind = choice(request, "kind", KINDS, rules.CLASSIC.key)
    today = timezone.localdate()
    current = today.replace(day=1)
    page = _page(request)
    viewer = request.user.pk if request.user.is_authenticated else None

    def worked_out() -> dict[str, Any]:
        table = selectors.all_time_table(kind=kind, page=page, today=today)
        past = selectors.past_seasons(kind=kind, current=current)
        return presenters.table_context(
            table, kind=kind, season=None, current=current, past=past, viewer_id=viewer
        )

    return _render(request, _kept(viewer, f"all:{kind}:{page}:{today}", worked_out))


KEPT: Final = 60
"""Seconds a visitor's table is kept: it is worked out again in the next minute."""


def _kept(viewer: int | None, key: str, worked_out: Callable[[], dict[str, Any]]) -> dict[str, Any]:
    """A table page's context: a visitor's kept under ``key`` for the minute, an account's own
    worked out (its row is marked)."""
    if viewer is not None:
        return worked_out()
    key = f"ratings:{key}:{int(time.time() // KEPT)}"
    context: dict[str, Any] | None = cache.get(key)
    if context is None:
        context = worked_out()
        cache.set(key, context, KEPT)
    return context
