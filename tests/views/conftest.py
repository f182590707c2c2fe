from __future__ import annotations

import pytest
from django.test import Client

from games import rules
from tests.conftest import ScriptedDice


@pytest.fixture
def client_for(db):
    def make(user, **kwargs) -> Client:
        client = Client(**kwargs)
        client.force_login(user)
        return client

    return make


@pytest.fixture
def alice_client(client_for, player) -> Client:
    return client_for(player)


@pytest.fixture
def htmx_headers() -> dict[str, str]:
    return {"HX-Request": "true"}


@pytest.fixture
def next_dice(monkeypatch):
    """Script the dice the server will roll next: ``next_dice(6, 6, 6, 6, 6)``."""

    def script(*values: int) -> ScriptedDice:
        dice = ScriptedDice(*values)
        monkeypatch.setattr(rules, "system_dice", dice)
        return dice

    return script
