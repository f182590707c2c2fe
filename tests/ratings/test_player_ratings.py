"""An account's ratings on its player page: the figure, its latest change, its league this
season, its performance (accuracy, luck left out), the history as a chart, and the cost."""

from __future__ import annotations

import re
from datetime import timedelta

import pytest
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from django.utils import timezone

from games.models import GameStatus, Score
from games.ratings.models import RatingChange
from tests.factories import make_user, page_text
from tests.ratings.support import long_ago, online_game, played, rated_change, seasoned

pytestmark = pytest.mark.django_db


def player(name: str):
    return make_user(name.lower(), display_name=name, date_joined=long_ago())


def page_of(user, viewer=None, **query):
    client = Client()
    if viewer is not None:
        client.force_login(viewer)
    return client.get(reverse("player", kwargs={"public_id": user.public_id}), query)


def rating_panel(response) -> str:
    text = response.text
    return page_text(text[text.index('id="rating"') : text.index('id="summary-title"')])


def test_the_page_shows_the_rating_its_latest_change_league_and_performance() -> None:
    amy = player("Amy")
    when = timezone.now() - timedelta(minutes=30)
    rated_change(amy, 1500, 1566, accuracy=90.0, when=when)
    rated_change(amy, 1566, 1554, accuracy=None, when=when + timedelta(minutes=10))  # not graded
    rated_change(amy, 1554, 1590, accuracy=95.0, when=when + timedelta(minutes=20))
    seasoned(amy, 1590, games=3)
    for i in range(9):  # Amy is 2nd of 10 this season: Diamond (the next 10% after 5%)
        seasoned(player(f"P{i}"), 1700 if i == 0 else 1400 + i)

    panel = rating_panel(page_of(amy))

    assert "Classic Yahtzee Rating 1,590 Latest game +36" in panel
    assert "League this season Diamond #2 of 10" in panel
    assert "Performance 92.5" in panel  # (90 + 95) / 2: the game not graded yet left out
    assert "3 rated games. Performance is the average accuracy of the last 3 rated games " in panel
    assert "(2 graded so far)" in panel


def test_a_loss_is_written_with_a_minus_sign() -> None:
    amy = player("Amy")
    rated_change(amy, 1500, 1434)

    assert "Latest game \N{MINUS SIGN}66" in rating_panel(page_of(amy))


def test_a_provisional_rating_has_its_question_mark() -> None:
    amy = player("Amy")
    rated_change(amy, 1500, 1566, sigma=7.2)

    assert "Rating 1,566 ?" in rating_panel(page_of(amy))


def test_no_league_before_playing_this_season() -> None:
    amy = player("Amy")
    rated_change(amy, 1500, 1566, when=timezone.now() - timedelta(days=40))

    panel = rating_panel(page_of(amy))

    assert "League this season not played yet" in panel


def test_performance_counts_the_last_twenty_rated_games_only() -> None:
    amy = player("Amy")
    start = timezone.now() - timedelta(days=2)
    for i in range(25):  # five games at 50, then twenty at 80
        rated_change(amy, 1500, 1500 + i, accuracy=50.0 if i < 5 else 80.0,
                     when=start + timedelta(minutes=i))  # fmt: skip

    panel = rating_panel(page_of(amy))

    assert "Performance 80.0" in panel
    assert "25 rated games. Performance is the average accuracy of the last 20 rated" in panel


def test_the_history_chart_draws_the_rating_and_each_graded_games_accuracy() -> None:
    amy = player("Amy")
    start = timezone.now() - timedelta(days=1)
    for i, (after, accuracy) in enumerate([(1566, 91.0), (1540, None), (1580, 84.5)]):
        before = [1500, 1566, 1540][i]
        rated_change(amy, before, after, accuracy=accuracy, when=start + timedelta(minutes=i))

    response = page_of(amy)
    svg = response.text[response.text.index("<svg", response.text.index('id="rating"')) :]
    svg = svg[: svg.index("</svg>")]

    points = re.search(r'class="chart-line" points="([^"]+)"', svg)[1].split()
    assert len(points) == 4  # the start, then after each game
    ys = [float(point.split(",")[1]) for point in points]
    assert ys[1] < ys[0] and ys[2] > ys[1] and ys[3] < ys[1]  # up, down, up past the first
    assert svg.count('class="chart-mark"') == 2  # the two graded games
    assert "3 rated games; rating now 1,580, highest 1,580; 2 graded." in page_text(svg)
    assert ">100</text>" in svg and ">80</text>" in svg  # the accuracy scale, 80 to 100


def test_the_chart_follows_the_kind_chosen() -> None:
    amy = player("Amy")
    rated_change(amy, 1500, 1566, kind="triple")
    rated_change(amy, 1500, 1434, kind="classic")

    classic, triple = page_of(amy), page_of(amy, kind="triple")

    assert "rating now 1,434" in classic.text and "rating now 1,566" in triple.text
    assert rating_panel(classic).count("League this season") == 2  # both kinds' figures


def test_an_account_never_rated_shows_no_rating_panel(finished) -> None:
    amy = player("Amy")
    finished(amy, 210)

    assert 'id="rating"' not in page_of(amy).text


def test_an_account_rated_only_in_a_game_its_host_ended_has_a_public_page() -> None:
    amy = player("Amy")
    rated_change(amy, 1500, 1566)
    Score.objects.filter(user=amy).delete()  # an abandoned game leaves no score

    response = page_of(amy)

    assert response.status_code == 200 and "1,566" in rating_panel(response)


def queries_of(user, viewer=None) -> tuple[int, object]:
    with CaptureQueriesContext(connection) as queries:
        response = page_of(user, viewer=viewer)
    return len(queries.captured_queries), response


def test_the_ratings_cost_the_public_page_two_queries(finished) -> None:
    amy, bob = player("Amy"), player("Bob")
    finished(bob, 200)
    finished(amy, 200)
    for i in range(30):
        rated_change(amy, 1500, 1500 + i, accuracy=90.0)
    seasoned(amy, 1566)
    seasoned(bob, 1500)

    unrated, _ = queries_of(bob)  # the player, their newest score's id, their record
    rated, response = queries_of(amy)  # and their rated games, their standings this season

    assert "League this season Master #1 of 2" in rating_panel(response)
    assert (unrated, rated) == (3, 5)


def test_the_ratings_cost_a_players_own_page_two_queries(finished) -> None:
    amy, bob = player("Amy"), player("Bob")
    finished(amy, 200)
    finished(bob, 200)
    rated_change(amy, 1500, 1566, accuracy=90.0)
    seasoned(amy, 1566)

    unrated, _ = queries_of(bob, viewer=bob)
    rated, response = queries_of(amy, viewer=amy)

    assert "Rating 1,566" in rating_panel(response)
    assert rated == unrated + 2  # the rated games, the standings


def test_a_game_played_and_rated_shows_on_both_players_pages(strategy_ready) -> None:
    alice, bob = player("Alice"), player("Bob")
    game = played(online_game(alice, bob), alice, seed=1)
    assert game.status == GameStatus.FINISHED
    winner = RatingChange.objects.get(game=game, place=1).user

    panel = rating_panel(page_of(winner))

    assert "Rating 1,566 ? Latest game +66" in panel  # one game: still provisional
    assert "League this season Master #1 of 2" in panel
