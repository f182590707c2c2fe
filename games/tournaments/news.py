"""A tournament's news: its standings changed. Told once the change commits (never for one rolled
back), to every process following the tournament (``broadcast.publish``: through Redis when
``REDIS_URL`` is set), each of which reads the standings again for its streams
(``games.tournaments.stream``)."""

from __future__ import annotations

from django.db import transaction

from games.play import broadcast


def tell(tournament_id: int) -> None:
    """Publish the tournament's news once the current transaction commits (at once outside
    one)."""
    news = broadcast.standings_news(tournament_id)
    transaction.on_commit(lambda: broadcast.publish(news), robust=True)
