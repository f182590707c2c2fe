"""The game table: the page and its partial, and every action on the game in progress.

Views stay thin: parse the form, call one action (``games.play.actions``), render the whole page
or, for HTMX, the ``game`` partial. Errors a player can cause are answered in one place
(``game_action``) with the status ``games.errors.ERROR_STATUS`` gives them.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import wraps
from typing import Any, cast

from django.conf import settings
from django.contrib import messages
from django.contrib.auth import BACKEND_SESSION_KEY, HASH_SESSION_KEY, SESSION_KEY
from django.contrib.auth.decorators import login_required
from django.core.exceptions import ValidationError
from django.http import (
    Http404,
    HttpRequest,
    HttpResponse,
    HttpResponseBase,
    HttpResponseNotModified,
)
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.cache import patch_vary_headers
from django.utils.crypto import constant_time_compare
from django.utils.http import parse_etags
from django.views.decorators.http import require_GET, require_POST
from django_htmx.http import reswap, retarget

from accounts import licensing
from accounts.http import AuthedRequest, HtmxRequest
from accounts.models import User
from games import rules
from games.errors import ERROR_STATUS, BadInput, GameNotFound, status_for
from games.models import GameStatus
from games.play import actions as play
from games.play import live, turn_mail
from games.play.presenters import game_context, game_urls, hint_context
from games.play.selectors import has_moves, recent_moves
from games.scores.selectors import high_score_entries
from games.store import SeatedGame
from games.tables import services as tables
from games.tables import views as room_views
from games.tables.selectors import rematch_link
from games.web import redirect_to, seated_or_404
from yahtzee_site import numbers

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
            seated = seated_or_404(game_id, request.user)
            return render_table(request, seated, message=str(exc), status=status_for(exc))
        if isinstance(result, HttpResponse):
            return result
        # The player acting has the game in front of them: no turn mail for them now.
        if turn_mail.mails_turns(result.game):
            live.saw_page(game_id=game_id, user_id=request.user.pk)
        if request.htmx:
            return render_game(request, result)
        return redirect("games:play", game_id=game_id)

    return login_required(require_POST(view))


def render_table(
    request: AuthedRequest, seated: SeatedGame, *, message: str = "", status: int = 200
) -> HttpResponse:
    """The game as it stands: its waiting room until the host starts it, else the table."""
    if seated.game.status == GameStatus.WAITING:
        return room_views.render_room(request, seated, message=message, status=status)
    return render_game(request, seated, message=message, status=status)


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
        high_scores=high_score_entries(seated.game),
        moves=() if log_kept else recent_moves(seated.game),
        log_kept=log_kept,
        message=message,
        confirm=confirm,
        hint=hint,
        rematch=rematch_link(seated.game, request.user) if seated.game.rematch_id else None,
    )
    if request.htmx:
        response = render(request, "games/play/game.html", context, status=status, using="jinja2")
    else:
        response = render(request, "games/play/play.html", context, status=status)
    _revalidate_always(response)
    if request.htmx:
        # Whatever the request aimed at (a roll aims at the tray), the whole game is redrawn.
        retarget(response, "#game")
        reswap(response, "outerHTML")
    return response


def _version(request: AuthedRequest) -> int:
    try:
        return numbers.whole(request.POST.get("version"))
    except numbers.NotANumber as exc:
        raise BadInput("The request was incomplete; here is the game as it is now.") from exc


def _held(request: AuthedRequest) -> list[bool]:
    """The dice to hold, sent as die indexes 0..4 (the checked boxes of the dice)."""
    values = request.POST.getlist("held")
    try:
        indexes = {numbers.whole(value, high=rules.DICE_COUNT - 1) for value in values}
    except numbers.NotANumber as exc:
        raise BadInput("Dice to hold must be numbered 1 to 5.") from exc
    if len(indexes) != len(values):
        raise BadInput("Dice to hold must be numbered 1 to 5, each at most once.")
    return [i in indexes for i in range(rules.DICE_COUNT)]


def _slot(value: str) -> tuple[str, int]:
    """A score button's value: a box key, or ``key:column`` on a card with several columns."""
    box, _, column = value.partition(":")
    try:
        return box, numbers.whole(column or "0")
    except numbers.NotANumber as exc:
        raise BadInput("There is no such column.") from exc


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
    seated = seated_or_404(game_id, request.user)
    if turn_mail.mails_turns(seated.game):
        live.saw_page(game_id=game_id, user_id=request.user.pk)
    response = render_table(request, seated)
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
    # The page is open: the turn mail is not sent to a player watching the game.
    live.saw_page(game_id=game_id, user_id=user_id, last=found.seen)
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
    left = play.resign(game_id=game_id, user=request.user, version=_version(request))
    if left.game.status == GameStatus.ABANDONED:
        messages.info(request, "You resigned, the last player in the game: it ends with no score.")
    else:
        messages.info(request, "You resigned: the others play on. Your score is not entered.")
    return redirect_to(request, reverse("games:dashboard"))


