"""Undo: the player who has just filled a box may take it back until anyone rolls; the card,
the dice and the rolls left come back exactly, and the log says so."""

from __future__ import annotations

import pytest
from django.urls import reverse

from games import rules
from games.models import Game, Move, MoveAction
from games.play import actions as play
from games.tables import services
from tests.factories import HTMX, cards_of, make_user, match_of, page_text, roll_now, score_now


def undo(game: Game, user):
    game.refresh_from_db()
    return play.undo_score(game_id=game.pk, user=user, version=game.version)


def test_a_box_taken_back_restores_card_dice_and_rolls_left(player, game) -> None:
    roll_now(game, player, 2, 2, 2, 5, 5)
    roll_now(game, player, 2, 2, 2, 5, 5)
    score_now(game, player, "threes")  # a zero, by mistake

    seated = undo(game, player)

    game.refresh_from_db()
    assert seated.match().sheets[0].cards == ({},)
    now = match_of(game)
    assert (now.turn.dice, now.turn.rolls_used, game.round, now.undo) == (
        (2, 2, 2, 5, 5),
        2,
        1,
        None,
    )
    last = Move.objects.order_by("-seq").first()
    assert (last.action, last.box, last.points) == (MoveAction.UNDO, "threes", 0)
    score_now(game, player, "full_house")  # and the right box instead
    assert cards_of(game) == [{"full_house": 25}]


def test_after_anyone_rolls_the_box_is_final(player, game) -> None:
    roll_now(game, player, 1, 2, 3, 4, 5)
    score_now(game, player, "large_straight")
    roll_now(game, player, 6, 6, 6, 6, 6)

    with pytest.raises(rules.NothingToUndo, match=r"^There is no scoring to take back: the dice"):
        undo(game, player)
    assert cards_of(game) == [{"large_straight": 40}]


def test_only_the_scorer_may_take_it_back(player) -> None:
    bob = make_user("bob")
    game = services.open_game(owner=player, invites=1)
    services.join_game(token=game.invitations.get().token, user=bob)
    services.begin_game(game_id=game.pk, user=player)
    roll_now(game, player, 3, 3, 3, 3, 1)
    score_now(game, player, "four_of_a_kind")

    with pytest.raises(rules.NothingToUndo, match=r"^Only the player who has just scored can"):
        undo(game, bob)
    undo(game, player)
    game.refresh_from_db()
    assert game.current_seat == 0


def test_the_last_box_of_the_game_is_final(player, game) -> None:
    from tests.factories import fill_card

    fill_card(game, {b.value: 0 for b in services.rules.CATEGORIES if b.value != "chance"})
    roll_now(game, player, 6, 6, 6, 6, 5)
    score_now(game, player, "chance")

    game.refresh_from_db()
    assert game.status == "finished" and match_of(game).undo is None


def test_the_page_offers_undo_and_the_key_answer_puts_the_turn_back(
    alice_client, player, game
) -> None:
    roll_now(game, player, 4, 4, 4, 4, 2)
    score_now(game, player, "fours")
    play = reverse("games:play", kwargs={"game_id": game.pk})
    assert "Undo: 16 in Fours" in page_text(alice_client.get(play))

    game.refresh_from_db()
    response = alice_client.post(
        reverse("games:undo", kwargs={"game_id": game.pk}), {"version": game.version}, headers=HTMX
    )

    text = page_text(response)
    assert response.status_code == 200
    assert "Took back 16 in Fours" in text
    assert "Undo:" not in text
