"""The reads before and after a game of several: the lobby's open seats, a game's invitations,
the invitation a link names, the way to a rematch."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from django.db.backends.base.base import BaseDatabaseWrapper
from django.db.models import (
    Count,
    F,
    OuterRef,
    Q,
    QuerySet,
    Subquery,
)
from django.db.models.lookups import IsNull
from django.db.models.sql.compiler import SQLCompiler
from django.urls import reverse
from django.utils import timezone

from accounts.models import User
from games import rules
from games.models import (
    Game,
    GameStatus,
    Invitation,
    Seat,
    lobby_cutoff,
)


@dataclass(frozen=True)
class OpenSeat:
    """A seat offered in the lobby: the game, its host, and the seats taken so far."""

    token: str
    game_id: int
    kind: str
    host: str
    seated: int
    offered: int


class _MostlyNull(IsNull):
    """``IS NULL``, said to SQLite's planner to hold for most rows (``likelihood``). Told
    nothing, SQLite takes the lobby's ``seat_id IS NULL`` to pick out about one row through the
    seat's unique index, so it reads every seat ever offered and never taken that way, then
    sorts them all, even after ``ANALYZE`` (70 ms at 200,000 invitations, against 0.2 ms down
    the lobby's own index). Other databases get the plain ``IS NULL``."""

    def as_sqlite(
        self, compiler: SQLCompiler, connection: BaseDatabaseWrapper
    ) -> tuple[str, Sequence[Any]]:
        sql, params = self.as_sql(compiler, connection)
        return f"likelihood({sql}, 0.9375)", params


_PAST_WAITING = [status for status in GameStatus.values if status != GameStatus.WAITING]


def lobby(*, viewer: User, limit: int = 30, now: datetime | None = None) -> list[OpenSeat]:
    """Games waiting for players with a seat open to anyone, newest first (a new host's game is
    seen at once), one entry per game; not the viewer's own games, nor seats offered longer
    than ``LOBBY_SEAT_LIFETIME``.

    Walks the ``invitation_lobby_newest`` partial index from its newest end, down to the cutoff
    at most, and stops after the rows of ``limit`` games (a game offers at most
    ``MAX_OFFERED``): no sort, no count, as fast with 20,000 games waiting as with 20. Then one
    query reads those games, their hosts and seats.

    The walk reads the invitation table alone, the game's status through a subquery by its key:
    joined, a planner that believes few games wait (PostgreSQL's statistics, gathered while
    none did) starts from the games instead, joins every open seat and sorts them, 276 ms at
    25,000 open games (and its cost estimate turns on JIT compilation). The status is asked as
    "not past waiting" for the same reason: a planner guesses an unknown value equal to one
    string for one row in 200, and to none of three for most rows, as here.
    """
    cutoff = lobby_cutoff(now or timezone.now())
    status = Game.objects.filter(pk=OuterRef("game_id")).order_by().values("status")[:1]
    open_seats = (
        Invitation.objects.alias(game_status=Subquery(status))
        .filter(
            _MostlyNull(F("seat"), True),
            open_to_all=True,
            revoked_at__isnull=True,
            created_at__gt=cutoff,
        )
        .exclude(game_status__in=_PAST_WAITING)
        .exclude(game__seats__user=viewer)
        .order_by("-created_at", "-id")
        .values_list("game_id", "token")
    )
    tokens: dict[int, str] = {}
    for game_id, token in open_seats[: limit * MAX_OFFERED]:
        tokens.setdefault(game_id, token)
        if len(tokens) == limit:
            break
    games = (
        Game.objects.filter(pk__in=tokens)
        .values("pk", "kind", "owner__display_name")  # grouped by the game alone
        .annotate(
            seated=Count("seats", distinct=True),
            offered=Count(
                "invitations",
                filter=Q(invitations__seat__isnull=True, invitations__revoked_at__isnull=True),
                distinct=True,
            ),
        )
        .values_list("pk", "kind", "owner__display_name", "seated", "offered")
    )
    found = {
        pk: OpenSeat(tokens[pk], pk, rules.KINDS[kind].name, host, seated, offered)
        for pk, kind, host, seated, offered in games
    }
    return [found[pk] for pk in tokens if pk in found]


MAX_OFFERED = rules.MAX_SEATS - 1
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
