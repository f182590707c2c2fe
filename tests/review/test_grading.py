"""Each finished card's accuracy, kept on its seat: asked for by the game-over page after the
move that ends the game (a day's challenge alone is graded in that move, for its board), swept
by ``grade_games``; never for an abandoned game, nor for a card that was not played to its end."""

from __future__ import annotations

from io import StringIO

import pytest
from django.core.management import call_command
from django.db import IntegrityError, transaction

from games import advice, strategy
from games.daily.models import DailyAttempt
from games.daily.services import start_challenge
from games.models import Game, GameStatus, Grading, Seat
from games.play import actions as play
from games.review import grading
from games.review.selectors import game_log, game_record
from games.tables import services
from tests.factories import finished_game, play_out, roll_now


@pytest.fixture(autouse=True)
def _table(strategy_ready) -> None:
    pass


def analysed(seat: Seat, players: int = 1) -> strategy.Analysis:
    """The analysis page's own grading of ``seat``, worked out again here."""
    return strategy.analyse(advice.advisor(), game_record(seat), players=players)


def test_the_move_that_ends_a_game_alone_leaves_its_grade_to_the_game_over_page(player) -> None:
    game = services.start_game(owner=player)

    ended = play_out(game, player, bot="perfect", seed=3)

    assert ended.game.status == GameStatus.FINISHED
    assert ended.seats[0].ungraded and Seat.objects.get(game=game).ungraded
    graded = grading.grade_pending(game_id=game.pk, user=player)  # as its game-over page asks
    seat = Seat.objects.get(game=game)
    assert graded.seats[0].accuracy == seat.accuracy == 100.0
    assert seat.grading == Grading.EXACT


def test_a_beginners_game_alone_keeps_the_analysis_own_figure(player) -> None:
    game = services.start_game(owner=player)

    play_out(game, player, bot="beginner", seed=4)
    grading.grade_pending(game_id=game.pk, user=player)

    seat = Seat.objects.select_related("game").get(game=game)
    found = analysed(seat)
    assert seat.accuracy == found.accuracy == strategy.accuracy(found.total_loss, found.start)
    assert 40 < seat.accuracy < 99 and seat.grading == Grading.EXACT


def test_a_game_of_several_is_left_to_its_page_then_graded_seat_by_seat(player) -> None:
    game = services.start_game(owner=player, guests=["Ann"], computers=["perfect", "beginner"])

    ended = play_out(game, player, bot="good", seed=5)

    assert ended.game.status == GameStatus.FINISHED
    assert [s.grading for s in Seat.objects.filter(game=game)] == [Grading.PENDING] * 4
    assert all(seat.ungraded for seat in ended.seats)

    grading.grade_pending(game_id=game.pk, user=player)

    seats = list(Seat.objects.select_related("game").filter(game=game).order_by("position"))
    assert [s.grading for s in seats] == [Grading.ESTIMATE] * 4
    assert [s.accuracy for s in seats] == [analysed(s, players=4).accuracy for s in seats]
    assert seats[2].accuracy == 100.0  # the perfect computer player
    assert seats[3].accuracy < 95  # the beginner


def test_a_triple_game_alone_is_graded_by_the_estimate(player) -> None:
    game = services.start_game(owner=player, kind="triple")
    play_out(game, player, bot="perfect", seed=6)

    grading.grade_pending(game_id=game.pk, user=player)

    seat = Seat.objects.get(game=game)
    assert (seat.accuracy, seat.grading) == (100.0, Grading.ESTIMATE)


def test_a_daily_game_enters_the_seats_own_grade_on_the_board(
    player, monkeypatch, django_capture_on_commit_callbacks
) -> None:
    calls = []
    real = strategy.analyse
    monkeypatch.setattr(strategy, "analyse", lambda *a, **k: calls.append(1) or real(*a, **k))
    game = start_challenge(user=player)

    with django_capture_on_commit_callbacks(execute=True):  # graded once the last move commits
        play_out(game, player, bot="beginner", seed=7)

    seat = Seat.objects.get(game=game)
    attempt = DailyAttempt.objects.get(game=game)
    assert attempt.accuracy == seat.accuracy is not None
    assert seat.grading == Grading.EXACT
    assert len(calls) == 1  # graded once, for the seat and the board


def test_an_abandoned_game_has_no_accuracy_and_nothing_to_grade(player) -> None:
    game = services.start_game(owner=player)
    roll_now(game, player, 1, 2, 3, 4, 5)
    play.abandon_game(game_id=game.pk, user=player)

    seat = Seat.objects.get(game=game)
    assert (seat.accuracy, seat.grading) == (None, Grading.PENDING)
    assert not seat.ungraded
    assert grading.grade_all_pending().games == 0


