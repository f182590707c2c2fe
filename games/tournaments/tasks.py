"""The tournaments' slow and timed work, on the task worker: the start and the end at their
set times (enqueued to run no sooner: ``tasking.later``'s ``run_after``), and perfect play on
the dice once a tournament is over. Each is idempotent and loses to what came first (the
host's start or end, an earlier run)."""

from __future__ import annotations

from django.tasks import task

from games.tournaments import perfect, services
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
