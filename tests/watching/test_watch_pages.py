"""A tournament's game watched by anyone holding the tournament's link: what the page shows
(the dice, the cards, the moves) and what it never offers (an action, a hint, a replay before
the end); who is turned away; what watching never touches (a trial game, a seat, presence)."""

from __future__ import annotations

import re

import pytest
from django.core.cache import caches
from django.test import Client
from django.urls import reverse

from accounts.models import User
from games.models import Seat
from games.play import live
from games.play.presenters import game_urls
from games.tournaments import services
from tests.factories import client_for, make_user, roll_now, score_now
from tests.tournaments.tournament_support import play_out, started_with
from tests.watching.watching_support import tournament_game, watch_url

pytestmark = pytest.mark.django_db


@pytest.fixture
def alice() -> User:
    return make_user("alice", display_name="Alice")


def test_a_logged_out_visitor_watches_a_tournament_game(alice: User) -> None:
    tournament, game = tournament_game(alice)
    roll_now(game, alice, 6, 6, 6, 2, 3)
    score_now(game, alice, "chance")
    rolled = roll_now(game, alice, 1, 2, 3, 4, 5)
    dice = rolled.match().turn.dice
    assert dice is not None

    page = Client().get(watch_url(tournament, game))

    assert page.status_code == 200
    text = page.text
    assert len(re.findall(r"data-watched-die", text)) == 5
    assert f"Roll 1: {', '.join(map(str, dice))}" in text  # the dice of the roll in progress
    chance = rolled.match().sheets[0].cards[0]["chance"]
    assert re.search(rf"<th scope=\"row\">Chance</th><td[^>]*>{chance}</td>", text)
    assert "Round <strong>2</strong> of 13" in text
    assert f"{chance} in Chance" in text  # the log of moves
    assert tournament.name in text


def test_the_watchers_page_offers_nothing_to_do(alice: User) -> None:
    tournament, game = tournament_game(alice)
    roll_now(game, alice, 6, 6, 6, 2, 3)

    text = Client().get(watch_url(tournament, game)).text
    fragment = Client().get(watch_url(tournament, game), headers={"HX-Request": "true"}).text

    assert re.findall(r"<form[\s>]", text) == []
    # The site's own boss key is the only button of the page; the game has none.
    assert all('type="button"' in b for b in re.findall(r"<button[^>]*>", text))
    assert "<button" not in fragment and "<input" not in fragment
    assert "hx-post" not in text and "data-hint" not in text and "coach" not in fragment
    for name, address in game_urls(game.pk).items():
        assert address not in text, name


def test_a_running_tournaments_game_shows_no_replay_or_analysis_even_when_over(
    alice: User,
) -> None:
    bob = make_user("bob")
    tournament = started_with(alice, bob)
    game = services.play(user=alice, token=tournament.token)
    services.play(user=bob, token=tournament.token)  # Bob's game keeps the tournament running
    play_out(alice, game)
    tournament.refresh_from_db()
    assert tournament.is_running

    text = Client().get(watch_url(tournament, game)).text

    assert "Game over" in text
    assert f"/play/{game.pk}/replay/" not in text and f"/play/{game.pk}/analysis/" not in text
    assert "/shared/" not in text


@pytest.mark.parametrize("listed", [True, False])
def test_the_tournaments_link_is_the_permission(alice: User, listed: bool) -> None:
    tournament, game = tournament_game(alice, listed=listed)
    other, elsewhere = tournament_game(make_user("carol"))
    url = reverse("watching:tournament_game", args=["x" * 43, game.pk])

    assert Client().get(watch_url(tournament, game)).status_code == 200
    refused = Client().get(url)
    assert refused.status_code == 404
    assert "There is no such game to watch" in refused.text
    # A game of another tournament, by this tournament's link: no such game here.
    assert Client().get(watch_url(tournament, elsewhere)).status_code == 404
    assert Client().get(watch_url(other, game)).status_code == 404


