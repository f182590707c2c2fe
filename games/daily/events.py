"""The daily challenge listens to the move: a finished attempt's total enters the day's
results in its transaction (its accuracy follows as the card is graded: ``games.review``)."""

from __future__ import annotations

from games import events
from games.daily import results


def enter_result(moved: events.Moved) -> None:
    if moved.finished and moved.game.challenge_day is not None:
        results.enter_result(moved.game, moved.seats[0])  # a challenge is played alone


def subscribe() -> None:
    events.listen(enter_result)
