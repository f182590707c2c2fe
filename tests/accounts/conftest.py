"""Shared pieces for the accounts tests: the known password and a sign-up form filled in well."""

from __future__ import annotations

import pytest

from accounts.models import User
from tests.factories import PASSWORD


@pytest.fixture
def password() -> str:
    """The password every ``make_user`` player has."""
    return PASSWORD


@pytest.fixture
def alice(player: User) -> User:
    return player


@pytest.fixture
def signup_data() -> dict[str, str]:
    """A sign-up that succeeds; tests spoil one field at a time."""
    return {
        "username": "bob",
        "display_name": "Bob the Builder",
        "email": "bob@example.com",
        "password1": PASSWORD,
        "password2": PASSWORD,
    }
