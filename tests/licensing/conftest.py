"""Fixtures for the licensing tests: serials on the shelf, players in a given state."""

from __future__ import annotations

from collections.abc import Callable

import pytest
from django.test import Client
from django.utils import timezone

from accounts import licensing
from accounts.models import TRIAL_GAMES, Serial, SerialBatch, User
from tests.licensing.licensing_support import ADDRESS, KNOWN


@pytest.fixture
def stock(db: None) -> Callable[..., Serial]:
    """Put a known serial on the shelf (as minting would, digest and last 4 only)."""

    def put(canonical: str = KNOWN, *, batch: str = "shop") -> Serial:
        return Serial.objects.create(
            batch=SerialBatch.objects.get_or_create(name=batch)[0],
            digest=licensing.serial_digest(canonical),
            last4=canonical[-4:],
        )

    return put


@pytest.fixture
def register(stock: Callable[..., Serial]) -> Callable[..., Serial]:
    """Register ``user`` with ``canonical`` straight in the database."""

    def do(user: User, canonical: str = KNOWN) -> Serial:
        serial = stock(canonical)
        serial.redeemed_by = user
        serial.redeemed_at = timezone.now()
        serial.save()
        return serial

    return do


@pytest.fixture
def trial_left(db: None) -> Callable[[User, int], User]:
    """Set how many trial games ``user`` has left."""

    def set_left(user: User, left: int) -> User:
        user.trial_games_used = TRIAL_GAMES - left
        user.save(update_fields=["trial_games_used"])
        return user

    return set_left


@pytest.fixture
def player_client(client_for: Callable[..., Client], player: User) -> Client:
    return client_for(player, REMOTE_ADDR=ADDRESS)
