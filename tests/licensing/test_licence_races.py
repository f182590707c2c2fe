"""Races, with real concurrent connections: each thread is a request on its own connection.

The threads wait at a barrier and go at the same instant, so the database's own locking (not
the test's timing) decides who wins. These tests commit for real, hence ``transaction=True``.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from datetime import timedelta

import pytest
from django.test import Client
from django.utils import timezone

from accounts import licensing, serials
from accounts.client_ip import client_network
from accounts.models import (
    TRIAL_GAMES,
    AttemptOutcome,
    RedemptionAttempt,
    Serial,
    ThrottleKey,
    User,
)
from games.models import Game
from tests.licensing.licensing_support import (
    ADDRESS,
    KNOWN,
    NEW_GAME_URL,
    SERIAL_URL,
    run_together,
    serial_from,
)

pytestmark = pytest.mark.django_db(transaction=True)


def outcomes(results: list[object]) -> list[str]:
    """What each thread got, by name, sorted: ``["Licence", "SerialRefused"]``."""
    return sorted(type(result).__name__ for result in results)


def test_two_accounts_racing_for_one_serial_register_exactly_one(
    make_user: Callable[..., User], stock: Callable[..., Serial]
) -> None:
    serial = stock(KNOWN)
    racers = [make_user("alice"), make_user("bob")]

    results = run_together(
        2,
        lambda i: licensing.redeem_serial(
            user=racers[i], text=serials.display(KNOWN), client_ip=ADDRESS
        ),
    )

    assert outcomes(results) == ["Licence", "SerialRefused"], results
    (refusal,) = [r for r in results if isinstance(r, licensing.SerialRefused)]
    assert refusal.outcome == AttemptOutcome.USED
    assert str(refusal) == "This serial number has already registered another account."
    serial.refresh_from_db()
    (winner,) = [racers[i] for i, r in enumerate(results) if isinstance(r, licensing.Licence)]
    assert serial.redeemed_by == winner


def rendezvous(
    monkeypatch: pytest.MonkeyPatch, name: str, parties: int, *, timeout: float, when=None
) -> list[str]:
    """Hold every call of ``licensing.<name>`` until ``parties`` calls wait there together.

    The racers' worst interleaving, made certain: each has done everything before ``name``
    before any goes on. Where the code under test serialises the racers (a lock held across
    ``name``), they can never all meet: the first waits ``timeout`` seconds, the rendezvous
    breaks, and from then on every call goes straight through, in the order the locks allow.
    Returns how each call fared ("met" or "alone"), so a test can tell which it saw.
    """
    barrier = threading.Barrier(parties)
    original = getattr(licensing, name)
    fared: list[str] = []

    def held(*args: object, **kwargs: object) -> object:
        if when is None or when(*args, **kwargs):
            try:
                barrier.wait(timeout=timeout)
                fared.append("met")
            except threading.BrokenBarrierError:
                fared.append("alone")
        return original(*args, **kwargs)

    monkeypatch.setattr(licensing, name, held)
    return fared


def test_ten_accounts_who_all_found_the_serial_free_register_exactly_one(
    make_user: Callable[..., User], stock: Callable[..., Serial], monkeypatch: pytest.MonkeyPatch
) -> None:
    """All ten have checked the serial free before any claims it: only the claim itself, a
    conditional UPDATE (``redeemed_at IS NULL``), can keep nine of them out."""
    stock(KNOWN)
    racers = [make_user() for _ in range(10)]
    fared = rendezvous(monkeypatch, "_take", 10, timeout=30)

    results = run_together(
        10, lambda i: licensing.redeem_serial(user=racers[i], text=KNOWN, client_ip=f"192.0.2.{i}")
    )

    assert fared == ["met"] * 10
    assert outcomes(results) == ["Licence"] + ["SerialRefused"] * 9, results
    assert {r.outcome for r in results if isinstance(r, licensing.SerialRefused)} == {
        AttemptOutcome.USED
    }
    assert Serial.objects.filter(redeemed_by__isnull=False).count() == 1


def test_one_account_racing_two_serials_registers_with_exactly_one(
    player: User, stock: Callable[..., Serial]
) -> None:
    stock(KNOWN)
    other = serials.new_serial()
    stock(other)

    results = run_together(
        2, lambda i: licensing.redeem_serial(user=player, text=(KNOWN, other)[i], client_ip=ADDRESS)
    )

    assert outcomes(results) == ["Licence", "SerialRefused"], results
    assert Serial.objects.filter(redeemed_by=player).count() == 1


def test_twenty_parallel_new_games_with_one_trial_game_left_start_exactly_one(
    player: User, trial_left, client_for: Callable[..., Client]
) -> None:
    trial_left(player, 1)
    clients = [client_for(player, REMOTE_ADDR=ADDRESS) for _ in range(20)]

    responses = run_together(20, lambda i: clients[i].post(NEW_GAME_URL, {"kind": "classic"}))

    assert Game.objects.filter(owner=player).count() == 1
    game = Game.objects.get(owner=player)
    locations = sorted(getattr(r, "headers", {}).get("Location", repr(r)) for r in responses)
    assert locations == sorted([f"/play/{game.pk}/"] + [SERIAL_URL] * 19)
    player.refresh_from_db()
    assert player.trial_games_used == TRIAL_GAMES


def test_parallel_failed_serials_cannot_all_take_the_last_try(
    player: User, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Four failures in the last hour: ten racing guesses get one look-up between them.

    Each guess is held after counting the tries and before recording its own, until all ten
    have counted: only the counting transaction, with its lock on the throttle keys, keeps them
    from all counting four and all going on. With the lock they never meet there.
    """
    fared = rendezvous(
        monkeypatch,
        "_record",
        10,
        timeout=3,
        when=lambda user, client_ip, outcome: outcome == AttemptOutcome.PENDING,
    )
    RedemptionAttempt.objects.bulk_create(
        RedemptionAttempt(
            user=player,
            client_ip=ADDRESS,
            client_network=client_network(ADDRESS),
            outcome=AttemptOutcome.UNKNOWN,
            created_at=timezone.now() - timedelta(minutes=5),
        )
        for _ in range(4)
    )
    # The rows those four tries created: only the lock taken on them keeps the guesses apart
    # (a row being created would hold them apart by itself, through its unique index).
    ThrottleKey.objects.bulk_create(
        ThrottleKey(key=key) for key in (f"user:{player.pk}", f"ip:{client_network(ADDRESS)}")
    )
    guesses = [serials.new_serial() for _ in range(10)]

    results = run_together(
        10, lambda i: licensing.redeem_serial(user=player, text=guesses[i], client_ip=ADDRESS)
    )

    assert outcomes(results) == ["SerialRefused"] + ["TooManyAttempts"] * 9, results
    assert fared == ["alone"]


