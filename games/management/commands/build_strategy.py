"""`manage.py build_strategy`: compute the perfect-play table and store it in STRATEGY_DIR, unless
a valid one is there already. The work lives in ``games.strategy``."""

from __future__ import annotations

import time
from typing import Any

from django.conf import settings
from django.core.management.base import BaseCommand, CommandParser

from games.strategy import Convention, ensure_table


class Command(BaseCommand):
    help = "Compute the perfect-play strategy table (about a second) unless a valid one exists."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--force", action="store_true", help="compute even if a table exists")
        parser.add_argument(
            "--convention",
            choices=[c.value for c in Convention],
            default=Convention.FORCED.value,
            help="Joker rule: forced (RULES.md, the default) or free (Verhoeff's, for checking)",
        )
        parser.add_argument("--processes", type=int, default=2, help="processes that solve")
        parser.add_argument("--dir", default=None, help="where to store (STRATEGY_DIR)")

    def handle(self, *args: Any, **opts: Any) -> None:
        started = time.perf_counter()
        directory = opts["dir"] or settings.STRATEGY_DIR
        build = ensure_table(
            directory,
            Convention(opts["convention"]),
            force=opts["force"],
            processes=opts["processes"],
        )
        table = build.table
        if build.built:
            self.stdout.write(f"Built {table.path} ({table.convention.value} Joker).")
        else:
            self.stdout.write(f"{table.path} is up to date ({table.convention.value} Joker).")
        self.stdout.write(f"Expected score of a new game: {table.new_game:.4f}")
        if build.built:
            self.stdout.write(
                f"bench: solve {build.solve_seconds:.3f} s ({build.cpu_seconds:.3f} s CPU), "
                f"with write+load {build.seconds:.3f} s, "
                f"command {time.perf_counter() - started:.3f} s (Django start-up not included)"
            )
        else:
            self.stdout.write(f"bench: checked and mapped in {build.seconds * 1000:.1f} ms")
