"""The review's slow work, on the task worker: grading a finished game's cards."""

from __future__ import annotations

from django.tasks import task

from games.review import grading
from yahtzee_site.tasking import retried


@task()
@retried
def grade_game(*, game_id: int, attempt: int = 1) -> bool:
    """Grade the finished game ``game_id``'s cards if they are still to grade (idempotent:
    graded once, whoever runs it, however often). Whether this run graded them."""
    return grading.grade_finished(game_id)
