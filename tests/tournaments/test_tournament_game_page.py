"""A tournament's game names its tournament beside the round, linking back to its standings;
the tournament's pages say their places with a thousands separator."""

from __future__ import annotations

import re

import pytest
from django.test import Client
from django.urls import reverse

from games.tournaments import services
from tests.factories import client_for, page_text
from tests.tournaments.tournament_support import opened, registered, started_with

pytestmark = pytest.mark.django_db

ROLL_DISABLED = re.compile(r"data-roll\s[^>]*\sdisabled\s*>")


def test_a_tournament_game_names_and_links_its_tournament() -> None:
    amy = registered("amy")
    tournament = started_with(amy, name="Sunday Cup")
    game = services.play(user=amy, token=tournament.token)

    page = client_for(amy).get(reverse("games:play", kwargs={"game_id": game.pk})).text

    link = reverse("tournaments:page", kwargs={"token": tournament.token})
    assert f'<a href="{link}" class="tournament-mark">Sunday Cup</a>' in page
    round_line = page_text(page.split('<p class="game-round">')[1].split("</p>")[0])
    assert round_line == "Round 1 of 13 · Sunday Cup"


def test_an_ordinary_game_names_no_tournament(alice_client, game) -> None:
    page = alice_client.get(reverse("games:play", kwargs={"game_id": game.pk})).text

    assert "tournament-mark" not in page


def test_places_are_said_with_a_thousands_separator() -> None:
    tournament = opened(name="Big one")

    assert "0 / 1,000 players." in page_text(
        Client().get(reverse("tournaments:page", kwargs={"token": tournament.token}))
    )
    assert "0 / 1,000" in page_text(Client().get(reverse("tournaments:list")))


def test_after_the_end_a_game_in_play_says_so_and_offers_no_roll() -> None:
    amy = registered("amy")
    tournament = started_with(amy, name="Sunday Cup")
    game = services.play(user=amy, token=tournament.token)
    url = reverse("games:play", kwargs={"game_id": game.pk})
    assert (
        "data-roll" in client_for(amy).get(url).text
        and "ended at" not in client_for(amy).get(url).text
    )

    services.end(user=tournament.host, token=tournament.token)

    page = client_for(amy).get(url).text
    assert "The tournament 'Sunday Cup' ended at" in page_text(page)
    assert "this game no longer counts and can no longer be played" in page_text(page)
    assert ROLL_DISABLED.search(page)
