"""Lobby spam (issue 19, item 5): a host keeps at most ``MAX_WAITING_GAMES`` games waiting for
players, lobby seats nobody takes close after ``LOBBY_SEAT_LIFETIME``, the newest games are
listed first, and the lobby walks its index from the newest seat and stops after one page."""

from __future__ import annotations

import re
from datetime import timedelta

import pytest
from django.db import connection, transaction
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from django.utils import timezone

from accounts.models import User
from games.models import LOBBY_SEAT_LIFETIME, Game, GameStatus, Invitation, Seat
from games.play import actions as play
from games.tables import selectors, services, waiting
from tests.factories import client_for, make_user, page_text

pytestmark = pytest.mark.django_db

CAP = waiting.MAX_WAITING_GAMES
A_MINUTE = timedelta(minutes=1)
REFUSED = r"^You already have 3 games waiting for players"
CLOSED = r"^Nobody took this seat in the lobby within 24 hours"


def opened_ago(game: Game, age: timedelta) -> None:
    """Make ``game`` and the seats it offers look ``age`` old."""
    then = timezone.now() - age
    Game.objects.filter(pk=game.pk).update(created_at=then)
    Invitation.objects.filter(game=game).update(created_at=then)


def lobby_ids(viewer: User) -> list[int]:
    return [seat.game_id for seat in selectors.lobby(viewer=viewer)]


def open_waiting_games(host: User, count: int = CAP) -> list[Game]:
    return [services.open_game(owner=host, open_seats=1, invites=i % 2) for i in range(count)]


# --- The cap: games one host keeps waiting ----------------------------------------------------


def test_a_host_keeps_at_most_three_games_waiting_and_a_fourth_changes_nothing(player) -> None:
    open_waiting_games(player)

    with pytest.raises(services.BadGuests, match=REFUSED):
        services.open_game(owner=player, invites=1, guests=["Ann"])

    assert Game.objects.filter(owner=player).count() == CAP
    assert Invitation.objects.count() == 1 + 2 + 1  # the three games' seats, no more
    player.refresh_from_db()
    assert player.guest_names == []  # not even the name typed is remembered


def test_a_game_started_or_abandoned_frees_its_place(player) -> None:
    first, second, _ = open_waiting_games(player)

    play.abandon_game(game_id=first.pk, user=player)
    services.open_game(owner=player, open_seats=1)
    services.begin_game(game_id=second.pk, user=player)
    services.open_game(owner=player, invites=1)

    assert Game.objects.filter(owner=player, status=GameStatus.WAITING).count() == CAP


@pytest.mark.parametrize(
    ("age", "counts"),
    [(LOBBY_SEAT_LIFETIME - A_MINUTE, True), (LOBBY_SEAT_LIFETIME + A_MINUTE, False)],
)
def test_a_game_waiting_past_the_lifetime_no_longer_counts(player, age, counts) -> None:
    oldest, *_ = open_waiting_games(player)
    opened_ago(oldest, age)

    if counts:
        with pytest.raises(services.BadGuests, match=REFUSED):
            services.open_game(owner=player, open_seats=1)
    else:
        services.open_game(owner=player, open_seats=1)
        assert Game.objects.filter(owner=player, status=GameStatus.WAITING).count() == CAP + 1


def test_a_game_with_no_seat_offered_starts_whatever_waits(player) -> None:
    open_waiting_games(player)

    game = services.open_game(owner=player, guests=["Ann"])

    assert game.status == GameStatus.IN_PROGRESS


def test_the_new_game_form_says_why_a_fourth_game_is_refused(player, alice_client) -> None:
    open_waiting_games(player)

    response = alice_client.post(reverse("games:new"), {"kind": "classic", "open_seats": "1"})

    assert response.status_code == 400
    assert "You already have 3 games waiting for players" in page_text(response)
    assert Game.objects.count() == CAP


# --- Expiry: seats nobody takes ---------------------------------------------------------------


def test_lobby_seats_nobody_takes_leave_the_lobby_after_the_lifetime(player) -> None:
    old = services.open_game(owner=player, open_seats=1)
    recent = services.open_game(owner=make_user("cy"), open_seats=1)
    opened_ago(old, LOBBY_SEAT_LIFETIME + A_MINUTE)
    opened_ago(recent, LOBBY_SEAT_LIFETIME - A_MINUTE)

    assert lobby_ids(make_user("bob")) == [recent.pk]


