"""Password reset by e-mail: the link in the mail sets a new password, once; no enumeration."""

from __future__ import annotations

import re

import pytest
from django.core import mail
from django.test import Client
from django.urls import reverse

from accounts.models import User

RESET_URL = reverse("accounts:password_reset")
DONE_URL = reverse("accounts:password_reset_done")
NEW_PASSWORD = "large-straight-forty"

pytestmark = pytest.mark.django_db


def reset_link(message: mail.EmailMessage) -> str:
    """The path of the one link in a reset e-mail."""
    match = re.search(r"https?://testserver(/\S+)", str(message.body))
    assert match, message.body
    return match.group(1)


def main_content(page: str) -> str:
    """The page's <main>, without the per-response nonces and tokens of its <head>."""
    return page[page.index("<main") : page.index("</main>")]


def test_reset_page_shows_the_form(client: Client) -> None:
    response = client.get(RESET_URL)

    assert response.status_code == 200
    assert 'autocomplete="email"' in response.text
    assert "autofocus" in response.text


def test_reset_mails_a_link_to_the_account_whatever_the_letter_case(
    client: Client, alice: User
) -> None:
    response = client.post(RESET_URL, {"email": "Alice@Example.com"})

    assert response.status_code == 302
    assert response["Location"] == DONE_URL
    assert len(mail.outbox) == 1
    message = mail.outbox[0]
    assert message.to == ["alice@example.com"]
    assert message.subject == "Reset your Yahtzee password"
    assert "alice" in str(message.body)
    assert reset_link(message).startswith("/accounts/password/reset/")


def test_reset_link_sets_a_new_password_that_logs_in(
    client: Client, alice: User, password: str
) -> None:
    client.post(RESET_URL, {"email": "alice@example.com"})
    link = reset_link(mail.outbox[0])

    # The link swaps its token into the session, then shows the form at a token-free URL.
    to_form = client.get(link)
    assert to_form.status_code == 302
    form_url = to_form["Location"]
    assert form_url.endswith("/set-password/")
    form_page = client.get(form_url)
    assert form_page.status_code == 200
    assert form_page.context["validlink"] is True

    done = client.post(form_url, {"new_password1": NEW_PASSWORD, "new_password2": NEW_PASSWORD})

    assert done.status_code == 302
    assert done["Location"] == reverse("accounts:password_reset_complete")
    assert client.get(done["Location"]).status_code == 200
    login = Client().post(
        reverse("accounts:login"), {"username": "alice", "password": NEW_PASSWORD}
    )
    assert login.status_code == 302
    alice.refresh_from_db()
    assert not alice.check_password(password)


def test_reset_link_works_only_once(client: Client, alice: User) -> None:
    client.post(RESET_URL, {"email": "alice@example.com"})
    link = reset_link(mail.outbox[0])
    form_url = client.get(link)["Location"]
    client.post(form_url, {"new_password1": NEW_PASSWORD, "new_password2": NEW_PASSWORD})

    again = Client().get(link)

    assert again.status_code == 200
    assert again.context["validlink"] is False
    assert "This link no longer works" in again.text


def test_reset_with_a_weak_new_password_is_refused(
    client: Client, alice: User, password: str
) -> None:
    client.post(RESET_URL, {"email": "alice@example.com"})
    form_url = client.get(reset_link(mail.outbox[0]))["Location"]

    response = client.post(form_url, {"new_password1": "12345678", "new_password2": "12345678"})

    assert response.status_code == 200
    assert "This password is too common." in response.text
    alice.refresh_from_db()
    assert alice.check_password(password)


def test_reset_for_an_unknown_email_looks_the_same_and_sends_nothing(
    client: Client, alice: User
) -> None:
    known = client.post(RESET_URL, {"email": "alice@example.com"}, follow=True)
    mail.outbox.clear()

    unknown = client.post(RESET_URL, {"email": "nobody@example.com"}, follow=True)

    assert unknown.redirect_chain == known.redirect_chain == [(DONE_URL, 302)]
    assert main_content(unknown.text) == main_content(known.text)
    assert mail.outbox == []


def test_reset_with_a_bad_email_address_is_named(client: Client) -> None:
    response = client.post(RESET_URL, {"email": "not-an-email"})

    assert response.status_code == 200
    assert "Enter a valid email address." in response.text
    assert mail.outbox == []