def test_a_player_who_resigned_has_no_accuracy_the_others_have(player) -> None:
    game = services.start_game(owner=player, computers=["perfect"])
    roll_now(game, player, 1, 2, 3, 4, 5)
    game.refresh_from_db()
    play.resign(game_id=game.pk, user=player, version=game.version)
    game.refresh_from_db()  # the computer plays on alone, to the end
    play.play_computer(game_id=game.pk, user=player, version=game.version, to_the_end=True)

    grading.grade_pending(game_id=game.pk, user=player)

    owner, computer = Seat.objects.filter(game=game).order_by("position")
    assert owner.resigned and owner.game.status == GameStatus.FINISHED
    assert (owner.accuracy, owner.grading) == (None, Grading.NONE)
    assert (computer.accuracy, computer.grading) == (100.0, Grading.ESTIMATE)


def test_grade_games_grades_what_finished_before_and_then_has_nothing_to_do(player) -> None:
    game = services.start_game(owner=player)
    play_out(game, player, bot="good", seed=8)  # no page of it ever asked for its grade
    graded = analysed(Seat.objects.select_related("game").get(game=game)).accuracy
    imported = finished_game(player, 180)  # a result entered without its moves

    out = StringIO()
    call_command("grade_games", stdout=out)

    assert Seat.objects.get(game=game).accuracy == graded
    assert Seat.objects.get(pk=imported.seat_id).grading == Grading.NONE
    assert out.getvalue().splitlines()[-1] == (
        "Graded 2 game(s): 1 card(s) exact, 0 estimated, 1 without an accuracy "
        "(not played to the end, or a log that cannot be graded)."
    )
    again = StringIO()
    call_command("grade_games", stdout=again)
    assert again.getvalue() == ""


def test_grade_games_with_nothing_to_do_reads_one_index_only(
    player, django_assert_num_queries
) -> None:
    game = services.start_game(owner=player)
    play_out(game, player, bot="perfect", seed=9)
    grading.grade_pending(game_id=game.pk, user=player)

    with django_assert_num_queries(1):
        assert grading.grade_all_pending().games == 0


def test_one_replay_of_the_log_grades_every_seat(player, monkeypatch) -> None:
    game = services.start_game(owner=player, computers=["good", "beginner"])
    play_out(game, player, bot="perfect", seed=10)
    replays = []
    real = grading.selectors.game_log
    monkeypatch.setattr(grading.selectors, "game_log", lambda g: replays.append(g) or real(g))

    grading.grade_pending(game_id=game.pk, user=player)

    assert len(replays) == 1
    seats = Seat.objects.select_related("game").filter(game=game)
    log = game_log(game)
    assert sorted(s.accuracy for s in seats) == sorted(
        strategy.analyse(advice.advisor(), game_record(s, log), players=3).accuracy for s in seats
    )


def test_the_database_refuses_an_accuracy_without_its_grading(player) -> None:
    seat = finished_game(player, 200).seat

    for accuracy, how in [(91.0, Grading.PENDING), (91.0, Grading.NONE), (None, Grading.EXACT),
                          (100.1, Grading.EXACT), (-0.1, Grading.ESTIMATE)]:  # fmt: skip
        with pytest.raises(IntegrityError), transaction.atomic():
            Seat.objects.filter(pk=seat.pk).update(accuracy=accuracy, grading=how)
    Seat.objects.filter(pk=seat.pk).update(accuracy=100.0, grading=Grading.EXACT)
    assert Game.objects.filter(seats__accuracy=100.0).count() == 1


def test_a_grading_that_fails_leaves_the_move_that_ends_the_game_alone(
    player, monkeypatch, caplog, django_capture_on_commit_callbacks
) -> None:
    game = start_challenge(user=player)

    def broken(*args: object, **kwargs: object) -> strategy.Analysis:
        raise RuntimeError("the table is gone")

    monkeypatch.setattr(strategy, "analyse", broken)
    with django_capture_on_commit_callbacks(execute=True):
        ended = play_out(game, player, bot="perfect", seed=17)

    seat = Seat.objects.get(game=game)
    attempt = DailyAttempt.objects.get(game=game)
    assert ended.game.status == GameStatus.FINISHED and seat.grand_total is not None
    assert (seat.accuracy, seat.grading) == (None, Grading.PENDING)
    assert (attempt.grand_total, attempt.accuracy) == (seat.grand_total, None)
    # The worker's grading task failed, was run again and again, and said so each time.
    assert f"grade_game({{'game_id': {game.pk}}}) failed (run 1): it runs again." in caplog.text
    assert f"grade_game({{'game_id': {game.pk}}}) failed 5 times: given up." in caplog.text

    monkeypatch.undo()
    assert grading.grade_all_pending().games == 1  # as manage.py grade_games does

    seat.refresh_from_db()
    attempt.refresh_from_db()
    assert seat.accuracy == attempt.accuracy == 100.0
