"""What a new player meets first: the front page, the way to a serial, abandoning, the title,
one description per page, and a game's celebrations."""

from __future__ import annotations

import re

from django.test import Client
from django.urls import reverse

from accounts.models import TRIAL_GAMES, User
from games import rules
from games.models import Game, GameStatus, Seat
from tests.factories import HTMX, fill_card, page_text


def play_url(name: str, game: Game) -> str:
    return reverse(f"games:{name}", kwargs={"game_id": game.pk})


# --- The front page --------------------------------------------------------------------------


def test_the_front_page_draws_a_turn_whose_scores_the_rules_agree_with(client, db) -> None:
    text = page_text(client.get("/"))

    # The drawn dice are 4, 4, 2, 4, 6: Fours 12, Full House 0, Chance 20.
    assert "Fours 12, Full House 0, Chance 20" in text
    assert rules.box_score("chance", (4, 4, 2, 4, 6)) == 20


def test_the_front_page_says_what_the_trial_gives(client, db) -> None:
    text = page_text(client.get("/"))

    assert f"{TRIAL_GAMES} free games to start: the whole game, nothing left out." in text
    assert reverse("accounts:get_serial") in client.get("/").text


def test_help_is_in_the_header_for_visitors_and_players(client, alice_client, db) -> None:
    for browser in (client, alice_client):
        header = browser.get("/").text.split("</header>")[0]
        assert f'<a href="{reverse("help")}">Help</a>' in header


# --- Every page describes itself -------------------------------------------------------------

PUBLIC_PAGES = ["/", "/help/", "/scores/", "/accounts/login/", "/accounts/signup/",
                "/accounts/password/reset/", "/accounts/serial/get/"]  # fmt: skip


def description(html: str) -> str:
    found = re.search(r'<meta name="description" content="([^"]*)">', html)
    assert found, "no meta description"
    return found.group(1)


def test_every_public_page_has_a_description_of_its_own(client, db) -> None:
    descriptions = [description(client.get(url).text) for url in PUBLIC_PAGES]

    assert all(len(text) > 40 for text in descriptions), descriptions
    assert len(set(descriptions)) == len(descriptions), "two pages share a description"


# --- The way to a serial ---------------------------------------------------------------------


def test_the_serial_help_page_links_to_the_store_when_there_is_one(client, db, settings) -> None:
    settings.SERIAL_STORE_URL = "https://shop.example/yahtzee"

    response = client.get(reverse("accounts:get_serial"))

    assert response.status_code == 200
    assert '<a class="button" href="https://shop.example/yahtzee" rel="noopener">' in response.text
    assert "Every new account plays 5 trial games" in page_text(response)


def test_without_a_store_the_serial_help_page_says_to_ask_the_operator(client, db, settings):
    settings.SERIAL_STORE_URL = ""
    settings.SITE_CONTACT_EMAIL = "owner@yahtzee.example"

    text = page_text(client.get(reverse("accounts:get_serial")))

    assert "ask the site's operator for one, at owner@yahtzee.example" in text


def test_the_trial_notices_and_the_refusal_lead_to_the_serial_help(player, alice_client) -> None:
    get_serial = reverse("accounts:get_serial")
    assert get_serial in alice_client.get(reverse("games:dashboard")).text
    player.trial_games_used = TRIAL_GAMES
    player.save()

    refused = alice_client.post(reverse("games:new"), {"kind": "classic"}, follow=True)

    assert refused.redirect_chain[-1][0] == reverse("accounts:serial")
    assert f'href="{get_serial}"' in refused.text


# --- Abandoning ------------------------------------------------------------------------------


def test_abandon_asks_first_on_a_page_of_its_own(alice_client, game) -> None:
    response = alice_client.get(play_url("abandon_page", game))

    assert response.status_code == 200
    assert "Abandon this game? It ends here for good" in page_text(response).replace(
        "Abandon this game? Your game of Classic Yahtzee ends", "Abandon this game? It ends"
    )
    assert f'action="{play_url("abandon", game)}"' in response.text
    game.refresh_from_db()
    assert game.status == GameStatus.IN_PROGRESS  # asking changes nothing


def test_abandoning_says_so_on_the_dashboard(alice_client, game) -> None:
    response = alice_client.post(play_url("abandon", game), follow=True)

    assert response.redirect_chain[-1][0] == reverse("games:dashboard")
    text = page_text(response)
    assert "Game abandoned — no score recorded." in text
    assert "so your trial game was given back" in text


def test_the_game_page_links_to_the_question_not_to_the_deed(alice_client, game) -> None:
    page = alice_client.get(play_url("play", game)).text

    assert f'href="{play_url("abandon_page", game)}"' in page
    assert f'action="{play_url("abandon", game)}"' not in page


def test_the_abandon_question_of_a_finished_game_goes_back_to_it(alice_client, game) -> None:
    Game.objects.filter(pk=game.pk).update(status=GameStatus.FINISHED)
    Seat.objects.filter(game=game).update(on_turn=False)  # as the game's end leaves it

    response = alice_client.get(play_url("abandon_page", game))

    assert response.status_code == 302
    assert response["Location"] == play_url("play", game)


