"""Triple Yahtzee through the pages: three columns, scoring picks the column, weighted totals."""

from __future__ import annotations

from django.urls import reverse

from games import rules
from games.models import Game, GameStatus
from games.scores.selectors import top_ten
from tests.factories import HTMX, cards_of, put_sheet, sheet_of


def url(name, game):
    return reverse(f"games:{name}", kwargs={"game_id": game.pk})


def test_the_dashboard_offers_both_kinds(alice_client):
    page = alice_client.get(reverse("games:dashboard")).text

    assert "Start a game of Classic Yahtzee" in page
    assert "Start a game of Triple Yahtzee" in page


def test_a_triple_game_shows_three_columns_and_39_rounds(alice_client, player):
    alice_client.post(reverse("games:new"), {"kind": "triple"})
    game = Game.objects.get()

    page = alice_client.get(url("play", game)).text

    assert game.kind == "triple"
    assert cards_of(game) == [{}, {}, {}]
    assert "Round <strong>1</strong> of 39" in page
    assert page.count('class="score-col"') == 6  # three in each section's head
    assert "×2" in page and "×3" in page
    assert "Yahtzee bonus" not in page


def test_scoring_names_the_column(alice_client, player, next_dice):
    alice_client.post(reverse("games:new"), {"kind": "triple"})
    game = Game.objects.get()
    next_dice(3, 3, 3, 2, 2)
    alice_client.post(url("roll", game), {"version": 0}, headers=HTMX)

    page = alice_client.get(url("play", game)).text
    response = alice_client.post(
        url("score", game), {"version": 1, "box": "threes:2"}, headers=HTMX
    )

    assert 'value="threes:1"' in page and 'value="threes:2"' in page
    assert response.status_code == 200
    assert cards_of(game) == [{}, {}, {"threes": 9}]
    assert "Counts" in response.text


def test_a_filled_box_stays_open_in_the_other_columns(alice_client, player, next_dice):
    alice_client.post(reverse("games:new"), {"kind": "triple"})
    game = Game.objects.get()
    next_dice(6, 6, 6, 6, 6)
    alice_client.post(url("roll", game), {"version": 0}, headers=HTMX)
    alice_client.post(url("score", game), {"version": 1, "box": "yahtzee"}, headers=HTMX)
    next_dice(6, 6, 6, 6, 6)
    alice_client.post(url("roll", game), {"version": 2}, headers=HTMX)

    again = alice_client.post(url("score", game), {"version": 3, "box": "yahtzee"}, headers=HTMX)
    beside = alice_client.post(url("score", game), {"version": 3, "box": "yahtzee:1"}, headers=HTMX)

    assert again.status_code == 400
    assert "YAHTZEE is already filled" in again.text
    assert beside.status_code == 200
    assert cards_of(game) == [{"yahtzee": 50}, {"yahtzee": 50}, {}]
    assert sheet_of(game).yahtzee_bonuses == 0  # no bonus in Triple


def test_a_finished_triple_game_has_its_own_high_scores(alice_client, player, next_dice):
    from games.tables import services

    game = services.start_game(owner=player, kind="triple")
    put_sheet(
        game,
        [
            {box: 0 for box in rules.CATEGORIES},
            {box: 0 for box in rules.CATEGORIES},
            {box: 0 for box in rules.CATEGORIES if box != "chance"},
        ],
    )
    assert game.round == 39
    next_dice(6, 6, 6, 6, 5)
    alice_client.post(url("roll", game), {"version": 0}, headers=HTMX)

    response = alice_client.post(
        url("score", game), {"version": 1, "box": "chance:2"}, headers=HTMX
    )

    game.refresh_from_db()
    assert game.status == GameStatus.FINISHED
    assert "Final score <strong>87</strong>" in response.text  # 29 in the ×3 column
    assert [r.grand_total for r in top_ten(kind="triple").rows] == [87]
    assert top_ten(kind="classic").rows == []
