"""Leaving a game in play: a player resigns (passed over, no score entered); an idle player on
another device is skipped after the host's time limit, with a zero where the rules say."""

from __future__ import annotations

import re
from datetime import timedelta

import pytest
from django.urls import reverse
from django.utils import timezone

from games import rules, store
from games.models import Game, GameStatus, Move, MoveAction, Score
from games.play import actions as play
from games.tables import services
from tests.factories import client_for, make_user, match_of, page_text, roll_now, score_now


@pytest.fixture
def bob():
    return make_user("bob")


def online(player, bob, *, limit: int | None = None, guests=()) -> Game:
    game = services.open_game(owner=player, invites=1, turn_limit=limit, guests=guests)
    services.join_game(token=game.invitations.get().token, user=bob)
    services.begin_game(game_id=game.pk, user=player)
    game.refresh_from_db()
    return game


def idle_for(game: Game, seconds: int) -> None:
    Game.objects.filter(pk=game.pk).update(updated_at=timezone.now() - timedelta(seconds=seconds))
    game.refresh_from_db()


def test_a_resigned_player_is_passed_over_and_never_scored(player, bob) -> None:
    game = online(player, bob, guests=["Ann"])
    play.resign(game_id=game.pk, user=bob, version=game.version)
    for box in rules.CATEGORIES:
        for _ in range(2):  # Alice, then Ann: Bob's turn never comes
            roll_now(game, player, 5, 5, 5, 5, 1)
            score_now(game, player, box.value)

    game.refresh_from_db()
    assert game.status == GameStatus.FINISHED
    assert set(Score.objects.values_list("display_name", flat=True)) == {"Alice", "Ann"}
    assert Move.objects.filter(action=MoveAction.RESIGN, seat__user=bob).count() == 1


def test_resigning_on_turn_passes_the_dice_on(player, bob) -> None:
    game = online(player, bob)
    roll_now(game, player, 1, 2, 3, 4, 5)
    score_now(game, player, "large_straight")
    roll_now(game, bob, 6, 6, 6, 1, 1)
    game.refresh_from_db()

    play.resign(game_id=game.pk, user=bob, version=game.version)

    game.refresh_from_db()
    assert (game.current_seat, game.round, match_of(game).turn.dice) == (0, 2, None)


def test_the_last_player_to_resign_ends_the_game_with_no_score(player, bob) -> None:
    game = online(player, bob)
    play.resign(game_id=game.pk, user=bob, version=game.version)
    game.refresh_from_db()

    play.resign(game_id=game.pk, user=player, version=game.version)

    game.refresh_from_db()
    assert game.status == GameStatus.ABANDONED and not Score.objects.exists()
    assert Move.objects.filter(action=MoveAction.RESIGN).count() == 2


def test_an_idle_player_is_skipped_with_a_zero_in_the_lowest_box(player, bob) -> None:
    game = online(player, bob, limit=60)
    roll_now(game, player, 2, 2, 2, 2, 3)
    score_now(game, player, "twos")
    game.refresh_from_db()
    idle_for(game, 61)

    play.skip_turn(game_id=game.pk, user=player, version=game.version)

    seated = store.load(game_id=game.pk, user=player)
    assert seated.match().sheets[1].cards == ({"aces": 0},)
    assert (seated.game.current_seat, seated.game.round) == (0, 2)
    skip = Move.objects.get(action=MoveAction.SKIP)
    assert (skip.seat.user_id, skip.box, skip.points) == (bob.pk, "aces", 0)


@pytest.mark.parametrize(
    ("limit", "idle", "skipper", "message"),
    [
        (None, 10**6, "alice", r"This game has no time limit: nobody can be skipped\."),
        (3600, 3590, "alice", r"The player on turn has 10 more seconds to play\."),
        (3600, 3599.5, "alice", r"The player on turn has 1 more second to play\."),
        (60, 61, "bob", r"You cannot skip your own turn\."),
    ],
)
def test_skips_refused_say_why_and_change_nothing(
    player, bob, limit, idle, skipper, message, monkeypatch
) -> None:
    game = online(player, bob, limit=limit)
    roll_now(game, player, 1, 1, 1, 1, 1)
    score_now(game, player, "yahtzee")
    now = timezone.now()
    monkeypatch.setattr(timezone, "now", lambda: now)  # the clock stands still: exact seconds
    idle_for(game, idle)
    user = {"alice": player, "bob": bob}[skipper]

    with pytest.raises(rules.IllegalMove) as refused:
        play.skip_turn(game_id=game.pk, user=user, version=game.version)

    assert re.fullmatch(message, str(refused.value))
    assert not Move.objects.filter(action=MoveAction.SKIP).exists()


def test_the_waiting_player_sees_the_skip_button_and_the_rule(player, bob) -> None:
    game = online(player, bob, limit=3600)

    text = page_text(client_for(bob).get(reverse("games:play", kwargs={"game_id": game.pk})))

    assert "Skip Alice's turn possible after 1 hour without a move" in text


def test_the_resign_page_and_button(player, bob) -> None:
    game = online(player, bob)
    bobs = client_for(bob)
    page = page_text(bobs.get(reverse("games:abandon_page", kwargs={"game_id": game.pk})))
    assert "Resign from this game?" in page

    response = bobs.post(
        reverse("games:resign", kwargs={"game_id": game.pk}), {"version": game.version}, follow=True
    )

    assert "You resigned: the others play on. Your score is not entered." in page_text(response)
    assert store.load(game_id=game.pk, user=bob).seats[1].resigned


def test_the_last_player_is_told_that_resigning_ends_the_game(player, bob) -> None:
    game = online(player, bob)
    play.resign(game_id=game.pk, user=player, version=game.version)  # the host leaves first
    page = reverse("games:abandon_page", kwargs={"game_id": game.pk})

    text = page_text(client_for(bob).get(page))

    assert "You are the last player still in the game: resigning ends it" in text
    assert "The others play on without you" not in text
