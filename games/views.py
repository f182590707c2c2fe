"""Pages of the game: the front page, the dashboard, and the game table with its actions.

Views stay thin: parse the form, call one service, render the whole page or, for HTMX, the
``game`` partial. Errors a player can cause are mapped to a message and a status in one place,
``game_action``.
"""

from __future__ import annotations

import time
import uuid
from collections.abc import Callable, Sequence
from functools import wraps
from typing import Any, cast

from django.conf import settings
from django.contrib import messages
from django.contrib.auth import BACKEND_SESSION_KEY, HASH_SESSION_KEY, SESSION_KEY
from django.contrib.auth.decorators import login_required
from django.core.cache import cache
from django.core.exceptions import ValidationError
from django.db.models import Exists, OuterRef
from django.http import (
    Http404,
    HttpRequest,
    HttpResponse,
    HttpResponseBase,
    HttpResponseNotModified,
    HttpResponseRedirect,
)
from django.shortcuts import redirect, render
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils.cache import patch_vary_headers
from django.utils.crypto import constant_time_compare
from django.utils.http import parse_etags
from django.utils.safestring import mark_safe
from django.views.decorators.http import require_GET, require_POST
from django_htmx.http import HttpResponseClientRedirect, reswap, retarget

from accounts import licensing
from accounts.http import AuthedRequest, HtmxRequest
from accounts.models import TRIAL_GAMES, User
from games import charts, dashboard_html, live, room_views, rules, selectors, services
from games.errors import ERROR_STATUS, BadInput, GameNotFound, status_for
from games.models import KIND_CHOICES, GameStatus, HighScorePeriod, PlayerKind, Score
from games.play import actions as play
from games.presenters import (
    PLAYER_KINDS,
    finished_rows,
    game_context,
    game_urls,
    high_scores_context,
    hint_context,
    home_preview,
    new_game_choices,
)
from games.store import SeatedGame

GameAction = Callable[[AuthedRequest, int], SeatedGame | HttpResponse]


def game_action(action: GameAction) -> Callable[[AuthedRequest, int], HttpResponseBase]:
    """Run an action on a game and answer with the table: a partial for HTMX, else a redirect.

    Errors the player can cause answer with the current table and a message (400 or 409), and
    change nothing, because every service runs in one transaction.
    """

    @wraps(action)
    def view(request: AuthedRequest, game_id: int) -> HttpResponse:
        try:
            result = action(request, game_id)
        except GameNotFound as exc:
            raise Http404(str(exc)) from exc
        except tuple(ERROR_STATUS) as exc:
            seated = _seated_or_404(game_id, request.user)
            return render_game(request, seated, message=str(exc), status=status_for(exc))
        if isinstance(result, HttpResponse):
            return result
        if request.htmx:
            return render_game(request, result)
        return redirect("games:play", game_id=game_id)

    return login_required(require_POST(view))


def _seated_or_404(game_id: int, user: User) -> SeatedGame:
    try:
        return selectors.seated_game(game_id=game_id, user=user)
    except GameNotFound as exc:
        raise Http404(str(exc)) from exc


def render_game(
    request: AuthedRequest,
    seated: SeatedGame,
    *,
    message: str = "",
    confirm: dict[str, Any] | None = None,
    hint: dict[str, Any] | None = None,
    status: int = 200,
    log_kept: bool = False,
) -> HttpResponse:
    """The game page, or for HTMX its ``game`` partial. ``log_kept`` (HTMX only) leaves the
    page's log of moves as it is, adding the line of the move just made: the log is not read."""
    log_kept = log_kept and bool(request.htmx)
    context = game_context(
        seated,
        viewer=request.user,
        high_scores=selectors.high_score_entries(seated.game),
        moves=() if log_kept else selectors.recent_moves(seated.game),
        log_kept=log_kept,
        message=message,
        confirm=confirm,
        hint=hint,
        rematch=selectors.rematch_link(seated.game, request.user)
        if seated.game.rematch_id
        else None,
    )
    template = "games/play.html#game" if request.htmx else "games/play.html"
    response = render(request, template, context, status=status)
    _revalidate_always(response)
    if request.htmx:
        # Whatever the request aimed at (a roll aims at the tray), the whole game is redrawn.
        retarget(response, "#game")
        reswap(response, "outerHTML")
    return response


