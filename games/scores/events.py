"""The high scores listen to the move: a finished game's results enter them as it finishes,
in its transaction (a finished game and its high-score rows commit together)."""

from __future__ import annotations

from games import events
from games.scores import records


def enter_results(moved: events.Moved) -> None:
    if moved.finished:
        records.enter_scores(moved.game, moved.seats, moved.after)


def subscribe() -> None:
    events.listen(enter_results)
