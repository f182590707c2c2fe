"""A redirect to the log-in page stays short (``yahtzee_site.login_redirect``): a long query
once made it 8 KB, and nginx in front answered 502."""

from __future__ import annotations

from urllib.parse import parse_qs, urlencode, urlsplit

import pytest
from django.test import Client
from django.urls import reverse

from yahtzee_site.login_redirect import MAX_LOCATION, shortened

pytestmark = pytest.mark.django_db

LONG_QUERY = "?" + "&".join(f"field{i}=value%2F{i}" for i in range(210))  # over 4 KB


def redirected(response: object) -> tuple[str, dict[str, list[str]]]:
    location = response["Location"]  # type: ignore[index]
    address = urlsplit(location)
    return address.path, parse_qs(address.query)


def test_a_long_query_is_left_out_of_where_the_log_in_leads_back(client: Client) -> None:
    page = reverse("games:new")
    assert len(LONG_QUERY) > 4000

    response = client.get(page + LONG_QUERY)

    assert response.status_code == 302
    assert len(response["Location"]) < 2048
    assert redirected(response) == (reverse("accounts:login"), {"next": [page]})


def test_a_short_query_still_comes_back_after_logging_in(client: Client) -> None:
    page = reverse("games:new") + "?kind=classic"

    response = client.get(page)

    assert redirected(response) == (reverse("accounts:login"), {"next": [page]})


def test_a_page_too_long_to_come_back_to_leads_to_the_log_in_alone() -> None:
    # No route of the site takes a path this long any more (an invitation's token is at most
    # 64 characters): the rule holds for any that might.
    login = reverse("accounts:login")
    page = "/play/join/" + "t" * 4000 + "/"

    assert shortened(f"{login}?{urlencode({'next': page})}", login_url=login) == login


def test_long_redirects_elsewhere_are_left_alone() -> None:
    elsewhere = "/help/?next=/" + "x" * MAX_LOCATION

    assert shortened(elsewhere, login_url="/accounts/login/") is None
    assert shortened("/accounts/login/?" + "x" * MAX_LOCATION, login_url="/accounts/login/") is None
