"""The rating tables over HTTP: a season's (this one, a past one's final table) and all
time's, their places, leagues and pages, whom they leave out, and what they cost."""

from __future__ import annotations

import time
from datetime import timedelta

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from games.ratings import selectors, views
from games.ratings.models import Rating
from tests.factories import HTMX, client_for, make_user, page_text
from tests.ratings.support import long_ago, rated_change, seasoned

pytestmark = pytest.mark.django_db

SEASON = reverse("ratings:season")
ALL_TIME = reverse("ratings:all_time")


def this_season():
    return timezone.localdate().replace(day=1)


def last_season():
    return (this_season() - timedelta(days=1)).replace(day=1)


def player(name: str):
    return make_user(name.lower(), display_name=name, date_joined=long_ago())


def rows_of(response) -> list[str]:
    """Each row of the table as a person reads it."""
    body = response.text[response.text.index("<tbody>") : response.text.index("</tbody>")]
    return [page_text(row) for row in body.split("</tr>") if "<td" in row]


def test_the_season_table_shows_each_players_place_rating_games_and_league() -> None:
    for i in range(18):
        seasoned(player(f"P{i:02}"), 1400 + i)
    seasoned(player("Amy"), 1650, games=7)
    seasoned(player("Bob"), 1720)

    response = Client().get(SEASON)  # a visitor, logged out

    assert response.status_code == 200
    rows = rows_of(response)
    assert rows[0] == "1 Bob 1,720 10 Master"  # the top 5% of 20
    assert rows[1] == "2 Amy 1,650 7 Diamond"  # the next 10%
    assert rows[-1] == "20 P00 1,400 10 Bronze"
    assert len(rows) == 20


def test_a_players_name_links_to_their_page() -> None:
    amy = player("Amy")
    seasoned(amy, 1600)

    response = Client().get(SEASON)

    assert f'href="/players/{amy.public_id}/">Amy</a>' in response.text


def test_equal_ratings_are_ordered_by_account_each_its_own_place() -> None:
    first, second = player("First"), player("Second")
    seasoned(second, 1500)
    seasoned(first, 1500)

    assert rows_of(Client().get(SEASON)) == [
        "1 First 1,500 10 Master",
        "2 Second 1,500 10 Silver",
    ]


def test_each_kind_has_its_own_table() -> None:
    amy, bob = player("Amy"), player("Bob")
    seasoned(amy, 1600, kind="classic")
    seasoned(bob, 1550, kind="triple")

    triple = Client().get(SEASON, {"kind": "triple"})

    assert [row.split()[1] for row in rows_of(triple)] == ["Bob"]
    assert 'aria-current="page">Triple Yahtzee<' in triple.text


def test_an_account_made_today_enters_no_table() -> None:
    seasoned(player("Amy"), 1500)
    fresh = make_user("fresh", display_name="Fresh")  # made now
    seasoned(fresh, 1700)
    rated_change(fresh, 1500, 1700)

    season, all_time = Client().get(SEASON), Client().get(ALL_TIME)

    assert "Fresh" not in season.text and "Fresh" not in all_time.text
    assert rows_of(season) == ["1 Amy 1,500 10 Master"]  # first of one: nobody ahead of it


def test_last_seasons_final_table_is_kept_and_linked() -> None:
    amy, bob = player("Amy"), player("Bob")
    seasoned(amy, 1610, season=last_season())
    seasoned(bob, 1590, season=last_season())
    seasoned(bob, 1700)  # Bob played on this season; last season's table is as it ended

    page = Client().get(SEASON)
    last = Client().get(SEASON, {"season": f"{last_season():%Y-%m}"})

    assert f"?kind=classic&amp;season={last_season():%Y-%m}" in page.text
    assert ">Last season<" in page.text
    assert rows_of(last) == ["1 Amy 1,610 10 Master", "2 Bob 1,590 10 Silver"]
    assert f"{last_season():%B %Y}, final table" in page_text(last)


def test_older_seasons_with_a_table_are_listed() -> None:
    older = (last_season() - timedelta(days=1)).replace(day=1)
    seasoned(player("Amy"), 1610, season=older)

    response = Client().get(SEASON)

    assert f"season={older:%Y-%m}" in response.text
    assert "Past seasons" in page_text(response)
    assert ">Last season<" not in response.text  # no table last season: no tab for it


@pytest.mark.parametrize(
    "season", ["2026-13", "2026-00", "0000-01", "26-11", "2026-1", "١٢٣٤-11", "x" * 500, ""]
)
def test_a_season_that_is_no_month_is_404_with_a_message(season: str) -> None:
    response = Client().get(SEASON, {"season": season})

    assert response.status_code == 404
    assert "is not a season: a season is a month, written like" in page_text(response)


def test_a_season_still_to_come_is_404_with_a_message() -> None:
    coming = (this_season() + timedelta(days=40)).replace(day=1)

    response = Client().get(SEASON, {"season": f"{coming:%Y-%m}"})

    assert response.status_code == 404
    assert f"{coming:%B %Y} has not begun yet." in page_text(response)


def test_a_past_season_without_a_table_says_so() -> None:
    response = Client().get(SEASON, {"season": "2020-01"})

    assert response.status_code == 200
    assert "No rated games in this table yet." in page_text(response)


