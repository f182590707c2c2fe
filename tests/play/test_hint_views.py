"""A hint in the game: the best move for the dice on the table from the perfect-play table, in
words, with the alternatives; counted on the seat and marked in the high scores."""

from __future__ import annotations

import pytest
from django.urls import reverse

from games import rules
from games.models import Game, Score, Seat
from games.tables import services
from tests.factories import HTMX, fill_card, page_text, roll_now, score_now


def hint_url(game: Game) -> str:
    return reverse("games:hint", kwargs={"game_id": game.pk})


def ask(client, game: Game, **headers):
    game.refresh_from_db()
    return client.post(hint_url(game), {"version": game.version}, headers=headers)


@pytest.fixture(autouse=True)
def _table(strategy_ready) -> None:
    pass


def test_five_sixes_with_sixes_and_yahtzee_open_say_score_the_yahtzee(
    alice_client, game, player
) -> None:
    roll_now(game, player, 6, 6, 6, 6, 6)

    response = ask(alice_client, game, **HTMX)

    text = page_text(response)
    assert response.status_code == 200
    assert text.startswith("Score 50 in YAHTZEE: expect ")
    assert "Score 50 in YAHTZEE expect" in text  # the first option, one tap to apply
    assert 'name="box" value="yahtzee"' in response.text
    assert Seat.objects.get().hints == 1


def test_a_large_straight_in_hand_with_its_box_open_is_scored(alice_client, game, player) -> None:
    fill_card(game, {"aces": 1, "twos": 2})
    roll_now(game, player, 2, 3, 4, 5, 6)

    text = page_text(ask(alice_client, game, **HTMX))

    assert text.startswith("Score 40 in Lg. Straight: expect ")


def test_early_in_a_turn_the_hint_holds_dice_and_tells_which(alice_client, game, player) -> None:
    roll_now(game, player, 4, 4, 4, 1, 2)

    response = ask(alice_client, game, **HTMX)

    assert page_text(response).startswith("Hold the three 4s: expect ")
    assert 'data-apply-held="1,1,1,0,0"' in response.text


def test_the_hint_needs_dice_on_the_table_and_counts_nothing_before(
    alice_client, game, player
) -> None:
    response = ask(alice_client, game)

    assert response.status_code == 400
    assert "Roll first: a hint weighs the dice on the table." in page_text(response)
    assert Seat.objects.get().hints == 0


def test_only_the_player_on_turn_gets_a_hint(client_for, make_user, player) -> None:
    bob = make_user("bob")
    game = services.open_game(owner=player, invites=1)
    services.join_game(token=game.invitations.get().token, user=bob)
    services.begin_game(game_id=game.pk, user=player)
    roll_now(game, player, 1, 2, 3, 4, 5)

    response = ask(client_for(bob), game)

    assert response.status_code == 409
    assert Seat.objects.filter(hints__gt=0).count() == 0


def test_without_javascript_the_whole_game_shows_with_the_hint(alice_client, game, player) -> None:
    roll_now(game, player, 6, 6, 6, 6, 6)

    response = ask(alice_client, game)

    assert response.status_code == 200
    assert "<!doctype html>" in response.text.lower()
    assert "Score 50 in YAHTZEE: expect " in page_text(response)


def test_a_score_played_with_hints_is_marked_in_the_top_ten(
    client, alice_client, game, player
) -> None:
    roll_now(game, player, 6, 6, 6, 6, 6)
    ask(alice_client, game)
    score_now(game, player, "yahtzee")
    for box in rules.CATEGORIES:
        if box != rules.Box.YAHTZEE:
            roll_now(game, player, 1, 2, 3, 4, 6)
            score_now(game, player, box.value)

    assert Score.objects.get().hints == 1
    text = page_text(client.get(reverse("high_scores")))
    assert "Alice played with hints" in text
