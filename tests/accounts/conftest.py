"""Shared pieces for the accounts tests: a player factory and a sign-up form filled in well."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from django.test import Client

from accounts.models import User

PASSWORD = "dice-roll-full-house-42"

MakeUser = Callable[..., User]


@pytest.fixture
def make_user(db: None) -> MakeUser:
    """Create a player; every argument can be overridden, the password is ``PASSWORD``."""
    counter = iter(range(1, 1_000_000))

    def make(**fields: Any) -> User:
        n = next(counter)
        fields.setdefault("username", f"player{n}")
        fields.setdefault("display_name", f"Player {n}")
        fields.setdefault("email", f"player{n}@example.com")
        password = fields.pop("password", PASSWORD)
        return User.objects.create_user(password=password, **fields)

    return make


@pytest.fixture
def password() -> str:
    """The password every ``make_user`` player has."""
    return PASSWORD


@pytest.fixture
def alice(make_user: MakeUser) -> User:
    return make_user(username="alice", display_name="Alice", email="alice@example.com")


@pytest.fixture
def alice_client(client: Client, alice: User) -> Client:
    client.force_login(alice)
    return client


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
