"""The serial page: what is accepted, what each refusal says, and that a refusal changes nothing."""

from __future__ import annotations

import re
from collections.abc import Callable

import pytest
from django.db import connection
from django.http import HttpResponse
from django.test import Client
from django.test.utils import CaptureQueriesContext

from accounts import licensing, serials
from accounts.models import AttemptOutcome, RedemptionAttempt, Serial, User
from tests.factories import page_text
from tests.licensing.licensing_support import (
    ADDRESS,
    DASHBOARD_URL,
    KNOWN,
    NOBODYS,
    OTHER,
    SERIAL_URL,
    serial_from,
    typo_of,
)

SERIAL_TABLE = re.compile(r"\baccounts_serial\b")
BY_DIGEST = re.compile(r"WHERE.*\bdigest\b", re.DOTALL)
REVOKED_SERIAL = serial_from("HJKMNPQRSTVWXYZ0000")


def enter(client: Client, typed: str) -> HttpResponse:
    return client.post(SERIAL_URL, {"serial": typed})


def standing(user: User) -> tuple[bool, int, int]:
    """Everything entering a serial could change for ``user``: to show a refusal changed nothing."""
    user.refresh_from_db()
    licence = licensing.licence_of(user)
    return (
        licence.registered,
        user.trial_games_used,
        Serial.objects.filter(redeemed_by=user).count(),
    )


# --- The page --------------------------------------------------------------------------------


def test_the_serial_page_needs_a_login(client: Client) -> None:
    response = client.get(SERIAL_URL)

    assert response.status_code == 302
    assert response["Location"].startswith("/accounts/login/")


def test_the_serial_page_shows_the_trial_games_left(
    player: User, player_client: Client, trial_left
) -> None:
    trial_left(player, 3)

    response = player_client.get(SERIAL_URL)

    assert response.status_code == 200
    assert "You are playing the trial: 3 of 5 games left" in page_text(response)
    assert 'name="serial"' in response.text


# --- Accepted --------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "typed",
    [
        pytest.param(serials.display(KNOWN), id="as printed"),
        pytest.param(KNOWN, id="without dashes"),
        pytest.param(serials.display(KNOWN).lower(), id="lower case"),
        pytest.param(" ".join(KNOWN[i : i + 4] for i in range(0, 20, 4)), id="spaces"),
        pytest.param("-".join(KNOWN), id="dashes everywhere"),
        pytest.param(f"  {serials.display(KNOWN)}  ", id="padded"),
        pytest.param(KNOWN.replace("0", "O"), id="O for 0"),
        pytest.param(KNOWN.replace("1", "I"), id="I for 1"),
        pytest.param(KNOWN.replace("1", "l"), id="l for 1"),
        pytest.param(KNOWN.replace("0", "o").replace("1", "L").lower(), id="all at once"),
    ],
)
def test_a_valid_serial_registers_however_it_is_typed(
    player: User, player_client: Client, stock, typed: str
) -> None:
    stock(KNOWN)

    response = enter(player_client, typed)

    assert response.status_code == 302
    assert response["Location"] == DASHBOARD_URL
    assert licensing.licence_of(player).registered


def test_registering_says_thank_you_and_the_dashboard_says_registered(
    player_client: Client, stock
) -> None:
    stock(KNOWN)

    response = player_client.post(SERIAL_URL, {"serial": serials.display(KNOWN)}, follow=True)

    text = page_text(response)
    assert "Thank you! Your account is registered: play on." in text
    assert "Registered" in text


def test_registering_records_who_and_when_on_the_serial(
    player: User, player_client: Client, stock
) -> None:
    serial = stock(KNOWN)

    enter(player_client, KNOWN)

    serial.refresh_from_db()
    assert serial.redeemed_by == player
    assert serial.redeemed_at is not None
    assert RedemptionAttempt.objects.get().outcome == AttemptOutcome.REGISTERED


def test_the_owner_entering_their_serial_again_is_a_friendly_no_op(
    player: User, player_client: Client, register
) -> None:
    serial = register(player, KNOWN)
    registered_at = serial.redeemed_at

    response = player_client.post(SERIAL_URL, {"serial": KNOWN.lower()}, follow=True)

    assert response.redirect_chain == [(DASHBOARD_URL, 302)]
    assert "This serial already registers your account." in page_text(response)
    serial.refresh_from_db()
    assert (serial.redeemed_by, serial.redeemed_at) == (player, registered_at)


def test_a_trial_that_ran_out_is_lifted_by_registering(
    player: User, player_client: Client, stock, trial_left
) -> None:
    trial_left(player, 0)
    stock(KNOWN)

    enter(player_client, KNOWN)
    response = player_client.post("/play/new/", {"kind": "classic"})

    assert response["Location"].startswith("/play/")
    assert response["Location"] != SERIAL_URL


# --- Refused, each with its own message ------------------------------------------------------


def test_a_typo_is_named_as_a_typo(player_client: Client, stock) -> None:
    stock(KNOWN)

    response = enter(player_client, serials.display(typo_of(KNOWN)))

    assert response.status_code == 400
    assert "This serial has a typo: please check each character and try again." in page_text(
        response
    )


def test_a_typo_is_caught_before_any_serial_is_looked_up(player: User, stock) -> None:
    stock(KNOWN)

    with CaptureQueriesContext(connection) as queries, pytest.raises(serials.SerialTypo):
        licensing.redeem_serial(user=player, text=typo_of(KNOWN), client_ip=ADDRESS)

    touching_serials = [q["sql"] for q in queries if SERIAL_TABLE.search(q["sql"])]
    assert touching_serials == []


