"""Players racing for the last open seat, each on their own connection released at one barrier:
exactly one takes it, the others are told it is taken (SQLite and PostgreSQL alike); one host
racing to open games keeps no more waiting than the cap."""

from __future__ import annotations

import pytest

from accounts.models import TRIAL_GAMES
from games.models import Game, GameStatus, Invitation, Seat
from games.tables import services, waiting
from tests.factories import make_user
from tests.licensing.licensing_support import run_together

pytestmark = pytest.mark.django_db(transaction=True)


def test_eight_players_racing_for_the_last_seat_seat_exactly_one() -> None:
    host = make_user("host")
    game = services.open_game(owner=host, open_seats=1)
    token = Invitation.objects.get(game=game).token
    racers = [make_user(f"racer{i}") for i in range(8)]

    results = run_together(8, lambda i: services.join_game(token=token, user=racers[i]))

    refused = [r for r in results if isinstance(r, services.InvitationError)]
    assert len(refused) == 7, results
    assert {str(r) for r in refused} == {"Someone else has taken this seat."}
    assert Seat.objects.filter(game=game).count() == 2
    assert Invitation.objects.get(game=game).seat is not None


def test_players_racing_for_two_seats_take_each_once() -> None:
    host = make_user("host")
    game = services.open_game(owner=host, open_seats=2)
    first, second = Invitation.objects.filter(game=game).order_by("pk")
    racers = [make_user(f"racer{i}") for i in range(6)]

    run_together(
        6,
        lambda i: services.join_game(token=(first, second)[i % 2].token, user=racers[i]),
    )

    positions = list(Seat.objects.filter(game=game).values_list("position", flat=True))
    assert sorted(positions) == [0, 1, 2]


@pytest.mark.parametrize("attempt", range(3))
def test_one_account_through_two_links_at_once_takes_one_seat(attempt: int) -> None:
    host = make_user("host")
    game = services.open_game(owner=host, invites=2)
    first, second = Invitation.objects.filter(game=game).order_by("pk")
    bob = make_user("bob")

    results = run_together(
        2, lambda i: services.join_game(token=(first, second)[i].token, user=bob)
    )

    assert not [r for r in results if isinstance(r, Exception)], results
    assert Seat.objects.filter(game=game, user=bob).count() == 1
    assert Invitation.objects.filter(game=game, seat__isnull=False).count() == 1


def test_the_schema_refuses_a_second_seat_for_one_account() -> None:
    from django.db import IntegrityError, transaction

    host = make_user("host")
    game = services.open_game(owner=host, invites=1)

    with pytest.raises(IntegrityError), transaction.atomic():
        Seat.objects.create(game=game, position=1, user=host, display_name="host again")


@pytest.mark.parametrize("attempt", range(2))
def test_one_host_racing_to_open_games_keeps_at_most_three_waiting(attempt: int) -> None:
    # The probe: a trial account with one game left opened 40 lobby games at once.
    host = make_user("host", trial_games_used=TRIAL_GAMES - 1)

    results = run_together(8, lambda i: services.open_game(owner=host, open_seats=1))

    refused = [r for r in results if isinstance(r, services.BadGuests)]
    assert len(refused) == 8 - waiting.MAX_WAITING_GAMES, results
    assert Game.objects.filter(owner=host, status=GameStatus.WAITING).count() == 3
