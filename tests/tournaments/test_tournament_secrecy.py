"""Nothing shows a tournament game's dice before the tournament is over: a probe over every
page that shows a finished game's dice (analysis, replay, the shared link and its card), as
the game's own player, another entrant and a visitor; the lists that link them; then, once
over, the games open to those who may read the standings."""

from __future__ import annotations

import pytest
from django.test import Client
from django.urls import reverse

from games.models import Score, SharedGame
from games.tournaments import services
from tests.factories import client_for
from tests.tournaments.tournament_support import play_out, started_with

pytestmark = pytest.mark.django_db


@pytest.fixture
def finished_early(make_user):
    """Alice has finished her game; Bob is still playing his: the tournament runs."""
    alice, bob = make_user("alice"), make_user("bob")
    tournament = started_with(alice, bob)
    game = services.play(user=alice, token=tournament.token)
    play_out(alice, game)
    play_out(bob, services.play(user=bob, token=tournament.token), moves=2)
    return tournament, game, alice, bob


def dice_pages(game_id: int, token: str = "") -> list[str]:
    pages = [
        reverse("games:analysis", kwargs={"game_id": game_id, "position": 0}),
        reverse("games:replay", kwargs={"game_id": game_id, "position": 0}),
        reverse("games:replay", kwargs={"game_id": game_id, "position": 0}) + "?step=3",
    ]
    if token:
        pages.append(by_link(token, game_id))
        pages.append(by_link(token, game_id) + "?step=3")
    return pages


def by_link(token: str, game_id: int) -> str:
    """The replay through the tournament's link, as its standings link each score."""
    return reverse("tournaments:replay", kwargs={"token": token, "game_id": game_id})


def test_no_page_shows_the_dice_while_it_runs(finished_early):
    tournament, game, alice, bob = finished_early
    viewers = {"player": client_for(alice), "entrant": client_for(bob), "visitor": Client()}

    answers = {
        (who, url): client.get(url).status_code
        for who, client in viewers.items()
        for url in dice_pages(game.pk, tournament.token)
    }

    for (who, url), status in answers.items():
        assert status in {409, 404, 302}, (who, url, status)  # 302: to the login page
        if who == "player":
            assert status == 409
    page = viewers["player"].get(dice_pages(game.pk)[1])
    assert "replay, analysis and shared card open once the tournament is over" in page.text


def test_the_player_cannot_share_it_while_it_runs(finished_early):
    _, game, alice, _ = finished_early
    url = reverse("games:share", kwargs={"game_id": game.pk, "position": 0})

    answer = client_for(alice).post(url)

    assert answer.status_code == 409
    assert "once the tournament is over" in answer.text
    assert not SharedGame.objects.exists()


def test_the_lists_link_no_replay_of_it(finished_early):
    tournament, game, alice, bob = finished_early
    replays = [
        reverse("games:replay", kwargs={"game_id": game.pk, "position": 0}),
        by_link(tournament.token, game.pk),
    ]
    pages = [
        (Client(), reverse("high_scores")),
        (Client(), reverse("player", kwargs={"public_id": alice.public_id})),
        (client_for(bob), reverse("tournaments:page", kwargs={"token": tournament.token})),
        (Client(), reverse("tournaments:list")),
    ]
    for client, url in pages:
        answer = client.get(url)
        assert answer.status_code == 200, url
        for replay in replays:
            assert replay not in answer.text, url


def test_its_score_is_a_challenges_never_ranked(finished_early):
    _, game, _, _ = finished_early
    assert Score.objects.get(game=game).challenge is True


def test_once_over_the_games_open(finished_early):
    tournament, game, alice, bob = finished_early
    services.end(user=tournament.host, token=tournament.token)
    replay = dice_pages(game.pk)[1]

    assert client_for(alice).get(dice_pages(game.pk)[0]).status_code == 200
    assert client_for(bob).get(replay).status_code == 200  # an entrant
    assert Client().get(replay).status_code == 200  # a listed tournament: anyone
    page = Client().get(reverse("tournaments:page", kwargs={"token": tournament.token}))
    assert by_link(tournament.token, game.pk) in page.text


def test_a_private_ones_games_open_to_its_entrants_and_by_its_link(make_user):
    """Without the link, a private tournament's game is its entrants' alone; its standings,
    read by anyone holding the link, link each score to a replay that opens to them too (a
    visitor logged out, its host who did not play), and to nobody by another link."""
    alice, bob, eve = make_user("alice"), make_user("bob"), make_user("eve")
    tournament = started_with(alice, bob, listed=False)
    game = services.play(user=alice, token=tournament.token)
    play_out(alice, game)
    services.end(user=tournament.host, token=tournament.token)
    replay = dice_pages(game.pk)[1]

    assert client_for(bob).get(replay).status_code == 200
    assert client_for(eve).get(replay).status_code == 404
    assert Client().get(replay).status_code == 404
    standings = Client().get(reverse("tournaments:page", kwargs={"token": tournament.token}))
    linked = by_link(tournament.token, game.pk)
    assert linked in standings.text
    for client in (Client(), client_for(eve), client_for(tournament.host)):
        answer = client.get(linked)
        assert answer.status_code == 200
        assert "Alice's Classic Yahtzee" in answer.text
        assert '<meta name="robots" content="noindex">' in answer.text
    assert Client().get(linked + "?step=2").status_code == 200
    other = started_with(make_user("carol"), listed=False)
    assert Client().get(by_link(other.token, game.pk)).status_code == 404
