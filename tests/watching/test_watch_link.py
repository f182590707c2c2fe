"""An online game's watch link: its host turns it on and off from the game's page (a POST
with its CSRF token); nobody else can; a withdrawn link opens nothing; a game nobody else plays
in has none to give."""

from __future__ import annotations

import html

import pytest
from django.test import Client
from django.urls import reverse

from accounts.models import User
from games.models import Game
from games.tables import services as tables
from tests.factories import client_for, make_user, roll_now
from tests.watching.watching_support import link_url, online

pytestmark = pytest.mark.django_db


@pytest.fixture
def alice() -> User:
    return make_user("alice", display_name="Alice")


@pytest.fixture
def bob() -> User:
    return make_user("bob", display_name="Bob")


@pytest.fixture
def game(alice: User, bob: User) -> Game:
    return online(alice, bob)


def switch(game: Game, on: bool) -> str:
    return reverse("watching:allow" if on else "watching:withdraw", args=[game.pk])


def test_the_host_gives_out_a_link_anyone_can_watch_by(alice: User, game: Game) -> None:
    roll_now(game, alice, 2, 3, 4, 5, 6)

    answer = client_for(alice).post(switch(game, on=True))

    assert answer.status_code == 302 and answer["Location"] == f"/play/{game.pk}/"
    game.refresh_from_db()
    assert game.watch_token is not None and len(game.watch_token) >= 43
    page = client_for(alice).get(f"/play/{game.pk}/").text
    assert f"http://testserver{link_url(game)}" in page and "data-watch-withdraw" in page
    watched = Client().get(link_url(game))
    assert watched.status_code == 200
    assert (
        "Alice" in watched.text
        and "Bob" in watched.text
        and "Roll 1: 2, 3, 4, 5, 6" in watched.text
    )


def test_turning_it_on_twice_keeps_one_link(alice: User, game: Game) -> None:
    client_for(alice).post(switch(game, on=True))
    first = link_url(game)

    client_for(alice).post(switch(game, on=True))

    assert link_url(game) == first


def test_a_withdrawn_link_opens_nothing(alice: User, game: Game) -> None:
    client_for(alice).post(switch(game, on=True))
    old = link_url(game)

    answer = client_for(alice).post(switch(game, on=False))

    assert answer.status_code == 302
    game.refresh_from_db()
    assert game.watch_token is None
    gone = Client().get(old)
    assert gone.status_code == 404 and "withdrew it" in gone.text
    assert Client().get(old + "stream/").status_code == 404
    assert "data-watch-allow" in client_for(alice).get(f"/play/{game.pk}/").text


def test_only_the_host_may_switch_it(alice: User, bob: User, game: Game) -> None:
    client_for(alice).post(switch(game, on=True))
    token = link_url(game)

    by_player = client_for(bob).post(switch(game, on=False))
    by_stranger = client_for(make_user("carol")).post(switch(game, on=False))
    by_visitor = Client().post(switch(game, on=False))

    assert by_player.status_code == 403
    assert "Only the game's host" in html.unescape(by_player.text)
    assert by_stranger.status_code == 404
    assert by_visitor.status_code == 302 and "/accounts/login/" in by_visitor["Location"]
    assert link_url(game) == token  # nothing changed
    assert "data-watch-allow" not in client_for(bob).get(f"/play/{game.pk}/").text


def test_the_switch_needs_the_pages_csrf_token(alice: User, game: Game) -> None:
    client = client_for(alice, enforce_csrf_checks=True)

    refused = client.post(switch(game, on=True))

    assert refused.status_code == 403
    game.refresh_from_db()
    assert game.watch_token is None


def test_the_switch_is_a_post(alice: User, game: Game) -> None:
    assert client_for(alice).get(switch(game, on=True)).status_code == 405
    game.refresh_from_db()
    assert game.watch_token is None


def test_a_game_played_alone_has_no_link_to_give(alice: User) -> None:
    alone = tables.start_game(owner=alice)

    answer = client_for(alice).post(switch(alone, on=True))

    assert answer.status_code == 409 and "several players" in answer.text
    alone.refresh_from_db()
    assert alone.watch_token is None
    assert "data-watch-allow" not in client_for(alice).get(f"/play/{alone.pk}/").text


@pytest.mark.parametrize("game_id", ["0", "9223372036854775807"])
def test_no_such_game_is_404(alice: User, game_id: str) -> None:
    assert client_for(alice).post(f"/watch/link/{game_id}/allow/").status_code == 404
