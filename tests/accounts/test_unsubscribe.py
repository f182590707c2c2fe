"""The turn mail's unsubscribe link works without logging in: GET asks, POST (the page's button
or the mail program's RFC 8058 one-click POST, which has no CSRF token) turns the mail off; a
forged token is refused with a clear message and changes nothing. And the Options page."""

from __future__ import annotations

import pytest
from django.core import signing
from django.test import Client
from django.urls import reverse

from accounts import mailing
from tests.factories import client_for, make_user, page_text


@pytest.fixture
def bob(db):
    return make_user("bob", display_name="Bob")


def browser() -> Client:
    """A logged-out visitor whose POSTs Django checks for a CSRF token, as a real browser's."""
    return Client(enforce_csrf_checks=True)


def test_the_link_asks_first_and_changes_nothing_on_get(bob) -> None:
    response = browser().get(mailing.unsubscribe_path(bob))

    bob.refresh_from_db()
    assert response.status_code == 200
    assert "Stop the “your turn” e-mails?" in page_text(response)
    assert 'type="submit"' in response.text
    assert bob.turn_mail


def test_the_confirm_button_unsubscribes_without_logging_in(bob) -> None:
    visitor = browser()
    path = mailing.unsubscribe_path(bob)
    page = visitor.get(path)
    token = page.context["csrf_token"]

    response = visitor.post(path, {"csrfmiddlewaretoken": str(token)})

    bob.refresh_from_db()
    assert response.status_code == 200
    assert "You are unsubscribed" in page_text(response)
    assert not bob.turn_mail


def test_the_one_click_post_needs_no_csrf_token(bob) -> None:
    response = browser().post(
        mailing.unsubscribe_path(bob),
        "List-Unsubscribe=One-Click",
        content_type="application/x-www-form-urlencoded",
    )

    bob.refresh_from_db()
    assert response.status_code == 200
    assert not bob.turn_mail


@pytest.mark.parametrize(
    "forge",
    [
        lambda token: token[:-2] + ("AA" if not token.endswith("AA") else "BB"),
        lambda token: signing.dumps(int(signing.loads(token, salt="accounts.mailing.unsubscribe"))),
        lambda token: "not-a-token",
    ],
    ids=["tampered signature", "signed for another purpose", "garbage"],
)
@pytest.mark.parametrize("method", ["get", "post"])
def test_a_forged_token_is_refused_and_changes_nothing(bob, forge, method) -> None:
    path = reverse("accounts:unsubscribe", kwargs={"token": forge(mailing.unsubscribe_token(bob))})

    response = getattr(browser(), method)(path)

    bob.refresh_from_db()
    assert response.status_code == 400
    assert "This unsubscribe link is not valid" in page_text(response)
    assert "Nothing was changed" in page_text(response)
    assert bob.turn_mail


def test_another_accounts_number_under_a_token_is_refused(bob) -> None:
    carol = make_user("carol")
    token = mailing.unsubscribe_token(bob)
    signature = token.rsplit(":", 1)[1]
    other = signing.dumps(carol.pk, salt="accounts.mailing.unsubscribe").rsplit(":", 1)[0]

    response = browser().post(
        reverse("accounts:unsubscribe", kwargs={"token": f"{other}:{signature}"})
    )

    carol.refresh_from_db()
    assert response.status_code == 400 and carol.turn_mail


def test_the_options_page_still_wants_its_csrf_token(bob) -> None:
    visitor = Client(enforce_csrf_checks=True)
    visitor.force_login(bob)

    response = visitor.post(reverse("accounts:options"), {"turn_mail": ""})

    bob.refresh_from_db()
    assert response.status_code == 403 and bob.turn_mail


def test_options_turn_the_mail_off_and_set_a_time_zone(bob) -> None:
    form = {"theme": "classic", "felt_color": "#1d6b3c", "dice_style": "ivory"}

    response = client_for(bob).post(
        reverse("accounts:options"), {**form, "time_zone": "Asia/Tokyo"}
    )

    bob.refresh_from_db()
    assert response.status_code == 302
    assert (bob.turn_mail, bob.time_zone) == (False, "Asia/Tokyo")


def test_options_refuse_a_time_zone_that_does_not_exist(bob) -> None:
    form = {"theme": "classic", "felt_color": "#1d6b3c", "dice_style": "ivory", "turn_mail": "on"}

    response = client_for(bob).post(reverse("accounts:options"), {**form, "time_zone": "Mars/Base"})

    bob.refresh_from_db()
    assert response.status_code == 400 and bob.time_zone == ""
