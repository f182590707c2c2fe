"""Trial farming: one address (an IPv6 /64) makes at most SIGNUPS_PER_ADDRESS accounts a day.

Counted in the database with the address's throttle row locked, so it holds across workers,
nodes and racing requests.
"""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.http import HttpResponse
from django.test import Client
from django.urls import reverse
from django.utils import timezone
from pytest_django import Settings

from accounts import signups
from accounts.client_ip import client_network
from accounts.models import SignUp, User
from tests.factories import PASSWORD, page_text
from tests.licensing.licensing_support import run_together

SIGNUP_URL = reverse("accounts:signup")
ADDRESS = "203.0.113.7"
TOO_MANY = "Too many accounts were made from your network today."


def sign_up(n: int, address: str = ADDRESS) -> HttpResponse:
    data = {
        "username": f"farmer{n}",
        "display_name": f"Farmer {n}",
        "email": f"farmer{n}@example.com",
        "password1": PASSWORD,
        "password2": PASSWORD,
    }
    return Client().post(SIGNUP_URL, data, REMOTE_ADDR=address)


@pytest.fixture(autouse=True)
def _five_a_day(settings: Settings) -> None:
    settings.SIGNUPS_PER_ADDRESS = 5


def test_fifteen_sign_ups_from_one_address_make_five_accounts(db: None) -> None:
    statuses = [sign_up(n).status_code for n in range(15)]

    assert statuses == [302] * 5 + [429] * 10
    assert User.objects.count() == 5


def test_the_refusal_says_why_and_when_to_come_back(db: None) -> None:
    for n in range(5):
        sign_up(n)

    response = sign_up(99)

    assert TOO_MANY in page_text(response)
    assert "Please try again in 24 hours" in page_text(response)
    assert "_auth_user_id" not in response.client.session


def test_an_ipv6_client_counts_as_its_whole_64(db: None) -> None:
    for n in range(5):
        assert sign_up(n, address=f"2001:db8:7:7::{n + 1:x}").status_code == 302

    assert sign_up(99, address="2001:db8:7:7:ffff::1").status_code == 429
    assert sign_up(98, address="2001:db8:7:8::1").status_code == 302


def test_another_address_is_not_limited_by_them(db: None) -> None:
    for n in range(5):
        sign_up(n)

    assert sign_up(99, address="198.51.100.23").status_code == 302


def test_sign_ups_older_than_a_day_no_longer_count(db: None) -> None:
    day_ago = timezone.now() - timedelta(hours=24, minutes=1)
    SignUp.objects.bulk_create(
        SignUp(client_ip=ADDRESS, client_network=client_network(ADDRESS), created_at=day_ago)
        for _ in range(5)
    )

    assert sign_up(99).status_code == 302


@pytest.mark.django_db(transaction=True)
def test_racing_sign_ups_from_one_address_make_exactly_the_limit() -> None:
    def create(i: int) -> object:
        return signups.create_account(
            username=f"racer{i}",
            display_name=f"Racer {i}",  # (I and L would be look-alikes)
            email=f"racer{i}@example.com",
            password=PASSWORD,
            client_ip=f"2001:db8:9:9::{i + 1:x}",
            site_url="http://testserver/",
        )

    results = run_together(12, create)

    made = [r for r in results if isinstance(r, User)]
    refused = [r for r in results if isinstance(r, signups.TooManySignUps)]
    assert (len(made), len(refused)) == (5, 7), results
    assert User.objects.count() == SignUp.objects.count() == 5
