"""The tournaments' pages: the public list, the host's form, and a tournament's page (its
standings, and what the viewer may do: join, start, end, play), reached by its link.

A tournament's page is for anyone holding its link (a private one's link is its secret; a
listed one is linked from the list). While it runs, its standings are pushed by its stream
(``stream``, ``static/js/standings.js``); where no stream can be had, the page asks again every
``POLL_SECONDS``."""

from __future__ import annotations

from datetime import datetime, timedelta
from typing import Any

from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpResponse
from django.shortcuts import redirect, render
from django.utils import timezone
from django.utils.cache import patch_vary_headers
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from accounts import licensing
from accounts.http import AuthedRequest, HtmxRequest
from accounts.models import User
from games import rules
from games.daily import presenters as daily_presenters
from games.daily import results as daily_results
from games.errors import BadInput, GameError, GameNotFound, status_for
from games.tournaments import clock, perfect, selectors, services, weekly
from games.tournaments.models import MAX_PLAYERS, Tournament
from yahtzee_site import numbers

POLL_SECONDS = 5


def _viewer(request: HtmxRequest | AuthedRequest) -> User | None:
    return request.user if isinstance(request.user, User) else None


@require_GET
def list_page(request: HtmxRequest) -> HttpResponse:
    """The listed tournaments: the site's weekly first, then open to join, running, over. This
    week's and next week's weekly are made here when missing (a cached flag: normally no
    write), and a listed tournament whose set time has come is settled (no write otherwise)."""
    weekly.ensure_cheaply()
    listing = selectors.listed()
    now = timezone.now()
    due = [t for t in listing.shown if t.due_to_start(now) or t.due_to_end(now)]
    for tournament in due:
        services.settle(tournament, now)
    if due:
        listing = selectors.listed()
    context = {"listing": listing, "weekly": [(t, _when(t)) for t in listing.weekly]}
    return render(request, "games/tournaments/list.html", context)


def _when(tournament: Tournament) -> str:
    """ "Starts Saturday 12 December 2026, 18:00 UTC", or once started, until when it runs."""
    if tournament.started_at is None and tournament.starts_at is not None:
        return f"Starts {clock.shown(tournament.starts_at)}"
    if tournament.ends_at is not None:
        return f"Running, until {clock.shown(tournament.ends_at)}"
    return "Running"


@login_required
@require_http_methods(["GET", "HEAD", "POST"])
def new(request: AuthedRequest) -> HttpResponse:
    """The host's form (GET) and the tournament opened by it (POST), then its page; a refusal
    is the form again with its message, having opened nothing."""
    now = timezone.localtime()
    context: dict[str, Any] = {
        "kinds": [(kind.key, kind.name) for kind in rules.PLAYABLE.values()],
        "max_players": MAX_PLAYERS,
        "licence": licensing.licence_of(request.user),
        "form": request.POST,
        "lengths": [(str(hours), clock.length_text(hours)) for hours in clock.LENGTHS],
        "zone": now.tzname(),
        "earliest": f"{now:%Y-%m-%dT%H:%M}",
        "latest": f"{now + clock.FURTHEST_START:%Y-%m-%dT%H:%M}",
    }
    if request.method != "POST":
        return render(request, "games/tournaments/new.html", context)
    try:
        cap = numbers.whole(request.POST.get("cap", str(MAX_PLAYERS)), low=1, high=MAX_PLAYERS)
    except numbers.NotANumber:
        message = f"A tournament takes 1 to {MAX_PLAYERS:,} players: give a whole number."
        return render(
            request, "games/tournaments/new.html", context | {"message": message}, status=400
        )
    try:
        starts_at, length = _clock_asked(request)
        tournament = services.open_tournament(
            host=request.user,
            name=request.POST.get("name", ""),
            kind=request.POST.get("kind", rules.CLASSIC.key),
            listed=request.POST.get("listed") == "on",
            cap=cap,
            starts_at=starts_at,
            length=length,
        )
    except GameError as refused:
        context["message"] = str(refused)
        return render(request, "games/tournaments/new.html", context, status=status_for(refused))
    return redirect("tournaments:page", token=tournament.token)


