"""Knowing a day's dice in advance buys no rank: the high scores never rank a challenge, and the
day's board ranks by accuracy (each decision against the best one on the dice seen), admitting
only accounts made before the day began."""

from __future__ import annotations

import html
import re
from datetime import UTC, date, datetime

import pytest
from django.urls import reverse

from games.daily import results, selectors, services
from games.daily.models import DailyAccuracy
from games.daily.presenters import RANKING_NOTE
from games.models import HighScorePeriod, Score, Seat
from games.scores.selectors import player_stats, public_rank, top_ten
from tests.daily.daily_support import clairvoyant, noon, play_out, veteran
from tests.daily.daily_support import perfect as perfect_play

pytestmark = pytest.mark.usefixtures("strategy_ready")


def text(response) -> str:
    return html.unescape(response.content.decode())


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


def test_foreknowledge_of_the_dice_raises_a_score_never_an_accuracy(make_user, client):
    # The scout has read every face of the day (another account re-rolled all five every roll)
    # and plays each turn's holds and box knowing every roll to come; the other plays perfect
    # play, which knows nothing ahead.
    day = date(2026, 11, 1)
    scout, perfect = veteran(make_user, "Scout"), veteran(make_user, "Perfect")
    for user, decide in ((scout, clairvoyant(day)), (perfect, perfect_play)):
        game = services.start_challenge(user=user, now=noon(day))
        play_out(user, game.pk, decide, now=noon(day))

    board = selectors.board(day)

    by_name = {line.name: line for line in board.lines}
    assert by_name["Scout"].total > by_name["Perfect"].total  # 337 against 244 on these dice
    assert [(line.name, line.rank) for line in board.lines] == [("Perfect", 1), ("Scout", 2)]
    assert (by_name["Perfect"].tenths, by_name["Scout"].tenths) == (1000, 612)
    page = text(client.get(reverse("daily:board", args=[day.isoformat()])))
    assert re.search(r"Perfect</td><td[^>]*>100\.0%</td><td[^>]*>(<a [^>]*>)?244<", page)
    assert RANKING_NOTE in page


def test_an_account_made_on_the_day_plays_but_is_not_ranked(make_user, client_for):
    fresh = make_user(display_name="Fresh")  # signed up today
    old = veteran(make_user, "Old")
    for user in (fresh, old):
        play_out(user, services.start_challenge(user=user).pk)
    today = services.today()

    board = selectors.board(today, viewer=fresh, own=selectors.attempt(fresh, today))

    assert [line.name for line in board.lines] == ["Old"]
    assert board.mine is not None and (board.mine.rank, board.mine.tenths) == (None, 1000)
    assert list(DailyAccuracy.objects.values_list("tenths", "attempts")) == [(1000, 1)]
    own = text(client_for(fresh).get(reverse("daily:today")))
    assert "You: 100.0% accuracy (score " in own
    assert "not ranked: your account was made on the day." in own
    assert "Your account was made today: your attempt counts for you" in own
    assert "Accounts made on the day play but are not ranked." in own


def test_an_account_is_ranked_from_the_day_after_it_was_made_in_the_sites_time(make_user, settings):
    settings.TIME_ZONE = "Europe/Paris"
    day = date(2026, 12, 4)
    late = make_user(date_joined=datetime(2026, 12, 3, 22, 59, tzinfo=UTC))  # 23:59 in Paris
    early = make_user(date_joined=datetime(2026, 12, 3, 23, 0, tzinfo=UTC))  # midnight there

    assert services.ranked_on(late, day)
    assert not services.ranked_on(early, day)


def test_an_attempt_still_being_graded_waits_off_the_board_and_is_counted_once(
    make_user, client_for, monkeypatch
):
    from games import strategy
    from games.review import grading

    player = veteran(make_user, "Waiting")
    game = services.start_challenge(user=player)

    def broken(*args: object, **kwargs: object) -> strategy.Analysis:
        raise RuntimeError("the table is gone")

    monkeypatch.setattr(strategy, "analyse", broken)
    play_out(player, game.pk)
    monkeypatch.undo()
    today = services.today()

    board = selectors.board(today, viewer=player, own=selectors.attempt(player, today))
    page = text(client_for(player).get(reverse("daily:board", args=[today.isoformat()])))

    assert board.lines == [] and board.mine is not None and board.mine.grading
    assert "accuracy being worked out (grading…): you join the board once it is." in page

    grading.grade_pending(game_id=game.pk, user=player)  # as its game-over page asks
    seat = Seat.objects.get(game=game)
    results.enter_accuracy(game, seat)  # entered twice: counted once

    board = selectors.board(today, viewer=player)
    assert [(line.name, line.rank, line.tenths) for line in board.lines] == [("Waiting", 1, 1000)]
    assert list(DailyAccuracy.objects.values_list("tenths", "attempts")) == [(1000, 1)]
