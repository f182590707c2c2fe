"""The reads before and after a game of several: the lobby's open seats, a game's invitations,
the invitation a link names, the way to a rematch."""

from __future__ import annotations

from dataclasses import dataclass, replace

from django.db.models import (
    Count,
    Q,
    QuerySet,
)
from django.urls import reverse

from accounts.models import User
from games.models import (
    Game,
    GameStatus,
    Invitation,
    Seat,
)

# --- A game and its seats ------------------------------------------------------------------


@dataclass(frozen=True)
class OpenSeat:
    """A seat offered in the lobby: the game, its host, and the seats taken so far."""

    token: str
    game_id: int
    kind: str
    host: str
    seated: int
    offered: int


def lobby(*, viewer: User, limit: int = 30) -> list[OpenSeat]:
    """Games waiting for players with a seat open to anyone, oldest first, one entry per game;
    not the viewer's own games. Off the ``invitation_lobby`` partial index."""
    open_seats = (
        Invitation.objects.filter(
            open_to_all=True,
            seat__isnull=True,
            revoked_at__isnull=True,
            game__status=GameStatus.WAITING,
        )
        .exclude(game__seats__user=viewer)
        .select_related("game__owner")
        .order_by("game_id", "pk")
    )
    found: dict[int, OpenSeat] = {}
    for invitation in open_seats[: limit * MAX_OFFERED]:
        if invitation.game_id in found:
            continue
        game = invitation.game
        found[game.pk] = OpenSeat(
            token=invitation.token,
            game_id=game.pk,
            kind=game.get_kind_display(),
            host=game.owner.display_name,
            seated=0,
            offered=0,
        )
        if len(found) == limit:
            break
    counts = (
        Game.objects.filter(pk__in=found)
        .annotate(
            seated=Count("seats", distinct=True),
            offered=Count(
                "invitations",
                filter=Q(invitations__seat__isnull=True, invitations__revoked_at__isnull=True),
                distinct=True,
            ),
        )
        .values_list("pk", "seated", "offered")
    )
    for pk, seated, offered in counts:
        found[pk] = replace(found[pk], seated=seated, offered=offered)
    return list(found.values())


MAX_OFFERED = 5
"""Seats a game can offer besides the host's."""


def invitations_of(game: Game) -> list[Invitation]:
    """A waiting game's invitations, for its host to copy or withdraw."""
    return list(Invitation.objects.filter(game=game).order_by("pk"))


def invitation(token: str) -> Invitation | None:
    """The invitation a link names, with its game and host."""
    return Invitation.objects.select_related("game__owner").filter(token=token).first()


def rematch_link(game: Game, viewer: User) -> tuple[str, str] | None:
    """Where the viewer goes for the rematch of ``game``, if one was asked for: into the new
    game when they sit there already, or to the seat kept for them."""
    if game.rematch_id is None:
        return None
    play = reverse("games:play", kwargs={"game_id": game.rematch_id})
    if Seat.objects.filter(game_id=game.rematch_id, user=viewer).exists():
        return play, "Go to the rematch"
    kept = Invitation.objects.filter(
        game_id=game.rematch_id, for_user=viewer, seat__isnull=True, revoked_at__isnull=True
    ).values_list("token", flat=True)
    token = next(iter(kept), None)
    if token is None:
        return None
    return reverse("games:join", kwargs={"token": token}), "Accept the rematch"


def games_of(user: User) -> QuerySet[Game]:
    """The games ``user`` is seated in: the only ones they may see or act on."""
    return Game.objects.filter(seats__user=user).distinct()
