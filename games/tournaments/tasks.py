"""The tournaments' slow and timed work, on the task worker: the start and the end at their
set times (enqueued to run no sooner: ``tasking.later``'s ``run_after``), perfect play on the
dice once a tournament is over, and an entrant's accuracy so far after each score. Each is
idempotent and loses to what came first (the host's start or end, an earlier run, a newer
grade)."""

from __future__ import annotations

from django.tasks import task

from games.tournaments import grading, perfect, services
from yahtzee_site.tasking import retried


@task()
@retried
def start_on_time(*, tournament_id: int, attempt: int = 1) -> bool:
    """Start the tournament if its set start has come and nothing started or ended it."""
    return services.start_on_time(tournament_id=tournament_id)


@task()
@retried
def end_on_time(*, tournament_id: int, attempt: int = 1) -> bool:
    """End the tournament if its set end has come and nothing ended it."""
    return services.end_on_time(tournament_id=tournament_id)


@task()
@retried
def work_out_perfect(*, tournament_id: int, attempt: int = 1) -> bool:
    """Play perfect strategy on the ended tournament's dice and keep its total."""
    return perfect.work_out(tournament_id)


@task()
@retried
def grade_so_far(*, game_id: int, attempt: int = 1) -> bool:
    """Grade tournament game ``game_id``'s decisions so far onto its entry (idempotent: a grade
    is written only over one of fewer turns). Whether this run wrote one."""
    return grading.grade_so_far(game_id)
