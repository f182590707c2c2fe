"""The tournaments' slow work, on the task worker: an entrant's accuracy so far."""

from __future__ import annotations

from django.tasks import task

from games.tournaments import grading
from yahtzee_site.tasking import retried


@task()
@retried
def grade_so_far(*, game_id: int, attempt: int = 1) -> bool:
    """Grade tournament game ``game_id``'s decisions so far onto its entry (idempotent: a grade
    is written only over one of fewer turns). Whether this run wrote one."""
    return grading.grade_so_far(game_id)