KINDS = list(rules.KINDS)
OPEN_PAGE = 10


def _whole_number(text: str | None, *, default: int, low: int, high: int) -> int:
    """A number from the query string, kept within ``low`` and ``high``; else ``default``."""
    try:
        return min(high, max(low, int(text or default)))
    except ValueError:
        return default


# --- Parsing what the game form sends ------------------------------------------------------


def _version(request: AuthedRequest) -> int:
    try:
        return int(request.POST["version"])
    except (KeyError, ValueError) as exc:
        raise BadInput("The request was incomplete; here is the game as it is now.") from exc


def _held(request: AuthedRequest) -> list[bool]:
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
def home(request: HtmxRequest) -> HttpResponse:
    context = home_preview() | {
        "trial_games": TRIAL_GAMES,
        "upper_bonus": rules.UPPER_BONUS,
        "yahtzee_bonus": rules.YAHTZEE_BONUS,
    }
    return render(request, "home.html", context)


@login_required
@require_GET
def dashboard(request: AuthedRequest) -> HttpResponse:
    return _dashboard(request)


def _dashboard(
    request: AuthedRequest, *, guests: Sequence[str] = (), guest_error: str = "", status: int = 200
) -> HttpResponse:
    user = request.user
    # "Show more" asks for ten more games of a list at a time (a plain link: no JavaScript).
    shown = _whole_number(request.GET.get("open"), default=OPEN_PAGE, low=OPEN_PAGE, high=1000)
    done = _whole_number(request.GET.get("done"), default=OPEN_PAGE, low=OPEN_PAGE, high=1000)
    games = selectors.dashboard(user=user, open_shown=shown, finished_shown=done)
    licence = games.licence
    typed = list(guests)[: services.MAX_GUESTS]
    context = {
        "games": games,
        "open_lines": dashboard_html.open_lines(games.open_games),
        "over_lines": dashboard_html.over_lines(games.finished),
        "more_open_url": f"?open={shown + OPEN_PAGE}&done={done}",
        "more_finished_url": f"?open={shown}&done={done + OPEN_PAGE}",
        "licence": licence,
        # The handheld original asked at first launch: enter a serial, or play the trial.
        "first_visit": not licence.registered and user.trial_games_used == 0,
        "max_guests": services.MAX_GUESTS,
        "name_length": services.NAME_LENGTH,
        "guest_slots": typed + [""] * (services.MAX_GUESTS - len(typed)),
        "guest_error": guest_error,
        "new_game_choices": new_game_choices(opened=bool(guest_error)),
        # The Mac original kept its list of players: the names typed before are offered again.
        "guest_names_used": user.guest_names if licence.can_start_game else [],
    }
    return render(request, "games/dashboard.html", context, status=status)


@login_required
@require_POST
def new_game(request: AuthedRequest) -> HttpResponse:
    kind = request.POST.get("kind", rules.CLASSIC.key)
    if kind not in KINDS:
        raise Http404("There is no such kind of game.")
    guests = request.POST.getlist("guest")
    seats = services.MAX_SEATS
    invites = _whole_number(request.POST.get("invites"), default=0, low=0, high=seats)
    open_seats = _whole_number(request.POST.get("open_seats"), default=0, low=0, high=seats)
    limit = _whole_number(request.POST.get("turn_limit"), default=0, low=0, high=86400) or None
    try:
        game = services.open_game(
            owner=request.user,
            kind=kind,
            guests=guests,
            computers=request.POST.getlist("computer"),
            invites=invites,
            open_seats=open_seats,
            turn_limit=limit,
            roll_for_first=request.POST.get("roll_for_first") == "1",
        )
    except services.BadGuests as exc:
        return _dashboard(request, guests=guests, guest_error=str(exc), status=400)
    except licensing.TrialOver:
        # The serial page itself says the trial is used up and what to do.
        url = reverse("accounts:serial")
    except licensing.EmailNotConfirmed as exc:
        # The games page offers to send the link again.
        messages.info(request, str(exc))
        url = reverse("games:dashboard")
    else:
        url = reverse("games:play", kwargs={"game_id": game.pk})
    if request.htmx:
        return HttpResponseClientRedirect(url)
    return HttpResponseRedirect(url)


