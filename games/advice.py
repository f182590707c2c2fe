"""The perfect-play advisor as the site uses it: one table per process, memory-mapped, so every
worker shares the pages of one file (``manage.py build_strategy`` writes it during set-up)."""

from __future__ import annotations

from pathlib import Path

from django.conf import settings

from games.strategy import Advisor, ensure_table

_advisors: dict[Path, Advisor] = {}


def advisor() -> Advisor:
    """The advisor over the table in ``STRATEGY_DIR`` (computed there first if missing, in this
    process alone: a web worker never forks; ``make run`` builds it during set-up)."""
    directory = Path(settings.STRATEGY_DIR)
    found = _advisors.get(directory)
    if found is None:
        found = _advisors[directory] = Advisor(ensure_table(directory, processes=1).table)
    return found
