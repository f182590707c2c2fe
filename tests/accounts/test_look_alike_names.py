"""Nobody can pose as another player: names that look alike (case, Unicode look-alikes,
spacing) are one name, refused to the second player, by the form and by the database."""

from __future__ import annotations

from collections.abc import Callable

import pytest
from django.db import IntegrityError
from django.test import Client
from django.urls import reverse

from accounts.display_names import is_reserved, skeleton
from accounts.forms import DISPLAY_NAME_LOOK_ALIKE, DISPLAY_NAME_RESERVED, DisplayNameForm
from accounts.models import User

LOOK_ALIKES_OF_ALICE = [
    "alice",
    "ALICE",
    "Аlice",  # Cyrillic А
    "Alicе",  # Cyrillic е
    "Al1ce",
    "AIice",  # capital I for l
    "A lice",
    "A.lice",
    "Ａｌｉｃｅ",  # fullwidth
    "𝐀𝐥𝐢𝐜𝐞",  # mathematical bold
    "Álice",
]


@pytest.mark.parametrize("name", LOOK_ALIKES_OF_ALICE)
def test_look_alikes_share_a_skeleton(name: str) -> None:
    assert skeleton(name) == skeleton("Alice")


@pytest.mark.parametrize("name", ["Alicia", "Bob", "Ali", "Alice 2", "Malice"])
def test_different_names_do_not(name: str) -> None:
    assert skeleton(name) != skeleton("Alice")


@pytest.mark.parametrize("name", ["rn", "Modern"])
def test_letter_pairs_that_print_as_one_letter_are_folded(name: str) -> None:
    assert skeleton(name) == skeleton(name.replace("rn", "m"))


def test_neutral_names_are_reserved() -> None:
    assert is_reserved("Player 123456")
    assert is_reserved("PIayer 1O2")
    assert not is_reserved("Player One")


@pytest.mark.parametrize("name", LOOK_ALIKES_OF_ALICE)
def test_a_look_alike_of_another_players_name_is_refused(player: User, name: str) -> None:
    bob = User.objects.create_user("bob", display_name="Bob", email="bob@example.com")

    form = DisplayNameForm({"display_name": name}, instance=bob)

    assert not form.is_valid()
    assert form.errors["display_name"] == [DISPLAY_NAME_LOOK_ALIKE]


def test_a_player_may_keep_or_restyle_their_own_name(player: User) -> None:
    assert DisplayNameForm({"display_name": "Alice"}, instance=player).is_valid()
    assert DisplayNameForm({"display_name": "ALICE"}, instance=player).is_valid()


def test_a_neutral_name_cannot_be_chosen(player: User) -> None:
    form = DisplayNameForm({"display_name": "Player 482913"}, instance=player)

    assert form.errors["display_name"] == [DISPLAY_NAME_RESERVED]


def test_the_database_refuses_a_look_alike_that_slipped_past_the_form(player: User) -> None:
    with pytest.raises(IntegrityError):
        User.objects.create_user("mallory", display_name="ALlCE", email="m@example.com")


def test_the_account_page_names_the_clash(
    player: User, client_for: Callable[..., Client], make_user: Callable[..., User]
) -> None:
    mallory = client_for(make_user("mallory"))

    response = mallory.post(reverse("accounts:account"), {"display_name": "Аlice"})

    assert response.status_code == 200
    assert DISPLAY_NAME_LOOK_ALIKE in response.text
    assert User.objects.get(username="mallory").display_name == "Mallory"
