"""The tournaments listen to the move: the move that ends a tournament's last game in play
(finished or abandoned) ends the tournament, in its transaction. The standings read the games'
own rows (total, boxes filled, accuracy as graded), so nothing else is copied here."""

from __future__ import annotations

from games import events
from games.tournaments import services


def end_when_all_over(moved: events.Moved) -> None:
    tournament_id = moved.game.tournament_id
    if tournament_id is None or not moved.after.is_over:
        return
    if moved.before is not None and moved.before.is_over:
        return
    services.end_if_all_over(tournament_id)


def subscribe() -> None:
    events.listen(end_when_all_over)
