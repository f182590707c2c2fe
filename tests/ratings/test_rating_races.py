"""Two rated games with an account in common, finishing at the same instant on their own
connections: both rate it, one after the other (SQLite and PostgreSQL alike)."""

from __future__ import annotations

import pytest

from games.models import GameStatus
from games.ratings import services
from games.ratings.models import Rating, RatingChange, SeasonRating
from tests.factories import make_user, play_out
from tests.licensing.licensing_support import run_together
from tests.ratings.support import online_game

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.usefixtures("strategy_ready")]


def last_turn(match) -> bool:
    return match.round == 13 and match.on_turn == 1


@pytest.mark.parametrize("attempt", range(2))
def test_two_games_finishing_at_once_both_rate_the_account_they_share(attempt: int) -> None:
    alice, bob, carol = make_user("alice"), make_user("bob"), make_user("carol")
    games = [online_game(alice, bob), online_game(alice, carol)]
    for seed, game in enumerate(games):
        play_out(game, alice, seed=seed, until=last_turn)

    results = run_together(2, lambda i: play_out(games[i], alice, seed=i).game.status)

    assert results == [GameStatus.FINISHED, GameStatus.FINISHED], results
    assert Rating.objects.get(user=alice).games == 2
    first, second = RatingChange.objects.filter(user=alice).order_by("pk")
    assert second.before == first.after  # the second update started from the first's result
    assert {first.game_id, second.game_id} == {g.pk for g in games}
    assert Rating.objects.get(user=alice).rating == second.after
    assert Rating.objects.get(user=bob).games == Rating.objects.get(user=carol).games == 1


@pytest.mark.parametrize("attempt", range(3))
def test_two_ratings_of_one_account_at_the_same_instant_both_count(attempt: int) -> None:
    # The rating itself raced: two finished games rated on two workers at once.
    alice, bob, carol = make_user("alice"), make_user("bob"), make_user("carol")
    games = [online_game(alice, bob), online_game(alice, carol)]
    for seed, game in enumerate(games):
        play_out(game, alice, seed=seed)
    # As if the workers had not run yet, each account rated before (its row there already).
    RatingChange.objects.all().delete()
    SeasonRating.objects.all().delete()
    Rating.objects.update(mu=25.0, sigma=25 / 3, rating=1500, games=0)

    results = run_together(2, lambda i: services.rate_game(games[i].pk))

    assert results == [True, True], results
    first, second = RatingChange.objects.filter(user=alice).order_by("pk")
    assert second.before == first.after
    assert Rating.objects.get(user=alice).games == 2
    assert SeasonRating.objects.get(user=alice).games == 2
