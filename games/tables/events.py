"""The tables listen to the move: a game its host ends before anyone has moved gives back the
trial games its seats used (nothing was played), in the move's transaction; the game row is
locked by the move, so at most once."""

from __future__ import annotations

from accounts import licensing
from games import events, rules, seating
from games.models import Move, MoveAction


def give_back_unplayed(moved: events.Moved) -> None:
    if not any(isinstance(event, rules.Ended) for event in moved.events):
        return
    if Move.objects.filter(game=moved.game).exclude(action=MoveAction.END).exists():
        return  # a throw, a roll or more was played: the trial games were used
    returned = [seat for seat in moved.seats if seat.used_trial_game and seat.user_id]
    for seat in returned:
        assert seat.user_id is not None
        licensing.give_back_trial_game(user_id=seat.user_id)
    seating.trial_games_returned(returned)


def subscribe() -> None:
    events.listen(give_back_unplayed)
