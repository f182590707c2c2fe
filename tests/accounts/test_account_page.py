"""The account page: who you are, and the display-name change with its checks."""

from __future__ import annotations

import pytest
from django.test import Client
from django.urls import reverse
from django.utils.html import escape

from accounts.forms import DISPLAY_NAME_INVISIBLE, DISPLAY_NAME_REQUIRED
from accounts.models import User

ACCOUNT_URL = reverse("accounts:account")

pytestmark = pytest.mark.django_db


def test_account_page_needs_a_login(client: Client) -> None:
    response = client.get(ACCOUNT_URL)

    assert response.status_code == 302
    assert response["Location"] == f"{reverse('accounts:login')}?next={ACCOUNT_URL}"


def test_account_page_shows_who_the_player_is(alice_client: Client, alice: User) -> None:
    response = alice_client.get(ACCOUNT_URL)

    assert response.status_code == 200
    for fact in ("alice", "Alice", "alice@example.com", alice.date_joined.strftime("%Y")):
        assert fact in response.text
    assert reverse("accounts:password_change") in response.text


def test_display_name_change_is_saved_stripped(alice_client: Client, alice: User) -> None:
    response = alice_client.post(ACCOUNT_URL, {"display_name": "  Queen of Dice "})

    assert response.status_code == 302
    assert response["Location"] == ACCOUNT_URL
    alice.refresh_from_db()
    assert alice.display_name == "Queen of Dice"
    assert "Queen of Dice" in alice_client.get(ACCOUNT_URL).text


@pytest.mark.parametrize(
    ("value", "message"),
    [
        ("", DISPLAY_NAME_REQUIRED),
        (" \t ", DISPLAY_NAME_REQUIRED),
        ("x" * 31, "Ensure this value has at most 30 characters (it has 31)."),
        ("Al\u200bice", DISPLAY_NAME_INVISIBLE),
        ("Ali\nce", DISPLAY_NAME_INVISIBLE),
    ],
    ids=["blank", "whitespace", "too-long", "zero-width-space", "line-break"],
)
def test_bad_display_name_is_named_and_changes_nothing(
    alice_client: Client, alice: User, value: str, message: str
) -> None:
    response = alice_client.post(ACCOUNT_URL, {"display_name": value})

    assert response.status_code == 200
    assert escape(message) in response.text
    alice.refresh_from_db()
    assert alice.display_name == "Alice"


def test_display_name_change_touches_nothing_else(alice_client: Client, alice: User) -> None:
    alice_client.post(
        ACCOUNT_URL, {"display_name": "Ally", "username": "mallory", "is_staff": "on"}
    )

    alice.refresh_from_db()
    assert (alice.display_name, alice.username, alice.is_staff) == ("Ally", "alice", False)


def test_account_page_answers_other_methods_with_405(alice_client: Client) -> None:
    assert alice_client.put(ACCOUNT_URL).status_code == 405
