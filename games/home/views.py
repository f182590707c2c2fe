"""The front page, a player's games (their dashboard) with the new-game form, the help page and
the trivial page the benchmark measures against."""

from __future__ import annotations

from collections.abc import Sequence

from django.contrib.auth.decorators import login_required
from django.http import (
    HttpResponse,
)
from django.shortcuts import render
from django.views.decorators.http import require_GET

from accounts.http import AuthedRequest, HtmxRequest
from accounts.models import TRIAL_GAMES
from games import rules
from games.daily import presenters as daily_presenters
from games.home import selectors
from games.home.presenters import (
    accuracy_help,
    finished_rows,
    home_preview,
    new_game_choices,
    open_rows,
)
from games.models import KIND_CHOICES
from games.ratings.presenters import rating_help
from games.tables import guests as guest_rules
from yahtzee_site import numbers


@require_GET
def home(request: HtmxRequest) -> HttpResponse:
    context = home_preview() | {
        "trial_games": TRIAL_GAMES,
        "upper_bonus": rules.UPPER_BONUS,
        "yahtzee_bonus": rules.YAHTZEE_BONUS,
    }
    return render(request, "home.html", context)


OPEN_PAGE = 10


@login_required
@require_GET
def dashboard(request: AuthedRequest) -> HttpResponse:
    return render_dashboard(request)


def render_dashboard(
    request: AuthedRequest, *, guests: Sequence[str] = (), guest_error: str = "", status: int = 200
) -> HttpResponse:
    user = request.user
    # "Show more" asks for ten more games of a list at a time (a plain link: no JavaScript).
    shown = numbers.whole_or(request.GET.get("open"), default=OPEN_PAGE, low=OPEN_PAGE, high=1000)
    done = numbers.whole_or(request.GET.get("done"), default=OPEN_PAGE, low=OPEN_PAGE, high=1000)
    games = selectors.dashboard(user=user, open_shown=shown, finished_shown=done)
    licence = games.licence
    typed = list(guests)[: guest_rules.MAX_GUESTS]
    context = {
        "games": games,
        "open_lines": open_rows(games.open_games),
        "over_lines": finished_rows(games.finished),
        "more_open_url": f"?open={shown + OPEN_PAGE}&done={done}",
        "more_finished_url": f"?open={shown}&done={done + OPEN_PAGE}",
        "licence": licence,
        # The handheld original asked at first launch: enter a serial, or play the trial.
        "first_visit": not licence.registered and user.trial_games_used == 0,
        "max_guests": guest_rules.MAX_GUESTS,
        "name_length": guest_rules.NAME_LENGTH,
        "guest_slots": typed + [""] * (guest_rules.MAX_GUESTS - len(typed)),
        "guest_error": guest_error,
        "new_game_choices": new_game_choices(opened=bool(guest_error)),
        "quick_kinds": KIND_CHOICES,
        # The Mac original kept its list of players: the names typed before are offered again.
        "guest_names_used": user.guest_names if licence.can_start_game else [],
        # No read: the countdown is the clock's alone.
        "next_challenge": daily_presenters.next_challenge_text(),
    }
    return render(request, "games/home/dashboard.html", context, status=status)


@require_GET
def healthz(request: HtmxRequest) -> HttpResponse:
    """A trivial page: the benchmark's yardstick, and a liveness check for a load balancer."""
    return HttpResponse("ok", content_type="text/plain")


@require_GET
def help_page(request: HtmxRequest) -> HttpResponse:
    """The rules written for players, with example rolls drawn as dice, how accuracy is
    worked out, with the computer players' measured accuracy, and how ratings work, with the
    computers' fixed ratings."""
    return render(request, "help.html", accuracy_help() | rating_help())
