"""After the game: each decision of a finished game set beside the best one, replayed from the
``Move`` log through the rules and graded by the perfect-play table; the same decisions stepped
through one by one (a top-ten game for anyone, a shared card by its link), and the sharing."""

from __future__ import annotations

from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpResponse
from django.shortcuts import render
from django.urls import reverse
from django.utils.cache import patch_cache_control, patch_vary_headers
from django.views.decorators.http import require_GET, require_POST, require_safe

from accounts.http import AuthedRequest, HtmxRequest
from accounts.models import User
from games import rules, store
from games.errors import GameError, GameNotFound, status_for
from games.models import GameStatus, Seat
from games.play.presenters import accuracy_context, game_urls, play_url
from games.review import card_image, replays, sharing
from games.scores import charts
from games.web import redirect_to, seated_or_404
from yahtzee_site import numbers

COSTLIEST = 3


def _choice_words(step: replays.Step) -> dict[str, Any]:
    return {
        "turn": step.turn,
        "roll": step.roll,
        "dice": rules.describe_dice(step.dice),
        "choice": step.choice,
        "best": step.best,
        "loss": f"{step.loss:.1f}",
        "is_best": step.is_best,
    }


@login_required
@require_GET
def analysis(request: AuthedRequest, game_id: int, position: int) -> HttpResponse:
    """The analysis of the card at ``position`` in a finished game the viewer sat in: the
    card's replay (``replays.replay_of``, worked out once per finished game and kept), in
    short and decision by decision."""
    try:
        seated = store.load(game_id=game_id, user=request.user)
    except GameNotFound as exc:
        raise Http404(str(exc)) from exc
    game = seated.game
    seat = next((s for s in seated.seats if s.position == position), None)
    if seat is None or game.status != GameStatus.FINISHED:
        raise Http404("Only a finished game's cards can be analysed.")
    if sharing.sealed(seat):
        return _sealed(request)
    found = replays.replay_of(seat, players=len(seated.seats))
    context: dict[str, Any] = {
        "game": game,
        "seat": seat,
        "kind": game.rules_kind,
        "other_seats": [s for s in seated.seats if s.pk != seat.pk],
    }
    if found.message:
        context["message"] = found.message
        return render(request, "games/review/analysis.html", context)
    context |= {
        "analysis": found,
        "start": f"{found.start:.1f}",
        "total_loss": f"{found.total_loss:.1f}",
        "best_count": found.best_count,
        "costliest": [_choice_words(step) for step in found.costliest(COSTLIEST)],
        "decisions": [_choice_words(step) for step in found.steps],
        "chart": charts.score_line([round(value) for value in found.path]),
    }
    return render(request, "games/review/analysis.html", context)


@login_required
@require_safe
def grade(request: AuthedRequest, game_id: int) -> HttpResponse:
    """The viewer's accuracy in a finished game, as the task worker graded it (never graded
    here: ``games.review.tasks``). The game-over section asks for it while it is being worked
    out; for htmx the line alone (which asks again a second later while it is still to come),
    else back to the game."""
    seated = seated_or_404(game_id, request.user)
    seat = seated.seat_of(request.user)
    if seated.game.status != GameStatus.FINISHED or seat is None:
        raise Http404("Only a finished game's cards are graded.")
    if not request.htmx:
        return redirect_to(request, play_url(game_id))
    context = {"game": seated.game, "seat": seat, "urls": game_urls(game_id)}
    context |= accuracy_context(seat, seated.game)
    response = render(request, "games/play/accuracy_answer.html", context, using="jinja2")
    response["Cache-Control"] = "no-store"  # asked again until the grade is there
    return response


# --- The replay, step by step ------------------------------------------------------------


def _viewer(request: HtmxRequest) -> User | None:
    return request.user if isinstance(request.user, User) else None


@require_safe
def replay(request: HtmxRequest, game_id: int, position: int) -> HttpResponse:
    """A finished card step by step: for its game's players, and for anyone while it stands in
    a public top ten (any other answers 404, as for no game at all)."""
    seat = sharing.finished_seat(game_id, position)
    viewer = _viewer(request)
    if seat is not None and sharing.sealed(seat) and _seated(seat, viewer):
        return _sealed(request)
    if seat is None or not sharing.may_watch(seat, viewer):
        raise Http404("There is no such game to watch.")
    return _replay_page(request, seat, replays.replay_of(seat), _owners(request, seat, viewer))


def _owners(request: HtmxRequest, seat: Seat, viewer: User | None) -> dict[str, Any]:
    """What the replay shows its own player alone: the link to share it, or why not yet."""
    if viewer is None or seat.user_id != viewer.pk:
        return {}
    token = sharing.link_of(seat)
    return {
        "owner": True,
        "secret_today": sharing.secret_today(seat),
        "share_url": (
            request.build_absolute_uri(reverse("shared", kwargs={"token": token})) if token else ""
        ),
    }


