"""`manage.py simulate --bot NAME --games N [--seed S] [--kind classic|triple] [--accuracy]`:
play solitaire games with a computer player through ``games.rules`` and print how it scored;
with ``--accuracy``, how accurately it played too (each game graded as the site grades one)."""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.core.management.base import BaseCommand, CommandError, CommandParser

from games.rules import CLASSIC, KINDS, YATZY
from games.strategy import BOT_NAMES, Advisor, Convention, ensure_table, make_bot, simulate


class Command(BaseCommand):
    help = "Play N solitaire games with a bot and print the mean, its 95% interval and more."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--bot", choices=BOT_NAMES, required=True)
        parser.add_argument("--games", type=int, default=1000)
        parser.add_argument("--seed", type=int, default=0)
        parser.add_argument("--kind", choices=sorted(KINDS), default="classic")
        parser.add_argument("--processes", type=int, default=2, help="1 or 2 (same games)")
        parser.add_argument(
            "--accuracy", action="store_true", help="grade each game: its accuracy's spread"
        )

    def handle(self, *args: Any, **opts: Any) -> None:
        if opts["games"] < 1:
            raise CommandError("--games must be at least 1")
        kind = KINDS[opts["kind"]]
        solved = YATZY if kind is YATZY else CLASSIC  # Classic's table advises Triple too
        advisor = Advisor(ensure_table(settings.STRATEGY_DIR, Convention.FORCED, kind=solved).table)
        report = simulate(
            lambda rng: make_bot(opts["bot"], advisor, rng),
            games=opts["games"],
            seed=opts["seed"],
            kind=kind,
            processes=opts["processes"],
            grader=Advisor(advisor.table) if opts["accuracy"] else None,
        )
        lines = [
            f"{report.bot} bot, {report.games} {kind.name} games, seed {opts['seed']}",
            f"mean {report.mean:.2f}  sd {report.sd:.2f}  "
            f"95% CI of the mean [{report.low:.2f}, {report.high:.2f}]",
            f"upper bonus {report.upper_bonus_rate:.1%} of columns  "
            f"Yahtzees per game {report.yahtzees_per_game:.3f}",
            f"bench: {report.games_per_second:.1f} games/s ({report.seconds:.1f} s)",
        ]
        if (spread := report.accuracy) is not None:
            lines.insert(
                -1,
                f"accuracy mean {spread.mean:.2f}  sd {spread.sd:.2f}  "
                f"lowest {spread.least:.1f}  highest {spread.most:.1f}",
            )
        for line in lines:
            self.stdout.write(line)
