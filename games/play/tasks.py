"""The game's slow work, on the task worker: the turn mail."""

from __future__ import annotations

from django.tasks import task

from games.play import turn_mail
from yahtzee_site.tasking import retried


@task()
@retried
def mail_turn(*, seat_id: int, turn: int, news: str, attempt: int = 1) -> None:
    """Mail the player of ``seat_id`` that ``turn`` has come (``turn_mail.turn_passed``: at most
    once a turn, however often this runs)."""
    turn_mail.turn_passed(seat_id=seat_id, turn=turn, news=news)