@require_GET
def game_page(request: HtmxRequest, game_id: int) -> HttpResponseBase:
    """The game; for htmx, its partial, which a browser revalidates with its ETag.

    An unchanged game answers ``304 Not Modified`` from the session, the game's version and
    the viewer's credential stamp alone (no user row, no seats, no template): the check a
    waiting player's page makes often.
    """
    if request.htmx and (unchanged := _not_modified(request, game_id)):
        return unchanged
    # login_required, on _game_page, turns away anyone but a logged-in player.
    return _game_page(cast(AuthedRequest, request), game_id)


@login_required
def _game_page(request: AuthedRequest, game_id: int) -> HttpResponse:
    seated = _seated_or_404(game_id, request.user)
    if seated.game.status == GameStatus.WAITING:
        response = room_views.render_room(request, seated)
    else:
        response = render_game(request, seated)
    if request.htmx:
        game = seated.game
        response["ETag"] = _etag(
            request, game_id=game.pk, version=game.version, user_id=request.user.pk
        )
    return response


def _etag(request: HttpRequest, *, game_id: int, version: int, user_id: int | str) -> str:
    # The secret the page's forms are signed with: CsrfViewMiddleware reads it from the cookie,
    # or makes a new one while the page renders (then sent in this response's cookie).
    csrf_secret = request.META.get("CSRF_COOKIE", "")
    return live.etag(game_id=game_id, version=version, user_id=user_id, csrf_secret=csrf_secret)


def _not_modified(request: HtmxRequest, game_id: int) -> HttpResponseNotModified | None:
    asked = request.headers.get("If-None-Match")
    if not asked:
        return None
    session = request.session
    session_hash = session.get(HASH_SESSION_KEY)
    backend = session.get(BACKEND_SESSION_KEY)
    try:
        user_id = User._meta.pk.to_python(session[SESSION_KEY])
    except (KeyError, ValidationError):
        return None
    if not session_hash or backend not in settings.AUTHENTICATION_BACKENDS:
        return None
    found = live.revalidation(game_id=game_id, user_id=user_id)
    # A session Django's own authentication would refuse (its password changed since, the
    # account made inactive or deleted) is left to the full view, which logs it out.
    if found is None or not found.credentials:
        return None
    if not constant_time_compare(session_hash, found.credentials):
        return None
    ours = _etag(request, game_id=game_id, version=found.version, user_id=user_id)
    # Weak comparison (RFC 9110): compression on the way out marks the tag weak ("W/").
    if ours not in {tag.removeprefix("W/") for tag in parse_etags(asked)}:
        return None
    response = HttpResponseNotModified()
    response["ETag"] = ours
    _revalidate_always(response)
    return response


def _revalidate_always(response: HttpResponseBase) -> None:
    """A browser may keep the game but must ask every time (htmx's GETs go through its cache)."""
    response["Cache-Control"] = "private, no-cache"
    patch_vary_headers(response, ["HX-Request", "Cookie"])


# --- Actions ---------------------------------------------------------------------------------


@game_action
def computer(request: AuthedRequest, game_id: int) -> SeatedGame | HttpResponse:
    """The computer's next step, or (``all``) its steps until a person is on turn."""
    return play.play_computer(
        game_id=game_id,
        user=request.user,
        version=_version(request),
        to_the_end=request.POST.get("all") == "1",
    )


@game_action
def resign(request: AuthedRequest, game_id: int) -> SeatedGame | HttpResponse:
    play.resign(game_id=game_id, user=request.user, version=_version(request))
    messages.info(request, "You resigned: the others play on. Your score is not entered.")
    return _to(request, reverse("games:dashboard"))


@game_action
def skip(request: AuthedRequest, game_id: int) -> SeatedGame | HttpResponse:
    return play.skip_turn(game_id=game_id, user=request.user, version=_version(request))


def _to(request: AuthedRequest, url: str) -> HttpResponse:
    if request.htmx:
        return HttpResponseClientRedirect(url)
    return HttpResponseRedirect(url)


