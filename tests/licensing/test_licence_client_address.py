"""The address that is counted: REMOTE_ADDR, or the proxy's entry in X-Forwarded-For if trusted.

A client can write anything into X-Forwarded-For, so a spoofed header must never pick the
address counted for the limits, whatever ``TRUSTED_PROXY_COUNT`` says.
"""

from __future__ import annotations

from collections.abc import Callable

import pytest
from django.http import HttpResponse
from django.test import Client, RequestFactory
from pytest_django import Settings

from accounts.client_ip import client_ip
from accounts.models import RedemptionAttempt, User
from tests.licensing.licensing_support import ADDRESS, SERIAL_URL, serial_from

PROXY = "10.0.0.5"
REAL_CLIENT = "198.51.100.23"


def address_of(**meta: str) -> str:
    return client_ip(RequestFactory().get("/", **meta))


def unknown(i: int) -> str:
    return serial_from(f"{i:019d}")


# --- client_ip -------------------------------------------------------------------------------


def test_without_trusted_proxies_it_is_remote_addr(settings: Settings) -> None:
    settings.TRUSTED_PROXY_COUNT = 0

    assert address_of(REMOTE_ADDR=REAL_CLIENT) == REAL_CLIENT


def test_without_trusted_proxies_x_forwarded_for_is_ignored(settings: Settings) -> None:
    settings.TRUSTED_PROXY_COUNT = 0

    assert address_of(REMOTE_ADDR=REAL_CLIENT, HTTP_X_FORWARDED_FOR="1.2.3.4") == REAL_CLIENT


def test_behind_one_proxy_it_is_the_right_most_entry(settings: Settings) -> None:
    settings.TRUSTED_PROXY_COUNT = 1

    address = address_of(REMOTE_ADDR=PROXY, HTTP_X_FORWARDED_FOR=f"1.2.3.4, {REAL_CLIENT}")

    assert address == REAL_CLIENT


def test_behind_two_proxies_it_is_the_second_entry_from_the_right(
    settings: Settings,
) -> None:
    settings.TRUSTED_PROXY_COUNT = 2

    address = address_of(
        REMOTE_ADDR=PROXY, HTTP_X_FORWARDED_FOR=f"1.2.3.4, {REAL_CLIENT}, 10.0.0.4"
    )

    assert address == REAL_CLIENT


@pytest.mark.parametrize(
    "forwarded",
    [
        pytest.param(None, id="no header"),
        pytest.param("", id="empty header"),
        pytest.param(" , ", id="only commas"),
        pytest.param("not-an-address", id="garbage"),
        pytest.param("1.2.3.4, 999.1.1.1", id="bad right-most entry"),
    ],
)
def test_behind_a_proxy_a_missing_or_broken_header_falls_back_to_remote_addr(
    settings: Settings, forwarded: str | None
) -> None:
    settings.TRUSTED_PROXY_COUNT = 1
    meta = {"REMOTE_ADDR": PROXY}
    if forwarded is not None:
        meta["HTTP_X_FORWARDED_FOR"] = forwarded

    assert address_of(**meta) == PROXY


def test_fewer_entries_than_trusted_proxies_falls_back_to_remote_addr(
    settings: Settings,
) -> None:
    settings.TRUSTED_PROXY_COUNT = 2

    assert address_of(REMOTE_ADDR=PROXY, HTTP_X_FORWARDED_FOR=REAL_CLIENT) == PROXY


def test_an_ipv6_client_behind_a_proxy_is_read(settings: Settings) -> None:
    settings.TRUSTED_PROXY_COUNT = 1

    address = address_of(REMOTE_ADDR=PROXY, HTTP_X_FORWARDED_FOR="2001:db8::1")

    assert address == "2001:db8::1"


def test_a_request_without_remote_addr_gets_a_placeholder(settings: Settings) -> None:
    settings.TRUSTED_PROXY_COUNT = 0
    request = RequestFactory().get("/")
    del request.META["REMOTE_ADDR"]

    assert client_ip(request) == "0.0.0.0"


