"""Playing online before the first roll: the waiting room, invitation links, the lobby, the
host's start. Thin, like ``views``: the services decide, these pages say what happened."""

from __future__ import annotations

from typing import Any, cast

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.contrib.auth.views import redirect_to_login
from django.http import Http404, HttpRequest, HttpResponse, HttpResponseRedirect
from django.shortcuts import redirect, render
from django.urls import reverse
from django.views.decorators.http import require_GET, require_POST

from accounts import licensing
from accounts.http import AuthedRequest
from games import rules
from games.errors import GameError, status_for
from games.home.views import render_dashboard
from games.models import LOBBY_SEAT_HOURS, PlayerKind
from games.play import live
from games.store import SeatedGame
from games.tables import selectors, services
from games.web import KINDS, redirect_to, seated_or_404
from yahtzee_site import numbers


def render_room(
    request: AuthedRequest, seated: SeatedGame, *, message: str = "", status: int = 200
) -> HttpResponse:
    """The waiting room: who has taken a seat, the seats still offered, and for the host the
    links to pass on and the start button."""
    game, viewer = seated.game, request.user
    hosting = game.owner_id == viewer.pk
    invitations = selectors.invitations_of(game) if hosting else []
    taken = {i.seat_id for i in invitations if i.seat_id}
    context: dict[str, Any] = {
        "game": game,
        "kind": game.rules_kind,
        "hosting": hosting,
        "message": message,
        "players": [
            {
                "name": seat.display_name,
                "you": seat.user_id == viewer.pk and seat.player_kind != PlayerKind.GUEST,
                "host": seat.user_id == game.owner_id and seat.player_kind != PlayerKind.GUEST,
                "guest": seat.player_kind == PlayerKind.GUEST,
                "online": seat.pk in taken,
            }
            for seat in seated.seats
        ],
        "links": [
            {
                "id": invitation.pk,
                "url": request.build_absolute_uri(
                    reverse("games:join", kwargs={"token": invitation.token})
                ),
                "lobby": invitation.open_to_all,
            }
            for invitation in invitations
            if invitation.is_open
        ],
        "page_title": f"Waiting for players — {game.rules_kind.name}",
        "urls": {
            "play": reverse("games:play", kwargs={"game_id": game.pk}),
            "stream": reverse("games:stream", kwargs={"game_id": game.pk}),
            "start": reverse("games:start", kwargs={"game_id": game.pk}),
            "abandon_page": reverse("games:abandon_page", kwargs={"game_id": game.pk}),
        },
    }
    template = "games/tables/waiting.html#room" if request.htmx else "games/tables/waiting.html"
    return render(request, template, context, status=status)


@login_required
@require_POST
def start(request: AuthedRequest, game_id: int) -> HttpResponse:
    # The host starting the game has it in front of them: no turn mail to them for it.
    live.saw_page(game_id=game_id, user_id=request.user.pk)
    try:
        services.begin_game(game_id=game_id, user=request.user)
    except (GameError, rules.IllegalMove, licensing.LicenceError) as exc:
        status = status_for(exc)
        return render_room(
            request, seated_or_404(game_id, request.user), message=str(exc), status=status
        )
    return redirect_to(request, reverse("games:play", kwargs={"game_id": game_id}))


@login_required
@require_POST
def revoke(request: AuthedRequest, game_id: int, invitation_id: int) -> HttpResponse:
    try:
        services.revoke_invitation(game_id=game_id, user=request.user, invitation_id=invitation_id)
    except (GameError, rules.IllegalMove) as exc:
        status = status_for(exc)
        return render_room(
            request, seated_or_404(game_id, request.user), message=str(exc), status=status
        )
    return redirect_to(request, reverse("games:play", kwargs={"game_id": game_id}))


def join(request: HttpRequest, token: str) -> HttpResponse:
    """An invitation link: who invites to what (GET), and taking the seat (POST)."""
    if not request.user.is_authenticated:
        # Sign up or log in first, then back here.
        return redirect_to_login(request.get_full_path())
    return _join(cast(AuthedRequest, request), token)


def _join(request: AuthedRequest, token: str) -> HttpResponse:
    invitation = selectors.invitation(token)
    if invitation is None:
        message = "This invitation link is not valid: check that it was copied whole."
        return render(request, "games/tables/join.html", {"message": message}, status=404)
    game = invitation.game
    if request.method == "POST":
        try:
            services.join_game(token=token, user=request.user)
        except licensing.EmailNotConfirmed as exc:
            messages.info(request, str(exc))
            return redirect("games:dashboard")
        except licensing.TrialOver:
            messages.info(
                request,
                "Your trial games are used, so you cannot take this seat yet. Enter a serial "
                "number, then open the invitation link again.",
            )
            return HttpResponseRedirect(reverse("accounts:serial"))
        except (GameError, rules.IllegalMove) as exc:
            context: dict[str, object] = {"game": game, "message": str(exc)}
            return render(request, "games/tables/join.html", context, status=409)
        return redirect("games:play", game_id=game.pk)
    if request.method != "GET":
        return HttpResponse(status=405)
    if selectors.games_of(request.user).filter(pk=game.pk).exists():
        return redirect("games:play", game_id=game.pk)
    return render(request, "games/tables/join.html", {"invitation": invitation, "game": game})


@login_required
@require_GET
def lobby(request: AuthedRequest) -> HttpResponse:
    context = {
        "seats": selectors.lobby(viewer=request.user),
        "seat_hours": LOBBY_SEAT_HOURS,
    }
    return render(request, "games/tables/lobby.html", context)


@login_required
@require_POST
def new_game(request: AuthedRequest) -> HttpResponse:
    kind = request.POST.get("kind", rules.CLASSIC.key)
    if kind not in KINDS:
        raise Http404("There is no such kind of game.")
    guests = request.POST.getlist("guest")
    seats = services.MAX_SEATS
    invites = numbers.whole_or(request.POST.get("invites"), default=0, low=0, high=seats)
    open_seats = numbers.whole_or(request.POST.get("open_seats"), default=0, low=0, high=seats)
    limit = numbers.whole_or(request.POST.get("turn_limit"), default=0, low=0, high=86400) or None
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
            rated=request.POST.get("rated") == "1",
        )
    except services.BadGuests as exc:
        return render_dashboard(request, guests=guests, guest_error=str(exc), status=400)
    except licensing.TrialOver:
        # The serial page itself says the trial is used up and what to do.
        url = reverse("accounts:serial")
    except licensing.EmailNotConfirmed as exc:
        # The games page offers to send the link again.
        messages.info(request, str(exc))
        url = reverse("games:dashboard")
    else:
        url = reverse("games:play", kwargs={"game_id": game.pk})
    return redirect_to(request, url)
