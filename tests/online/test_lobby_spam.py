"""Lobby spam (issue 19, item 5): a host keeps at most ``MAX_WAITING_GAMES`` games waiting for
players."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.urls import reverse
from django.utils import timezone

from accounts.models import User
from games import services
from games.models import LOBBY_SEAT_LIFETIME, Game, GameStatus, Invitation
from tests.factories import page_text

pytestmark = pytest.mark.django_db

CAP = services.MAX_WAITING_GAMES
A_MINUTE = timedelta(minutes=1)
REFUSED = r"^You already have 3 games waiting for players"


def opened_ago(game: Game, age: timedelta) -> None:
    """Make ``game`` and the seats it offers look ``age`` old."""
    then = timezone.now() - age
    Game.objects.filter(pk=game.pk).update(created_at=then)
    Invitation.objects.filter(game=game).update(created_at=then)


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

    services.abandon_game(game_id=first.pk, user=player)
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
