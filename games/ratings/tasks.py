"""The ratings' slow work, on the task worker: rating a game that is over."""

from __future__ import annotations

from django.tasks import task

from games.ratings import services
from yahtzee_site.tasking import retried


@task()
@retried
def rate_game(*, game_id: int, attempt: int = 1) -> bool:
    """Rate the game ``game_id`` (idempotent: once, whoever runs it, however often)."""
    return services.rate_game(game_id)
