"""The daily challenge's pages: today's challenge (start, resume or your result, your streak
and history), a day's board, and the start itself (one attempt per account and day)."""

from __future__ import annotations

from datetime import date, timedelta
from typing import Any

from django.contrib.auth.decorators import login_required
from django.core.cache import cache
from django.http import Http404, HttpResponse
from django.shortcuts import redirect, render
from django.template.loader import render_to_string
from django.utils.safestring import mark_safe
from django.views.decorators.http import require_GET, require_POST

from accounts import licensing
from accounts.http import AuthedRequest, HtmxRequest
from accounts.models import User
from games.daily import clock, presenters, results, selectors, services
from games.errors import GameError, status_for


def _context(user: User | None, day: date) -> dict[str, Any]:
    """What both pages show of ``day`` for ``user`` (``None``: nobody logged in): their
    attempt, the board, perfect play (its score to a player who has finished, its game only
    once the day is over).

    A day's dice, and so perfect play's game on them, stay hidden while any attempt of the day
    can still move; the door of every action (``games.play.actions``) refuses to move one once
    its day is over (``clock.verify_open``), so that holds from the day's midnight on, whoever
    still has an attempt of it unfinished."""
    mine = selectors.attempt(user, day) if user is not None else None
    over = not clock.is_open(day)
    perfect = services.challenge(day) if (over or (mine and mine.finished)) else None
    return {
        "day": day,
        "is_today": not over,
        "attempt": mine,
        "board": selectors.board(day, viewer=user, own=mine),
        "ranking_note": presenters.RANKING_NOTE,
        # Its games may be watched once the day is over (``games.review.sharing.may_watch``).
        "replays": over,
        "perfect_total": perfect.perfect_total if perfect else None,
        "perfect_lines": presenters.perfect_lines(perfect.perfect_turns)
        if perfect and over
        else [],
        "accuracy_formula": presenters.ACCURACY_FORMULA.format(
            start=f"{results.reference_score():.1f}"
        ),
        "yesterday": day_before(day),
    }


PUBLIC_BOARD_SECONDS = 10
"""How long a visitor's board is kept drawn: a player who has just finished sees themselves on
their own view at once; visitors see them within this many seconds."""


@login_required
@require_GET
def today_page(request: AuthedRequest) -> HttpResponse:
    return render_today(request)


def render_today(request: AuthedRequest, *, message: str = "", status: int = 200) -> HttpResponse:
    user, day = request.user, clock.today()  # login_required: a real account
    history = selectors.history(user, days=400)
    context = _context(user, day) | {
        "message": message,
        "streak": selectors.streak(history, day),
        "history": history[:30],
        "next_challenge": presenters.next_challenge_text(),
        "closes": presenters.closes_text(),
        "licence": licensing.licence_of(user),
    }
    return render(request, "games/daily/today.html", context, status=status)


@login_required
@require_POST
def start(request: AuthedRequest) -> HttpResponse:
    """Start today's attempt and go to its game; a refusal says why on today's page (409),
    having changed nothing."""
    try:
        game = services.start_challenge(user=request.user)
    except (GameError, licensing.LicenceError) as refused:
        return render_today(request, message=str(refused), status=status_for(refused))
    return redirect("games:play", game_id=game.pk)


@require_GET
def board_page(request: HtmxRequest, day: str) -> HttpResponse:
    """A day's board (today's or a past day's; a day to come has none), public like the top
    ten: display names only. A past day nobody played answers 404 at the cost of one indexed
    read: no board drawn, no perfect play computed, nothing kept."""
    try:
        shown = date.fromisoformat(day)
    except ValueError as exc:  # 2026-02-30, year 0: the pattern admits them
        raise Http404("There is no such day.") from exc
    today = clock.today()
    if shown > today:
        raise Http404("That day's challenge has not begun.")
    page = {"day": shown, "yesterday": day_before(shown)}
    if shown < today and not selectors.played(shown):
        return render(request, "games/daily/board.html", page | {"nobody": True}, status=404)
    if isinstance(request.user, User):
        return render(request, "games/daily/board.html", page | _context(request.user, shown))
    # A visitor's board is the same for everyone: drawn at most once every few seconds.
    key = f"daily-board:{shown.isoformat()}"
    drawn = cache.get(key)
    if drawn is None:
        drawn = render_to_string("games/daily/_board.html", _context(None, shown), request)
        cache.set(key, drawn, timeout=PUBLIC_BOARD_SECONDS)
    return render(request, "games/daily/board.html", page | {"board_html": mark_safe(drawn)})


def day_before(day: date) -> date | None:
    """The day before ``day`` (``None`` before the first day the calendar has)."""
    return day - timedelta(days=1) if day > date.min else None
