"""The help page's ratings: what a rating means, which games count, the rules against abuse,
leagues and seasons, and the computers' ratings read from the anchors themselves."""

from __future__ import annotations

import re

import pytest
from django.test import Client
from django.urls import reverse

from games.ratings import anchors
from games.strategy import BOT_NAMES
from tests.factories import page_text

pytestmark = pytest.mark.django_db


def ratings_section() -> str:
    html = Client().get(reverse("help")).text
    start = html.index('<section class="panel" id="ratings"')
    return html[start : html.index("</section>", start)]


def test_the_computers_ratings_are_the_anchors_shown_figures() -> None:
    table = ratings_section()
    table = table[
        table.index("data-computer-ratings") : table.index(
            "</table>", table.index("data-computer-ratings")
        )
    ]
    rows = [page_text(row) for row in re.findall(r"<tr>(.*?)</tr>", table)]

    assert rows[0] == "Player Classic Yahtzee Triple Yahtzee Yatzy"
    assert rows[1:] == [
        f"{bot.title()} {anchors.anchor('classic', bot).shown:,} "
        f"{anchors.anchor('triple', bot).shown:,} "
        f"{anchors.anchor('yatzy', bot).shown:,}"
        for bot in BOT_NAMES
    ]


def test_the_help_says_what_a_rating_means_and_which_games_count() -> None:
    text = page_text(ratings_section())

    assert "It starts at 1,500" in text
    assert "200 points apart, the stronger player wins about three games in four" in text
    assert "Plackett-Luce" in text
    assert "Online games between accounts : always." in text
    assert "Guests are never rated" in text
    assert "Never : a game alone, and the daily challenge ." in text


def test_the_help_states_the_rules_against_abuse_and_the_leagues() -> None:
    text = page_text(ratings_section())

    assert "confirmed e-mail address" in text and "30 days" in text
    assert "skipped out (three turns skipped), is a last place" in text
    assert "host who ends a rated game before its end loses it" in text
    assert "An account made today enters no table" in text
    assert "Master the top 5% Diamond the next 10% Gold the next 20% Silver the next 30%" in text
    assert "calendar month is a season" in text
    assert "Luck keeps them close" in text and "luck left out" in text


def test_the_contents_and_the_new_game_forms_link_reach_the_section() -> None:
    html = Client().get(reverse("help")).text

    assert '<a href="#ratings">' in html and 'id="ratings"' in html
