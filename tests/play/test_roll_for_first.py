"""Roll for first (RULES.md): everyone throws five dice once; the highest total starts, ties
throw again among the tied; then play passes on in seating order, rounds counted from the
first player."""

from __future__ import annotations

import pytest
from django.urls import reverse

from games import rules
from games.models import Game, Move, MoveAction
from games.play import actions as play
from games.tables import services
from tests.factories import (
    ScriptedDice,
    client_for,
    make_user,
    match_of,
    page_text,
    roll_now,
    score_now,
)


@pytest.fixture
def bob():
    return make_user("bob")


def two_player_game(player, bob) -> Game:
    game = services.open_game(owner=player, invites=1, roll_for_first=True)
    services.join_game(token=game.invitations.get().token, user=bob)
    services.begin_game(game_id=game.pk, user=player)
    game.refresh_from_db()
    return game


def throw(game: Game, user, *dice: int):
    game.refresh_from_db()
    return play.throw_for_first(game_id=game.pk, user=user, dice_source=ScriptedDice(*dice))


def thrown(game: Game) -> list[int]:
    """The seats whose throw for first the draw holds now."""
    return [seat for seat, dice in enumerate(match_of(game).first_rolls) if dice is not None]


def test_the_highest_total_starts_and_play_passes_on_from_there(player, bob) -> None:
    game = two_player_game(player, bob)
    assert match_of(game).contenders == (0, 1)

    throw(game, player, 1, 2, 3, 4, 5)
    throw(game, bob, 6, 6, 6, 1, 1)

    game.refresh_from_db()
    match = match_of(game)
    assert (match.contenders, match.first, game.current_seat) == ((), 1, 1)
    roll_now(game, bob, 2, 2, 2, 3, 3)
    score_now(game, bob, "full_house")
    game.refresh_from_db()
    assert (game.current_seat, game.round) == (0, 1)  # Alice ends round 1
    roll_now(game, player, 2, 2, 2, 3, 3)
    score_now(game, player, "full_house")
    game.refresh_from_db()
    assert (game.current_seat, game.round) == (1, 2)
    assert Move.objects.filter(action=MoveAction.FIRST).count() == 2


def test_a_tie_throws_again_among_the_tied(player, bob) -> None:
    game = two_player_game(player, bob)

    throw(game, player, 6, 6, 6, 6, 6)
    throw(game, bob, 6, 6, 6, 6, 6)
    match = match_of(game)
    assert match.contenders == (0, 1) and match.first_rolls == (None, None)

    throw(game, bob, 1, 1, 1, 1, 2)
    throw(game, player, 1, 1, 1, 1, 1)
    match = match_of(game)
    assert (match.contenders, match.first) == ((), 1)


def test_nobody_plays_before_the_draw_and_nobody_throws_twice(player, bob) -> None:
    game = two_player_game(player, bob)

    with pytest.raises(rules.OutOfTurn, match=r"^Everyone rolls for first before play begins\.$"):
        roll_now(game, player, 1, 2, 3, 4, 5)
    throw(game, player, 3, 3, 3, 3, 3)
    with pytest.raises(
        rules.OutOfTurn, match=r"^You have rolled for first: the others roll now\.$"
    ):
        throw(game, player, 6, 6, 6, 6, 6)


def test_computers_throw_at_once_and_the_host_for_the_guests(player) -> None:
    game = services.start_game(
        owner=player, guests=["Ann"], computers=["beginner"], roll_for_first=True
    )
    assert thrown(game) == [2]  # the computer has thrown

    throw(game, player, 1, 1, 1, 1, 1, 1, 1, 1, 1, 2)  # Alice's five, then Ann's five

    assert thrown(game) in ([0, 1, 2], [])  # settled, or a tie re-thrown


def test_the_page_shows_the_draw_and_the_roll_button(player, bob) -> None:
    game = two_player_game(player, bob)
    throw(game, player, 2, 2, 2, 2, 2)
    url = reverse("games:play", kwargs={"game_id": game.pk})

    alices = page_text(client_for(player).get(url))
    bobs = page_text(client_for(bob).get(url))

    assert "Alice 2, 2, 2, 2, 2 = 10" in alices and "Waiting for the others to roll." in alices
    assert "Bob to roll…" in bobs and "Roll for first" in bobs