# --- The tab title ---------------------------------------------------------------------------


def title(html: str) -> str:
    found = re.search(r"<title>([^<]*)</title>", html)
    assert found
    return found.group(1)


def test_an_htmx_answer_carries_the_new_title(alice_client, game, next_dice) -> None:
    next_dice(1, 2, 3, 4, 6)
    alice_client.post(play_url("roll", game), {"version": 0}, headers=HTMX)
    answer = alice_client.post(
        play_url("score", game), {"version": 1, "box": "chance"}, headers=HTMX
    )

    assert answer.text.lstrip().startswith("<title>")  # at the root, where htmx looks for it
    assert title(answer.text) == "Round 2 of 13 — Classic Yahtzee — Yahtzee"


def test_a_finished_game_is_titled_with_its_score_not_round_13(alice_client, game, next_dice):
    fill_card(game, {box: 1 for box in rules.CATEGORIES if box != "chance"})
    next_dice(6, 6, 6, 6, 5)
    alice_client.post(play_url("roll", game), {"version": 0}, headers=HTMX)

    answer = alice_client.post(
        play_url("score", game), {"version": 1, "box": "chance"}, headers=HTMX
    )
    page = alice_client.get(play_url("play", game)).text

    assert title(answer.text) == title(page) == "Game over — 41 — Classic Yahtzee — Yahtzee"
    assert "round 13" not in page.lower() and "Round <strong>13" not in page


# --- Celebrations ----------------------------------------------------------------------------


def score(client: Client, game: Game, box: str) -> str:
    game.refresh_from_db()
    answer = client.post(
        play_url("score", game), {"version": game.version, "box": box}, headers=HTMX
    )
    return answer.text


def roll(client: Client, game: Game) -> None:
    game.refresh_from_db()
    client.post(play_url("roll", game), {"version": game.version}, headers=HTMX)


def celebrated(html: str) -> list[str]:
    return re.findall(r'data-celebrate="([a-z-]+)"', html)


def test_a_yahtzee_is_celebrated_and_announced_once(alice_client, game, next_dice) -> None:
    next_dice(5, 5, 5, 5, 5)
    roll(alice_client, game)

    answer = score(alice_client, game, "yahtzee")

    assert celebrated(answer) == ["yahtzee"]
    assert 'aria-hidden="true" data-celebrations' in answer  # the pop-up is seen, not read
    announced = re.search(r'<div id="announcer" hx-swap-oob="innerHTML">([^<]*)</div>', answer)
    assert announced and announced.group(1).count("YAHTZEE!") == 1


def test_the_box_that_reaches_63_celebrates_the_upper_bonus(alice_client, game, next_dice):
    fill_card(game, {"aces": 3, "twos": 6, "threes": 9, "fours": 12, "fives": 15})
    next_dice(6, 6, 6, 1, 2)
    roll(alice_client, game)

    assert celebrated(score(alice_client, game, "sixes")) == ["upper-bonus"]


def test_an_ordinary_box_celebrates_nothing_and_a_reload_never_replays(
    alice_client, game, next_dice
) -> None:
    next_dice(5, 5, 5, 5, 5)
    roll(alice_client, game)
    score(alice_client, game, "yahtzee")

    assert celebrated(alice_client.get(play_url("play", game)).text) == []
    next_dice(1, 2, 3, 4, 6)
    roll(alice_client, game)
    assert celebrated(score(alice_client, game, "chance")) == []


def test_the_last_box_celebrates_the_end_and_a_new_high_score(alice_client, game, next_dice):
    fill_card(game, {box: 1 for box in rules.CATEGORIES if box != "chance"})
    next_dice(6, 6, 6, 6, 5)
    roll(alice_client, game)

    assert celebrated(score(alice_client, game, "chance")) == ["game-over", "high-score"]


# --- Yahtzees counted wherever they were scored ----------------------------------------------


def test_a_five_of_a_kind_in_chance_counts_as_a_yahtzee_in_the_high_scores(
    player: User, alice_client: Client, game: Game, next_dice
) -> None:
    fill_card(game, {box: 0 for box in rules.CATEGORIES if box not in ("chance", "threes")})
    next_dice(3, 3, 3, 3, 3)
    roll(alice_client, game)
    score(alice_client, game, "threes")  # a five of a kind, not in the YAHTZEE box
    next_dice(2, 2, 2, 2, 2)
    roll(alice_client, game)
    score(alice_client, game, "chance")  # a second one, in Chance

    table = page_text(alice_client.get(reverse("high_scores")))

    # Rank, name, the "you" tag, 15 + 10 points, the date, then 2 Yahtzees.
    assert re.search(r"\b1 Alice you 25 \d+ \w+ \d+ 2 ", table), table
    stats = page_text(alice_client.get(reverse("my_stats"), follow=True))
    assert "Yahtzees rolled 2 Yahtzee bonuses 0" in stats
