"""Quick play's pages: the dashboard's buttons, the waiting page and its check (polling, then
``HX-Redirect`` to the game), cancel, the computer; every bad request refused with its
message and nothing changed."""

from __future__ import annotations

import datetime

import pytest
from django.test import Client
from django.urls import reverse

from accounts.models import TRIAL_GAMES
from games.models import Game, Seat
from games.quickplay.models import QuickWait
from tests.factories import HTMX, client_for, page_text
from tests.quickplay.support import rated

pytestmark = pytest.mark.django_db

PAGE, CHECK = reverse("games:quick"), reverse("games:quick_check")
JOIN, CANCEL = reverse("games:quick_join"), reverse("games:quick_cancel")
COMPUTER = reverse("games:quick_computer")


@pytest.fixture
def alice() -> Client:
    return client_for(rated("alice", 1620))


def test_the_dashboard_offers_quick_play_of_each_kind(alice: Client) -> None:
    page = alice.get(reverse("games:dashboard")).content.decode()

    assert f'action="{JOIN}"' in page
    assert 'name="kind" value="classic"' in page and "Quick play Triple" in page


def test_joining_leads_to_the_waiting_page_which_says_who_you_wait_as(alice: Client) -> None:
    response = alice.post(JOIN, {"kind": "classic"})

    assert response.status_code == 302 and response["Location"] == PAGE
    text = page_text(alice.get(PAGE))
    assert "Waiting for an opponent as 1620" in text
    assert "anyone rated 1520 to 1720" in text
    assert "0 s so far" in text


def test_the_check_answers_the_status_until_seated_then_sends_the_page_to_the_game(
    alice: Client,
) -> None:
    alice.post(JOIN, {"kind": "classic"})
    checked = alice.get(CHECK, headers=HTMX)
    assert checked.status_code == 200
    assert 'id="quick-status"' in checked.content.decode()
    assert "<html" not in checked.content.decode()

    bob = client_for(rated("bob", 1600))
    seated = bob.post(JOIN, {"kind": "classic"})
    game = Game.objects.get()
    assert seated["Location"] == reverse("games:play", kwargs={"game_id": game.pk})

    checked = alice.get(CHECK, headers=HTMX)
    assert checked["HX-Redirect"] == reverse("games:play", kwargs={"game_id": game.pk})
    assert alice.get(PAGE)["Location"] == checked["HX-Redirect"]


def test_the_check_costs_three_queries(alice: Client, settings, django_assert_num_queries) -> None:
    settings.SESSION_ENGINE = "django.contrib.sessions.backends.db"
    alice.post(JOIN, {"kind": "classic"})
    alice.get(CHECK, headers=HTMX)

    with django_assert_num_queries(3):  # the session; the account; the wait
        assert alice.get(CHECK, headers=HTMX).status_code == 200


def test_after_30_seconds_the_page_offers_the_computer_and_its_button_starts_the_game(
    alice: Client,
) -> None:
    alice.post(JOIN, {"kind": "classic"})
    assert "Play the computer" not in page_text(alice.get(PAGE))
    QuickWait.objects.update(
        joined_at=QuickWait.objects.get().joined_at - datetime.timedelta(seconds=31)
    )

    offer = page_text(alice.get(CHECK, headers=HTMX))
    assert "Play the computer of your strength (Perfect, rated 1596)" in offer
    response = alice.post(COMPUTER)

    game = Game.objects.get()
    assert response["Location"] == reverse("games:play", kwargs={"game_id": game.pk})
    assert game.rated and Seat.objects.filter(game=game, bot="perfect").exists()


def test_cancel_ends_the_wait(alice: Client) -> None:
    alice.post(JOIN, {"kind": "classic"})

    response = alice.post(CANCEL, follow=True)

    assert "You stopped waiting for an opponent." in page_text(response)
    assert not QuickWait.objects.exists()


def refused(response, status: int, message: str) -> None:  # type: ignore[no-untyped-def]
    assert response.status_code == status, response.content
    assert (
        message in page_text(response)
        if "<html" in response.content.decode()
        else (message in response.content.decode())
    )


def test_an_unknown_kind_is_refused(alice: Client) -> None:
    refused(alice.post(JOIN, {"kind": "poker"}), 400, "There is no such kind of game")
    refused(alice.post(JOIN), 400, "There is no such kind of game")
    assert not QuickWait.objects.exists()


def test_a_second_wait_is_refused(alice: Client) -> None:
    alice.post(JOIN, {"kind": "classic"})

    refused(
        alice.post(JOIN, {"kind": "triple"}), 409, "You are already waiting for a game of Classic"
    )
    assert list(QuickWait.objects.values_list("kind", flat=True)) == ["classic"]


def test_a_trial_account_with_no_game_left_is_refused() -> None:
    client = client_for(rated("carol", 1500, trial_games_used=TRIAL_GAMES))

    response = client.post(JOIN, {"kind": "classic"})
    refused(response, 409, "Your five trial games are used")
    assert f'href="{reverse("accounts:serial")}"' in response.content.decode()
    assert not QuickWait.objects.exists()


def test_cancel_or_the_computer_with_nothing_waiting_is_refused(alice: Client) -> None:
    refused(alice.post(CANCEL), 409, "You are not waiting for a game")
    refused(alice.post(COMPUTER), 409, "You are not waiting for a game")
    check = alice.get(CHECK, headers=HTMX)
    assert check.status_code == 409 and check["HX-Redirect"] == PAGE


def test_the_computer_too_soon_is_refused(alice: Client) -> None:
    alice.post(JOIN, {"kind": "classic"})

    refused(alice.post(COMPUTER), 409, "The computer is offered after 30 seconds")
    assert not Game.objects.exists() and QuickWait.objects.exists()


def test_someone_elses_wait_is_out_of_reach(alice: Client) -> None:
    alice.post(JOIN, {"kind": "classic"})
    mallory = client_for(rated("mallory", 3000))  # too far to be paired with her

    refused(mallory.post(CANCEL), 409, "You are not waiting for a game")
    refused(mallory.post(COMPUTER), 409, "You are not waiting for a game")
    assert QuickWait.objects.get().user.username == "alice"


@pytest.mark.parametrize("url", [JOIN, CANCEL, COMPUTER])
def test_a_visit_to_a_button_is_refused(alice: Client, url: str) -> None:
    response = alice.get(url)

    assert response.status_code == 405 and response["Allow"] == "POST"
    assert b"not a visit" in response.content


def test_the_pages_need_an_account() -> None:
    for url in (PAGE, CHECK):
        assert Client().get(url).status_code == 302
    assert Client().post(JOIN, {"kind": "classic"}).status_code == 302
    assert not QuickWait.objects.exists()
