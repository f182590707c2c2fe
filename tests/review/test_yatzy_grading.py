"""A finished Yatzy game alone is graded exactly, by Yatzy's own table: perfect play scores 100
and a beginner's game the analysis's own figure; its replay says so."""

from __future__ import annotations

import pytest
from django.urls import reverse

from games import advice, rules, strategy
from games.models import GameStatus, Grading, Seat
from games.review import grading
from games.review.selectors import game_record
from games.tables import services
from tests.factories import page_text, play_out


@pytest.fixture(autouse=True)
def _table(strategy_ready) -> None:
    pass


def test_a_perfect_yatzy_game_alone_is_graded_exactly_100(player) -> None:
    game = services.start_game(owner=player, kind=rules.YATZY.key)

    ended = play_out(game, player, bot="perfect", seed=5)
    grading.grade_pending(game_id=game.pk, user=player)

    seat = Seat.objects.get(game=game)
    assert ended.game.status == GameStatus.FINISHED
    assert seat.accuracy == 100.0 and seat.grading == Grading.EXACT


def test_a_beginners_yatzy_game_keeps_the_analysis_exact_figure(player) -> None:
    game = services.start_game(owner=player, kind=rules.YATZY.key)

    play_out(game, player, bot="beginner", seed=6)
    grading.grade_pending(game_id=game.pk, user=player)

    seat = Seat.objects.select_related("game").get(game=game)
    found = strategy.analyse(advice.advisor(rules.YATZY), game_record(seat), players=1)
    assert found.exact and found.start == pytest.approx(248.4399894, abs=1e-6)
    assert seat.accuracy == found.accuracy and seat.grading == Grading.EXACT
    assert 30 < seat.accuracy < 99


def test_its_replay_says_it_was_graded_by_yatzys_table(alice_client, player) -> None:
    game = services.start_game(owner=player, kind=rules.YATZY.key)
    play_out(game, player, bot="good", seed=7)

    page = alice_client.get(reverse("games:replay", args=[game.pk, 0]))

    assert page.status_code == 200
    assert "Exact: graded by the solved table of Yatzy solitaire." in page_text(page)
