"""The admin answers at ADMIN_PATH (``admin/`` unless moved), and only there."""

from __future__ import annotations

import importlib
from collections.abc import Callable, Iterator

import pytest
from django.test import Client
from django.urls import clear_url_caches, reverse
from pytest_django import Settings

from accounts.models import User
from tests.site.test_settings import manage
from yahtzee_site import urls


@pytest.fixture
def admin_at(settings: Settings) -> Iterator[Callable[[str], None]]:
    def move(path: str) -> None:
        settings.ADMIN_PATH = path
        importlib.reload(urls)
        clear_url_caches()

    yield move
    move("admin/")


def test_by_default_the_admin_is_at_admin(client: Client) -> None:
    assert reverse("admin:index") == "/admin/"


def test_a_moved_admin_answers_at_its_path_and_not_at_admin(
    admin_at: Callable[[str], None], client: Client
) -> None:
    admin_at("backstage-4f7a/")

    assert client.get("/admin/").status_code == 404
    assert client.get("/backstage-4f7a/").status_code == 302  # to its log-in page
    assert reverse("admin:index") == "/backstage-4f7a/"


def test_the_setting_is_read_from_the_environment() -> None:
    result = manage(
        "shell",
        "-c",
        "from django.urls import reverse; print(reverse('admin:index'))",
        DEBUG="1",
        ADMIN_PATH="/backstage/",
    )

    assert result.stdout.strip().splitlines()[-1] == "/backstage/", result.stderr


def test_the_admin_shows_confirmation_public_id_and_sign_ups(
    admin_client: Client, player: User
) -> None:
    page = admin_client.get(reverse("admin:accounts_user_change", args=[player.pk]))
    sign_ups = admin_client.get(reverse("admin:accounts_signup_changelist"))

    assert page.status_code == sign_ups.status_code == 200
    assert str(player.public_id) in page.text
    assert 'name="email_confirmed"' in page.text
