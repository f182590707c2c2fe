"""Fixtures shared by the service, view and browser tests."""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from datetime import timedelta

import pytest
from django.utils import timezone

from accounts.models import User
from games import rules, services
from games.models import Game, GameStatus, Score, Seat, SeatKind


class ScriptedDice:
    """A dice source that hands out the values it was given, in order."""

    def __init__(self, *values: int) -> None:
        self.values = list(values)
        self.asked: list[int] = []

    def __call__(self, n: int) -> tuple[int, ...]:
        self.asked.append(n)
        taken, self.values = self.values[:n], self.values[n:]
        assert len(taken) == n, "the script ran out of dice"
        return tuple(taken)


@pytest.fixture(autouse=True)
def _empty_cache() -> Iterator[None]:
    """Each test starts with an empty cache (the top ten keeps rendered tables in it)."""
    from django.core.cache import cache

    cache.clear()
    yield
    cache.clear()


@pytest.fixture
def make_user(db: None) -> Callable[..., User]:
    counter = iter(range(1, 10_000))

    def make(username: str | None = None, **fields: object) -> User:
        username = username or f"player{next(counter)}"
        fields.setdefault("display_name", username.title())
        fields.setdefault("email", f"{username}@example.com")
        return User.objects.create_user(username=username, password="correct horse 42", **fields)

    return make


@pytest.fixture
def player(make_user: Callable[..., User]) -> User:
    return make_user("alice", display_name="Alice")


@pytest.fixture
def game(player: User) -> Game:
    return services.start_game(owner=player)


@pytest.fixture
def roll(player: User) -> Callable[..., services.Table]:
    """Roll scripted dice in ``game`` as its player: ``roll(game, 1, 2, 3, 4, 5)``."""

    def do(game: Game, *dice: int, held: Sequence[bool] | None = None) -> services.Table:
        game.refresh_from_db()
        return services.roll_dice(
            game_id=game.pk,
            user=player,
            version=game.version,
            held=held,
            dice_source=ScriptedDice(*dice),
        )

    return do


@pytest.fixture
def fill_card() -> Iterator[Callable[[Game, dict[str, int]], None]]:
    """Put a score card straight into a game, for tests that start mid-game."""

    def fill(game: Game, card: dict[str, int], yahtzee_bonuses: int = 0) -> None:
        seat = game.seats.get()
        seat.cards = [dict(card)]
        seat.yahtzee_bonuses = yahtzee_bonuses
        seat.save()
        game.round = len(card) + 1
        game.save()

    yield fill


NOW = timezone.now()


@pytest.fixture
def finished(make_user: Callable[..., User]) -> Callable[..., Score]:
    """Record a finished game: ``finished(user, 250, days_ago=3)``."""

    def make(user, total, *, days_ago=0.0, kind="classic", yahtzees=0, computer=False):
        when = NOW - timedelta(days=days_ago)
        game = Game.objects.create(
            owner=user, kind=kind, status=GameStatus.FINISHED, finished_at=when
        )
        seat = Seat.objects.create(
            game=game,
            position=0,
            user=None if computer else user,
            kind=SeatKind.COMPUTER if computer else SeatKind.HUMAN,
            display_name="Robo" if computer else user.display_name,
            cards=[{"chance": 20}],
            grand_total=total,
        )
        return Score.objects.create(
            seat=seat,
            game=game,
            kind=kind,
            player_kind=seat.kind,
            user=seat.user,
            display_name=seat.display_name,
            grand_total=total,
            yahtzees=yahtzees,
            finished_at=when,
        )

    return make


__all__ = ["NOW", "ScriptedDice", "rules"]