def _clock_asked(request: AuthedRequest) -> tuple[datetime | None, timedelta | None]:
    """The form's start ("host": when the host presses start; "at": the set time given) and
    length (none: until the host ends it or every game is over)."""
    starts_at = None
    if request.POST.get("start") == "at":
        starts_at = clock.parse_start(request.POST.get("starts_at", ""))
    runs = request.POST.get("runs", "")
    if not runs:
        return starts_at, None
    try:
        hours = numbers.whole(runs, low=1, high=clock.LENGTHS[-1])
    except numbers.NotANumber as wrong:
        raise BadInput("A tournament runs 1 hour to 7 days.") from wrong
    return starts_at, timedelta(hours=hours)


def _tournament_or_404(token: str) -> Tournament:
    """The tournament of ``token``, settled by its clock (``services.settle``)."""
    found = Tournament.objects.select_related("host").filter(token=token).first()
    if found is None:
        raise Http404("There is no such tournament: check the link.")
    return services.settle(found)


@require_GET
def page(request: HtmxRequest, token: str) -> HttpResponse:
    """The tournament's page; for htmx (the poll while it runs), its standings alone. Over
    long since without perfect play's total, it asks the worker again (``perfect``)."""
    tournament = _tournament_or_404(token)
    perfect.ask_again_if_lost(tournament)
    return render_page(request, tournament)


def render_page(
    request: HtmxRequest | AuthedRequest,
    tournament: Tournament,
    *,
    message: str = "",
    status: int = 200,
) -> HttpResponse:
    viewer = _viewer(request)
    entry = selectors.entry_of(tournament, viewer)
    context = standings_context(tournament, selectors.board(tournament, viewer)) | {
        "entry": entry,
        "is_host": viewer is not None and viewer.pk == tournament.host_id,
        "message": message,
        "link": request.build_absolute_uri(request.path),
        "starts_at_shown": clock.shown(tournament.starts_at) if tournament.starts_at else "",
        "ends_at_shown": clock.shown(tournament.ends_at) if tournament.ends_at else "",
    }
    if request.htmx and not request.htmx.history_restore_request and not message:
        response = render(request, "games/tournaments/page.html#standings", context)
    else:
        response = render(request, "games/tournaments/page.html", context, status=status)
    patch_vary_headers(response, ["HX-Request"])
    response["Cache-Control"] = "no-store"
    return response


def standings_context(tournament: Tournament, board: selectors.Board) -> dict[str, Any]:
    """What the standings' fragment shows: the page's, and the one pushed to every stream of
    the tournament (``stream``: read without a viewer, so no line is "you" there)."""
    return {
        "tournament": tournament,
        "board": board,
        "lines": board.lines,
        "ranking_note": selectors.RANKING_NOTE,
        "accuracy_formula": daily_presenters.ACCURACY_FORMULA.format(
            start=f"{daily_results.reference_score():.1f}"
        ),
        "poll_seconds": POLL_SECONDS,
        "ended_at_shown": clock.shown(tournament.ended_at) if tournament.ended_at else "",
    }


def _acting(request: AuthedRequest, token: str, do: Any) -> HttpResponse:
    """Do what the viewer asked of the tournament; a refusal is its page with the message and
    the status of the refusal (nothing changed), a tournament not found 404."""
    try:
        done = do(user=request.user, token=token)
    except GameNotFound as exc:
        raise Http404(str(exc)) from exc
    except (GameError, licensing.LicenceError) as refused:
        return render_page(
            request, _tournament_or_404(token), message=str(refused), status=status_for(refused)
        )
    if do is services.play:
        return redirect("games:play", game_id=done.pk)
    return redirect("tournaments:page", token=token)


@login_required
@require_POST
def join(request: AuthedRequest, token: str) -> HttpResponse:
    return _acting(request, token, services.join)


@login_required
@require_POST
def start(request: AuthedRequest, token: str) -> HttpResponse:
    return _acting(request, token, services.start)


@login_required
@require_POST
def end(request: AuthedRequest, token: str) -> HttpResponse:
    return _acting(request, token, services.end)


@login_required
@require_POST
def play(request: AuthedRequest, token: str) -> HttpResponse:
    """The entrant's game of the tournament (begun now, or the one begun already)."""
    return _acting(request, token, services.play)
