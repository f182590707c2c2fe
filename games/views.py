"""Pages of the game: the front page, the dashboard, and the game table with its actions.

Views stay thin: parse the form, call one service, render the whole page or, for HTMX, the
``game`` partial. Errors a player can cause are mapped to a message and a status in one place,
``game_action``.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from functools import wraps
from typing import Any

from django.contrib.auth.decorators import login_required
from django.core.cache import cache
from django.db.models import Prefetch
from django.http import Http404, HttpRequest, HttpResponse, HttpResponseRedirect
from django.shortcuts import get_object_or_404, redirect, render
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils.cache import patch_vary_headers
from django.utils.safestring import mark_safe
from django.views.decorators.http import require_GET, require_POST
from django_htmx.http import HttpResponseClientRedirect

from accounts import licensing
from accounts.models import User
from games import charts, rules, selectors, services
from games.models import Game, GameKind, GameStatus, HighScorePeriod, Seat, SeatKind
from games.presenters import high_scores_context, table_context


class BadInput(Exception):
    """A request whose form data is malformed (not something the page itself would send)."""


ERROR_STATUS: dict[type[Exception], int] = {
    BadInput: 400,
    rules.IllegalMove: 400,
    services.StaleGame: 409,
    services.NotYourTurn: 409,
    services.GameNotInProgress: 409,
}


def _status_for(error: Exception) -> int:
    return next(status for kind, status in ERROR_STATUS.items() if isinstance(error, kind))


GameAction = Callable[[HttpRequest, int], "services.Table | HttpResponse"]


def game_action(action: GameAction) -> Callable[[HttpRequest, int], HttpResponse]:
    """Run an action on a game and answer with the table: a partial for HTMX, else a redirect.

    Errors the player can cause answer with the current table and a message (400 or 409), and
    change nothing, because every service runs in one transaction.
    """

    @wraps(action)
    def view(request: HttpRequest, game_id: int) -> HttpResponse:
        user: User = request.user  # type: ignore[assignment]
        try:
            result = action(request, game_id)
        except services.GameNotFound as exc:
            raise Http404(str(exc)) from exc
        except tuple(ERROR_STATUS) as exc:
            table = _load_or_404(game_id, user)
            return render_table(request, table, message=str(exc), status=_status_for(exc))
        if isinstance(result, HttpResponse):
            return result
        if request.htmx:
            return render_table(request, result)
        return redirect("games:play", game_id=game_id)

    return login_required(require_POST(view))


def _load_or_404(game_id: int, user: User) -> services.Table:
    try:
        return services.load_table(game_id=game_id, user=user)
    except services.GameNotFound as exc:
        raise Http404(str(exc)) from exc


def render_table(
    request: HttpRequest,
    table: services.Table,
    *,
    message: str = "",
    confirm: dict[str, Any] | None = None,
    status: int = 200,
) -> HttpResponse:
    context = table_context(table, viewer=request.user, message=message, confirm=confirm)
    template = "games/play.html#game" if request.htmx else "games/play.html"
    response = render(request, template, context, status=status)
    patch_vary_headers(response, ["HX-Request"])
    return response


# --- Parsing what the game form sends ------------------------------------------------------


def _version(request: HttpRequest) -> int:
    try:
        return int(request.POST["version"])
    except (KeyError, ValueError) as exc:
        raise BadInput("The request was incomplete; here is the game as it is now.") from exc


def _held(request: HttpRequest) -> list[bool]:
    """The dice to hold, sent as die indexes 0..4 (the checked boxes of the dice)."""
    values = request.POST.getlist("held")
    try:
        indexes = {int(value) for value in values}
    except ValueError as exc:
        raise BadInput("Dice to hold must be numbered 1 to 5.") from exc
    if len(indexes) != len(values) or not indexes <= set(range(rules.DICE_COUNT)):
        raise BadInput("Dice to hold must be numbered 1 to 5, each at most once.")
    return [i in indexes for i in range(rules.DICE_COUNT)]


def _slot(value: str) -> tuple[str, int]:
    """A score button's value: a box key, or ``key:column`` on a card with several columns."""
    box, _, column = value.partition(":")
    try:
        return box, int(column or 0)
    except ValueError as exc:
        raise BadInput("There is no such column.") from exc


