"""Sign-up: a good form makes a logged-in player; every bad input is named and creates nothing."""

from __future__ import annotations

import pytest
from django.contrib.auth.forms import SetPasswordMixin
from django.test import Client
from django.urls import reverse
from django.utils.html import escape

from accounts.display_names import ENCODED_WORDS_REFUSED
from accounts.forms import (
    DISPLAY_NAME_INVISIBLE,
    DISPLAY_NAME_REQUIRED,
    EMAIL_ENCODED_WORDS,
    EMAIL_REQUIRED,
)
from accounts.models import User

SIGNUP_URL = reverse("accounts:signup")

pytestmark = pytest.mark.django_db

PASSWORDS_DIFFER = str(SetPasswordMixin.error_messages["password_mismatch"])


def test_signup_page_shows_the_form(client: Client) -> None:
    response = client.get(SIGNUP_URL)

    assert response.status_code == 200
    assert "accounts/signup.html" in [t.name for t in response.templates]
    for field in ("username", "display_name", "email", "password1", "password2"):
        assert f'name="{field}"' in response.text


def test_signup_creates_the_player_logs_them_in_and_goes_to_the_dashboard(
    client: Client, signup_data: dict[str, str]
) -> None:
    signup_data["display_name"] = "  Bob the Builder  "

    response = client.post(SIGNUP_URL, signup_data)

    assert response.status_code == 302
    assert response["Location"] == "/play/"
    user = User.objects.get(username="bob")
    assert user.display_name == "Bob the Builder"
    assert user.email == "bob@example.com"
    assert user.check_password(signup_data["password1"])
    assert not user.email_confirmed  # until the mailed link is opened
    assert client.session["_auth_user_id"] == str(user.pk)


def test_signup_lowercases_the_email_domain(client: Client, signup_data: dict[str, str]) -> None:
    signup_data["email"] = "Bob@Example.COM"

    client.post(SIGNUP_URL, signup_data)

    assert User.objects.get(username="bob").email == "Bob@example.com"


USERNAME_TAKEN = "A user with that username already exists."
BAD_USERNAME = (
    "Enter a valid username. This value may contain only letters, numbers, "
    "and @/./+/-/_ characters."
)


@pytest.mark.parametrize(
    ("field", "value", "message"),
    [
        ("username", "alice", USERNAME_TAKEN),
        ("username", "ALICE", USERNAME_TAKEN),
        ("username", "", "This field is required."),
        ("username", "bob smith!", BAD_USERNAME),
        ("email", "not-an-email", "Enter a valid email address."),
        ("email", "", EMAIL_REQUIRED),
        # A mail's To header would read "alice@example.com"; or break with a decoded line break.
        ("email", "=?utf-8?q?alice?=@example.com", EMAIL_ENCODED_WORDS),
        ("email", "=?utf-8?q?Bob=0D=0ABcc=3A_x?=@example.com", EMAIL_ENCODED_WORDS),
        ("display_name", "", DISPLAY_NAME_REQUIRED),
        ("display_name", "   ", DISPLAY_NAME_REQUIRED),
        ("display_name", "x" * 31, "Ensure this value has at most 30 characters (it has 31)."),
        ("display_name", "\u202eecila", DISPLAY_NAME_INVISIBLE),
        ("display_name", "Bob\u200bby", DISPLAY_NAME_INVISIBLE),
        ("display_name", "=?utf-8?q?Alice?=", ENCODED_WORDS_REFUSED),
    ],
    ids=[
        "duplicate-username",
        "duplicate-username-other-case",
        "blank-username",
        "bad-username-characters",
        "bad-email",
        "blank-email",
        "email-read-as-another",
        "email-with-an-encoded-line-break",
        "blank-display-name",
        "whitespace-display-name",
        "long-display-name",
        "right-to-left-override-display-name",
        "zero-width-space-display-name",
        "encoded-word-display-name",
    ],
)
def test_bad_signup_field_is_named_and_creates_nothing(
    client: Client,
    alice: User,
    signup_data: dict[str, str],
    field: str,
    value: str,
    message: str,
) -> None:
    signup_data[field] = value

    response = client.post(SIGNUP_URL, signup_data)

    assert response.status_code == 200
    assert message in response.context["form"].errors[field]
    assert escape(message) in response.text
    assert list(User.objects.values_list("username", flat=True)) == ["alice"]
    assert "_auth_user_id" not in client.session


@pytest.mark.parametrize(
    ("password1", "password2", "message"),
    [
        (
            "dice-roll-full-house-42",
            "dice-roll-full-house-43",
            PASSWORDS_DIFFER,
        ),
        ("Yz7!kq", "Yz7!kq", "This password is too short. It must contain at least 8 characters."),
        ("password123", "password123", "This password is too common."),
        ("73916482059", "73916482059", "This password is entirely numeric."),
        ("bobthebuilder1", "bobthebuilder1", "The password is too similar to the username."),
    ],
    ids=["mismatch", "too-short", "too-common", "numeric", "like-username"],
)
def test_bad_password_is_named_and_creates_nothing(
    client: Client, signup_data: dict[str, str], password1: str, password2: str, message: str
) -> None:
    signup_data |= {"username": "bobthebuilder", "password1": password1, "password2": password2}

    response = client.post(SIGNUP_URL, signup_data)

    assert response.status_code == 200
    assert message in response.context["form"].errors["password2"]
    assert escape(message) in response.text
    assert not User.objects.exists()
    assert "_auth_user_id" not in client.session


def test_field_errors_are_linked_to_their_input(
    client: Client, signup_data: dict[str, str]
) -> None:
    signup_data["email"] = "not-an-email"

    response = client.post(SIGNUP_URL, signup_data)

    assert 'id="id_email_error"' in response.text
    assert 'aria-invalid="true"' in response.text
    assert 'aria-describedby="id_email_helptext id_email_error"' in response.text


def test_logged_in_player_is_sent_from_signup_to_the_dashboard(alice_client: Client) -> None:
    response = alice_client.get(SIGNUP_URL)

    assert response.status_code == 302
    assert response["Location"] == "/play/"


def test_logged_in_player_cannot_sign_up_again(
    alice_client: Client, signup_data: dict[str, str]
) -> None:
    response = alice_client.post(SIGNUP_URL, signup_data)

    assert response["Location"] == "/play/"
    assert not User.objects.filter(username="bob").exists()


def test_signup_refuses_a_post_without_the_csrf_token(signup_data: dict[str, str]) -> None:
    client = Client(enforce_csrf_checks=True)

    response = client.post(SIGNUP_URL, signup_data)

    assert response.status_code == 403
    assert not User.objects.exists()


def test_signup_accepts_the_csrf_token_from_its_own_page(signup_data: dict[str, str]) -> None:
    client = Client(enforce_csrf_checks=True)
    page = client.get(SIGNUP_URL)
    token = page.context["csrf_token"]

    response = client.post(SIGNUP_URL, {**signup_data, "csrfmiddlewaretoken": str(token)})

    assert response.status_code == 302
    assert User.objects.filter(username="bob").exists()


def test_signup_answers_other_methods_with_405(client: Client) -> None:
    assert client.put(SIGNUP_URL).status_code == 405
