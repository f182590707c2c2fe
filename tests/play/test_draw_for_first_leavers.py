"""The draw for first when a player leaves it: a resignation or a skip before a throw settles
the draw among those still in it, exactly as the Match does, and the game's own log replays to
what is stored (issue 19, item 1). Throws meant to be simultaneous never refuse each other
(item 9)."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.urls import reverse
from django.utils import timezone

from games.models import Game, GameStatus, Move, MoveAction
from games.play import actions as play
from games.tables import services
from tests.factories import ScriptedDice, client_for, make_user, match_of, roll_now, score_now
from tests.store.test_replay import assert_replays


def table_of(host, *others, limit: int | None = None) -> Game:
    game = services.open_game(
        owner=host, invites=len(others), roll_for_first=True, turn_limit=limit
    )
    for invitation, user in zip(game.invitations.order_by("pk"), others, strict=True):
        services.join_game(token=invitation.token, user=user)
    services.begin_game(game_id=game.pk, user=host)
    game.refresh_from_db()
    return game


def throw(game: Game, user, *dice: int):
    return play.throw_for_first(game_id=game.pk, user=user, dice_source=ScriptedDice(*dice))


def resign(game: Game, user) -> None:
    game.refresh_from_db()
    play.resign(game_id=game.pk, user=user, version=game.version)


def idle_for(game: Game, seconds: int) -> None:
    Game.objects.filter(pk=game.pk).update(updated_at=timezone.now() - timedelta(seconds=seconds))
    game.refresh_from_db()


@pytest.fixture
def bob():
    return make_user("bob", display_name="Bob")


@pytest.fixture
def cy():
    return make_user("cy", display_name="Cy")


def test_the_other_player_resigning_before_throwing_hands_the_host_the_first_turn(
    player, bob
) -> None:
    game = table_of(player, bob)

    resign(game, bob)

    game.refresh_from_db()
    match = match_of(game)
    assert (match.contenders, match.first, game.current_seat) == ((), 0, 0)
    roll_now(game, player, 1, 2, 3, 4, 5)
    score_now(game, player, "large_straight")
    assert assert_replays(game).current == 0  # Bob resigned: Alice plays on alone


def test_a_resignation_after_two_have_thrown_settles_the_draw_between_them(player, bob, cy) -> None:
    game = table_of(player, bob, cy)
    throw(game, player, 1, 1, 1, 1, 1)
    throw(game, bob, 6, 6, 6, 6, 6)

    resign(game, cy)

    game.refresh_from_db()
    match = match_of(game)
    assert (match.contenders, match.first, game.current_seat) == ((), 1, 1)
    roll_now(game, bob, 2, 2, 2, 3, 3)
    assert_replays(game)


def test_the_host_resigning_during_the_draw_leaves_the_others_to_throw(player, bob, cy) -> None:
    game = table_of(player, bob, cy)

    resign(game, player)

    game.refresh_from_db()
    assert game.status == GameStatus.IN_PROGRESS and match_of(game).contenders == (1, 2)
    throw(game, bob, 2, 2, 2, 2, 2)
    throw(game, cy, 3, 3, 3, 3, 3)
    game.refresh_from_db()
    assert (match_of(game).contenders, game.current_seat) == ((), 2)
    assert_replays(game)


def test_an_idle_player_who_never_throws_can_be_skipped_out_of_the_draw(player, bob) -> None:
    game = table_of(player, bob, limit=60)
    throw(game, player, 4, 4, 4, 4, 4)
    idle_for(game, 61)

    play.skip_turn(game_id=game.pk, user=player, version=game.version)

    game.refresh_from_db()
    assert (match_of(game).contenders, game.current_seat) == ((), 0)
    skip = Move.objects.get(game=game, action=MoveAction.SKIP)
    assert (skip.seat.user, skip.box, skip.points) == (bob, "", None)
    roll_now(game, player, 1, 2, 3, 4, 5)
    assert_replays(game)


def test_throws_made_against_the_same_page_of_the_draw_are_both_taken(
    player, bob, cy, monkeypatch
) -> None:
    from games import rules

    game = table_of(player, bob, cy)
    seen = game.version
    monkeypatch.setattr(rules, "system_dice", ScriptedDice(*[1] * 5, *[2] * 5))
    url = reverse("games:first", kwargs={"game_id": game.pk})

    alices = client_for(player).post(url, {"version": seen}, headers={"HX-Request": "true"})
    bobs = client_for(bob).post(url, {"version": seen}, headers={"HX-Request": "true"})

    assert (alices.status_code, bobs.status_code) == (200, 200)
    match = match_of(game)
    assert match.first_rolls == ((1, 1, 1, 1, 1), (2, 2, 2, 2, 2), None)
    assert match.contenders == (0, 1, 2)