@game_action
def rematch(request: AuthedRequest, game_id: int) -> SeatedGame | HttpResponse:
    """The same players again: a new game waiting for them (or the one already offered)."""
    try:
        game = services.rematch(game_id=game_id, user=request.user)
    except licensing.LicenceError as exc:
        messages.info(request, str(exc))
        return _to(request, reverse("accounts:serial"))
    return _to(request, reverse("games:play", kwargs={"game_id": game.pk}))


@game_action
def first(request: AuthedRequest, game_id: int) -> SeatedGame | HttpResponse:
    """Throw for first (for each seat the player plays that has still to throw)."""
    return play.throw_for_first(game_id=game_id, user=request.user)


@game_action
def undo(request: AuthedRequest, game_id: int) -> SeatedGame | HttpResponse:
    return play.undo_score(game_id=game_id, user=request.user, version=_version(request))


@game_action
def hint(request: AuthedRequest, game_id: int) -> SeatedGame | HttpResponse:
    seated, found = play.take_hint(game_id=game_id, user=request.user, version=_version(request))
    shown = hint_context(found, columns=seated.game.rules_kind.columns)
    if request.htmx:
        # Only the hint panel: the rest of the game has not changed.
        context = {"hint": shown, "urls": game_urls(game_id)}
        return render(request, "games/play.html#hint_panel", context)
    return render_game(request, seated, hint=shown)


@game_action
def hold(request: AuthedRequest, game_id: int) -> SeatedGame | HttpResponse:
    seated = play.set_held(
        game_id=game_id, user=request.user, version=_version(request), held=_held(request)
    )
    if request.htmx:
        # The dice already show their new state in the page; only the version moves on.
        context = {"game": seated.game, "oob": True}
        return render(request, "games/play.html#version", context)
    return seated


@game_action
def roll(request: AuthedRequest, game_id: int) -> SeatedGame | HttpResponse:
    seated = play.roll_dice(
        game_id=game_id, user=request.user, version=_version(request), held=_held(request)
    )
    if request.htmx:
        # Only the tray, the card's offers and the news change: they go, not the whole game.
        context = game_context(seated, viewer=request.user) | {"oob": True}
        response = render(request, "games/play.html#roll_answer", context)
        patch_vary_headers(response, ["HX-Request"])
        return response
    return seated


@game_action
def score(request: AuthedRequest, game_id: int) -> SeatedGame | HttpResponse:
    user = request.user
    chosen = request.POST.get("box") or request.POST.get("confirmed", "")
    box, column = _slot(chosen)
    try:
        seated = play.score_box(
            game_id=game_id,
            user=user,
            version=_version(request),
            box=box,
            column=column,
            confirm_zero=user.confirm_zero and request.POST.get("confirmed") != chosen,
        )
    except play.ZeroNeedsConfirmation as ask:
        confirm = {"box": ask.box, "column": ask.column, "label": ask.box.label}
        return render_game(request, ask.seated, confirm=confirm)
    if request.htmx:
        # The turn has moved on: the whole table again, but the log only gains this move's line.
        return render_game(request, seated, log_kept=True)
    return seated


@login_required
@require_GET
def abandon_page(request: AuthedRequest, game_id: int) -> HttpResponse:
    """Ask before abandoning, on a page of its own (it works the same without JavaScript)."""
    seated = _seated_or_404(game_id, request.user)
    if seated.game.status not in (GameStatus.IN_PROGRESS, GameStatus.WAITING):
        return redirect("games:play", game_id=game_id)
    seat = seated.seat_of(request.user)
    context = {
        "leaving": seated.game.owner_id != request.user.pk,
        "waiting": seated.game.status == GameStatus.WAITING,
        "game": seated.game,
        "kind": seated.game.rules_kind,
        "gives_back_trial_game": bool(seat and seat.used_trial_game)
        and not selectors.has_moves(seated.game),
    }
    return render(request, "games/abandon.html", context)


