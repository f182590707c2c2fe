"""The review listens to the move: a finished game is graded on the task worker, once it has
committed (grading takes 10 ms for a Classic game alone to 230 ms for Triple of four: never
in the move)."""

from __future__ import annotations

from games import events
from games.review import tasks
from yahtzee_site.tasking import later


def grade_when_finished(moved: events.Moved) -> None:
    if moved.finished:
        later(tasks.grade_game, game_id=moved.game.pk)


def subscribe() -> None:
    events.listen(grade_when_finished)