@game_action
def skip(request: AuthedRequest, game_id: int) -> SeatedGame | HttpResponse:
    return play.skip_turn(game_id=game_id, user=request.user, version=_version(request))


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
        return render(request, "games/play/hint_answer.html", context, using="jinja2")
    return render_game(request, seated, hint=shown)


@game_action
def hold(request: AuthedRequest, game_id: int) -> SeatedGame | HttpResponse:
    seated = play.set_held(
        game_id=game_id, user=request.user, version=_version(request), held=_held(request)
    )
    if request.htmx:
        # The dice already show their new state in the page; only the version moves on.
        context = {"game": seated.game}
        return render(request, "games/play/hold_answer.html", context, using="jinja2")
    return seated


@game_action
def roll(request: AuthedRequest, game_id: int) -> SeatedGame | HttpResponse:
    seated = play.roll_dice(
        game_id=game_id, user=request.user, version=_version(request), held=_held(request)
    )
    if request.htmx:
        # Only the tray, the card's offers and the news change: they go, not the whole game.
        context = game_context(seated, viewer=request.user)
        response = render(request, "games/play/roll_answer.html", context, using="jinja2")
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
    except rules.ZeroToConfirm as ask:  # the Match asks first; nothing has changed
        confirm = {"box": ask.box, "column": ask.column, "label": ask.box.label}
        return render_game(request, seated_or_404(game_id, user), confirm=confirm)
    if request.htmx:
        # The turn has moved on: the whole table again, but the log only gains this move's line.
        return render_game(request, seated, log_kept=True)
    return seated


@login_required
@require_GET
def abandon_page(request: AuthedRequest, game_id: int) -> HttpResponse:
    """Ask before abandoning, on a page of its own (it works the same without JavaScript)."""
    seated = seated_or_404(game_id, request.user)
    if seated.game.status not in (GameStatus.IN_PROGRESS, GameStatus.WAITING):
        return redirect("games:play", game_id=game_id)
    seat, by = seated.seat_of(request.user), seated.position_of(request.user)
    match = seated.loaded
    context = {
        "leaving": seated.game.owner_id != request.user.pk,
        # The last one still playing: resigning ends the game (the Match's rule).
        "last_player": match is not None
        and all(match.player_of(other) == by for other in match.playing),
        "waiting": seated.game.status == GameStatus.WAITING,
        "game": seated.game,
        "kind": seated.game.rules_kind,
        "gives_back_trial_game": bool(seat and seat.used_trial_game) and not has_moves(seated.game),
    }
    return render(request, "games/play/abandon.html", context)


@game_action
def abandon(request: AuthedRequest, game_id: int) -> SeatedGame | HttpResponse:
    ended = play.abandon_game(game_id=game_id, user=request.user)
    news = "You left the game." if ended.left else "Game abandoned — no score recorded."
    if ended.trial_games_given_back:
        news += " It ended before the first roll, so your trial game was given back."
    messages.info(request, news)
    return redirect_to(request, reverse("games:dashboard"))


@game_action
def rematch(request: AuthedRequest, game_id: int) -> SeatedGame | HttpResponse:
    """The same players again: a new game waiting for them (or the one already offered)."""
    try:
        game = tables.rematch(game_id=game_id, user=request.user)
    except licensing.LicenceError as exc:
        messages.info(request, str(exc))
        return redirect_to(request, reverse("accounts:serial"))
    return redirect_to(request, reverse("games:play", kwargs={"game_id": game.pk}))
