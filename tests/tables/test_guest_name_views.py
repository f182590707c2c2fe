"""A guest name that will not do, posted to the new-game form: the form again with the reason
(400), nothing started, on either database (PostgreSQL cannot even store a NUL)."""

from __future__ import annotations

import pytest
from django.urls import reverse

from games.models import Game
from tests.factories import page_text


@pytest.mark.parametrize(
    ("typed", "message"),
    [
        ("Ann\x00", "Player 2's name has a character that prints nothing or turns text around"),
        ("\u202eAnn", "Player 2's name has a character that prints nothing or turns text around"),
        ("Computer (Perfect)", "“Computer (Perfect)” would pass for a computer player"),
        ("Player 123456", "“Player 123456” looks like a name the site gives players without one"),
        ("Аlice", "“Аlice” looks just like “Alice”: give each player a name of their own."),
    ],
)
def test_a_bad_guest_name_answers_400_with_the_reason_and_starts_nothing(
    alice_client, player, typed, message
) -> None:
    response = alice_client.post(reverse("games:new"), {"kind": "classic", "guest": [typed]})

    assert response.status_code == 400
    assert message in page_text(response)
    assert not Game.objects.exists()
    player.refresh_from_db()
    assert player.trial_games_used == 0
    assert player.guest_names == []


def test_another_accounts_name_is_refused_for_an_online_game_too(
    alice_client, player, make_user
) -> None:
    make_user("bob", display_name="Bob")

    response = alice_client.post(
        reverse("games:new"), {"kind": "classic", "guest": ["B0b"], "invites": "1"}
    )

    assert response.status_code == 400
    assert (
        "“B0b” is another player's name on this site, or looks just like it: choose another."
        in page_text(response)
    )
    assert not Game.objects.exists()
