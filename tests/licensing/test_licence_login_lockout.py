"""Wrong passwords are limited too (django-axes): five per username and address, then 429."""

from __future__ import annotations

import pytest
from django.http import HttpResponse
from django.test import Client
from django.urls import reverse
from pytest_django import Settings

from accounts.models import User
from tests.factories import PASSWORD, page_text
from tests.licensing.licensing_support import ADDRESS

LOGIN_URL = reverse("accounts:login")
OTHER_ADDRESS = "198.51.100.23"
LOCKED_OUT = "Too many failed log-ins"


def log_in(password: str, *, username: str = "alice", address: str = ADDRESS) -> HttpResponse:
    return Client().post(
        LOGIN_URL, {"username": username, "password": password}, REMOTE_ADDR=address
    )


def five_wrong_passwords(username: str = "alice", address: str = ADDRESS) -> None:
    for _ in range(5):
        log_in("wrong password", username=username, address=address)


def test_the_right_password_after_four_wrong_ones_logs_in(player: User) -> None:
    for _ in range(4):
        log_in("wrong password")

    response = log_in(PASSWORD)

    assert response.status_code == 302


def test_four_wrong_passwords_show_the_form_again_and_the_fifth_locks_out(
    player: User,
) -> None:
    statuses = [log_in("wrong password").status_code for _ in range(5)]

    assert statuses == [200, 200, 200, 200, 429]


def test_after_five_wrong_passwords_even_the_right_one_is_refused_with_429(
    player: User,
) -> None:
    five_wrong_passwords()

    response = log_in(PASSWORD)

    assert response.status_code == 429
    assert LOCKED_OUT in page_text(response)
    assert "_auth_user_id" not in response.client.session


def test_the_locked_out_page_offers_a_password_reset(player: User) -> None:
    five_wrong_passwords()

    response = log_in(PASSWORD)

    assert reverse("accounts:password_reset") in response.text


def test_the_same_username_from_another_address_is_not_locked(player: User) -> None:
    five_wrong_passwords()

    response = log_in(PASSWORD, address=OTHER_ADDRESS)

    assert response.status_code == 302


def test_another_username_from_the_same_address_is_not_locked(player: User, make_user) -> None:
    make_user("bob")
    five_wrong_passwords()

    response = log_in(PASSWORD, username="bob")

    assert response.status_code == 302


def test_a_spoofed_forwarded_for_does_not_unlock(player: User, settings: Settings) -> None:
    settings.TRUSTED_PROXY_COUNT = 0
    five_wrong_passwords()

    response = Client().post(
        LOGIN_URL,
        {"username": "alice", "password": PASSWORD},
        REMOTE_ADDR=ADDRESS,
        HTTP_X_FORWARDED_FOR=OTHER_ADDRESS,
    )

    assert response.status_code == 429


@pytest.mark.parametrize("attempts", [1, 4])
def test_a_successful_login_resets_the_count(player: User, attempts: int) -> None:
    for _ in range(attempts):
        log_in("wrong password")
    assert log_in(PASSWORD).status_code == 302

    five_wrong_passwords()

    assert log_in(PASSWORD).status_code == 429


def test_behind_a_trusted_proxy_each_client_is_locked_out_on_its_own(
    player: User, settings: Settings
) -> None:
    """The lock uses the site's client address (``AXES_CLIENT_IP_CALLABLE``), not the proxy's."""
    settings.TRUSTED_PROXY_COUNT = 1
    proxy = "10.0.0.5"
    for _ in range(5):
        Client().post(
            LOGIN_URL,
            {"username": "alice", "password": "wrong password"},
            REMOTE_ADDR=proxy,
            HTTP_X_FORWARDED_FOR=ADDRESS,
        )

    response = Client().post(
        LOGIN_URL,
        {"username": "alice", "password": PASSWORD},
        REMOTE_ADDR=proxy,
        HTTP_X_FORWARDED_FOR=OTHER_ADDRESS,
    )

    assert response.status_code == 302


def test_wrong_passwords_from_across_one_ipv6_64_lock_the_whole_block(player: User) -> None:
    """Each try from another address of the same /64 (a client rotating through its block)."""
    for i in range(1, 31):
        log_in("wrong password", address=f"2001:db8:1:2::{i:x}")

    response = log_in(PASSWORD, address="2001:db8:1:2:ffff:ffff:ffff:ffff")

    assert response.status_code == 429


def test_a_neighbouring_ipv6_64_is_not_locked_with_it(player: User) -> None:
    five_wrong_passwords(address="2001:db8:1:2::1")

    response = log_in(PASSWORD, address="2001:db8:1:3::1")

    assert response.status_code == 302


def test_an_ipv4_address_still_counts_on_its_own(player: User) -> None:
    five_wrong_passwords(address="203.0.113.7")

    response = log_in(PASSWORD, address="203.0.113.8")

    assert response.status_code == 302