# --- Pages -----------------------------------------------------------------------------------


@require_GET
def home(request: HttpRequest) -> HttpResponse:
    return render(request, "home.html")


@login_required
@require_GET
def dashboard(request: HttpRequest) -> HttpResponse:
    user: User = request.user  # type: ignore[assignment]
    games = services.games_of(user).prefetch_related(
        Prefetch("seats", queryset=Seat.objects.order_by("position"))
    )
    unfinished = games.filter(status=GameStatus.IN_PROGRESS).order_by("-updated_at")
    finished = games.exclude(status=GameStatus.IN_PROGRESS).order_by("-updated_at")[:20]
    licence = licensing.licence_of(user)
    context = {
        "unfinished": [_game_summary(game, user) for game in unfinished],
        "finished": [_game_summary(game, user) for game in finished],
        "kinds": GameKind.choices,
        "licence": licence,
        # The handheld original asked at first launch: enter a serial, or play the trial.
        "first_visit": not licence.registered and user.trial_games_used == 0,
    }
    return render(request, "games/dashboard.html", context)


def _game_summary(game: Game, user: User) -> dict[str, Any]:
    seat = next(seat for seat in game.seats.all() if seat.user_id == user.pk)
    sheet = seat.sheet(game.rules_kind)
    return {
        "game": game,
        "score": seat.grand_total if seat.grand_total is not None else sheet.grand_total,
        "boxes_filled": sheet.boxes_filled,
        "rounds": game.rules_kind.rounds,
    }


@login_required
@require_POST
def new_game(request: HttpRequest) -> HttpResponse:
    kind = request.POST.get("kind", GameKind.CLASSIC)
    if kind not in GameKind.values:
        raise Http404("There is no such kind of game.")
    try:
        game = services.start_game(owner=request.user, kind=kind)  # type: ignore[arg-type]
    except licensing.TrialOver:
        # The serial page itself says the trial is used up and what to do.
        url = reverse("accounts:serial")
    else:
        url = reverse("games:play", kwargs={"game_id": game.pk})
    if request.htmx:
        return HttpResponseClientRedirect(url)
    return HttpResponseRedirect(url)


@login_required
@require_GET
def game_page(request: HttpRequest, game_id: int) -> HttpResponse:
    return render_table(request, _load_or_404(game_id, request.user))  # type: ignore[arg-type]


# --- Actions ---------------------------------------------------------------------------------


@game_action
def hold(request: HttpRequest, game_id: int) -> services.Table | HttpResponse:
    table = services.set_held(
        game_id=game_id, user=request.user, version=_version(request), held=_held(request)
    )
    if request.htmx:
        # The dice already show their new state in the page; only the version moves on.
        context = table_context(table, viewer=request.user) | {"oob": True}
        return render(request, "games/play.html#version", context)
    return table


@game_action
def roll(request: HttpRequest, game_id: int) -> services.Table | HttpResponse:
    return services.roll_dice(
        game_id=game_id, user=request.user, version=_version(request), held=_held(request)
    )


@game_action
def score(request: HttpRequest, game_id: int) -> services.Table | HttpResponse:
    user: User = request.user  # type: ignore[assignment]
    chosen = request.POST.get("box") or request.POST.get("confirmed", "")
    box, column = _slot(chosen)
    try:
        return services.score_box(
            game_id=game_id,
            user=user,
            version=_version(request),
            box=box,
            column=column,
            confirm_zero=user.confirm_zero and request.POST.get("confirmed") != chosen,
        )
    except services.ZeroNeedsConfirmation as ask:
        confirm = {"box": ask.box, "column": ask.column, "label": rules.LABELS[ask.box]}
        return render_table(request, ask.table, confirm=confirm)