@pytest.mark.parametrize(
    "tail",
    ["abc/", "9223372036854775808/", "9" * 40 + "/", "-1/", "%00/", "1.0/", "١٢/"],
)
def test_bad_game_ids_are_no_page(alice: User, tail: str) -> None:
    tournament, _ = tournament_game(alice)

    answer = Client().get(f"/watch/t/{tournament.token}/{tail}")

    assert answer.status_code == 404


@pytest.mark.parametrize("token", ["%00", "a" * 65, "<script>", "a.b"])
def test_bad_tokens_are_no_page(alice: User, token: str) -> None:
    _, game = tournament_game(alice)

    assert Client().get(f"/watch/t/{token}/{game.pk}/").status_code == 404
    assert Client().get(f"/watch/g/{token}/").status_code == 404


def test_head_answers_and_other_methods_are_refused(alice: User) -> None:
    tournament, game = tournament_game(alice)
    url = watch_url(tournament, game)

    assert Client().head(url).status_code == 200
    for method in ("post", "put", "delete", "patch"):
        assert getattr(Client(), method)(url).status_code == 405, method


def test_watching_uses_no_trial_game_takes_no_seat_and_marks_no_page_open(alice: User) -> None:
    tournament, game = tournament_game(alice)
    roll_now(game, alice, 1, 2, 3, 4, 5)
    watcher = make_user("carol", trial_games_used=1)
    seats = Seat.objects.count()
    caches["presence"].clear()  # kept across tests: another test's game may have had id 1

    for client in (client_for(watcher), Client()):
        assert client.get(watch_url(tournament, game)).status_code == 200
        partial = client.get(watch_url(tournament, game), headers={"HX-Request": "true"})
        assert partial.status_code == 200

    watcher.refresh_from_db()
    assert watcher.trial_games_used == 1
    assert Seat.objects.count() == seats
    assert not live.page_open(game_id=game.pk, user_id=alice.pk)
    assert not live.page_open(game_id=game.pk, user_id=watcher.pk)


def test_the_partial_is_revalidated_by_its_version(alice: User) -> None:
    tournament, game = tournament_game(alice)
    url = watch_url(tournament, game)
    htmx = {"HX-Request": "true"}

    version = game.version
    first = Client().get(url, headers=htmx)
    unchanged = Client().get(url, headers={**htmx, "If-None-Match": first["ETag"]})
    roll_now(game, alice, 1, 2, 3, 4, 5)
    moved = Client().get(url, headers={**htmx, "If-None-Match": first["ETag"]})

    assert re.match(rf'^"g{game.pk}v{version}-', first["ETag"])
    assert "data-live-stream" in first.text
    assert first.text.startswith(f"<title>Watching {alice.display_name} — Yahtzee</title>")
    assert unchanged.status_code == 304
    assert moved.status_code == 200 and moved["ETag"] != first["ETag"]
    assert "Roll 1:" in moved.text and "Roll 1:" not in first.text


def test_a_watcher_costs_one_query_once_the_version_is_drawn(
    alice: User, django_assert_num_queries: object
) -> None:
    tournament, game = tournament_game(alice)
    roll_now(game, alice, 1, 2, 3, 4, 5)
    url = watch_url(tournament, game)
    htmx = {"HX-Request": "true"}
    Client().get(url, headers=htmx)  # the first watcher draws it

    with django_assert_num_queries(1):  # type: ignore[operator]
        answer = Client().get(url, headers=htmx)

    assert answer.status_code == 200 and "data-watched-die" in answer.text


def test_the_standings_link_each_begun_game_to_its_watching_page(alice: User) -> None:
    bob = make_user("bob", display_name="Bob")
    tournament = started_with(alice, bob)
    game = services.play(user=alice, token=tournament.token)  # Bob has not begun his

    page = Client().get(reverse("tournaments:page", args=[tournament.token])).text

    assert watch_url(tournament, game) in page
    assert page.count("data-watch-game") == 1