def test_twenty_five_rows_a_page_and_the_place_goes_on_across_pages() -> None:
    for i in range(28):
        seasoned(player(f"P{i:02}"), 1400 + i)

    first = Client().get(SEASON)
    second = Client().get(SEASON, {"page": "2"})

    assert len(rows_of(first)) == 25 and "Page 1 of 2" in page_text(first)
    assert rows_of(second) == [
        "26 P02 1,402 10 Bronze",
        "27 P01 1,401 10 Bronze",
        "28 P00 1,400 10 Bronze",
    ]
    assert 'rel="prev"' in second.text and 'rel="next"' not in second.text


@pytest.mark.parametrize("page", ["0", "-1", "abc", "١", "9" * 40, "1e3", "", "99"])
def test_a_bad_page_number_falls_back_to_a_page_there_is(page: str) -> None:
    amy = player("Amy")
    seasoned(amy, 1500, games=1)
    rated_change(amy, 1500, 1500)

    for url in (SEASON, ALL_TIME):
        response = Client().get(url, {"page": page})

        assert response.status_code == 200
        assert rows_of(response) == ["1 Amy 1,500 1 Master"]


def test_a_provisional_rating_carries_its_question_mark() -> None:
    sure, unsure = player("Sure"), player("Unsure")
    rated_change(sure, 1500, 1600, sigma=4.0)
    rated_change(unsure, 1500, 1566, sigma=7.5)
    seasoned(sure, 1600, sigma=4.0)
    seasoned(unsure, 1566, games=1, sigma=7.5)

    for url in (SEASON, ALL_TIME):
        rows = rows_of(Client().get(url))

        assert rows[0].startswith("1 Sure 1,600 ")
        assert rows[1].startswith("2 Unsure 1,566 ? ")


def test_the_all_time_table_is_everyones_rating_now() -> None:
    amy, bob = player("Amy"), player("Bob")
    rated_change(amy, 1500, 1550, when=timezone.now() - timedelta(days=35))  # no season now
    rated_change(bob, 1500, 1480)
    Rating.objects.filter(user=bob).update(games=3)

    response = Client().get(ALL_TIME)

    assert rows_of(response) == ["1 Amy 1,550 1 Master", "2 Bob 1,480 3 Silver"]
    assert "Classic Yahtzee · all time" in page_text(response)


def test_my_own_row_is_marked(client_for) -> None:
    me = player("Me")
    seasoned(me, 1500)

    response = client_for(me).get(SEASON)

    assert 'class="is-mine"' in response.text and "tag-you" in response.text


def test_switching_table_over_htmx_answers_with_the_table_only() -> None:
    seasoned(player("Amy"), 1500)

    response = Client().get(SEASON, {"kind": "triple"}, headers=HTMX)

    assert response.status_code == 200
    assert "<html" not in response.text and 'id="ratings"' in response.text
    assert "HX-Request" in response["Vary"]


def test_a_season_page_costs_three_queries_then_none_for_a_minute(
    django_assert_num_queries,
) -> None:
    for i in range(6):
        seasoned(player(f"P{i}"), 1500 + i)
        seasoned(player(f"Q{i}"), 1500 + i, season=last_season())

    with django_assert_num_queries(3):  # the past seasons, the table's size, the page of rows
        first = Client().get(SEASON)
    with django_assert_num_queries(0):  # a visitor's table is kept for the minute
        again = Client().get(SEASON, {"page": "1"})
    with django_assert_num_queries(2):  # another table: its size and rows
        last = Client().get(SEASON, {"season": f"{last_season():%Y-%m}"})
    member = client_for(player("Member"))
    member.get(SEASON)
    with django_assert_num_queries(3):  # the session, the account, the rows (the size kept)
        mine = member.get(SEASON)

    assert len(rows_of(first)) == len(rows_of(again)) == len(rows_of(last)) == 6
    assert len(rows_of(mine)) == 6


def test_a_visitors_table_is_at_most_a_minute_old(monkeypatch) -> None:
    seasoned(player("Ann"), 1500)
    assert "Ann" in page_text(Client().get(SEASON))
    seasoned(player("Ben"), 1510)

    assert "Ben" not in page_text(Client().get(SEASON))  # the visitor's kept table
    member = client_for(player("Member"))
    assert "Ben" in page_text(member.get(SEASON))  # an account's own, fresh
    later = time.time() + views.KEPT + selectors.SIZE_KEPT
    monkeypatch.setattr(time, "time", lambda: later)  # the next minute, the cache's clock too
    shown = page_text(Client().get(SEASON))
    assert "Ben" in shown and "2 players." in shown


def test_a_tables_size_is_kept_a_minute_then_counted_again(monkeypatch) -> None:
    member = client_for(player("Member"))  # an account's table: its rows read every time
    seasoned(player("P0"), 1500)
    assert "1 player." in page_text(member.get(SEASON))
    seasoned(player("P1"), 1510)

    shown = page_text(member.get(SEASON))  # the size kept, the rows read afresh: no fewer
    assert "2 players." in shown and "P1" in shown
    for i in range(2, 27):
        seasoned(player(f"P{i}"), 1400)  # a second page's worth, past the size kept
    shown = page_text(member.get(SEASON))  # one page known: its 25 rows
    assert "25 players." in shown and "Page 1 of 2" not in shown
    later = time.time() + selectors.SIZE_KEPT + 1
    monkeypatch.setattr(time, "time", lambda: later)  # the local-memory cache's clock
    shown = page_text(member.get(SEASON))
    assert "27 players." in shown and "Page 1 of 2" in shown


def test_the_top_ten_and_every_pages_navigation_lead_to_the_ratings() -> None:
    scores = Client().get(reverse("high_scores")).text

    assert scores.count(f'href="{SEASON}"') == 3  # the header, the lead, the footer
