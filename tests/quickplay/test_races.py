"""Arrivals racing, each on its own connection released at one barrier (SQLite and PostgreSQL
alike): eight at once against one waiter make exactly one game with that waiter; two at once
with nobody waiting pair with each other or both wait, never a double seat; one account's
double click waits once."""

from __future__ import annotations

import pytest

from games.models import Game, Seat
from games.quickplay import services
from games.quickplay.models import QuickWait
from tests.licensing.licensing_support import run_together
from tests.quickplay.support import at, rated

pytestmark = pytest.mark.django_db(transaction=True)


def test_eight_arrivals_against_one_waiter_make_exactly_one_game_with_it() -> None:
    waiter = rated("waiter", 1500)
    services.join(user=waiter, kind="classic", now=at(0))
    # Far enough apart that no two arrivals match each other before the first window widens.
    arrivals = [rated(f"racer{i}", 1500 + (-1) ** i * (60 + 110 * (i // 2))) for i in range(8)]
    assert [a.pk for a in arrivals if abs(1500 - services.rating_of(a, "classic")) <= 100] == [
        arrivals[0].pk,
        arrivals[1].pk,
    ]
    arrivals.extend(rated(f"near{i}", 1500 + (-1) ** i * 40) for i in range(2))  # 80 apart

    results = run_together(
        len(arrivals), lambda i: services.join(user=arrivals[i], kind="classic", now=at(1))
    )

    assert not [r for r in results if isinstance(r, Exception)], results
    seated_with_waiter = Seat.objects.filter(game__seats__user=waiter).exclude(user=waiter)
    assert seated_with_waiter.count() == 1
    assert Seat.objects.filter(user=waiter).count() == 1
    # Nobody sits twice, and every game seats two who matched.
    for game in Game.objects.all():
        assert Seat.objects.filter(game=game).count() == 2
    seated = list(Seat.objects.values_list("user_id", flat=True))
    assert len(seated) == len(set(seated))
    assert QuickWait.objects.filter(game__isnull=False).count() == len(seated)


@pytest.mark.parametrize("attempt", range(3))
def test_two_arrivals_with_nobody_waiting_pair_or_wait_never_double(attempt: int) -> None:
    first, second = rated("first", 1500), rated("second", 1510)

    results = run_together(
        2, lambda i: services.join(user=(first, second)[i], kind="classic", now=at(0))
    )

    assert not [r for r in results if isinstance(r, Exception)], results
    assert Game.objects.count() <= 1
    assert Seat.objects.filter(user=first).count() == Seat.objects.filter(user=second).count()
    # Both waiting: the next check pairs them.
    services.check_in(user=first, now=at(5))
    assert Game.objects.count() == 1
    assert Seat.objects.count() == 2


def test_two_pages_checking_in_at_once_make_one_game() -> None:
    first, second = rated("first", 1500), rated("second", 1720)
    services.join(user=first, kind="classic", now=at(0))
    services.join(user=second, kind="classic", now=at(0))

    results = run_together(2, lambda i: services.check_in(user=(first, second)[i], now=at(15)))

    assert not [r for r in results if isinstance(r, Exception)], results
    assert Game.objects.count() == 1
    assert {r.game_id for r in results} == {Game.objects.get().pk}


@pytest.mark.parametrize("attempt", range(2))
def test_one_accounts_double_click_waits_once(attempt: int) -> None:
    alice = rated("alice", 1500)

    results = run_together(2, lambda i: services.join(user=alice, kind="classic", now=at(0)))

    refused = [r for r in results if isinstance(r, services.AlreadyWaiting)]
    assert len(refused) == 1, results
    assert QuickWait.objects.count() == 1


@pytest.mark.parametrize("attempt", range(3))
def test_eight_pages_checking_in_at_once_pair_off_without_deadlock(attempt: int) -> None:
    # Written as they would stand had they arrived one by one too far apart, then moved
    # together: every page's next check finds the others in reach.
    waiters = [rated(f"w{i}", 1500) for i in range(8)]
    QuickWait.objects.bulk_create(
        QuickWait(user=u, kind="classic", rating=1500, joined_at=at(0), checked_at=at(0))
        for u in waiters
    )

    results = run_together(8, lambda i: services.check_in(user=waiters[i], now=at(5)))

    assert not [r for r in results if isinstance(r, Exception)], results
    seated = list(Seat.objects.values_list("user_id", flat=True))
    assert len(seated) == len(set(seated))
    for game in Game.objects.all():
        assert Seat.objects.filter(game=game).count() == 2
    # Whoever is left unseated waits on, and the next checks pair them.
    for user in waiters:
        services.check_in(user=user, now=at(10))
    assert Game.objects.count() == 4
