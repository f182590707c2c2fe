"""Player pages announce no account: only players with a finished game have one, at a random
address, and no login name is ever shown in public."""

from __future__ import annotations

import re
from collections.abc import Callable

from django.test import Client
from django.urls import reverse

from accounts.models import User
from games.models import Score
from tests.factories import page_text


def page_of(user: User) -> str:
    return reverse("player", kwargs={"public_id": user.public_id})


def test_a_player_with_a_finished_game_has_a_public_page(
    client: Client, player: User, finished: Callable[..., Score]
) -> None:
    finished(player, 210)

    assert client.get(page_of(player)).status_code == 200


def test_an_account_without_a_finished_game_has_no_public_page(
    client: Client, player: User
) -> None:
    assert client.get(page_of(player)).status_code == 404


def test_a_game_played_only_by_the_computer_does_not_make_a_page(
    client: Client, player: User, finished: Callable[..., Score]
) -> None:
    finished(player, 210, computer=True)

    assert client.get(page_of(player)).status_code == 404


def test_the_player_sees_their_own_page_before_finishing_a_game(
    alice_client: Client, player: User
) -> None:
    response = alice_client.get(reverse("my_stats"), follow=True)

    assert response.status_code == 200
    assert "Your statistics" in page_text(response)


def test_player_addresses_cannot_be_walked(client: Client, player: User) -> None:
    """The old addresses by row id answer nothing, and the new ones are random."""
    other = User.objects.create_user("bob", display_name="Bob", email="bob@example.com")

    assert client.get(f"/players/{player.pk}/").status_code == 404
    assert re.fullmatch(r"/players/[0-9a-f-]{36}/", page_of(player))
    assert player.public_id.version == 4 and other.public_id.version == 4


def test_the_high_scores_link_to_the_random_address(
    client: Client, player: User, finished: Callable[..., Score]
) -> None:
    finished(player, 275)

    response = client.get(reverse("high_scores"))

    assert f'href="{page_of(player)}"' in response.text
    assert f"/players/{player.pk}/" not in response.text


def test_an_account_made_without_a_display_name_is_a_neutral_player_in_public(
    client: Client, finished: Callable[..., Score]
) -> None:
    """As ``createsuperuser`` makes one: its login name must not reach the high scores."""
    admin = User.objects.create_superuser("root-operator", "ops@example.com", "x-Strong-42-pw")
    finished(admin, 250)

    scores, page = client.get(reverse("high_scores")), client.get(page_of(admin))

    assert re.fullmatch(r"Player \d{6}", admin.display_name)
    for response in (scores, page):
        assert admin.display_name in page_text(response)
        assert "root-operator" not in response.text
