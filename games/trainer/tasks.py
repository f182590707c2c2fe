"""The trainer's slow work, on the task worker: taking a finished game's costly decisions
into its player's training."""

from __future__ import annotations

from django.tasks import task
from django.utils import timezone

from accounts.models import User
from games.trainer import services
from yahtzee_site.tasking import retried


@task()
@retried
def harvest(*, user_id: int, attempt: int = 1) -> int:
    """Take the costly decisions of ``user_id``'s recent games alone into their training (each
    game once: ``services.harvest`` keeps what it took); how many positions that made."""
    user = User.objects.filter(pk=user_id).first()
    if user is None:
        return 0
    return services.harvest(user=user, now=timezone.now())
