"""The ratings listen to the move: a rated game over (finished, or ended by its host) is rated
on the task worker once it has committed (``services.rate_game``): the move that ends a game
only enqueues it."""

from __future__ import annotations

from games import events, rules
from games.ratings import services, tasks
from yahtzee_site.tasking import later


def over(moved: events.Moved) -> bool:
    """The move ended the match: finished, or abandoned."""
    was = None if moved.before is None else moved.before.phase
    return moved.after.is_over and was not in (
        rules.MatchPhase.FINISHED,
        rules.MatchPhase.ABANDONED,
    )


def rate_when_over(moved: events.Moved) -> None:
    if over(moved) and services.counts(moved.game, moved.seats):
        later(tasks.rate_game, game_id=moved.game.pk)


def subscribe() -> None:
    events.listen(rate_when_over)
