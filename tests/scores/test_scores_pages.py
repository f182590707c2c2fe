"""The high-score and statistics pages over HTTP."""

from __future__ import annotations

from django.core.cache import cache
from django.test import Client
from django.urls import reverse

from games.models import Game, GameStatus, PlayerKind, Score, Seat
from games.play import actions as play


def test_the_high_scores_are_public(client, make_user, finished):
    finished(make_user("amy", display_name="Amy"), 275, yahtzees=2)

    response = client.get(reverse("high_scores"))

    assert response.status_code == 200
    assert "<html" in response.text
    assert "Amy" in response.text and "275" in response.text
    assert 'aria-current="page">Classic Yahtzee<' in response.text


def test_switching_table_over_htmx_answers_with_the_table_only(client, make_user, finished):
    finished(make_user("amy"), 275, days_ago=40)

    response = client.get(reverse("high_scores"), {"period": "30d"}, headers={"HX-Request": "true"})

    assert response.status_code == 200
    assert "<html" not in response.text
    assert 'id="scores"' in response.text
    assert "No finished games in this table yet" in response.text
    assert "HX-Request" in response["Vary"]


def test_unknown_choices_fall_back_to_the_defaults(client, db):
    response = client.get(reverse("high_scores"), {"kind": "poker", "period": "x"})

    assert response.status_code == 200
    assert 'aria-current="page">All time<' in response.text


def test_the_top_ten_page_costs_two_queries_then_one_for_a_visitor(
    client, make_user, finished, django_assert_num_queries
):
    for i in range(12):
        finished(make_user(f"p{i}"), 200 + i)

    with django_assert_num_queries(2):  # the newest score's id, then the table
        first = client.get(reverse("high_scores"))
    with django_assert_num_queries(1):  # the newest score's id: the table is kept
        again = client.get(reverse("high_scores"))

    assert first.status_code == again.status_code == 200
    table = first.text[first.text.index('<section id="scores"') :]
    assert table == again.text[again.text.index('<section id="scores"') :]


def test_a_newly_finished_game_shows_at_once(client, make_user, finished):
    finished(make_user("amy", display_name="Amy"), 250)
    assert "Amy" in client.get(reverse("high_scores")).text

    finished(make_user("bob", display_name="Bob"), 300)

    assert "Bob" in client.get(reverse("high_scores")).text


def test_a_logged_in_player_outside_the_ten_sees_their_rank(client, make_user, finished):
    for i in range(10):
        finished(make_user(f"p{i}"), 300 + i)
    me = make_user("me")
    finished(me, 250)
    client.force_login(me)

    response = client.get(reverse("high_scores"))

    assert "You: <strong>#11</strong> with 250" in response.text


def test_my_rows_are_highlighted_not_by_colour_alone(client, make_user, finished):
    me = make_user("me")
    finished(me, 250)
    client.force_login(me)

    response = client.get(reverse("high_scores"))

    assert 'class="is-mine"' in response.text
    assert 'class="tag tag-you">you<' in response.text


def test_a_players_own_page_shows_everything(client, player, finished):
    finished(player, 210)
    finished(player, 260)
    client.force_login(player)

    response = client.get(reverse("my_stats"), follow=True)

    assert response.status_code == 200
    assert "Your statistics" in response.text
    assert "Games started" in response.text
    assert '<svg class="chart"' in response.text
    assert "<desc" in response.text


def test_the_public_page_shows_no_private_data(client, player, finished):
    finished(player, 210)

    response = client.get(reverse("player", kwargs={"public_id": player.public_id}))

    assert response.status_code == 200
    assert "Alice" in response.text
    assert player.email not in response.text
    assert player.username not in response.text.replace("Alice", "")
    assert "Games started" not in response.text


def test_an_unknown_player_is_404(client, db):
    unknown = "00000000-0000-4000-8000-000000000000"

    assert client.get(reverse("player", kwargs={"public_id": unknown})).status_code == 404


def test_the_game_over_panel_announces_a_new_high_score(client, player, roll, fill_card):
    from games import rules
    from games.tables import services

    game = services.start_game(owner=player)
    fill_card(game, {box: 0 for box in rules.CATEGORIES if box != "chance"})
    roll(game, 6, 6, 6, 6, 5)
    game.refresh_from_db()
    play.score_box(game_id=game.pk, user=player, version=game.version, box="chance")
    client.force_login(player)

    response = client.get(reverse("games:play", kwargs={"game_id": game.pk}))

    assert "New high score — #1 of all time!" in response.text
    assert Score.objects.count() == 1
    assert Game.objects.get().status == GameStatus.FINISHED
    assert Seat.objects.get().grand_total == 29


def test_a_public_record_is_kept_until_the_player_finishes_another_game(
    client, player, finished, django_assert_num_queries
):
    finished(player, 210)
    url = reverse("player", kwargs={"public_id": player.public_id})
    client.get(url)

    with django_assert_num_queries(2):  # the player, their newest score: the record is kept
        kept = client.get(url)
    finished(player, 290)
    fresh = client.get(url)

    def best(response):
        main = response.text[response.text.index("<main") : response.text.index("</main>")]
        return main[main.index("<dt>Best</dt>") :].split("</dd>")[0].rsplit(">", 1)[1]

    assert best(kept) == "210"
    assert best(fresh) == "290"


def test_guests_scores_are_never_a_public_table(client, make_user, finished):
    host = make_user("host", display_name="Hostess")
    finished(host, 180)
    guest = finished(host, 290)  # the same game shape, turned into a guest's seat at her screen
    as_guest = {"user": None, "player_kind": PlayerKind.GUEST, "display_name": "Zelda"}
    Seat.objects.filter(pk=guest.seat_id).update(**as_guest)
    Score.objects.filter(pk=guest.pk).update(**as_guest)

    response = client.get(reverse("high_scores"), {"player_kind": "guest"})

    assert response.status_code == 200
    assert "Zelda" not in response.text and ">290<" not in response.text
    assert "Hostess" in response.text  # the people's table instead
    assert 'aria-current="page">People<' in response.text


def test_the_top_ten_dates_a_game_in_the_sites_time_zone(player, settings) -> None:
    from datetime import UTC, datetime

    from tests.factories import finished_game

    finished_game(player, 280, when=datetime(2026, 3, 1, 23, 30, tzinfo=UTC))

    in_utc = Client().get(reverse("high_scores")).text
    settings.TIME_ZONE = "Europe/Berlin"  # half past midnight on the 2nd there
    cache.clear()
    in_berlin = Client().get(reverse("high_scores")).text

    assert "1 Mar 26" in in_utc and "2 Mar 26" not in in_utc
    assert "2 Mar 26" in in_berlin