def test_an_expired_lobby_seat_cannot_be_taken(player) -> None:
    game = services.open_game(owner=player, open_seats=1)
    opened_ago(game, LOBBY_SEAT_LIFETIME + A_MINUTE)

    with pytest.raises(services.InvitationError, match=CLOSED):
        services.join_game(token=Invitation.objects.get().token, user=make_user("bob"))

    assert Seat.objects.filter(game=game).count() == 1


def test_joining_an_expired_lobby_seat_answers_409_saying_so(player) -> None:
    game = services.open_game(owner=player, open_seats=1)
    opened_ago(game, LOBBY_SEAT_LIFETIME + A_MINUTE)
    url = reverse("games:join", kwargs={"token": Invitation.objects.get().token})

    response = client_for(make_user("bob")).post(url)

    assert response.status_code == 409
    assert re.search(CLOSED[1:], page_text(response))


def test_a_link_for_a_friend_does_not_expire(player) -> None:
    game = services.open_game(owner=player, invites=1)
    opened_ago(game, 3 * LOBBY_SEAT_LIFETIME)

    services.join_game(token=Invitation.objects.get().token, user=make_user("bob"))

    assert Seat.objects.filter(game=game).count() == 2


# --- Newest first -----------------------------------------------------------------------------


def test_the_lobby_lists_the_newest_games_first() -> None:
    games = [services.open_game(owner=make_user(f"host{i}"), open_seats=2) for i in range(3)]

    assert lobby_ids(make_user("bob")) == [game.pk for game in reversed(games)]


def test_a_new_hosts_game_shows_on_a_full_lobby_page() -> None:
    for i in range(11):  # 33 games: more than the page's 30
        open_waiting_games(make_user(f"host{i}", display_name=f"Host {i}"))
    services.open_game(owner=make_user("newcomer", display_name="Newcomer"), open_seats=1)

    text = page_text(client_for(make_user("bob")).get(reverse("games:lobby")))

    assert text.count(" open Join") == 30
    assert "Newcomer Classic Yahtzee 1 seated, 1 open Join" in text


# --- Flat in the number of open games ---------------------------------------------------------


def test_the_lobby_costs_two_queries_however_many_games_wait(django_assert_num_queries) -> None:
    for i in range(20):
        services.open_game(owner=make_user(f"host{i}"), open_seats=2)
    bob = make_user("bob")

    with django_assert_num_queries(2):
        assert len(selectors.lobby(viewer=bob, limit=5)) == 5
    with django_assert_num_queries(2):
        assert len(selectors.lobby(viewer=bob)) == 20


def plan_of(sql: str) -> str:
    """The plan the database picks for ``sql``; on PostgreSQL with sequential scans priced out,
    so a handful of test rows shows the plan a full lobby gets."""
    with transaction.atomic(), connection.cursor() as cursor:
        if connection.vendor == "sqlite":
            cursor.execute("EXPLAIN QUERY PLAN " + sql)
            return "\n".join(str(row[3]) for row in cursor.fetchall())
        cursor.execute("SET LOCAL enable_seqscan = off")
        cursor.execute("SET LOCAL enable_bitmapscan = off")
        cursor.execute("EXPLAIN " + sql)
        return "\n".join(row[0] for row in cursor.fetchall())


def test_the_lobby_walks_its_index_newest_first_and_stops_after_a_page() -> None:
    for i in range(5):
        services.open_game(owner=make_user(f"host{i}"), open_seats=2)
    bob = make_user("bob")

    with CaptureQueriesContext(connection) as captured:
        selectors.lobby(viewer=bob)
    seats_sql = captured.captured_queries[0]["sql"]
    plan = plan_of(seats_sql)

    assert "invitation_lobby_newest" in plan, plan
    assert re.search(r"LIMIT \d+", seats_sql), seats_sql
    # The walk joins no table: no planner can start from the games and sort every open seat
    # (PostgreSQL did, believing few games wait; the status is asked by a subquery instead).
    assert " JOIN " not in seats_sql, seats_sql
    # No sort: rows come in the index's order, so the read stops after the page's rows.
    assert "TEMP B-TREE" not in plan and not re.search(r"\bSort\b", plan), plan
