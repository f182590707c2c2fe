"""Sign-up does not tell who plays here: an address that already has an account gets the very
same answer as a new one (as password reset already does); the address's owner is told by
e-mail, and the second account can never confirm it."""

from __future__ import annotations

import re

import pytest
from django.contrib.messages import get_messages
from django.core import mail
from django.http import HttpResponse
from django.test import Client, TestCase
from django.urls import reverse

from accounts.models import User
from games.models import Game
from tests.factories import PASSWORD

SIGNUP_URL = reverse("accounts:signup")

pytestmark = pytest.mark.django_db


def sign_up(username: str, email: str) -> HttpResponse:
    data = {
        "username": username,
        "display_name": username.title() + " Q",
        "email": email,
        "password1": PASSWORD,
        "password2": PASSWORD,
    }
    # The mail goes once the sign-up commits: the callbacks run as a real commit would run them.
    with TestCase.captureOnCommitCallbacks(execute=True):
        return Client().post(SIGNUP_URL, data, follow=True)


def answer(response: HttpResponse, username: str, email: str) -> tuple[object, ...]:
    """What the person signing up sees, with their own name and address taken out."""
    words = [m.message for m in get_messages(response.wsgi_request)]
    page = response.text
    for mine in (username.title() + " Q", email):
        page = page.replace(mine, "…")
        words = [w.replace(mine, "…") for w in words]
    page = re.sub(r'name="csrfmiddlewaretoken" value="[^"]+"', "", page)
    page = re.sub(r'nonce="[^"]+"', "", page)
    page = re.sub(r'"X-CSRFToken": "[^"]+"', "", page)
    return response.status_code, response.redirect_chain, words, page


def test_a_taken_address_gets_the_same_answer_as_a_new_one(player: User) -> None:
    new = sign_up("newbie", "newbie@example.com")
    taken = sign_up("copycat", player.email)

    assert answer(taken, "copycat", player.email) == answer(new, "newbie", "newbie@example.com")


def test_the_same_answer_when_the_case_differs(player: User) -> None:
    new = sign_up("newbie", "newbie@example.com")
    taken = sign_up("copycat", player.email.upper())

    assert taken.status_code == new.status_code == 200
    assert taken.redirect_chain == new.redirect_chain


def test_the_owner_of_a_taken_address_is_mailed_instead_of_a_link(player: User) -> None:
    sign_up("copycat", player.email)

    (message,) = mail.outbox
    assert message.to == [player.email]
    assert "already belongs to an account" in message.body
    assert "/accounts/confirm/" not in message.body
    assert reverse("accounts:password_reset") in message.body


def test_a_new_address_gets_the_confirmation_link(db: None) -> None:
    sign_up("newbie", "newbie@example.com")

    (message,) = mail.outbox
    assert message.to == ["newbie@example.com"]
    assert "/accounts/confirm/" in message.body


def test_the_second_account_cannot_start_a_trial_game(player: User) -> None:
    sign_up("copycat", player.email)
    copycat = User.objects.get(username="copycat")
    client = Client()
    client.force_login(copycat)

    client.post(reverse("games:new"))

    assert not Game.objects.filter(owner=copycat).exists()
    copycat.refresh_from_db()
    assert not copycat.email_confirmed
    assert copycat.trial_games_used == 0


def test_password_reset_hides_it_too(client: Client, player: User) -> None:
    reset = reverse("accounts:password_reset")
    known = client.post(reset, {"email": player.email})
    unknown = client.post(reset, {"email": "nobody@example.com"})

    assert known.status_code == unknown.status_code == 302
    assert known["Location"] == unknown["Location"]
