"""The trainer's reads: the position an account is due to see next, the games it has not taken
its mistakes from yet, and where its training stands. Each walks the ``training_position_due``
index (an account's positions still in training, by due time) or ``seat_user_turn``."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from django.db.models import Count, Min, Q

from accounts.models import User
from games import rules
from games.models import GameStatus, Seat
from games.trainer.models import Source, TrainerHarvest, TrainingPosition

RECENT_GAMES = 10
"""How many of a player's latest finished games their own positions are drawn from."""


def _in_training(user: User) -> Q:
    return Q(user=user, learned_at__isnull=True)


def due_again(user: User, now: datetime) -> TrainingPosition | None:
    """The position answered before that has waited longest past its due time."""
    found = TrainingPosition.objects.filter(
        _in_training(user), answered_at__isnull=False, due_at__lte=now
    )
    return found.select_related("seat__game").order_by("due_at", "id").first()


def unanswered(user: User) -> TrainingPosition | None:
    """A position drawn but not answered yet: the player's own first, the costliest first, then
    the instructive ones in the order they were drawn."""
    found = TrainingPosition.objects.filter(_in_training(user), answered_at__isnull=True)
    return found.select_related("seat__game").order_by("source", "-cost", "id").first()


def set_keys(user: User) -> set[str]:
    """The keys of the instructive positions the account has been given already."""
    found = TrainingPosition.objects.filter(user=user, source=Source.SET)
    return set(found.values_list("key", flat=True))


def position_of(user: User, position_id: int) -> TrainingPosition | None:
    """``user``'s position ``position_id`` (``None`` for anyone else's, or none at all)."""
    found = TrainingPosition.objects.filter(user=user, pk=position_id)
    return found.select_related("seat__game").first()


def seats_to_harvest(user: User) -> list[Seat]:
    """The account's latest finished Classic games (``RECENT_GAMES`` of them, newest first)
    played alone, less those whose decisions were taken already. Games with others are left
    out: the trainer's positions are graded exactly, as in a game alone.

    Three small reads, whatever the number of games played: the latest games walk the
    ``seat_user_turn`` index from its newest end (a finished game is never on turn), then the
    seats of those games and their harvests are counted."""
    latest = list(
        Seat.objects.filter(
            user=user,
            game_over=True,
            game__status=GameStatus.FINISHED,
            game__kind=rules.CLASSIC.key,
        )
        .order_by("-on_turn", "-game_id")
        .select_related("game")[:RECENT_GAMES]
    )
    if not latest:
        return []
    games = [seat.game_id for seat in latest]
    players = dict(
        Seat.objects.filter(game_id__in=games)
        .order_by()
        .values("game_id")
        .annotate(n=Count("id"))
        .values_list("game_id", "n")
    )
    taken = set(
        TrainerHarvest.objects.filter(seat__in=[s.pk for s in latest]).values_list(
            "seat_id", flat=True
        )
    )
    return [s for s in latest if players.get(s.game_id) == 1 and s.pk not in taken]


@dataclass(frozen=True)
class Standing:
    """Where an account's training stands: positions waiting for a later day (and the first
    of those days), and positions learned."""

    waiting: int
    next_due: datetime | None
    learned: int


def standing(user: User, now: datetime) -> Standing:
    found = TrainingPosition.objects.filter(user=user).aggregate(
        waiting=Count("id", filter=Q(learned_at__isnull=True, due_at__gt=now)),
        next_due=Min("due_at", filter=Q(learned_at__isnull=True, due_at__gt=now)),
        learned=Count("id", filter=Q(learned_at__isnull=False)),
    )
    return Standing(found["waiting"], found["next_due"], found["learned"])
