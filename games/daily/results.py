"""A finished challenge game's result entering the day's board: its total (the store enters
it as the game finishes) and its accuracy against perfect play on the same dice (entered as
its card is graded)."""

from __future__ import annotations

from datetime import date

from django.db.models import F

from games import advice, rules, strategy
from games.daily.models import DailyAttempt, DailyTotal
from games.models import Game, Seat


def reference_score() -> float:
    """The expected final score of perfect play from a new Classic game (the accuracy's 100%)."""
    opening = strategy.RollDice(rules.NO_HOLD)
    return advice.advisor().value_of(rules.Sheet(), rules.Turn(), opening).expected


def enter_result(game: Game, seat: Seat) -> None:
    """Write the attempt's total (the game has finished; its accuracy is entered as its card
    is graded: ``enter_accuracy``)."""
    assert game.challenge_day is not None and seat.grand_total is not None
    entered = DailyAttempt.objects.filter(game=game).update(
        grand_total=seat.grand_total, finished_at=game.finished_at
    )
    if entered:
        count_total(game.challenge_day, seat.grand_total)


def enter_accuracy(game: Game, seat: Seat) -> None:
    """Write the attempt's accuracy: its seat's, as ``games.review.grading`` graded it (by the
    move that ended the game, or later if that failed), never worked out again here."""
    DailyAttempt.objects.filter(game=game).update(accuracy=seat.accuracy)


def count_total(day: date, total: int) -> None:
    """One more finished attempt of ``day`` at ``total`` (the rank's histogram): the row made
    if missing (racing finishes make one), then counted by an atomic UPDATE."""
    DailyTotal.objects.bulk_create([DailyTotal(day=day, total=total)], ignore_conflicts=True)
    DailyTotal.objects.filter(day=day, total=total).update(attempts=F("attempts") + 1)
