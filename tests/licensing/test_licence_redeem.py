"""Redeeming in the service (``licensing.redeem_serial``): the paths a race or a failure takes,
what each try records, and which tries count toward the limit.

A lost race is staged by doing the other request's write between the check and the claim
(``licensing._take``), so each fallback runs every time, on every database.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from datetime import timedelta

import pytest
from django.db import DatabaseError
from django.utils import timezone

from accounts import licensing, serials
from accounts.client_ip import client_network
from accounts.models import AttemptOutcome, RedemptionAttempt, Serial, ThrottleKey, User
from tests.licensing.licensing_support import ADDRESS, KNOWN, NOBODYS, OTHER, serial_from, typo_of

pytestmark = pytest.mark.django_db


def redeem(user: User, text: str = KNOWN) -> licensing.Licence:
    return licensing.redeem_serial(user=user, text=text, client_ip=ADDRESS)


def outcomes() -> list[str]:
    return list(RedemptionAttempt.objects.order_by("pk").values_list("outcome", flat=True))


@pytest.fixture
def meanwhile(monkeypatch: pytest.MonkeyPatch) -> Iterator[Callable[[Callable[[], None]], None]]:
    """Run ``write`` after the serial was checked free and before it is claimed."""
    writes: list[Callable[[], None]] = []
    take = licensing._take

    def take_after_the_write(*, user: User, serial: Serial) -> AttemptOutcome:
        for write in writes:
            write()
        return take(user=user, serial=serial)

    monkeypatch.setattr(licensing, "_take", take_after_the_write)
    yield writes.append
    assert writes, "nothing was staged"


# --- Losing a race between the check and the claim -----------------------------------------


def test_a_serial_another_account_took_meanwhile_is_refused_as_used(
    player: User, make_user: Callable[..., User], stock: Callable[..., Serial], meanwhile
) -> None:
    serial = stock(KNOWN)
    bob = make_user("bob")
    meanwhile(lambda: Serial.objects.filter(pk=serial.pk).update(
        redeemed_by=bob, redeemed_at=timezone.now()
    ))  # fmt: skip

    with pytest.raises(licensing.SerialRefused) as refused:
        redeem(player)

    assert refused.value.outcome == AttemptOutcome.USED
    serial.refresh_from_db()
    assert serial.redeemed_by == bob
    assert outcomes() == [AttemptOutcome.USED]


def test_a_serial_revoked_meanwhile_is_refused_as_revoked(
    player: User, stock: Callable[..., Serial], meanwhile
) -> None:
    serial = stock(KNOWN)
    meanwhile(lambda: Serial.objects.filter(pk=serial.pk).update(revoked_at=timezone.now()))

    with pytest.raises(licensing.SerialRefused) as refused:
        redeem(player)

    assert refused.value.outcome == AttemptOutcome.REVOKED
    assert not licensing.licence_of(player).registered
    assert outcomes() == [AttemptOutcome.REVOKED]


def test_a_serial_the_same_account_took_meanwhile_is_simply_its_own(
    player: User, stock: Callable[..., Serial], meanwhile
) -> None:
    """A double-clicked Register button: the second request finds the first one's work done."""
    serial = stock(KNOWN)
    meanwhile(lambda: Serial.objects.filter(pk=serial.pk).update(
        redeemed_by=player, redeemed_at=timezone.now()
    ))  # fmt: skip

    licence = redeem(player)

    assert licence.registered and licence.last4 == KNOWN[-4:]
    assert outcomes() == [AttemptOutcome.ALREADY_YOURS]


def test_an_account_registered_with_another_serial_meanwhile_keeps_that_one(
    player: User, stock: Callable[..., Serial], register: Callable[..., Serial], meanwhile
) -> None:
    wanted = stock(KNOWN)
    meanwhile(lambda: register(player, OTHER) and None)

    with pytest.raises(licensing.SerialRefused) as refused:
        redeem(player)

    assert refused.value.outcome == AttemptOutcome.ALREADY_REGISTERED
    wanted.refresh_from_db()
    assert wanted.redeemed_by is None and wanted.redeemed_at is None
    assert licensing.licence_of(player).last4 == OTHER[-4:]
    assert outcomes() == [AttemptOutcome.ALREADY_REGISTERED]


# --- When the look-up itself fails -----------------------------------------------------------


def test_a_look_up_that_fails_is_recorded_as_a_failed_try_and_the_error_goes_on(
    player: User, stock: Callable[..., Serial], monkeypatch: pytest.MonkeyPatch
) -> None:
    stock(KNOWN)

    def broken(**kwargs: object) -> AttemptOutcome:
        raise DatabaseError("the connection was lost")

    with pytest.raises(serials.SerialTypo):
        redeem(player, typo_of(KNOWN))
    monkeypatch.setattr(licensing, "_claim", broken)

    with pytest.raises(DatabaseError, match="the connection was lost"):
        redeem(player)

    assert outcomes() == [AttemptOutcome.TYPO, AttemptOutcome.UNKNOWN]  # the earlier one kept


