"""Trial games need a confirmed e-mail address (decided in issue 14, against trial farming):
a new account can log in and look around, but its first trial game waits for the link mailed
at sign-up; a registered account (a serial) needs none."""

from __future__ import annotations

import re
from collections.abc import Callable
from datetime import timedelta

import pytest
from django.core import mail
from django.test import Client, TestCase
from django.urls import reverse
from django.utils import timezone

from accounts import licensing, signups
from accounts.models import Serial, SerialBatch, User
from games.models import Game
from games.tables import services
from tests.factories import page_text

pytestmark = pytest.mark.django_db

NEW_GAME_URL = reverse("games:new")
DASHBOARD_URL = reverse("games:dashboard")
RESEND_URL = reverse("accounts:resend_confirmation")


@pytest.fixture
def newcomer(make_user: Callable[..., User]) -> User:
    return make_user("newcomer", email_confirmed=False)


@pytest.fixture
def newcomer_client(newcomer: User, client_for: Callable[..., Client]) -> Client:
    return client_for(newcomer)


def link_for(user: User) -> str:
    return signups.confirmation_path(user)


def test_an_unconfirmed_account_sees_its_games_page_with_the_notice(
    newcomer_client: Client,
) -> None:
    response = newcomer_client.get(DASHBOARD_URL)

    assert response.status_code == 200
    assert "Confirm your e-mail address to play your trial games." in page_text(response)
    assert "Send the link again" in page_text(response)
    assert "Start a game of" not in page_text(response)


def test_starting_a_trial_game_asks_to_confirm_first(
    newcomer: User, newcomer_client: Client
) -> None:
    response = newcomer_client.post(NEW_GAME_URL, follow=True)

    assert response.redirect_chain == [(DASHBOARD_URL, 302)]
    assert str(licensing.EmailNotConfirmed()) in page_text(response)
    assert not Game.objects.exists()
    newcomer.refresh_from_db()
    assert newcomer.trial_games_used == 0


def test_the_service_refuses_too(newcomer: User) -> None:
    with pytest.raises(licensing.EmailNotConfirmed):
        services.start_game(owner=newcomer)


def test_the_link_confirms_even_when_logged_out_and_then_games_start(
    client: Client, newcomer: User, newcomer_client: Client
) -> None:
    response = client.get(link_for(newcomer))

    assert response.status_code == 200
    assert "Your e-mail address is confirmed" in page_text(response)
    newcomer.refresh_from_db()
    assert newcomer.email_confirmed
    assert newcomer_client.post(NEW_GAME_URL).status_code == 302
    assert Game.objects.filter(owner=newcomer).count() == 1


def test_a_link_works_once(client: Client, newcomer: User) -> None:
    link = link_for(newcomer)
    client.get(link)

    assert client.get(link).status_code == 400


@pytest.mark.parametrize(
    "spoil",
    [
        pytest.param(lambda link: re.sub(r"/[^/]+/$", "/0-0/", link), id="wrong token"),
        pytest.param(lambda link: link.replace("/confirm/", "/confirm/x"), id="wrong user"),
    ],
)
def test_a_spoiled_link_confirms_nothing(
    client: Client, newcomer: User, spoil: Callable[[str], str]
) -> None:
    response = client.get(spoil(link_for(newcomer)))

    assert response.status_code == 400
    assert "This link does not work" in page_text(response)
    newcomer.refresh_from_db()
    assert not newcomer.email_confirmed


def test_an_address_confirmed_by_another_account_first_cannot_confirm_a_second(
    client: Client, make_user: Callable[..., User], player: User
) -> None:
    twin = make_user("twin", email=player.email, email_confirmed=False)

    response = client.get(link_for(twin))

    assert response.status_code == 400
    assert "already belongs to another account" in page_text(response)
    twin.refresh_from_db()
    assert not twin.email_confirmed


def test_a_registered_account_needs_no_confirmation(
    newcomer: User, newcomer_client: Client
) -> None:
    Serial.objects.create(
        batch=SerialBatch.objects.create(name="shop"),
        digest="0" * 64,
        last4="ABCD",
        redeemed_by=newcomer,
        redeemed_at=timezone.now(),
    )

    response = newcomer_client.post(NEW_GAME_URL)

    assert response.status_code == 302
    assert Game.objects.filter(owner=newcomer).count() == 1
    assert "Confirm your e-mail" not in page_text(newcomer_client.get(DASHBOARD_URL))


def test_the_link_can_be_sent_again(newcomer: User, newcomer_client: Client) -> None:
    with TestCase.captureOnCommitCallbacks(execute=True):
        response = newcomer_client.post(RESEND_URL, follow=True)

    assert "We have sent the link again" in page_text(response)
    (message,) = mail.outbox
    assert message.to == [newcomer.email]
    (link,) = re.findall(r"http://testserver(/accounts/confirm/\S+/)", message.body)
    assert Client().get(link).status_code == 200


def test_again_only_every_few_minutes_so_nobody_floods_a_mailbox(
    newcomer: User, newcomer_client: Client
) -> None:
    newcomer_client.post(RESEND_URL)

    response = newcomer_client.post(RESEND_URL, follow=True)

    assert "We sent you a link a moment ago" in page_text(response)
    assert len(mail.outbox) == 1
    User.objects.filter(pk=newcomer.pk).update(
        confirmation_sent_at=newcomer.date_joined - timedelta(minutes=6)
    )
    newcomer_client.post(RESEND_URL)
    assert len(mail.outbox) == 2


def test_sending_again_is_a_post(newcomer_client: Client) -> None:
    assert newcomer_client.get(RESEND_URL).status_code == 405


def test_an_account_without_an_address_is_told_what_to_do_instead(
    make_user: Callable[..., User], client_for: Callable[..., Client]
) -> None:
    client = client_for(make_user("noaddress", email="", email_confirmed=False))

    response = client.post(RESEND_URL, follow=True)

    assert "This account has no e-mail address to confirm" in page_text(response)
    assert mail.outbox == []
