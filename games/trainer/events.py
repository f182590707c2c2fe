"""The trainer listens to the move: a Classic game played alone that finishes has its costly
decisions taken into its player's training on the worker, so the trainer's page finds them
ready (it still takes any left behind itself: ``services.draw``)."""

from __future__ import annotations

from games import events, rules
from games.trainer import tasks
from yahtzee_site.tasking import later


def harvest_when_finished(moved: events.Moved) -> None:
    game = moved.game
    if not moved.finished or game.kind != rules.CLASSIC.key or len(moved.seats) != 1:
        return
    if game.challenge_day is not None:
        return  # a day's challenge joins the training once graded, like any game, from draw
    user_id = moved.seats[0].user_id
    if user_id is not None:
        later(tasks.harvest, user_id=user_id)


def subscribe() -> None:
    events.listen(harvest_when_finished)