@game_action
def abandon(request: AuthedRequest, game_id: int) -> SeatedGame | HttpResponse:
    ended = play.abandon_game(game_id=game_id, user=request.user)
    news = "You left the game." if ended.left else "Game abandoned — no score recorded."
    if ended.trial_games_given_back:
        news += " It ended before the first roll, so your trial game was given back."
    messages.info(request, news)
    url = reverse("games:dashboard")
    if request.htmx:
        return HttpResponseClientRedirect(url)
    return HttpResponseRedirect(url)


# --- High scores and statistics ------------------------------------------------------------


def _choice(request: HtmxRequest, name: str, choices: list[str], default: str) -> str:
    value = request.GET.get(name, default)
    return value if value in choices else default


@require_GET
def high_scores(request: HtmxRequest) -> HttpResponse:
    """The public top ten per game kind, for people or for the computer, over a period."""
    kind = _choice(request, "kind", KINDS, rules.CLASSIC.key)
    period = _choice(request, "period", HighScorePeriod.values, HighScorePeriod.ALL_TIME)
    # Only the tables the page offers: a guest's name was typed at a host's screen, and nobody
    # can vouch for it, so their scores are never shown to the public.
    public_kinds = [str(value) for value, _ in PLAYER_KINDS]
    player_kind = _choice(request, "player_kind", public_kinds, PlayerKind.HUMAN)
    viewer = request.user if isinstance(request.user, User) else None
    # A visitor's table is the same for everyone until the next game finishes (or, for a
    # period, the window moves on): it is rendered once and kept, keyed by the newest score.
    key = None
    if viewer is None:
        window = int(time.time() // 60) if period != HighScorePeriod.ALL_TIME else 0
        version = selectors.scores_version()
        key = f"top-ten:{kind}:{player_kind}:{period}:{version}:{window}"
    cached = cache.get(key) if key else None
    if cached is None:
        top = selectors.top_ten(kind=kind, player_kind=player_kind, period=period, viewer=viewer)
        context = high_scores_context(top)
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
def player_page(request: HtmxRequest, public_id: uuid.UUID) -> HttpResponse:
    """A player's statistics: everything for themselves, a public summary for others.

    Others see a page only for someone who has finished a game: an account is not announced
    by having signed up, and the address is the random ``public_id``, never the row's id.
    """
    player = (
        User.objects.annotate(
            has_finished=Exists(
                Score.objects.filter(user=OuterRef("pk"), player_kind=PlayerKind.HUMAN)
            )
        )
        .only("id", "public_id", "display_name", "date_joined")
        .filter(public_id=public_id)
        .first()
    )
    if player is None or not (player.has_finished or player.pk == request.user.pk):
        raise Http404("No such player.")
    kind = _choice(request, "kind", KINDS, rules.CLASSIC.key)
    own = request.user.is_authenticated and request.user.pk == player.pk

    Record = tuple[selectors.PlayerStats, charts.Chart | None, charts.Chart | None]

    def record() -> Record:
        stats = selectors.player_stats(user_id=player.pk, kind=kind, private=own)
        return stats, charts.score_line(stats.totals), charts.score_histogram(stats.totals)

    if own:
        stats, line, histogram = record()
    else:
        # The public record only changes when the player finishes a game: keep it until then.
        newest = selectors.newest_score_id(user_id=player.pk, kind=kind)
        key = f"player-record:{player.pk}:{kind}:{newest}"
        kept: Record | None = cache.get_or_set(key, record, timeout=3600)
        stats, line, histogram = kept or record()
    context = {
        "player": player,
        "own": own,
        "stats": stats,
        "kind": kind,
        "kinds": KIND_CHOICES,
        "line": line,
        "histogram": histogram,
        # Their own page offers the analysis of their latest finished games.
        "analysable": finished_rows(selectors.latest_finished(user=player, shown=5)) if own else [],
    }
    return render(request, "games/player.html", context)


@login_required
@require_GET
def my_stats(request: AuthedRequest) -> HttpResponse:
    return redirect("player", public_id=request.user.public_id)


@require_GET
def healthz(request: HtmxRequest) -> HttpResponse:
    """A trivial page: the benchmark's yardstick, and a liveness check for a load balancer."""
    return HttpResponse("ok", content_type="text/plain")


@require_GET
def help_page(request: HtmxRequest) -> HttpResponse:
    """The rules written for players, with example rolls drawn as dice."""
    return render(request, "help.html")