@game_action
def abandon(request: HttpRequest, game_id: int) -> services.Table | HttpResponse:
    services.abandon_game(game_id=game_id, user=request.user)  # type: ignore[arg-type]
    url = reverse("games:dashboard")
    if request.htmx:
        return HttpResponseClientRedirect(url)
    return HttpResponseRedirect(url)


# --- High scores and statistics ------------------------------------------------------------


def _choice(request: HttpRequest, name: str, choices: list[str], default: str) -> str:
    value = request.GET.get(name, default)
    return value if value in choices else default


@require_GET
def high_scores(request: HttpRequest) -> HttpResponse:
    """The public top ten per game kind, for people or for the computer, over a period."""
    kind = _choice(request, "kind", GameKind.values, GameKind.CLASSIC)
    period = _choice(request, "period", HighScorePeriod.values, HighScorePeriod.ALL_TIME)
    players = _choice(request, "players", SeatKind.values, SeatKind.HUMAN)
    viewer = request.user if request.user.is_authenticated else None
    # A visitor's table is the same for everyone until the next game finishes (or, for a
    # period, the window moves on): it is rendered once and kept, keyed by the newest score.
    key = None
    if viewer is None:
        window = int(time.time() // 60) if period != HighScorePeriod.ALL_TIME else 0
        version = selectors.scores_version()
        key = f"top-ten:{kind}:{players}:{period}:{version}:{window}"
    cached = cache.get(key) if key else None
    if cached is None:
        table = selectors.top_ten(
            kind=kind,
            player_kind=players,
            period=period,
            viewer=viewer,  # type: ignore[arg-type]
        )
        context = high_scores_context(table)
        cached = {
            "caption": context["caption"],
            "html": render_to_string("games/_top_ten.html", context, request),
        }
        if key:
            cache.set(key, cached, timeout=300)
    if request.htmx and not request.htmx.history_restore_request:
        response = HttpResponse(cached["html"])
    else:
        context = {"caption": cached["caption"], "table_html": mark_safe(cached["html"])}
        response = render(request, "games/high_scores.html", context)
    patch_vary_headers(response, ["HX-Request", "Cookie"])
    return response


@require_GET
def player_page(request: HttpRequest, user_id: int) -> HttpResponse:
    """A player's statistics: everything for themselves, a public summary for others."""
    player = get_object_or_404(User.objects.only("id", "display_name", "date_joined"), pk=user_id)
    kind = _choice(request, "kind", GameKind.values, GameKind.CLASSIC)
    own = request.user.is_authenticated and request.user.pk == player.pk

    def record() -> tuple[selectors.PlayerStats, Any, Any]:
        stats = selectors.player_stats(user_id=player.pk, kind=kind, private=own)
        return stats, charts.score_line(stats.totals), charts.score_histogram(stats.totals)

    if own:
        stats, line, histogram = record()
    else:
        # The public record only changes when the player finishes a game: keep it until then.
        newest = selectors.newest_score_id(user_id=player.pk, kind=kind)
        key = f"player-record:{player.pk}:{kind}:{newest}"
        stats, line, histogram = cache.get_or_set(key, record, timeout=3600)
    context = {
        "player": player,
        "own": own,
        "stats": stats,
        "kind": kind,
        "kinds": GameKind.choices,
        "line": line,
        "histogram": histogram,
    }
    return render(request, "games/player.html", context)


@login_required
@require_GET
def my_stats(request: HttpRequest) -> HttpResponse:
    return redirect("player", user_id=request.user.pk)


@require_GET
def healthz(request: HttpRequest) -> HttpResponse:
    """A trivial page: the benchmark's yardstick, and a liveness check for a load balancer."""
    return HttpResponse("ok", content_type="text/plain")


@require_GET
def help_page(request: HttpRequest) -> HttpResponse:
    """The rules written for players, with example rolls drawn as dice."""
    return render(request, "help.html")
