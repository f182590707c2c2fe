"""A tournament's end, as the door sees it: once ended, its games no longer count and no longer
move (``verify_open``, checked at the door of every action, ``games.play.actions``), so its
dice may be shown from that moment on."""

from __future__ import annotations

from django.utils import timezone

from games.errors import TournamentOver
from games.tournaments.models import Tournament


def ended_text(tournament: Tournament) -> str:
    assert tournament.ended_at is not None
    when = timezone.localtime(tournament.ended_at)
    return (
        f"The tournament {tournament.name!r} ended at {when:%H:%M} on {when:%-d %B %Y}: this "
        "game no longer counts and can no longer be played. You may abandon it."
    )


def verify_open(tournament_id: int | None) -> None:
    """Refuse (``TournamentOver``) any move of a tournament's game once the tournament has
    ended; a game of no tournament (``None``) passes without a read."""
    if tournament_id is None:
        return
    tournament = Tournament.objects.only("name", "ended_at").get(pk=tournament_id)
    if tournament.ended_at is not None:
        raise TournamentOver(ended_text(tournament))
