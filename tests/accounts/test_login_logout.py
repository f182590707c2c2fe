"""Logging in with Django's view, and logging out by POST only."""

from __future__ import annotations

import pytest
from django.test import Client
from django.urls import reverse
from django.utils.html import escape

from accounts.models import User

LOGIN_URL = reverse("accounts:login")
LOGOUT_URL = reverse("accounts:logout")

pytestmark = pytest.mark.django_db


def test_login_page_shows_the_form(client: Client) -> None:
    response = client.get(LOGIN_URL)

    assert response.status_code == 200
    assert 'autocomplete="username"' in response.text
    assert 'autocomplete="current-password"' in response.text
    assert reverse("accounts:password_reset") in response.text


def test_login_goes_to_the_dashboard(client: Client, alice: User, password: str) -> None:
    response = client.post(LOGIN_URL, {"username": "alice", "password": password})

    assert response.status_code == 302
    assert response["Location"] == "/play/"
    assert client.session["_auth_user_id"] == str(alice.pk)


def test_login_returns_to_the_page_that_asked_for_it(
    client: Client, alice: User, password: str
) -> None:
    response = client.post(
        f"{LOGIN_URL}?next=/accounts/", {"username": "alice", "password": password}
    )

    assert response["Location"] == "/accounts/"


def test_login_ignores_a_next_on_another_site(client: Client, alice: User, password: str) -> None:
    response = client.post(
        f"{LOGIN_URL}?next=https://evil.example/", {"username": "alice", "password": password}
    )

    assert response["Location"] == "/play/"


def test_wrong_password_shows_djangos_message_and_logs_nobody_in(
    client: Client, alice: User
) -> None:
    response = client.post(LOGIN_URL, {"username": "alice", "password": "not-her-password"})

    assert response.status_code == 200
    message = (
        "Please enter a correct username and password. Note that both fields may be case-sensitive."
    )
    assert escape(message) in response.text
    assert "_auth_user_id" not in client.session


def test_logged_in_player_is_sent_from_login_to_the_dashboard(alice_client: Client) -> None:
    response = alice_client.get(LOGIN_URL)

    assert response.status_code == 302
    assert response["Location"] == "/play/"


def test_logout_by_get_is_refused_and_keeps_the_player_logged_in(
    alice_client: Client, alice: User
) -> None:
    response = alice_client.get(LOGOUT_URL)

    assert response.status_code == 405
    assert alice_client.session["_auth_user_id"] == str(alice.pk)


def test_logout_by_post_logs_out_and_goes_home(alice_client: Client) -> None:
    response = alice_client.post(LOGOUT_URL)

    assert response.status_code == 302
    assert response["Location"] == reverse("home")
    assert "_auth_user_id" not in alice_client.session