# --- The limits over HTTP --------------------------------------------------------------------


@pytest.fixture
def accounts_at(
    make_user: Callable[..., User], client_for: Callable[..., Client]
) -> Callable[..., list[Client]]:
    """``count`` fresh logged-in accounts behind REMOTE_ADDR ``remote``."""

    def make(count: int, remote: str) -> list[Client]:
        return [client_for(make_user(), REMOTE_ADDR=remote) for _ in range(count)]

    return make


def spoofing(client: Client, i: int, forwarded: str) -> HttpResponse:
    return client.post(SERIAL_URL, {"serial": unknown(i)}, HTTP_X_FORWARDED_FOR=forwarded)


def test_a_spoofed_header_does_not_change_the_address_counted(
    settings: Settings, player_client: Client
) -> None:
    settings.TRUSTED_PROXY_COUNT = 0
    for i in range(3):
        spoofing(player_client, i, f"192.0.2.{i}")

    assert set(RedemptionAttempt.objects.values_list("client_ip", flat=True)) == {ADDRESS}


def test_a_spoofed_header_does_not_escape_the_address_limit(
    settings: Settings, accounts_at: Callable[..., list[Client]]
) -> None:
    settings.TRUSTED_PROXY_COUNT = 0
    for n, client in enumerate(accounts_at(5, REAL_CLIENT)):
        for i in range(4):
            assert spoofing(client, i, f"192.0.{n}.{i}").status_code == 400
    (newcomer,) = accounts_at(1, REAL_CLIENT)
    assert spoofing(newcomer, 98, "192.0.2.199").status_code == 400  # its one free look-up

    response = spoofing(newcomer, 99, "192.0.2.200")

    assert response.status_code == 429


def test_behind_a_trusted_proxy_the_proxys_entry_is_counted_not_the_clients(
    settings: Settings, accounts_at: Callable[..., list[Client]]
) -> None:
    settings.TRUSTED_PROXY_COUNT = 1
    (client,) = accounts_at(1, PROXY)
    for i in range(3):
        spoofing(client, i, f"192.0.2.{i}, {REAL_CLIENT}")

    assert set(RedemptionAttempt.objects.values_list("client_ip", flat=True)) == {REAL_CLIENT}


def test_behind_a_trusted_proxy_a_spoofed_left_entry_does_not_escape_the_limit(
    settings: Settings, accounts_at: Callable[..., list[Client]]
) -> None:
    settings.TRUSTED_PROXY_COUNT = 1
    for n, client in enumerate(accounts_at(5, PROXY)):
        for i in range(4):
            response = spoofing(client, i, f"192.0.{n}.{i}, {REAL_CLIENT}")
            assert response.status_code == 400
    (newcomer,) = accounts_at(1, PROXY)
    assert spoofing(newcomer, 98, f"192.0.2.199, {REAL_CLIENT}").status_code == 400

    response = spoofing(newcomer, 99, f"192.0.2.200, {REAL_CLIENT}")

    assert response.status_code == 429


def test_behind_a_trusted_proxy_other_clients_of_the_proxy_are_not_refused(
    settings: Settings, accounts_at: Callable[..., list[Client]]
) -> None:
    settings.TRUSTED_PROXY_COUNT = 1
    for client in accounts_at(5, PROXY):
        for i in range(4):
            spoofing(client, i, REAL_CLIENT)
    (neighbour,) = accounts_at(1, PROXY)

    response = spoofing(neighbour, 99, "192.0.2.200")

    assert response.status_code == 400


def test_an_ipv6_client_counts_as_its_whole_64_block() -> None:
    from accounts.client_ip import client_network

    assert client_network("2001:db8:1:2:aaaa::1") == client_network("2001:db8:1:2:ffff::9")
    assert client_network("2001:db8:1:2::1") == "2001:db8:1:2::/64"
    assert client_network("2001:db8:1:3::1") != client_network("2001:db8:1:2::1")
    assert client_network("::ffff:203.0.113.9") == "203.0.113.9"
    assert client_network("203.0.113.9") == "203.0.113.9"