def test_parallel_posts_to_the_serial_page_register_the_account_once(
    player: User, stock: Callable[..., Serial], client_for: Callable[..., Client]
) -> None:
    """A double-clicked Register button: both requests end on the dashboard, one registers."""
    stock(KNOWN)
    clients = [client_for(player, REMOTE_ADDR=ADDRESS) for _ in range(2)]

    responses = run_together(2, lambda i: clients[i].post(SERIAL_URL, {"serial": KNOWN}))

    assert [getattr(r, "status_code", r) for r in responses] == [302, 302]
    assert sorted(RedemptionAttempt.objects.values_list("outcome", flat=True)) == [
        AttemptOutcome.ALREADY_YOURS,
        AttemptOutcome.REGISTERED,
    ]


def test_a_fresh_account_at_a_busy_address_gets_one_look_up_however_fast_it_asks(
    make_user: Callable[..., User],
) -> None:
    """Its first look-up is free of the address limit; the racing ones see it pending."""
    when = timezone.now() - timedelta(minutes=5)
    RedemptionAttempt.objects.bulk_create(
        RedemptionAttempt(
            user=make_user(),
            client_ip=ADDRESS,
            client_network=client_network(ADDRESS),
            outcome=AttemptOutcome.UNKNOWN,
            created_at=when,
        )
        for _ in range(20)
    )
    newcomer = make_user()

    results = run_together(
        6,
        lambda i: licensing.redeem_serial(
            user=newcomer, text=serials.display(serial_from(f"{i:019d}")), client_ip=ADDRESS
        ),
    )

    assert outcomes(results) == ["SerialRefused"] + ["TooManyAttempts"] * 5, results
