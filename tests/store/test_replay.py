"""Every game replays exactly from its Move log through rules.Match (games.replay): played
through the services in every way a game can go, the match the log rebuilds is the stored one."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.utils import timezone

from games import rules, store
from games.models import Game, GameStatus, Move, MoveAction
from games.moves import ReplayMismatch
from games.play import actions as play
from games.store import replay
from games.tables import services
from tests.factories import ScriptedDice, make_user, roll_now, score_now


def assert_replays(game: Game) -> rules.Match:
    game.refresh_from_db()
    stored = store.load(game_id=game.pk, user=game.owner).match()
    replayed = replay(game)
    assert replayed.sheets == stored.sheets
    assert replayed.states == stored.states
    expected_phase = {
        GameStatus.FINISHED: rules.MatchPhase.FINISHED,
        GameStatus.ABANDONED: rules.MatchPhase.ABANDONED,
    }.get(GameStatus(game.status), rules.MatchPhase.PLAYING)
    assert replayed.phase is expected_phase
    if expected_phase is rules.MatchPhase.PLAYING:
        assert (replayed.current, replayed.turn) == (game.current_seat, stored.turn)
    return replayed


def test_a_solo_game_with_holds_and_an_undo_replays(player) -> None:
    game = services.start_game(owner=player)
    roll_now(game, player, 2, 2, 5, 6, 1)
    roll_now(game, player, 2, 3, 1, held=[True, True, False, False, False])
    score_now(game, player, "twos")
    game.refresh_from_db()
    play.undo_score(game_id=game.pk, user=player, version=game.version)
    score_now(game, player, "chance")
    roll_now(game, player, 6, 6, 6, 6, 6)

    replayed = assert_replays(game)

    assert replayed.sheets[0].cards == ({"chance": 2 + 2 + 2 + 3 + 1},)
    assert replayed.turn.dice == (6, 6, 6, 6, 6)


def test_a_whole_game_with_a_yahtzee_bonus_and_the_joker_replays(player) -> None:
    game = services.start_game(owner=player)
    for box in rules.CATEGORIES:
        roll_now(game, player, 4, 4, 4, 4, 4)
        score_now(game, player, box.value)

    assert assert_replays(game).phase is rules.MatchPhase.FINISHED


def test_roll_for_first_with_a_tie_resign_skip_and_end_replay(player) -> None:
    bob, cy = make_user("bob"), make_user("cy")
    game = services.open_game(owner=player, invites=2, roll_for_first=True, turn_limit=60)
    for user, invitation in zip((bob, cy), game.invitations.order_by("pk"), strict=True):
        services.join_game(token=invitation.token, user=user)
    services.begin_game(game_id=game.pk, user=player)

    def throw(user, *dice: int) -> None:
        game.refresh_from_db()
        play.throw_for_first(game_id=game.pk, user=user, dice_source=ScriptedDice(*dice))

    throw(player, 6, 6, 6, 6, 1)
    throw(bob, 6, 6, 6, 6, 1)  # a tie with Alice
    throw(cy, 1, 1, 1, 1, 1)
    throw(player, 2, 2, 2, 2, 2)
    throw(bob, 3, 3, 3, 3, 3)  # Bob starts
    roll_now(game, bob, 1, 2, 3, 4, 5)
    score_now(game, bob, "large_straight")
    game.refresh_from_db()
    play.resign(game_id=game.pk, user=player, version=game.version)  # Alice leaves
    Game.objects.filter(pk=game.pk).update(updated_at=timezone.now() - timedelta(minutes=5))
    game.refresh_from_db()
    play.skip_turn(game_id=game.pk, user=bob, version=game.version)  # Cy was idle
    roll_now(game, bob, 6, 6, 6, 6, 2)

    replayed = assert_replays(game)
    assert replayed.first == 1
    assert replayed.sheets[2].cards == ({"aces": 0},)

    # Alice resigned: she has left, and can no longer end the game for the others.
    with pytest.raises(rules.SeatResigned, match="You have resigned"):
        play.abandon_game(game_id=game.pk, user=player)
    assert Move.objects.filter(game=game, action=MoveAction.END).count() == 0


def test_the_host_ending_the_game_for_everyone_replays(player) -> None:
    game = services.start_game(owner=player, guests=["Ann"])
    roll_now(game, player, 1, 1, 2, 2, 3)
    score_now(game, player, "aces")
    game.refresh_from_db()
    play.undo_score(game_id=game.pk, user=player, version=game.version)  # Alice's again
    score_now(game, player, "twos")
    roll_now(game, player, 6, 5, 4, 3, 2)  # Ann's roll, at Alice's screen
    assert assert_replays(game).sheets[0].cards == ({"twos": 4},)

    play.abandon_game(game_id=game.pk, user=player)

    assert Move.objects.filter(game=game, action=MoveAction.END).count() == 1
    assert assert_replays(game).phase is rules.MatchPhase.ABANDONED


def test_a_log_that_does_not_match_the_rules_is_reported(player) -> None:
    game = services.start_game(owner=player)
    roll_now(game, player, 3, 3, 3, 2, 2)
    score_now(game, player, "full_house")
    Move.objects.filter(game=game, action=MoveAction.SCORE).update(points=30)

    with pytest.raises(ReplayMismatch, match=r"^Move 2 \(score\): The log says Scored"):
        replay(game)


def test_a_move_the_rules_refuse_is_reported(player) -> None:
    game = services.start_game(owner=player)
    roll_now(game, player, 3, 3, 3, 2, 2)
    score_now(game, player, "full_house")
    Move.objects.filter(game=game, action=MoveAction.SCORE).update(box="no_such_box")

    with pytest.raises(ReplayMismatch, match="Move 2"):
        replay(game)


def test_each_game_replays_from_its_own_log_and_seats(player) -> None:
    first = services.start_game(owner=player, guests=["Ann"])
    second = services.start_game(owner=player)
    roll_now(first, player, 6, 6, 6, 6, 6)
    roll_now(second, player, 1, 2, 3, 4, 5)
    score_now(first, player, "yahtzee")
    score_now(second, player, "large_straight")

    assert assert_replays(first).sheets[0].cards == ({"yahtzee": 50},)
    assert assert_replays(second).sheets[0].cards == ({"large_straight": 40},)


def test_a_triple_game_replays_into_its_columns(player) -> None:
    game = services.start_game(owner=player, kind=rules.TRIPLE.key)
    roll_now(game, player, 5, 5, 5, 2, 2)
    score_now(game, player, "full_house", column=2)

    assert assert_replays(game).sheets[0].cards == ({}, {}, {"full_house": 25})
