"""`manage.py build_strategy`: compute the perfect-play tables (Classic's, then Yatzy's) and store
them in STRATEGY_DIR, unless valid ones are there already. The work lives in ``games.strategy``."""

from __future__ import annotations

import time
from typing import Any

from django.conf import settings
from django.core.management.base import BaseCommand, CommandParser

from games import rules
from games.strategy import Build, Convention, ensure_table


class Command(BaseCommand):
    help = "Compute the perfect-play strategy tables (seconds) unless valid ones exist."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--force", action="store_true", help="compute even if a table exists")
        parser.add_argument(
            "--convention",
            choices=[c.value for c in Convention],
            default=Convention.FORCED.value,
            help="Joker rule: forced (RULES.md, the default) or free (Verhoeff's, for checking)",
        )
        parser.add_argument(
            "--kind",
            choices=["all", rules.CLASSIC.key, rules.YATZY.key],
            default="all",
            help="which table: Classic's (Triple's hints read it too), Yatzy's, or both",
        )
        parser.add_argument("--processes", type=int, default=2, help="processes that solve")
        parser.add_argument("--dir", default=None, help="where to store (STRATEGY_DIR)")

    def handle(self, *args: Any, **opts: Any) -> None:
        directory = opts["dir"] or settings.STRATEGY_DIR
        convention = Convention(opts["convention"])
        # Yatzy has no Joker: a table for the free convention is Classic's alone.
        forced = convention is Convention.FORCED
        for kind in [rules.CLASSIC, rules.YATZY] if forced else [rules.CLASSIC]:
            if opts["kind"] in ("all", kind.key):
                started = time.perf_counter()
                build = ensure_table(
                    directory,
                    convention,
                    force=opts["force"],
                    processes=opts["processes"],
                    kind=kind,
                )
                self._report(kind, build, time.perf_counter() - started)

    def _report(self, kind: rules.GameKind, build: Build, seconds: float) -> None:
        table = build.table
        rule = "no Joker" if kind is rules.YATZY else f"{table.convention.value} Joker"
        if build.built:
            self.stdout.write(f"Built {table.path} ({kind.name}, {rule}).")
        else:
            self.stdout.write(f"{table.path} is up to date ({kind.name}, {rule}).")
        self.stdout.write(f"Expected score of a new game: {table.new_game:.4f}")
        if build.built:
            self.stdout.write(
                f"bench: solve {build.solve_seconds:.3f} s ({build.cpu_seconds:.3f} s CPU), "
                f"with write+load {build.seconds:.3f} s, "
                f"command {seconds:.3f} s (Django start-up not included)"
            )
        else:
            self.stdout.write(f"bench: checked and mapped in {build.seconds * 1000:.1f} ms")
