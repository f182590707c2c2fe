"""A day's challenge closes at the site's midnight: its games no longer move (nor count), so
from that moment the day's dice and perfect play's game on them may be shown to anyone."""

from __future__ import annotations

import html
import re
from datetime import UTC, datetime, timedelta

import pytest
from django.urls import reverse

from games.daily import clock, services
from games.daily.models import DailyAttempt
from games.errors import ChallengeClosed, status_for
from games.models import Game, GameStatus, Move
from games.play import actions as play
from tests.daily.daily_support import noon, play_out

pytestmark = pytest.mark.usefixtures("strategy_ready")

PERFECT_GAME = "Perfect play's game on this day's dice"


def text(response) -> str:
    return html.unescape(response.content.decode())


def yesterdays_attempt(user, *, rolled: bool = True) -> Game:
    """``user``'s attempt at yesterday's challenge, started (and rolled once) yesterday."""
    yesterday = clock.today() - timedelta(days=1)
    game = services.start_challenge(user=user, now=noon(yesterday))
    if rolled:
        play.roll_dice(game_id=game.pk, user=user, version=game.version, now=noon(yesterday))
    game.refresh_from_db()
    return game


def test_an_attempt_of_yesterday_cannot_roll_hold_or_score_today(player):
    game = yesterdays_attempt(player)
    moves = Move.objects.filter(game=game).count()
    asks = {
        "roll": lambda: play.roll_dice(game_id=game.pk, user=player, version=game.version),
        "hold": lambda: play.set_held(
            game_id=game.pk, user=player, version=game.version, held=[True] * 5
        ),
        "score": lambda: play.score_box(
            game_id=game.pk, user=player, version=game.version, box="chance"
        ),
        "undo": lambda: play.undo_score(game_id=game.pk, user=player, version=game.version),
        "hint": lambda: play.take_hint(game_id=game.pk, user=player, version=game.version),
        "skip": lambda: play.skip_turn(game_id=game.pk, user=player, version=game.version),
        "computer": lambda: play.play_computer(game_id=game.pk, user=player, version=game.version),
        "resign": lambda: play.resign(game_id=game.pk, user=player, version=game.version),
    }

    for name, ask in asks.items():
        with pytest.raises(ChallengeClosed, match="closed at midnight") as refused:
            ask()
        assert status_for(refused.value) == 409, name

    after = Game.objects.get(pk=game.pk)
    assert (after.version, after.status) == (game.version, GameStatus.IN_PROGRESS)
    assert Move.objects.filter(game=game).count() == moves
    assert DailyAttempt.objects.get(game=game).grand_total is None


def test_the_day_closes_at_the_sites_midnight(player, settings):
    settings.TIME_ZONE = "Europe/Paris"
    day = clock.today()
    game = services.start_challenge(user=player, now=noon(day))
    midnight = clock.closes_at(day)

    assert midnight.utcoffset() in (timedelta(hours=1), timedelta(hours=2))
    rolled = play.roll_dice(
        game_id=game.pk, user=player, version=game.version, now=midnight - timedelta(seconds=1)
    )
    with pytest.raises(ChallengeClosed):
        play.roll_dice(game_id=game.pk, user=player, version=rolled.game.version, now=midnight)


def test_replaying_perfect_play_after_midnight_is_refused_at_the_first_move(player):
    # Started just before midnight, played after it from perfect play's game, now shown.
    yesterday = clock.today() - timedelta(days=1)
    late = clock.closes_at(yesterday) - timedelta(seconds=1)
    game = services.start_challenge(user=player, now=late)

    with pytest.raises(ChallengeClosed):
        play_out(player, game.pk)

    assert not Move.objects.filter(game=game).exists()
    attempt = DailyAttempt.objects.get(game=game)
    assert (attempt.grand_total, attempt.accuracy) == (None, None)


def test_a_move_of_a_closed_challenge_answers_409_with_the_reason(player, client_for):
    game = yesterdays_attempt(player)
    roll = reverse("games:roll", args=[game.pk])

    answer = client_for(player).post(roll, {"version": game.version})

    assert answer.status_code == 409
    day = f"{game.challenge_day:%A %-d %B %Y}"
    assert f"The challenge of {day} closed at midnight (00:00 UTC)" in text(answer)
    assert Game.objects.get(pk=game.pk).version == game.version


def test_a_closed_challenges_page_says_so_and_offers_no_move(player, client_for):
    game = yesterdays_attempt(player)

    page = text(client_for(player).get(reverse("games:play", args=[game.pk])))

    assert "closed at midnight (00:00 UTC): this game no longer counts" in page
    assert re.search(r"<button[^>]*data-roll[^>]*disabled", page, re.S)
    assert 'name="box"' not in page  # no box offered to score
    assert "Abandon this game" in page  # what is left to do


def test_the_history_calls_an_unfinished_attempt_of_a_past_day_closed(player, client_for):
    game = yesterdays_attempt(player)

    page = text(client_for(player).get(reverse("daily:today")))

    play = reverse("games:play", args=[game.pk])
    assert f'<a href="{play}">closed unfinished</a>' in page
    assert "Resume today's challenge" not in page


def test_a_closed_challenge_may_still_be_abandoned(player):
    game = yesterdays_attempt(player)

    play.abandon_game(game_id=game.pk, user=player)

    assert Game.objects.get(pk=game.pk).status == GameStatus.ABANDONED


def test_yesterdays_board_shows_perfect_play_even_to_a_player_with_an_unfinished_attempt(
    player, client_for, client
):
    game = yesterdays_attempt(player)
    url = reverse("daily:board", args=[game.challenge_day.isoformat()])

    own, public = text(client_for(player).get(url)), text(client.get(url))

    assert PERFECT_GAME in own and PERFECT_GAME in public
    assert "Finish or abandon your attempt" not in own


def test_todays_board_keeps_perfect_play_hidden(player, client):
    services.start_challenge(user=player)

    page = text(client.get(reverse("daily:board", args=[clock.today().isoformat()])))

    assert PERFECT_GAME not in page


def test_todays_page_says_when_the_challenge_closes(player, client_for):
    page = text(client_for(player).get(reverse("daily:today")))

    found = re.search(
        r"Today's challenge closes at midnight \(<time datetime=\"([^\"]+)\">00:00 UTC</time>\), "
        r"in (\d+) h (\d+) min",
        page,
    )
    assert found is not None
    assert found[1] == clock.closes_at(clock.today()).isoformat()
    left = timedelta(hours=int(found[2]), minutes=int(found[3]))
    assert abs(left - clock.next_day_in()) < timedelta(minutes=2)
    assert "no longer counts" in page


def test_the_closing_is_said_at_the_site_time(settings):
    settings.TIME_ZONE = "Europe/Paris"
    day = clock.today(datetime(2026, 12, 3, 23, 30, tzinfo=UTC))  # 00:30 on the 4th in Paris

    assert day.isoformat() == "2026-12-04"
    assert clock.clock_time(clock.closes_at(day)) == "00:00 CET"
    assert clock.closes_at(day) == datetime(2026, 12, 4, 23, 0, tzinfo=UTC)
