"""No table links a replay that would answer 404 to its viewer: a challenge of today is its
player's alone (no public table links it); once its day is over, its day's board links the
games it shows, and anyone may watch them there."""

from __future__ import annotations

import html
from datetime import timedelta

import pytest
from django.urls import reverse

from games.daily import clock, selectors, services
from games.models import Game, HighScorePeriod
from tests.daily.daily_support import hasty, noon, perfect, play_out, veteran

pytestmark = pytest.mark.usefixtures("strategy_ready")


def text(response) -> str:
    return html.unescape(response.content.decode())


def replay(game: Game) -> str:
    return reverse("games:replay", args=[game.pk, 0])


def public_tables(client) -> str:
    """Every public table a finished game could be listed in, as a visitor sees them."""
    pages = [
        client.get(reverse("high_scores"), {"kind": "classic", "period": period})
        for period in HighScorePeriod.values
    ]
    return "".join(text(page) for page in pages)


def test_a_challenge_of_today_is_linked_nowhere_but_to_its_player(make_user, client, client_for):
    player = veteran(make_user, "Today's Player")
    game = services.start_challenge(user=player)
    play_out(player, game.pk)
    board = reverse("daily:board", args=[clock.today().isoformat()])
    stranger = client_for(veteran(make_user, "Stranger"))

    assert "Today's Player" in text(client.get(board))  # it is on the board
    for page in (
        public_tables(client),
        text(client.get(board)),
        text(stranger.get(board)),
        text(client_for(player).get(board)),
    ):
        assert replay(game) not in page
    assert client.get(replay(game)).status_code == 404
    assert stranger.get(replay(game)).status_code == 404
    # Its player's own tables link it, and it answers them.
    owner = client_for(player)
    analysis = reverse("games:analysis", args=[game.pk, 0])
    assert analysis in text(owner.get(reverse("games:dashboard")))
    assert analysis in text(owner.get(reverse("daily:today")))
    assert owner.get(analysis).status_code == 200
    assert owner.get(replay(game)).status_code == 200


def test_a_challenge_of_yesterday_is_linked_from_its_board_and_answers_anyone(
    make_user, client, client_for
):
    yesterday = clock.today() - timedelta(days=1)
    player = veteran(make_user, "Yesterday's Player")
    game = services.start_challenge(user=player, now=noon(yesterday))
    play_out(player, game.pk, now=noon(yesterday))
    board = reverse("daily:board", args=[yesterday.isoformat()])

    page = text(client.get(board))

    assert replay(game) in page
    assert replay(game) not in public_tables(client)  # the top ten never ranks a challenge
    assert client.get(replay(game)).status_code == 200
    assert client_for(veteran(make_user, "Stranger")).get(replay(game)).status_code == 200


def test_a_challenge_off_its_boards_rows_is_not_linked_nor_watched(make_user, client, monkeypatch):
    yesterday = clock.today() - timedelta(days=1)
    games = {}
    for name, decide in (("Shown", perfect), ("Below", hasty)):
        player = veteran(make_user, name)
        game = services.start_challenge(user=player, now=noon(yesterday))
        play_out(player, game.pk, decide, now=noon(yesterday))
        games[name] = game
    monkeypatch.setattr(selectors, "BOARD_ROWS", 1)

    page = text(client.get(reverse("daily:board", args=[yesterday.isoformat()])))

    assert replay(games["Shown"]) in page and replay(games["Below"]) not in page
    assert client.get(replay(games["Shown"])).status_code == 200
    assert client.get(replay(games["Below"])).status_code == 404


def test_an_unranked_challenge_of_yesterday_is_its_players_alone(make_user, client):
    yesterday = clock.today() - timedelta(days=1)
    fresh = make_user(display_name="Fresh")  # made today: was not ranked yesterday either
    game = services.start_challenge(user=fresh, now=noon(yesterday))
    play_out(fresh, game.pk, now=noon(yesterday))

    page = text(client.get(reverse("daily:board", args=[yesterday.isoformat()])))

    assert replay(game) not in page
    assert client.get(replay(game)).status_code == 404
