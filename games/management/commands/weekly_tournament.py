"""`manage.py weekly_tournament`: make this week's and next week's site tournaments if missing
(``games.tournaments.weekly``), and settle their clock (a start or end a lost task missed).
Idempotent: safe from cron, beside the site, or twice at once."""

from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand

from games.tournaments import clock, services, weekly


class Command(BaseCommand):
    help = "Make this week's and next week's weekly tournaments, if missing."

    def handle(self, *args: Any, **options: Any) -> None:
        for tournament in weekly.ensure():
            tournament = services.settle(tournament)
            assert tournament.starts_at is not None
            self.stdout.write(
                f"{tournament.name} ({tournament.weekly}): starts "
                f"{clock.shown(tournament.starts_at)}, {tournament.entrants:,} joined."
            )
