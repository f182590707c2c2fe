"""`manage.py rate_computers [--kind classic|triple|yatzy] [--games N] [--seed S]`: rate the
computer players by games against each other (``games.ratings.anchors.simulate``) and print their
ratings, beside the fixed ones the site uses (``anchors.COMPUTERS``)."""

from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from games import advice
from games.ratings import anchors
from games.rules import KINDS


class Command(BaseCommand):
    help = "Rate the computer players against each other; print their ratings beside the site's."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--kind", choices=sorted(KINDS), default="classic")
        parser.add_argument("--games", type=int, default=anchors.ANCHOR_GAMES)
        parser.add_argument("--seed", type=int, default=anchors.ANCHOR_SEED)

    def handle(self, *args: Any, **opts: Any) -> None:
        if opts["games"] < 1:
            raise CommandError("--games must be at least 1")
        kind = KINDS[opts["kind"]]
        rated = anchors.simulate(
            opts["games"], seed=opts["seed"], advisor=advice.advisor(kind), kind=kind
        )
        self.stdout.write(f"{opts['games']} {kind.name} games of the three, seed {opts['seed']}:")
        for bot, belief in rated.items():
            site = anchors.COMPUTERS.get(kind.key, {}).get(bot)
            same = "the site's" if site == belief.mu else f"the site's is mu {site!r}"
            figures = f"mu {belief.mu!r}, sigma {belief.sigma:.3f}; {same}"
            self.stdout.write(f"  {bot:<8} {belief.shown:>5}  ({figures})")
