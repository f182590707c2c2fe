"""A rated game says so on its page (beside the round, linking to how ratings work); a game
that is not rated says nothing of it."""

from __future__ import annotations

import pytest
from django.urls import reverse

from games.models import Game
from games.tables import services as tables
from tests.factories import client_for, make_user, page_text
from tests.ratings.support import online_game

pytestmark = pytest.mark.django_db


def round_line(client, game) -> str:
    page = client.get(reverse("games:play", kwargs={"game_id": game.pk}))
    assert page.status_code == 200
    return page_text(page.content.decode().split('<p class="game-round">')[1].split("</p>")[0])


def test_an_online_game_between_accounts_is_marked_rated() -> None:
    alice, bob = make_user("alice"), make_user("bob")
    game = online_game(alice, bob)

    assert round_line(client_for(bob), game) == "Round 1 of 13 · Rated"
    assert (
        'href="/help/#ratings" class="rated-mark"'
        in client_for(alice)
        .get(reverse("games:play", kwargs={"game_id": game.pk}))
        .content.decode()
    )


def test_against_the_computer_only_when_chosen() -> None:
    alice = make_user("alice")
    unrated = tables.start_game(owner=alice, computers=["good"])
    rated = tables.start_game(owner=alice, computers=["good"], rated=True)

    assert round_line(client_for(alice), unrated) == "Round 1 of 13"
    assert round_line(client_for(alice), rated) == "Round 1 of 13 · Rated"


def test_a_game_alone_is_never_marked_even_if_asked() -> None:
    alice = make_user("alice")
    game = tables.start_game(owner=alice, rated=True)

    assert round_line(client_for(alice), game) == "Round 1 of 13"


def test_the_new_game_form_offers_the_choice() -> None:
    alice = make_user("alice")
    response = client_for(alice).post(
        reverse("games:new"), {"kind": "classic", "computer": ["beginner"], "rated": "1"}
    )
    assert response.status_code == 302
    assert Game.objects.get().rated is True
    page = client_for(alice).get(reverse("games:dashboard")).content.decode()
    assert '<input type="checkbox" name="rated" value="1"' in page
