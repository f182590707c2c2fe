"""A tournament's end, as the door sees it: once ended (by its host, by its last game, or by
its clock), its games no longer count and no longer move (``verify_open``, checked at the door
of every action, ``games.play.actions``), so its dice may be shown from that moment on.

A set end (``ends_at``) closes the door by itself, at that instant, whether or not the task that
writes the end has run yet: a move is refused after it, on the same one read."""

from __future__ import annotations

from datetime import datetime

from django.utils import timezone

from games.errors import TournamentOver
from games.tournaments.models import Tournament


def end_of(tournament: Tournament, now: datetime | None = None) -> datetime | None:
    """When ``tournament`` ended, as of ``now``: its written end, else its set end once come."""
    if tournament.ended_at is not None:
        return tournament.ended_at
    if tournament.ends_at is not None and tournament.ends_at <= (now or timezone.now()):
        return tournament.ends_at
    return None


def ended_text(tournament: Tournament, now: datetime | None = None) -> str:
    ended = end_of(tournament, now)
    assert ended is not None
    when = timezone.localtime(ended)
    return (
        f"The tournament {tournament.name!r} ended at {when:%H:%M} on {when:%-d %B %Y}: this "
        "game no longer counts and can no longer be played. You may abandon it."
    )


def verify_open(tournament_id: int | None, now: datetime | None = None) -> None:
    """Refuse (``TournamentOver``) any move of a tournament's game once the tournament has
    ended, or its set end has come (at ``now``, the clock unless given); a game of no
    tournament (``None``) passes without a read."""
    if tournament_id is None:
        return
    tournament = Tournament.objects.only("name", "ended_at", "ends_at").get(pk=tournament_id)
    if end_of(tournament, now) is not None:
        raise TournamentOver(ended_text(tournament, now))
