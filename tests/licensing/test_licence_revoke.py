"""Revoking a serial (``licensing.revoke_serial``): that serial only, its owner only."""

from __future__ import annotations

from collections.abc import Callable

import pytest
from django.db import IntegrityError

from accounts import licensing
from accounts.models import TRIAL_GAMES, Serial, User
from tests.licensing.licensing_support import KNOWN, NOBODYS, OTHER

pytestmark = pytest.mark.django_db


def live(serial: Serial) -> bool:
    serial.refresh_from_db()
    return serial.revoked_at is None


def used(user: User) -> int:
    user.refresh_from_db()
    return user.trial_games_used


def test_revoking_a_serial_leaves_every_other_serial_live(
    make_user: Callable[..., User],
    stock: Callable[..., Serial],
    register: Callable[..., Serial],
) -> None:
    revoked = register(make_user("alice"), KNOWN)
    bobs = register(make_user("bob"), OTHER)
    on_the_shelf = stock(NOBODYS)

    licensing.revoke_serial(serial=revoked)

    assert not live(revoked)
    assert live(bobs) and live(on_the_shelf)


def test_revoking_uses_up_the_trial_of_its_owner_and_of_no_one_else(
    make_user: Callable[..., User], register: Callable[..., Serial], trial_left
) -> None:
    alice, bob, carol = make_user("alice"), make_user("bob"), make_user("carol")
    serial = register(alice, KNOWN)
    register(bob, OTHER)
    trial_left(carol, 3)

    licensing.revoke_serial(serial=serial)

    assert used(alice) == TRIAL_GAMES
    assert (used(bob), used(carol)) == (0, TRIAL_GAMES - 3)
    assert licensing.licence_of(bob).registered


def test_revoking_a_serial_no_one_redeemed_changes_no_account(
    make_user: Callable[..., User], stock: Callable[..., Serial]
) -> None:
    alice = make_user("alice")
    serial = stock(KNOWN)

    licensing.revoke_serial(serial=serial)

    assert not live(serial)
    assert used(alice) == 0


def test_the_revoked_account_is_back_on_a_used_up_trial(
    player: User, register: Callable[..., Serial]
) -> None:
    serial = register(player, KNOWN)

    licensing.revoke_serial(serial=serial)

    player.refresh_from_db()
    licence = licensing.licence_of(player)
    assert not licence.registered and not licence.can_start_game
    assert licence.summary == "Trial: 0 of 5 games left"


def test_the_serial_passed_in_shows_its_revocation(stock: Callable[..., Serial]) -> None:
    serial = stock(KNOWN)

    licensing.revoke_serial(serial=serial)

    assert serial.revoked_at is not None


def test_revoking_again_keeps_the_first_date(stock: Callable[..., Serial]) -> None:
    serial = stock(KNOWN)
    licensing.revoke_serial(serial=serial)
    first = serial.revoked_at

    licensing.revoke_serial(serial=serial)

    serial.refresh_from_db()
    assert serial.revoked_at == first


def test_a_revocation_that_fails_half_way_revokes_nothing(
    player: User, register: Callable[..., Serial], monkeypatch: pytest.MonkeyPatch
) -> None:
    """The account's update is refused by the database (more trial games used than exist):
    the serial's revocation, written first, is rolled back with it."""
    serial = register(player, KNOWN)
    monkeypatch.setattr(licensing, "TRIAL_GAMES", TRIAL_GAMES + 1)

    with pytest.raises(IntegrityError):
        licensing.revoke_serial(serial=serial)

    assert live(serial)
    assert used(player) == 0
