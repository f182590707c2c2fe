"""Knowing a day's dice in advance buys no rank: the high scores never rank a challenge, and the
day's board ranks by accuracy (each decision against the best one on the dice seen), admitting
only accounts made before the day began."""

from __future__ import annotations

import html
from datetime import timedelta

import pytest
from django.urls import reverse
from django.utils import timezone

from games.daily import services
from games.models import HighScorePeriod, Score
from games.scores.selectors import player_stats, public_rank, top_ten
from tests.daily.daily_support import play_out

pytestmark = pytest.mark.usefixtures("strategy_ready")


def text(response) -> str:
    return html.unescape(response.content.decode())


def veteran(make_user, name: str):
    """An account made two days ago: ranked on today's board."""
    return make_user(display_name=name, date_joined=timezone.now() - timedelta(days=2))


def test_a_challenge_enters_no_top_ten_and_counts_in_its_players_statistics(
    make_user, finished, client, client_for
):
    scout = veteran(make_user, "Scout Sally")
    other = veteran(make_user, "Plain Pete")
    game = services.start_challenge(user=scout)
    play_out(scout, game.pk)  # perfect play, a score far above the plain game's
    plain = finished(other, 150)

    score = Score.objects.get(game=game)
    assert score.challenge and score.grand_total > 150
    assert (score.high_score_rank, score.high_score_period) == (None, "")
    assert public_rank(score) is None
    for period in HighScorePeriod.values:
        ten = top_ten(kind="classic", period=period, viewer=scout)
        assert [row.game_id for row in ten.rows] == [plain.game_id]
        assert ten.my_rank is None  # the scout's only score is a challenge
    assert "Scout Sally" not in text(client.get(reverse("high_scores")))
    assert "New high score" not in text(
        client_for(scout).get(reverse("games:play", args=[game.pk]))
    )
    stats = player_stats(user_id=scout.pk, kind="classic")
    assert (stats.finished, stats.totals) == (1, [score.grand_total])
    assert stats.accuracies == [100.0]
