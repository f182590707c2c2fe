"""Perfect play on a tournament's dice: once it is over (never sooner: its dice are sealed till
then), the perfect bot plays one game on the faces every entrant threw, and its total is kept
(``Tournament.perfect_total``) for the final standings' unranked line.

The game is the daily challenge's perfect game (``games.daily.perfect.play_stream``) on the
tournament's stream (``games.tournaments.dice``): each roll throws the positions a player's
same roll throws, so the bot sees exactly the faces a player would. Exact for Classic; for
Triple it is the advisor's stated heuristic (each column valued as a Classic game of its own),
the best the site's computer players know, not a proven optimum."""

from __future__ import annotations

from datetime import datetime, timedelta

from django.core.cache import cache
from django.db import transaction
from django.utils import timezone

from games import advice, rules, strategy
from games.daily import dice as shared
from games.daily.perfect import play_stream
from games.tournaments import dice, news
from games.tournaments.models import Tournament
from yahtzee_site.tasking import later

LOST_AFTER = timedelta(minutes=2)
"""How long after its end a tournament may lack perfect play's total before its page asks the
worker again (the task takes well under a second; one lost to a worker down, or to an enqueue
that failed, would leave "working it out…" for good)."""


def total_on(
    key: bytes, tournament_id: int, kind: rules.GameKind, advisor: strategy.Advisor
) -> int:
    """The perfect bot's total on tournament ``tournament_id``'s dice under ``key``."""
    return play_stream(key, dice.stream(tournament_id), kind, advisor).total


def work_out(tournament_id: int) -> bool:
    """Write the tournament's ``perfect_total`` if it is over and not written yet (idempotent:
    a conditional UPDATE, whoever runs it, however often). Whether this run wrote it."""
    found = (
        Tournament.objects.only("kind", "ended_at", "perfect_total")
        .filter(pk=tournament_id)
        .first()
    )
    if found is None or found.ended_at is None or found.perfect_total is not None:
        return False
    kind = found.rules_kind
    total = total_on(shared.site_key(), tournament_id, kind, advice.advisor(kind))
    with transaction.atomic():
        written = Tournament.objects.filter(
            pk=tournament_id, ended_at__isnull=False, perfect_total__isnull=True
        ).update(perfect_total=total)
        if written:
            news.tell(tournament_id)  # the final standings gain its line
    return bool(written)


def ask_again_if_lost(tournament: Tournament, now: datetime | None = None) -> bool:
    """Enqueue the perfect bot again for ``tournament`` when it has been over for
    ``LOST_AFTER`` without its total; at most once a ``LOST_AFTER`` per tournament (a cache
    key), so a page asked for often enqueues once. Whether it asked."""
    from games.tournaments import tasks  # the tasks call this module

    if tournament.ended_at is None or tournament.perfect_total is not None:
        return False
    if (now or timezone.now()) - tournament.ended_at < LOST_AFTER:
        return False
    if not cache.add(f"tournament-perfect-asked:{tournament.pk}", 1, LOST_AFTER.total_seconds()):
        return False
    later(tasks.work_out_perfect, tournament_id=tournament.pk)
    return True
