"""Failed serials are limited: 5 an hour per account, 20 per address, counted in the database.

The address limit binds only accounts that have failed themselves within the hour, so a noisy
neighbour behind the same address never locks out a buyer entering a good serial.

What counts is a look-up that failed (unknown, revoked, used by another). A typo or text that is
no serial is caught by the check symbol before any look-up, so it costs nothing — and it is
answered as a typo even while the account is locked out, since it reveals nothing about which
serials exist. A serial that registers, or the owner's own serial entered again, costs nothing.
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import timedelta

import pytest
from django.http import HttpResponse
from django.test import Client
from django.utils import timezone

from accounts import licensing
from accounts.client_ip import client_network
from accounts.models import AttemptOutcome, RedemptionAttempt, Serial, User
from tests.factories import page_text
from tests.licensing.licensing_support import (
    ADDRESS,
    KNOWN,
    SERIAL_URL,
    serial_from,
    typo_of,
)

OTHER_ADDRESS = "198.51.100.23"
LIMITED = "Too many serial numbers were tried that did not work. Please try again in"


def unknown(i: int = 0) -> str:
    """A serial with a right check symbol that was never minted."""
    return serial_from(f"{i:019d}")


def enter(client: Client, typed: str, **extra: str) -> HttpResponse:
    return client.post(SERIAL_URL, {"serial": typed}, **extra)


def fail(client: Client, times: int, **extra: str) -> None:
    for i in range(times):
        assert enter(client, unknown(i), **extra).status_code == 400


def failed_earlier(user: User, *, minutes_ago: float, times: int, address: str = ADDRESS) -> None:
    """Failures recorded by some other worker, ``minutes_ago``."""
    when = timezone.now() - timedelta(minutes=minutes_ago)
    RedemptionAttempt.objects.bulk_create(
        RedemptionAttempt(
            user=user,
            client_ip=address,
            client_network=client_network(address),
            outcome=AttemptOutcome.UNKNOWN,
            created_at=when,
        )
        for _ in range(times)
    )


# --- Per account -----------------------------------------------------------------------------


def test_five_failures_are_answered_then_the_sixth_is_refused(player_client: Client) -> None:
    fail(player_client, 5)

    response = enter(player_client, unknown(99))

    assert response.status_code == 429


def test_the_refusal_says_when_to_try_again_in_words_and_in_retry_after(
    player_client: Client,
) -> None:
    fail(player_client, 5)

    response = enter(player_client, unknown(99))

    assert 3590 <= int(response["Retry-After"]) <= 3600
    assert f"{LIMITED} 60 minutes." in page_text(response)


def test_over_the_limit_even_the_right_serial_does_not_register(
    player: User, player_client: Client, stock: Callable[..., Serial]
) -> None:
    stock(KNOWN)
    fail(player_client, 5)

    response = enter(player_client, KNOWN)

    assert response.status_code == 429
    assert not licensing.licence_of(player).registered


def test_the_limit_is_per_account_across_clients_and_addresses(
    player: User, client_for: Callable[..., Client]
) -> None:
    laptop = client_for(player, REMOTE_ADDR=ADDRESS)
    phone = client_for(player, REMOTE_ADDR=OTHER_ADDRESS)
    fail(laptop, 3)
    fail(phone, 2)

    response = enter(laptop, unknown(99))

    assert response.status_code == 429


def test_failures_another_worker_recorded_count(player: User, player_client: Client) -> None:
    failed_earlier(player, minutes_ago=5, times=5, address=OTHER_ADDRESS)

    response = enter(player_client, unknown(99))

    assert response.status_code == 429


def test_the_service_raises_too_many_attempts_with_the_seconds_to_wait(player: User) -> None:
    failed_earlier(player, minutes_ago=50, times=5)

    with pytest.raises(licensing.TooManyAttempts) as refused:
        licensing.redeem_serial(user=player, text=unknown(99), client_ip=ADDRESS)

    assert 590 <= refused.value.retry_after_seconds <= 600
    assert str(refused.value).endswith("Please try again in 10 minutes.")


def test_failures_older_than_an_hour_no_longer_count(player: User, player_client: Client) -> None:
    failed_earlier(player, minutes_ago=61, times=5)

    response = enter(player_client, unknown(99))

    assert response.status_code == 400


def test_the_wait_ends_an_hour_after_the_oldest_failure_still_counted(
    player: User, player_client: Client
) -> None:
    failed_earlier(player, minutes_ago=59, times=1)
    failed_earlier(player, minutes_ago=10, times=4)

    response = enter(player_client, unknown(99))

    assert response.status_code == 429
    assert 50 <= int(response["Retry-After"]) <= 60
    assert f"{LIMITED} 1 minute." in page_text(response)


def test_trying_again_while_refused_does_not_make_the_wait_longer(
    player: User, player_client: Client
) -> None:
    failed_earlier(player, minutes_ago=50, times=5)
    for i in range(10):
        assert enter(player_client, unknown(i)).status_code == 429

    response = enter(player_client, unknown(99))

    assert int(response["Retry-After"]) <= 600


def test_refused_attempts_are_recorded_as_limited(player: User, player_client: Client) -> None:
    fail(player_client, 5)

    enter(player_client, unknown(99))

    assert RedemptionAttempt.objects.filter(outcome=AttemptOutcome.LIMITED).count() == 1


def test_when_both_limits_are_reached_the_longer_wait_is_given(
    player: User, player_client: Client, make_user: Callable[..., User]
) -> None:
    failed_earlier(player, minutes_ago=50, times=5, address=OTHER_ADDRESS)  # 10 minutes left
    failed_earlier(make_user(), minutes_ago=5, times=20, address=ADDRESS)  # 55 minutes left

    response = enter(player_client, unknown(99))

    assert 3290 <= int(response["Retry-After"]) <= 3300
    assert f"{LIMITED} 55 minutes." in page_text(response)


# --- What does not count ---------------------------------------------------------------------


def test_typos_do_not_count(player_client: Client) -> None:
    for _ in range(10):
        assert enter(player_client, typo_of(KNOWN)).status_code == 400

    response = enter(player_client, unknown(99))

    assert response.status_code == 400
    assert "We do not know this serial number." in page_text(response)


def test_text_that_is_no_serial_does_not_count(player_client: Client) -> None:
    for _ in range(10):
        assert enter(player_client, "not a serial").status_code == 400

    assert enter(player_client, unknown(99)).status_code == 400


def test_a_typo_is_still_named_a_typo_while_the_account_is_refused(
    player: User, player_client: Client
) -> None:
    """Documented choice: the check symbol answers before the limit is consulted."""
    failed_earlier(player, minutes_ago=5, times=5)

    response = enter(player_client, typo_of(KNOWN))

    assert response.status_code == 400
    assert "This serial has a typo" in page_text(response)


def test_a_serial_that_registers_does_not_count(
    player: User, player_client: Client, stock: Callable[..., Serial]
) -> None:
    stock(KNOWN)
    fail(player_client, 4)
    assert enter(player_client, KNOWN).status_code == 302

    response = enter(player_client, unknown(99))

    assert response.status_code == 400


def test_the_owner_entering_their_serial_again_does_not_count(
    player: User, player_client: Client, register: Callable[..., Serial]
) -> None:
    register(player, KNOWN)

    statuses = {enter(player_client, KNOWN).status_code for _ in range(8)}

    assert statuses == {302}


# --- Per address -----------------------------------------------------------------------------


@pytest.fixture
def busy_address(make_user: Callable[..., User], client_for: Callable[..., Client]) -> None:
    """Twenty failures from ADDRESS, spread over five accounts so none reaches its own limit."""
    for _ in range(5):
        fail(client_for(make_user(), REMOTE_ADDR=ADDRESS), 4)


def test_at_a_busy_address_a_newcomer_gets_one_look_up_then_is_refused(
    busy_address: None, make_user: Callable[..., User], client_for: Callable[..., Client]
) -> None:
    newcomer = client_for(make_user(), REMOTE_ADDR=ADDRESS)
    assert enter(newcomer, unknown(98)).status_code == 400

    response = enter(newcomer, unknown(99))

    assert response.status_code == 429
    assert LIMITED in page_text(response)


def test_an_account_that_failed_before_is_refused_at_a_busy_address(
    busy_address: None, make_user: Callable[..., User], client_for: Callable[..., Client]
) -> None:
    regular = make_user()
    failed_earlier(regular, minutes_ago=30, times=1, address=OTHER_ADDRESS)

    response = enter(client_for(regular, REMOTE_ADDR=ADDRESS), unknown(99))

    assert response.status_code == 429


def test_a_buyer_at_a_busy_address_registers_with_a_good_serial(
    busy_address: None,
    make_user: Callable[..., User],
    client_for: Callable[..., Client],
    stock: Callable[..., Serial],
) -> None:
    """Twenty failures by neighbours (or by the whole site, behind a miscounted proxy)."""
    stock(KNOWN)
    buyer = make_user()

    response = enter(client_for(buyer, REMOTE_ADDR=ADDRESS), KNOWN)

    assert response.status_code == 302
    assert licensing.licence_of(buyer).registered


def test_another_address_is_not_refused_for_them(
    busy_address: None, make_user: Callable[..., User], client_for: Callable[..., Client]
) -> None:
    elsewhere = client_for(make_user(), REMOTE_ADDR=OTHER_ADDRESS)

    response = enter(elsewhere, unknown(99))

    assert response.status_code == 400
