"""The trial in the services: starting a game uses one of five, playing on never does."""

from __future__ import annotations

import dataclasses

import pytest

from accounts import licensing
from accounts.models import TRIAL_GAMES, User
from games import rules, store
from games.models import Game, GameStatus
from games.play import actions as play
from games.tables import services
from tests.factories import ScriptedDice, roll_now


def play_turn(game: Game, user: User, box: str) -> None:
    """Roll 1-2-3-4-5 (legal in every box, no joker) and score it in ``box``."""
    game.refresh_from_db()
    play.roll_dice(
        game_id=game.pk, user=user, version=game.version, dice_source=ScriptedDice(1, 2, 3, 4, 5)
    )
    game.refresh_from_db()
    play.score_box(game_id=game.pk, user=user, version=game.version, box=box)


def trial_games_used(user: User) -> int:
    user.refresh_from_db()
    return user.trial_games_used


def test_a_new_account_is_on_trial_with_five_games(player: User) -> None:
    licence = licensing.licence_of(player)

    assert TRIAL_GAMES == 5
    assert not licence.registered
    assert licence.trial_games_left == 5
    assert licence.summary == "Trial: 5 of 5 games left"


def test_starting_a_game_uses_one_trial_game(player: User) -> None:
    services.start_game(owner=player)

    assert trial_games_used(player) == 1
    assert licensing.licence_of(player).summary == "Trial: 4 of 5 games left"


def test_playing_on_in_a_started_game_uses_no_trial_game(player: User, game: Game) -> None:
    play_turn(game, player, "chance")
    store.load(game_id=game.pk, user=player)  # resuming: the game page loads it

    assert trial_games_used(player) == 1


def test_finishing_a_game_uses_no_trial_game(player: User, game: Game) -> None:
    for box in rules.CATEGORIES:
        play_turn(game, player, box)

    game.refresh_from_db()
    assert game.status == GameStatus.FINISHED
    assert trial_games_used(player) == 1


def test_abandoning_a_game_after_its_first_roll_gives_no_trial_game_back(
    player: User, game: Game
) -> None:
    roll_now(game, player, 1, 2, 3, 4, 6)

    ended = play.abandon_game(game_id=game.pk, user=player)

    assert trial_games_used(player) == 1
    assert ended.trial_games_given_back == 0


def test_abandoning_a_game_before_its_first_roll_gives_the_trial_game_back(
    player: User, game: Game
) -> None:
    ended = play.abandon_game(game_id=game.pk, user=player)

    assert trial_games_used(player) == 0
    assert ended.trial_games_given_back == 1


def test_an_unrolled_game_of_a_registered_player_gives_nothing_back(player: User, register) -> None:
    register(player)
    game = services.start_game(owner=player)

    play.abandon_game(game_id=game.pk, user=player)

    assert trial_games_used(player) == 0
    assert not game.seats.get().used_trial_game


def test_a_game_gives_its_trial_game_back_once_only(player: User, game: Game) -> None:
    play.abandon_game(game_id=game.pk, user=player)
    with pytest.raises(rules.MatchOver, match=r"^The game was ended\.$"):
        play.abandon_game(game_id=game.pk, user=player)

    assert trial_games_used(player) == 0


def test_using_a_trial_game_counts_it_on_the_account_in_hand_too(player: User) -> None:
    """The view shows the licence of the user it holds, without reading it again."""
    licensing.use_trial_game(user=player)

    assert player.trial_games_used == 1
    assert licensing.licence_of(player).summary == "Trial: 4 of 5 games left"


def test_with_one_trial_game_left_one_more_game_starts_and_then_none(
    player: User, trial_left
) -> None:
    trial_left(player, 1)
    licence = licensing.licence_of(player)
    assert (licence.trial_games_left, licence.can_start_game) == (1, True)
    assert licence.summary == "Trial: 1 of 5 games left"

    assert licensing.use_trial_game(user=player) is True

    assert player.trial_games_used == trial_games_used(player) == TRIAL_GAMES
    licence = licensing.licence_of(player)
    assert (licence.trial_games_left, licence.can_start_game) == (0, False)
    assert licence.summary == "Trial: 0 of 5 games left"
    with pytest.raises(licensing.TrialOver):
        licensing.use_trial_game(user=player)


def test_a_given_back_trial_game_can_start_another(player: User, trial_left) -> None:
    trial_left(player, 1)
    unplayed = services.start_game(owner=player)
    play.abandon_game(game_id=unplayed.pk, user=player)

    services.start_game(owner=player)

    assert trial_games_used(player) == TRIAL_GAMES


def test_the_last_trial_game_can_be_played_to_the_end_after_the_trial_ran_out(
    player: User, trial_left
) -> None:
    trial_left(player, 1)
    last = services.start_game(owner=player)
    assert not licensing.licence_of(player).can_start_game

    for box in rules.CATEGORIES:
        play_turn(last, player, box)

    last.refresh_from_db()
    assert last.status == GameStatus.FINISHED
    assert trial_games_used(player) == TRIAL_GAMES


def test_with_no_trial_game_left_starting_one_is_refused_and_creates_nothing(
    player: User, trial_left
) -> None:
    trial_left(player, 0)

    with pytest.raises(licensing.TrialOver) as refused:
        services.start_game(owner=player)

    assert str(refused.value) == (
        "Your five trial games are used. Enter a serial number to keep playing."
    )
    assert not Game.objects.exists()
    assert trial_games_used(player) == TRIAL_GAMES


def test_a_registered_account_starts_games_without_counting(player: User, register) -> None:
    register(player)

    for _ in range(TRIAL_GAMES + 2):
        services.start_game(owner=player)

    assert Game.objects.filter(owner=player).count() == 7
    assert trial_games_used(player) == 0


def test_a_registered_account_plays_on_when_its_trial_was_used_up(
    player: User, trial_left, register
) -> None:
    trial_left(player, 0)
    register(player)

    services.start_game(owner=player)

    assert Game.objects.filter(owner=player).count() == 1


def test_giving_back_never_takes_the_count_below_zero(player: User) -> None:
    licensing.give_back_trial_game(user_id=player.pk)

    assert trial_games_used(player) == 0


def test_giving_back_gives_to_that_account_only(player: User, make_user, trial_left) -> None:
    bob = trial_left(make_user("bob"), 2)
    trial_left(player, 2)

    licensing.give_back_trial_game(user_id=player.pk)

    assert (trial_games_used(player), trial_games_used(bob)) == (TRIAL_GAMES - 3, TRIAL_GAMES - 2)


def test_a_licence_is_a_value_that_cannot_be_changed(player: User) -> None:
    licence = licensing.licence_of(player)

    with pytest.raises(dataclasses.FrozenInstanceError):
        licence.trial_games_used = 0  # type: ignore[misc]


def test_a_registered_account_uses_no_trial_game_and_its_games_hold_none(
    player: User, register
) -> None:
    register(player)

    assert licensing.use_trial_game(user=player) is False
    game = services.start_game(owner=player)
    assert not game.seats.get().used_trial_game
