"""Changing the password while logged in, through Django's views under our URL names."""

from __future__ import annotations

import pytest
from django.contrib.auth.forms import SetPasswordMixin
from django.test import Client
from django.urls import reverse
from django.utils.html import escape

from accounts.models import User

CHANGE_URL = reverse("accounts:password_change")
NEW_PASSWORD = "three-of-a-kind-sixes"

pytestmark = pytest.mark.django_db

PASSWORDS_DIFFER = str(SetPasswordMixin.error_messages["password_mismatch"])


def test_password_change_needs_a_login(client: Client) -> None:
    response = client.get(CHANGE_URL)

    assert response.status_code == 302
    assert response["Location"] == f"{reverse('accounts:login')}?next={CHANGE_URL}"


def test_password_change_page_shows_the_form(alice_client: Client) -> None:
    response = alice_client.get(CHANGE_URL)

    assert response.status_code == 200
    assert 'autocomplete="current-password"' in response.text
    assert 'autocomplete="new-password"' in response.text


def test_wrong_old_password_is_named_and_changes_nothing(
    alice_client: Client, alice: User, password: str
) -> None:
    response = alice_client.post(
        CHANGE_URL,
        {"old_password": "wrong", "new_password1": NEW_PASSWORD, "new_password2": NEW_PASSWORD},
    )

    assert response.status_code == 200
    message = "Your old password was entered incorrectly. Please enter it again."
    assert escape(message) in response.text
    alice.refresh_from_db()
    assert alice.check_password(password)


def test_mismatched_new_passwords_change_nothing(
    alice_client: Client, alice: User, password: str
) -> None:
    response = alice_client.post(
        CHANGE_URL,
        {"old_password": password, "new_password1": NEW_PASSWORD, "new_password2": "other"},
    )

    assert response.status_code == 200
    assert escape(PASSWORDS_DIFFER) in response.text
    alice.refresh_from_db()
    assert alice.check_password(password)


def test_password_change_sets_the_new_password_and_keeps_the_player_logged_in(
    alice_client: Client, alice: User, password: str
) -> None:
    response = alice_client.post(
        CHANGE_URL,
        {"old_password": password, "new_password1": NEW_PASSWORD, "new_password2": NEW_PASSWORD},
    )

    assert response.status_code == 302
    assert response["Location"] == reverse("accounts:password_change_done")
    alice.refresh_from_db()
    assert alice.check_password(NEW_PASSWORD)
    assert alice_client.get(reverse("accounts:password_change_done")).status_code == 200
    assert alice_client.session["_auth_user_id"] == str(alice.pk)


def test_new_password_works_for_the_next_login(
    alice_client: Client, alice: User, password: str
) -> None:
    alice_client.post(
        CHANGE_URL,
        {"old_password": password, "new_password1": NEW_PASSWORD, "new_password2": NEW_PASSWORD},
    )
    other = Client()

    old = other.post(reverse("accounts:login"), {"username": "alice", "password": password})
    new = other.post(reverse("accounts:login"), {"username": "alice", "password": NEW_PASSWORD})

    assert old.status_code == 200
    assert new.status_code == 302
