"""Giving back the trial game of an unplayed game, raced: it comes back once, never twice, and
the count of trial games used always matches the games that used one.

As in ``test_licence_races``: real concurrent connections released at one barrier.
"""

from __future__ import annotations

from collections.abc import Callable

import pytest

from accounts import licensing
from accounts.models import TRIAL_GAMES, User
from games import rules
from games.models import Seat
from games.play import actions as play
from games.tables import services
from tests.licensing.licensing_support import run_together

pytestmark = pytest.mark.django_db(transaction=True)


def used(user: User) -> int:
    user.refresh_from_db()
    return user.trial_games_used


def games_holding_a_trial_game(user: User) -> int:
    return Seat.objects.filter(user=user, used_trial_game=True).count()


def test_ten_abandons_of_one_unplayed_game_give_back_one_trial_game(
    make_user: Callable[..., User],
) -> None:
    player = make_user("alice")
    game = services.start_game(owner=player)

    results = run_together(10, lambda i: play.abandon_game(game_id=game.pk, user=player))

    given_back = [r.trial_games_given_back for r in results if isinstance(r, play.Abandoned)]
    assert given_back == [1]
    assert sum(isinstance(r, rules.MatchOver) for r in results) == 9, results
    assert used(player) == 0


def test_abandons_racing_new_games_at_the_trial_limit_keep_the_count_true(
    make_user: Callable[..., User],
) -> None:
    player = make_user("bob")
    player.trial_games_used = TRIAL_GAMES - 1
    player.save()
    unplayed = services.start_game(owner=player)  # the fifth: the trial is now used up

    def act(i: int) -> object:
        if i < 4:
            return play.abandon_game(game_id=unplayed.pk, user=player)
        return services.start_game(owner=player)

    results = run_together(12, act)

    started = sum(not isinstance(r, Exception) and not isinstance(r, play.Abandoned)
                  for r in results)  # fmt: skip
    refused = sum(isinstance(r, licensing.TrialOver) for r in results)
    assert started + refused == 8, results
    assert started <= 1  # the one game given back, at most
    earlier = TRIAL_GAMES - 1  # games played before this test, counted but not seated here
    assert used(player) == earlier + games_holding_a_trial_game(player) <= TRIAL_GAMES
