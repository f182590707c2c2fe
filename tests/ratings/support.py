"""Rated games for the ratings' tests: tables set through the site's own services, played to
the end through the door every move takes; or the rows the pages read, written directly."""

from __future__ import annotations

from collections.abc import Callable
from contextlib import AbstractContextManager
from datetime import date, datetime, timedelta
from typing import Any

from django.test import TestCase
from django.utils import timezone

from accounts.models import User
from games.models import Game, Grading, Invitation, Seat
from games.ratings.models import Rating, RatingChange, SeasonRating
from games.tables import services
from tests.factories import finished_game, play_out


def online_game(host: User, *others: User, kind: str = "classic", **options: object) -> Game:
    """A game of ``host`` and ``others`` online (one invitation each, taken), started."""
    game = services.open_game(owner=host, kind=kind, invites=len(others), **options)  # type: ignore[arg-type]
    for invitation, other in zip(
        Invitation.objects.filter(game=game).order_by("pk"), others, strict=True
    ):
        services.join_game(token=invitation.token, user=other)
    services.begin_game(game_id=game.pk, user=host)
    game.refresh_from_db()
    return game


def committed() -> AbstractContextManager[Any]:
    """What commits inside runs its on-commit work (the rating task) as it leaves: as in
    production, where each move commits, but inside the test's transaction."""
    return TestCase.captureOnCommitCallbacks(execute=True)


def played(
    game: Game, host: User, *, seed: int = 0, until: Callable[[Any], bool] | None = None
) -> Game:
    """``game`` played to its end, or ``until`` (every seat as the perfect bot would, on seeded
    dice), its rating done."""
    with committed():
        play_out(game, host, seed=seed, **({"until": until} if until else {}))
    game.refresh_from_db()
    return game


def long_ago() -> datetime:
    """When the accounts of the tables' tests were made: not today (today's enter no table)."""
    return timezone.now() - timedelta(days=40)


def seasoned(
    user: User,
    rating: int,
    *,
    kind: str = "classic",
    season: date | None = None,
    games: int = 10,
    joined: date | None = None,
    sigma: float = 4.0,
) -> SeasonRating:
    """``user``'s row in a season's table (this one unless ``season``), written directly; a
    settled rating unless ``sigma`` says otherwise."""
    return SeasonRating.objects.create(
        user=user,
        kind=kind,
        season=season or timezone.localdate().replace(day=1),
        rating=rating,
        sigma=sigma,
        games=games,
        joined=joined or timezone.localdate(user.date_joined),
    )


def rated_change(
    user: User,
    before: int,
    after: int,
    *,
    kind: str = "classic",
    sigma: float = 3.0,
    accuracy: float | None = None,
    when: datetime | None = None,
) -> RatingChange:
    """A rated game of ``user`` written directly (its game a finished one of theirs, its seat
    graded ``accuracy``), and its ``Rating`` brought to ``after``."""
    when = when or timezone.now()
    score = finished_game(user, 200, when=when, kind=kind)
    Seat.objects.filter(pk=score.seat_id).update(
        accuracy=accuracy, grading=Grading.PENDING if accuracy is None else Grading.ESTIMATE
    )
    rating, _ = Rating.objects.get_or_create(
        user=user,
        kind=kind,
        defaults={"mu": 25.0, "sigma": sigma, "rating": after, "updated_at": when},
    )
    rating.sigma, rating.rating, rating.games = sigma, after, rating.games + 1
    rating.save()
    return RatingChange.objects.create(
        user=user, game=score.game, seat=score.seat, kind=kind, place=1, players=2,
        weight=1.0, before=before, after=after, mu=25.0, sigma=sigma, created_at=when,
    )  # fmt: skip