def test_the_serial_page_looks_up_no_serial_for_a_typo(player_client: Client, stock) -> None:
    """The page reads the account's own licence, but never searches serials for the typed one."""
    stock(KNOWN)

    with CaptureQueriesContext(connection) as queries:
        enter(player_client, typo_of(KNOWN))

    looked_up = [q["sql"] for q in queries if BY_DIGEST.search(q["sql"])]
    assert looked_up == []


@pytest.mark.parametrize(
    ("typed", "message"),
    [
        ("", "Enter the serial number from your receipt."),
        ("1234", "A serial has 20 letters and digits (like XXXXX-XXXXX-XXXXX-XXXXX); this has 4."),
        ("U" + KNOWN[1:], "“U” cannot be part of a serial"),
    ],
)
def test_text_that_is_no_serial_says_what_is_wrong(
    player_client: Client, typed: str, message: str
) -> None:
    response = enter(player_client, typed)

    assert response.status_code == 400
    assert message in page_text(response)


def test_an_unknown_serial_is_refused_as_unknown(player_client: Client) -> None:
    response = enter(player_client, NOBODYS)

    assert response.status_code == 400
    assert "We do not know this serial number. Check it against your receipt." in page_text(
        response
    )


def test_a_revoked_serial_is_refused_as_revoked(player_client: Client, stock) -> None:
    serial = stock(KNOWN)
    licensing.revoke_serial(serial=serial)

    response = enter(player_client, KNOWN)

    assert response.status_code == 400
    assert "This serial number has been revoked and can no longer be used." in page_text(response)


def test_a_serial_used_by_another_account_is_refused_as_used(
    player_client: Client, make_user: Callable[..., User], register
) -> None:
    register(make_user("bob"), KNOWN)

    response = enter(player_client, KNOWN)

    assert response.status_code == 400
    assert "This serial number has already registered another account." in page_text(response)


def test_a_second_serial_for_a_registered_account_is_refused(
    player: User, player_client: Client, register, stock
) -> None:
    register(player, KNOWN)
    other = stock(OTHER)

    response = enter(player_client, OTHER)

    assert response.status_code == 400
    assert "This account is already registered with another serial." in page_text(response)
    other.refresh_from_db()
    assert other.redeemed_by is None


# --- A refusal changes nothing ---------------------------------------------------------------


@pytest.fixture
def shelf(stock, register, make_user: Callable[..., User]) -> None:
    """KNOWN is on the shelf, OTHER belongs to Bob, REVOKED_SERIAL was revoked."""
    stock(KNOWN)
    register(make_user("bob"), OTHER)
    licensing.revoke_serial(serial=stock(REVOKED_SERIAL))


@pytest.mark.parametrize(
    "typed",
    [
        pytest.param("", id="empty"),
        pytest.param("not a serial", id="malformed"),
        pytest.param(typo_of(KNOWN), id="typo"),
        pytest.param(typo_of(KNOWN, position=19), id="typo in the check symbol"),
        pytest.param(KNOWN[:5] + KNOWN[6] + KNOWN[5] + KNOWN[7:], id="swapped neighbours"),
        pytest.param(NOBODYS, id="unknown"),
        pytest.param(REVOKED_SERIAL, id="revoked"),
        pytest.param(OTHER, id="used by another"),
    ],
)
def test_a_refused_serial_changes_nothing(
    player: User, player_client: Client, trial_left, shelf: None, typed: str
) -> None:
    trial_left(player, 2)
    before = standing(player)
    owners = sorted(Serial.objects.values_list("pk", "redeemed_by", "revoked_at"))

    response = enter(player_client, typed)

    assert response.status_code == 400
    assert standing(player) == before == (False, 3, 0)
    assert sorted(Serial.objects.values_list("pk", "redeemed_by", "revoked_at")) == owners


def test_a_serial_spread_out_with_many_spaces_and_dashes_still_registers(
    player: User, player_client: Client, stock
) -> None:
    stock(KNOWN)

    response = enter(player_client, " - ".join(KNOWN))  # 77 characters

    assert response.status_code == 302
    assert licensing.licence_of(player).registered


def test_text_far_too_long_to_be_a_serial_is_refused(
    player: User, player_client: Client, stock
) -> None:
    stock(KNOWN)

    response = enter(player_client, KNOWN + "0" * 300)

    assert response.status_code == 400
    assert "Ensure this value has at most 200 characters" in page_text(response)
    assert not licensing.licence_of(player).registered


def test_the_serial_page_of_a_registered_account_shows_its_licence(
    player: User, player_client: Client, register
) -> None:
    register(player, KNOWN)

    response = player_client.get(SERIAL_URL)

    text = page_text(response)
    assert "Your account is registered Play as many games as you like" in text
    assert f"Serial ending in {KNOWN[-4:]}" in text
    assert "Register your account" not in text
    assert 'name="serial"' not in response.text  # no form to fill in again


def test_a_serial_of_a_deleted_account_does_not_register_another(
    player: User, make_user: Callable[..., User], register
) -> None:
    register(player, KNOWN)
    player.delete()
    bob = make_user("bob")

    with pytest.raises(licensing.SerialRefused) as refused:
        licensing.redeem_serial(user=bob, text=KNOWN, client_ip=ADDRESS)

    assert refused.value.outcome == AttemptOutcome.USED
    assert not licensing.licence_of(bob).registered
