"""What the pages say about the licence: the dashboard, "New game" after the trial, the account."""

from __future__ import annotations

from django.test import Client
from django.urls import reverse
from django.utils import dateformat
from django.utils.timezone import localtime

from accounts import serials
from accounts.models import TRIAL_GAMES, User
from games.models import Game
from games.tables import services
from tests.factories import page_text
from tests.licensing.licensing_support import (
    DASHBOARD_URL,
    KNOWN,
    NEW_GAME_URL,
    SERIAL_URL,
)

ACCOUNT_URL = reverse("accounts:account")
TRIAL_OVER = "Your five trial games are used. Enter a serial number to keep playing."


def games_of(user: User) -> int:
    return Game.objects.filter(owner=user).count()


# --- Dashboard -------------------------------------------------------------------------------


def test_dashboard_counts_the_trial_games_left_with_a_link_to_enter_a_serial(
    player: User, player_client: Client
) -> None:
    services.start_game(owner=player)
    services.start_game(owner=player)

    response = player_client.get(DASHBOARD_URL)

    assert "Trial: 3 of 5 games left — Enter serial" in page_text(response)
    assert f'href="{SERIAL_URL}"' in response.text


def test_dashboard_says_registered_and_offers_no_serial(
    player: User, player_client: Client, register
) -> None:
    register(player)

    response = player_client.get(DASHBOARD_URL)

    text = page_text(response)
    assert "Registered" in text
    assert "Trial:" not in text
    assert SERIAL_URL not in response.text


def test_first_visit_offers_a_serial_now_or_the_trial(player_client: Client) -> None:
    response = player_client.get(DASHBOARD_URL)

    text = page_text(response)
    assert "Welcome! Play the trial, or enter a serial" in text
    assert "5 trial games" in text
    assert f'action="{NEW_GAME_URL}"' in response.text
    assert f'href="{SERIAL_URL}"' in response.text


def test_the_welcome_is_gone_once_a_trial_game_was_started(
    player: User, player_client: Client
) -> None:
    services.start_game(owner=player)

    response = player_client.get(DASHBOARD_URL)

    assert "Welcome!" not in page_text(response)


def test_a_registered_player_gets_no_welcome_even_before_their_first_game(
    player: User, player_client: Client, register
) -> None:
    register(player)

    response = player_client.get(DASHBOARD_URL)

    assert "Welcome!" not in page_text(response)


def test_after_the_trial_the_dashboard_says_so_and_keeps_the_games(
    player: User, player_client: Client
) -> None:
    started = [services.start_game(owner=player) for _ in range(TRIAL_GAMES)]

    response = player_client.get(DASHBOARD_URL)

    text = page_text(response)
    assert "Trial: 0 of 5 games left — Enter serial" in text
    assert TRIAL_OVER in text
    assert f'action="{NEW_GAME_URL}"' not in response.text
    assert text.count("Resume Classic") == len(started)


# --- New game after the trial ----------------------------------------------------------------


def test_new_game_without_trial_games_leads_to_the_serial_page(
    player: User, player_client: Client, trial_left
) -> None:
    trial_left(player, 0)

    response = player_client.post(NEW_GAME_URL, {"kind": "classic"})

    assert response.status_code == 302
    assert response["Location"] == SERIAL_URL
    assert games_of(player) == 0


def test_the_serial_page_after_new_game_says_the_trial_is_used(
    player: User, player_client: Client, trial_left
) -> None:
    trial_left(player, 0)

    response = player_client.post(NEW_GAME_URL, {"kind": "classic"}, follow=True)

    assert response.status_code == 200
    assert TRIAL_OVER in page_text(response)


def test_new_game_by_htmx_without_trial_games_redirects_the_browser_to_the_serial_page(
    player: User, player_client: Client, trial_left
) -> None:
    trial_left(player, 0)

    response = player_client.post(NEW_GAME_URL, {"kind": "classic"}, HTTP_HX_REQUEST="true")

    assert response.status_code == 200
    assert response["HX-Redirect"] == SERIAL_URL
    assert games_of(player) == 0


def test_new_game_with_a_trial_game_left_starts_it(
    player: User, player_client: Client, trial_left
) -> None:
    trial_left(player, 1)

    response = player_client.post(NEW_GAME_URL, {"kind": "classic"})

    game = Game.objects.get(owner=player)
    assert response["Location"] == reverse("games:play", kwargs={"game_id": game.pk})
    player.refresh_from_db()
    assert player.trial_games_used == TRIAL_GAMES


def test_a_game_started_in_the_trial_still_opens_after_the_trial_ran_out(
    player: User, player_client: Client, trial_left
) -> None:
    trial_left(player, 1)
    last = services.start_game(owner=player)

    response = player_client.get(reverse("games:play", kwargs={"game_id": last.pk}))

    assert response.status_code == 200
    player.refresh_from_db()
    assert player.trial_games_used == TRIAL_GAMES


# --- Account page ----------------------------------------------------------------------------


def test_account_page_shows_since_when_and_the_last_four_of_the_serial(
    player: User, player_client: Client, register
) -> None:
    serial = register(player, KNOWN)

    response = player_client.get(ACCOUNT_URL)

    text = page_text(response)
    assert "Status Registered" in text
    assert f"Since {dateformat.format(localtime(serial.redeemed_at), 'j F Y')}" in text
    assert f"Serial ending in {KNOWN[-4:]}" in text


def test_account_page_never_shows_the_whole_serial(
    player: User, player_client: Client, register
) -> None:
    register(player, KNOWN)

    response = player_client.get(ACCOUNT_URL)

    assert KNOWN not in response.text
    assert serials.display(KNOWN) not in response.text
    assert serials.display(KNOWN)[:-4] not in response.text


def test_account_page_of_a_trial_account_shows_the_trial(
    player: User, player_client: Client, trial_left
) -> None:
    trial_left(player, 2)

    response = player_client.get(ACCOUNT_URL)

    assert "Trial: 2 of 5 games left — Enter serial" in page_text(response)
