"""Rated games for the ratings' tests: tables set through the site's own services, played to
the end through the door every move takes."""

from __future__ import annotations

from collections.abc import Callable
from contextlib import AbstractContextManager
from typing import Any

from django.test import TestCase

from accounts.models import User
from games.models import Game, Invitation
from games.tables import services
from tests.factories import play_out


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
