"""Yatzy through the pages (issue 39): started from the new-game form alone or with the
computer, its card in the Nordic box names with a bonus of 50 and no Yahtzee bonus row, hints
from Yatzy's own exact table, the computer playing Yatzy's boxes."""

from __future__ import annotations

import pytest
from django.urls import reverse

from games import advice, rules, strategy
from games.models import Game, PlayerKind, Seat
from games.play import actions as play
from games.tables import services
from tests.factories import (
    HTMX,
    cards_of,
    fill_card,
    match_of,
    page_text,
    roll_now,
    score_now,
)

NORDIC_NAMES = (
    "One pair",
    "Two pairs",
    "Three of a kind",
    "Four of a kind",
    "Small straight",
    "Large straight",
    "Full house",
    "Chance",
    "Yatzy",
)

ALL_BUT_FOUR_OF_A_KIND = {
    "ones": 3,
    "twos": 6,
    "threes": 9,
    "fours": 12,
    "fives": 15,
    "sixes": 18,  # 63: the bonus of 50
    "one_pair": 12,
    "two_pairs": 22,
    "yatzy_three_kind": 18,
    "yatzy_small_straight": 15,
    "yatzy_large_straight": 20,
    "yatzy_full_house": 28,
    "chance": 25,
    "yatzy": 50,
}
"""A Yatzy card with one box open: 63 + 50 + 190 = 303 so far."""


@pytest.fixture(autouse=True)
def _table(strategy_ready) -> None:
    pass


def url(name: str, game: Game) -> str:
    return reverse(f"games:{name}", kwargs={"game_id": game.pk})


def test_the_dashboard_offers_yatzy_beside_yahtzee(alice_client) -> None:
    page = alice_client.get(reverse("games:dashboard")).text

    assert "Start a game of Classic Yahtzee" in page
    assert "Start a game of Yatzy" in page
    assert "Quick play Yatzy" in page


def test_a_new_yatzy_game_alone_shows_the_nordic_card(alice_client, player) -> None:
    alice_client.post(reverse("games:new"), {"kind": "yatzy"})
    game = Game.objects.get()

    page = alice_client.get(url("play", game)).text
    text = page_text(page)

    assert game.kind == "yatzy" and cards_of(game) == [{}]
    assert "Round 1 of 15" in text
    for name in NORDIC_NAMES:
        assert f'data-box-label="{name}"' in page or name in text
    assert "Bonus 50 at 63 or more" in text
    assert "Yahtzee bonus" not in text
    assert "3 of a Kind" not in text and "YAHTZEE" not in text


def test_a_new_yatzy_game_with_a_computer(alice_client, player) -> None:
    alice_client.post(reverse("games:new"), {"kind": "yatzy", "computer": "good"})
    game = Game.objects.get()

    seats = list(Seat.objects.filter(game=game).order_by("position"))
    assert game.kind == "yatzy"
    assert [s.player_kind for s in seats] == [PlayerKind.HUMAN, PlayerKind.COMPUTER]


def test_two_pairs_need_two_different_faces_on_the_page(alice_client, player, next_dice) -> None:
    alice_client.post(reverse("games:new"), {"kind": "yatzy"})
    game = Game.objects.get()
    next_dice(3, 3, 5, 5, 1)
    alice_client.post(url("roll", game), {"version": 0}, headers=HTMX)

    answer = alice_client.post(url("score", game), {"version": 1, "box": "two_pairs"}, headers=HTMX)

    assert answer.status_code == 200
    assert cards_of(game) == [{"two_pairs": 16}]


def test_a_classic_box_is_no_box_of_a_yatzy_card(alice_client, player, next_dice) -> None:
    alice_client.post(reverse("games:new"), {"kind": "yatzy"})
    game = Game.objects.get()
    next_dice(3, 3, 3, 5, 5)
    alice_client.post(url("roll", game), {"version": 0}, headers=HTMX)

    answer = alice_client.post(
        url("score", game), {"version": 1, "box": "full_house"}, headers=HTMX
    )

    assert answer.status_code == 400
    assert cards_of(game) == [{}]


def test_a_hint_names_a_yatzy_box_with_its_exact_value(player) -> None:
    game = services.start_game(owner=player, kind="yatzy")
    fill_card(game, ALL_BUT_FOUR_OF_A_KIND)
    roll_now(game, player, 4, 4, 4, 1, 2)
    roll_now(game, player, 4, 6, held=[True, True, True, False, False])
    roll_now(game, player, 3, held=[True, True, True, True, False])  # 4-4-4-4-3, no rolls left
    game.refresh_from_db()

    _, found = play.take_hint(game_id=game.pk, user=player, version=game.version)

    assert found.exact
    assert found.best.action.box is rules.Box.YATZY_FOUR_KIND
    assert found.best.points == 16
    assert found.best.expected == 303 + 16  # nothing left to chance: the final score


def test_a_hint_on_the_page_is_yatzys_tables_and_exact(alice_client, player) -> None:
    game = services.start_game(owner=player, kind="yatzy")
    roll_now(game, player, 6, 6, 2, 2, 1)
    match = match_of(game)
    game.refresh_from_db()

    answer = alice_client.post(url("hint", game), {"version": game.version}, headers=HTMX)

    solved = advice.advisor(rules.YATZY).hint(match.sheets[0], match.turn, alternatives=2)
    assert answer.status_code == 200
    assert solved.exact and "An estimate" not in page_text(answer)
    assert page_text(answer).startswith(f"{solved.best.description}: expect ")
    every = advice.advisor(rules.YATZY).options(match.sheets[0], match.turn)
    boxes = {o.action.box for o in every if isinstance(o.action, strategy.ScoreBox)}
    assert boxes == set(rules.YATZY.boxes)  # every open box of the card, and no other


def test_the_computer_plays_a_yatzy_turn_in_yatzys_boxes(player) -> None:
    game = services.start_game(owner=player, kind="yatzy", computers=["perfect"])
    roll_now(game, player, 1, 2, 3, 4, 5)
    score_now(game, player, "yatzy_small_straight")
    game.refresh_from_db()

    play.play_computer(game_id=game.pk, user=player, version=game.version, to_the_end=True)

    computers_card = cards_of(game, 1)[0]
    assert len(computers_card) == 1
    assert set(computers_card) <= set(rules.YATZY.boxes)
    assert cards_of(game, 0) == [{"yatzy_small_straight": 15}]


def test_five_of_a_kind_in_yatzy_is_called_a_yatzy(alice_client, player, next_dice) -> None:
    alice_client.post(reverse("games:new"), {"kind": "yatzy"})
    game = Game.objects.get()
    next_dice(4, 4, 4, 4, 4)
    alice_client.post(url("roll", game), {"version": 0}, headers=HTMX)

    answer = alice_client.post(url("score", game), {"version": 1, "box": "yatzy"}, headers=HTMX)

    assert cards_of(game) == [{"yatzy": 50}]
    assert 'data-celebrate="yahtzee">Yatzy!</p>' in answer.text
    assert "YAHTZEE" not in page_text(answer)
