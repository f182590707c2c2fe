"""The perfect-play advisors as the site uses them: one table per solved kind and process,
memory-mapped, so every worker shares the pages of one file (``manage.py build_strategy`` writes
them during set-up)."""

from __future__ import annotations

from pathlib import Path

from django.conf import settings

from games import rules
from games.strategy import Advisor, ensure_table

_advisors: dict[tuple[Path, str], Advisor] = {}


def advisor(kind: rules.GameKind = rules.CLASSIC) -> Advisor:
    """The advisor for a game of ``kind``, over its table in ``STRATEGY_DIR``: Yatzy's own,
    Classic's for Classic and Triple (computed there first if missing, in this process alone: a
    web worker never forks; ``make run`` builds them during set-up)."""
    solved = rules.YATZY if kind is rules.YATZY else rules.CLASSIC
    directory = Path(settings.STRATEGY_DIR)
    found = _advisors.get((directory, solved.key))
    if found is None:
        table = ensure_table(directory, processes=1, kind=solved).table
        found = _advisors[directory, solved.key] = Advisor(table)
    return found