# --- What each try records -------------------------------------------------------------------


def test_every_try_is_recorded_with_its_account_and_address(
    player: User, stock: Callable[..., Serial], settings
) -> None:
    settings.SERIAL_ATTEMPTS_PER_ACCOUNT = 1
    stock(KNOWN)
    for text in ("not a serial", typo_of(KNOWN), NOBODYS, KNOWN):
        with pytest.raises((serials.SerialError, licensing.LicenceError)):
            redeem(player, text)

    assert outcomes() == [
        AttemptOutcome.MALFORMED,
        AttemptOutcome.TYPO,
        AttemptOutcome.UNKNOWN,
        AttemptOutcome.LIMITED,
    ]
    recorded = RedemptionAttempt.objects.values_list("user", "client_ip", "client_network")
    assert set(recorded) == {(player.pk, ADDRESS, client_network(ADDRESS))}


def test_a_serial_that_registers_is_recorded_as_registered(
    player: User, stock: Callable[..., Serial]
) -> None:
    stock(KNOWN)

    redeem(player)

    assert outcomes() == [AttemptOutcome.REGISTERED]
    assert RedemptionAttempt.objects.get().user == player


def test_a_look_up_locks_the_rows_of_its_account_and_its_address(player: User) -> None:
    """Counting is serialised by locking one row per key: the rows must exist to be locked."""
    with pytest.raises(licensing.SerialRefused):
        redeem(player, NOBODYS)

    assert set(ThrottleKey.objects.values_list("key", flat=True)) == {
        f"user:{player.pk}",
        f"ip:{client_network(ADDRESS)}",
    }


# --- Which tries count toward the limit (five an hour per account) ---------------------------


def shelf(stock: Callable[..., Serial], count: int) -> list[str]:
    return [serial_from(f"{i:018d}Z") for i in range(count) if stock(serial_from(f"{i:018d}Z"))]


def test_tries_with_revoked_serials_count_toward_the_limit(
    player: User, stock: Callable[..., Serial]
) -> None:
    revoked = shelf(stock, 5)
    Serial.objects.update(revoked_at=timezone.now())
    for text in revoked:
        with pytest.raises(licensing.SerialRefused, match="revoked"):
            redeem(player, text)

    with pytest.raises(licensing.TooManyAttempts):
        redeem(player, NOBODYS)


def test_tries_with_serials_used_by_others_count_toward_the_limit(
    player: User, make_user: Callable[..., User], stock: Callable[..., Serial]
) -> None:
    used = shelf(stock, 5)
    for serial in Serial.objects.all():
        serial.redeemed_by, serial.redeemed_at = make_user(), timezone.now()
        serial.save()
    for text in used:
        with pytest.raises(licensing.SerialRefused, match="already registered another"):
            redeem(player, text)

    with pytest.raises(licensing.TooManyAttempts):
        redeem(player, NOBODYS)


def test_tries_still_being_looked_up_count_toward_the_limit(player: User) -> None:
    """Five look-ups in flight (pending) leave no try for a sixth."""
    RedemptionAttempt.objects.bulk_create(
        RedemptionAttempt(
            user=player,
            client_ip=ADDRESS,
            client_network=client_network(ADDRESS),
            outcome=AttemptOutcome.PENDING,
            created_at=timezone.now(),
        )
        for _ in range(5)
    )

    with pytest.raises(licensing.TooManyAttempts):
        redeem(player, NOBODYS)


# --- How long to wait --------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("wait", "seconds", "words"),
    [
        (timedelta(seconds=-2), 1, "1 minute."),  # a clock a little behind: still a real wait
        (timedelta(0), 1, "1 minute."),
        (timedelta(seconds=0.2), 1, "1 minute."),
        (timedelta(seconds=1.5), 2, "1 minute."),
        (timedelta(seconds=60), 60, "1 minute."),
        (timedelta(seconds=61), 61, "2 minutes."),
        (timedelta(minutes=59, seconds=30), 3570, "60 minutes."),
    ],
)
def test_the_wait_is_whole_seconds_and_minutes_rounded_up_never_zero(
    wait: timedelta, seconds: int, words: str
) -> None:
    refused = licensing.TooManyAttempts(retry_after=wait)

    assert refused.retry_after_seconds == seconds
    assert str(refused).endswith(f"Please try again in {words}")