@require_safe
def tournament_replay(request: HtmxRequest, token: str, game_id: int) -> HttpResponse:
    """A tournament's finished card step by step, for anyone holding the tournament's link
    (its standings link each score here), once the tournament is over; sealed (409) before,
    404 for a game that is not a finished one of that tournament."""
    seat, is_sealed = sharing.tournament_seat(token, game_id)
    if seat is None:
        raise Http404("There is no such game to watch.")
    if is_sealed:
        return _sealed(request)
    # A private tournament's link is its secret: not for search engines.
    context = {"shared": True} | _owners(request, seat, _viewer(request))
    return _replay_page(request, seat, replays.replay_of(seat), context)


def _seated(seat: Seat, viewer: User | None) -> bool:
    return viewer is not None and Seat.objects.filter(game_id=seat.game_id, user=viewer).exists()


def _sealed(request: HtmxRequest | AuthedRequest) -> HttpResponse:
    """A tournament game's dice asked for before its end: its player is told why (409)."""
    context = {"message": sharing.SEALED}
    return render(request, "games/tournaments/sealed.html", context, status=409)


@require_safe
def shared(request: HtmxRequest, token: str) -> HttpResponse:
    """A card its player shared, for anyone with the link, with the tags a link preview reads."""
    seat = sharing.shared_seat(token)
    if seat is None:
        raise Http404("This link was withdrawn, or never made.")
    found = replays.replay_of(seat)
    accuracy = f"; accuracy {found.accuracy:.1f}%" if found.steps else ""
    context = {
        "shared": True,
        "og": {
            "title": f"{found.name} scored {found.final_score} in {found.kind_name}",
            "description": f"Watch the game move by move, each decision beside the best{accuracy}.",
            "url": request.build_absolute_uri(request.path),
            "image": request.build_absolute_uri(reverse("shared_card", kwargs={"token": token})),
            "width": card_image.WIDTH,
            "height": card_image.HEIGHT,
        },
    }
    return _replay_page(request, seat, found, context)


@require_safe  # link previews may ask with HEAD first
def shared_card(request: HtmxRequest, token: str) -> HttpResponse:
    """The shared card's result card as a PNG (its ``og:image``); gone with the link."""
    seat = sharing.shared_seat(token)
    if seat is None:
        raise Http404("This link was withdrawn, or never made.")
    found = replays.replay_of(seat)
    png = card_image.result_card(found, key=f"{seat.pk}:{seat.game.version}")
    response = HttpResponse(png, content_type="image/png")
    # Short: a withdrawn link's picture should not outlive it by much in anyone's cache.
    patch_cache_control(response, public=True, max_age=300)
    return response


def _replay_page(
    request: HtmxRequest, seat: Seat, found: replays.Replay, context: dict[str, Any]
) -> HttpResponse:
    """The page (or, for htmx, the step alone) at ``?step=`` (1 to the end, which shows the
    card as the game ended)."""
    end = len(found.steps) + 1
    number = numbers.whole_or(request.GET.get("step"), default=1, low=1, high=end)
    here = request.path
    context |= {
        "seat": seat,
        "replay": found,
        "number": number,
        "end": end,
        "step": found.steps[number - 1] if number < end else None,
        "previous_url": f"{here}?step={number - 1}" if number > 1 else "",
        "next_url": f"{here}?step={number + 1}" if number < end else "",
        "first_url": f"{here}?step=1",
        "end_url": f"{here}?step={end}",
        "turns": [
            (turn, f"{here}?step={first}", clean) for turn, first, clean in found.turn_starts()
        ],
    }
    if request.htmx and not request.htmx.history_restore_request:
        response = render(request, "games/review/replay.html#step", context)
    else:
        response = render(request, "games/review/replay.html", context)
    patch_vary_headers(response, ["HX-Request"])
    return response


# --- Sharing: the player's own card, by POST ----------------------------------------------


def _sharing(request: AuthedRequest, game_id: int, position: int, *, share: bool) -> HttpResponse:
    try:
        if share:
            sharing.share_card(user=request.user, game_id=game_id, position=position)
        else:
            sharing.withdraw_card(user=request.user, game_id=game_id, position=position)
    except GameNotFound as exc:
        raise Http404(str(exc)) from exc
    except GameError as exc:
        return HttpResponse(str(exc), status=status_for(exc), content_type="text/plain")
    if share:
        messages.info(request, "Your game is shared: anyone with the link below can watch it.")
    else:
        messages.info(request, "The link is withdrawn: it no longer opens your game.")
    url = reverse("games:replay", kwargs={"game_id": game_id, "position": position})
    return redirect_to(request, url)


@login_required
@require_POST
def share(request: AuthedRequest, game_id: int, position: int) -> HttpResponse:
    """Share the viewer's own finished card by a link (the same link if already shared)."""
    return _sharing(request, game_id, position, share=True)


@login_required
@require_POST
def withdraw(request: AuthedRequest, game_id: int, position: int) -> HttpResponse:
    """Withdraw the link to the viewer's own card: it answers 404 from now on."""
    return _sharing(request, game_id, position, share=False)
