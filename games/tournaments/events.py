"""The tournaments listen to the move: the move that ends a tournament's last game in play
(finished or abandoned) ends the tournament, in its transaction; a move that changes the
standings (a game begun, a box scored or undone, a game over) tells the tournament once it
commits (``news``), and a scored box has the entrant's accuracy so far graded on the worker
(``tasks``). The standings read the games' own rows (total, boxes filled) and the entries'
grades, so nothing else is copied here."""

from __future__ import annotations

from games import events, rules
from games.tournaments import news, services, tasks
from yahtzee_site.tasking import later


def end_when_all_over(moved: events.Moved) -> None:
    tournament_id = moved.game.tournament_id
    if tournament_id is None or not moved.after.is_over:
        return
    if moved.before is not None and moved.before.is_over:
        return
    services.end_if_all_over(tournament_id)


def tell_the_standings(moved: events.Moved) -> None:
    tournament_id = moved.game.tournament_id
    if tournament_id is None:
        return
    scored = any(isinstance(event, rules.Scored) for event in moved.events)
    undone = any(isinstance(event, rules.Undone) for event in moved.events)
    began = moved.before is None
    ended = moved.after.is_over and (moved.before is None or not moved.before.is_over)
    if scored or undone or began or ended:
        news.tell(tournament_id)
    if scored:
        later(tasks.grade_so_far, game_id=moved.game.pk)


def subscribe() -> None:
    events.listen(end_when_all_over)
    events.listen(tell_the_standings)
