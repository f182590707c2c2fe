"""The admin: revoking a serial sends its account back to a trial that is used up."""

from __future__ import annotations

from collections.abc import Callable

import pytest
from django.http import HttpResponse
from django.test import Client
from django.urls import reverse

from accounts import licensing
from accounts.models import TRIAL_GAMES, AttemptOutcome, RedemptionAttempt, Serial, User
from games.models import Game
from tests.licensing.licensing_support import ADDRESS, KNOWN, NEW_GAME_URL, OTHER, SERIAL_URL

SERIAL_CHANGELIST = reverse("admin:accounts_serial_changelist")


def revoke(admin_client: Client, *chosen: Serial) -> HttpResponse:
    return admin_client.post(
        SERIAL_CHANGELIST,
        {"action": "revoke", "_selected_action": [serial.pk for serial in chosen]},
        follow=True,
    )


@pytest.fixture
def registered_player(player: User, register: Callable[..., Serial]) -> User:
    register(player, KNOWN)
    return player


def test_revoking_a_serial_marks_it_revoked(admin_client: Client, registered_player: User) -> None:
    serial = Serial.objects.get(redeemed_by=registered_player)

    response = revoke(admin_client, serial)

    assert response.status_code == 200
    assert "Revoked 1 serial(s)." in response.text
    serial.refresh_from_db()
    assert serial.revoked_at is not None


def test_revoking_sends_the_account_back_to_a_used_up_trial(
    admin_client: Client, registered_player: User
) -> None:
    revoke(admin_client, Serial.objects.get())

    registered_player.refresh_from_db()
    licence = licensing.licence_of(registered_player)
    assert not licence.registered
    assert registered_player.trial_games_used == TRIAL_GAMES
    assert licence.summary == "Trial: 0 of 5 games left"


def test_after_revoking_new_game_leads_to_the_serial_page(
    admin_client: Client, registered_player: User, player_client: Client
) -> None:
    revoke(admin_client, Serial.objects.get())

    response = player_client.post(NEW_GAME_URL, {"kind": "classic"})

    assert response["Location"] == SERIAL_URL
    assert not Game.objects.exists()


def test_after_revoking_the_account_may_register_with_another_serial(
    admin_client: Client, registered_player: User, stock: Callable[..., Serial]
) -> None:
    revoke(admin_client, Serial.objects.get())
    stock(OTHER)

    licensing.redeem_serial(user=registered_player, text=OTHER, client_ip=ADDRESS)

    assert licensing.licence_of(registered_player).last4 == OTHER[-4:]


def test_revoking_an_unused_serial_leaves_every_account_alone(
    admin_client: Client, player: User, stock: Callable[..., Serial], trial_left
) -> None:
    trial_left(player, 4)
    serial = stock(KNOWN)

    revoke(admin_client, serial)

    player.refresh_from_db()
    assert player.trial_games_used == 1


def test_revoking_twice_counts_only_the_first(
    admin_client: Client, registered_player: User
) -> None:
    serial = Serial.objects.get()
    revoke(admin_client, serial)
    serial.refresh_from_db()
    first_revoked_at = serial.revoked_at

    response = revoke(admin_client, serial)

    assert "Revoked 0 serial(s)." in response.text
    serial.refresh_from_db()
    assert serial.revoked_at == first_revoked_at


def test_serials_cannot_be_added_in_the_admin(admin_client: Client) -> None:
    response = admin_client.get(reverse("admin:accounts_serial_add"))

    assert response.status_code == 403


@pytest.mark.parametrize("model", ["serialbatch", "serial", "redemptionattempt", "user"])
def test_the_licensing_changelists_load(
    admin_client: Client, registered_player: User, model: str
) -> None:
    RedemptionAttempt.objects.create(
        user=registered_player,
        client_ip=ADDRESS,
        outcome=AttemptOutcome.UNKNOWN,
        created_at=Serial.objects.get().redeemed_at,
    )

    response = admin_client.get(reverse(f"admin:accounts_{model}_changelist"))

    assert response.status_code == 200


def test_the_serial_changelist_shows_the_last_four_and_never_the_digest(
    admin_client: Client, registered_player: User
) -> None:
    serial = Serial.objects.get()

    response = admin_client.get(SERIAL_CHANGELIST)

    assert serial.last4 in response.text
    assert serial.digest not in response.text


def test_the_batch_changelist_counts_its_serials(
    admin_client: Client, registered_player: User, stock: Callable[..., Serial]
) -> None:
    stock(OTHER)

    response = admin_client.get(reverse("admin:accounts_serialbatch_changelist"))

    assert '<td class="field-serial_count">2</td>' in response.text
    assert '<td class="field-redeemed_count">1</td>' in response.text


def test_a_serial_opens_read_only_in_the_admin(
    admin_client: Client, registered_player: User
) -> None:
    serial = Serial.objects.get()

    response = admin_client.get(reverse("admin:accounts_serial_change", args=[serial.pk]))

    assert response.status_code == 200
    assert 'name="last4"' not in response.text
    assert serial.digest not in response.text
