"""Players at one screen, in the pages: naming them at a new game, whose turn it is, who won."""

from __future__ import annotations

import html

from django.urls import reverse

from games import rules
from games.models import Game
from games.tables import services
from tests.factories import page_text, roll_now, score_now


def test_a_new_game_with_guests_seats_them_and_opens_the_game(alice_client, player) -> None:
    response = alice_client.post(
        reverse("games:new"), {"kind": "classic", "guest": ["Ann", "", "Bob"]}
    )

    game = Game.objects.get()
    assert response.status_code == 302
    assert response["Location"] == reverse("games:play", kwargs={"game_id": game.pk})
    assert list(game.seats.values_list("display_name", flat=True)) == ["Alice", "Ann", "Bob"]


def test_bad_names_answer_400_with_the_message_and_keep_what_was_typed(alice_client) -> None:
    response = alice_client.post(reverse("games:new"), {"kind": "classic", "guest": ["Ann", "ANN"]})

    assert response.status_code == 400
    assert "Two players are called “ANN”: give each their own name." in page_text(response)
    assert 'value="ANN"' in response.text
    assert not Game.objects.exists()


def test_the_game_says_whose_turn_it_is_and_lists_the_players(alice_client, player) -> None:
    game = services.start_game(owner=player, guests=["Ann"])
    roll_now(game, player, 2, 2, 2, 5, 5)
    score_now(game, player, "full_house")

    response = alice_client.get(reverse("games:play", kwargs={"game_id": game.pk}))

    text = page_text(response)
    title = html.unescape(response.text.split("<title>", 1)[1].split("</title>", 1)[0])
    assert title == "Ann's turn — Round 1 of 13 — Classic Yahtzee — Yahtzee"
    assert "Ann's turn: roll the dice." in text
    assert "▶ Ann (on turn) 0/13 0" in text
    assert "Alice you 1/13 25" in text


def test_a_finished_game_names_the_winner_and_offers_the_same_players_again(
    alice_client, player
) -> None:
    game = services.start_game(owner=player, guests=["Ann"])
    for box in rules.CATEGORIES:
        roll_now(game, player, 6, 6, 6, 6, 5)
        score_now(game, player, box.value)
        roll_now(game, player, 1, 1, 1, 2, 3)
        score_now(game, player, box.value)

    response = alice_client.get(reverse("games:play", kwargs={"game_id": game.pk}))

    text = page_text(response)
    assert "Alice wins with " in text
    assert '<input type="hidden" name="guest" value="Ann">' in response.text


def test_equal_totals_share_the_win(alice_client, player) -> None:
    game = services.start_game(owner=player, guests=["Ann", "Bob"])
    for box in rules.CATEGORIES:
        for dice in ((6, 6, 6, 6, 5), (1, 1, 1, 2, 3), (6, 6, 6, 6, 5)):
            roll_now(game, player, *dice)
            score_now(game, player, box.value)

    response = alice_client.get(reverse("games:play", kwargs={"game_id": game.pk}))

    assert "Alice and Bob share the win with " in page_text(response)


def scoreboard(text: str) -> list[list[str]]:
    """The "Every card" table as rows of cell texts (header row first)."""
    import re

    table = re.search(r'<table class="scoreboard-table">(.*?)</table>', text, re.S)
    assert table, "no scoreboard on the page"
    rows = re.findall(r"<tr[^>]*>(.*?)</tr>", table.group(1), re.S)
    cell = re.compile(r"<t[hd][^>]*>(.*?)</t[hd]>", re.S)
    return [[html.unescape(re.sub(r"<[^>]+>", "", c)) for c in cell.findall(r)] for r in rows]


def test_every_card_is_shown_side_by_side_the_player_on_turn_first(alice_client, player) -> None:
    game = services.start_game(owner=player, guests=["Ann", "<Ben>"])
    roll_now(game, player, 3, 3, 3, 2, 2)
    score_now(game, player, "full_house")
    roll_now(game, player, 6, 6, 6, 6, 6)  # Ann's dice, at Alice's screen
    score_now(game, player, "yahtzee")

    text = alice_client.get(reverse("games:play", kwargs={"game_id": game.pk})).text
    rows = {row[0]: row[1:] for row in scoreboard(text)}

    assert rows["Box"] == ["<Ben> (on turn)", "Alice", "Ann"]  # names escaped, then read back
    assert rows["Full House"] == ["", "25", ""]
    assert rows["YAHTZEE"] == ["", "", "50"]
    assert rows["Total"] == ["0", "25", "50"]
    assert "&lt;Ben&gt;" in text and "<Ben>" not in text


def test_a_solo_game_has_no_scoreboard(alice_client, game) -> None:
    text = alice_client.get(reverse("games:play", kwargs={"game_id": game.pk})).text
    assert "scoreboard" not in text
