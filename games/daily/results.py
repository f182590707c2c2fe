"""A finished challenge game's result entering the day's board: its total (the store enters
it as the game finishes) and its accuracy against perfect play on the same dice (entered as
its card is graded), by which the board ranks it."""

from __future__ import annotations

from datetime import date

from django.db.models import F

from games import advice, rules, strategy
from games.daily.models import DailyAccuracy, DailyAttempt
from games.models import Game, Seat

BEST_TENTHS = 1000
"""100.0%, in tenths of a percent."""


def reference_score() -> float:
    """The expected final score of perfect play from a new Classic game (the accuracy's 100%)."""
    opening = strategy.RollDice(rules.NO_HOLD)
    return advice.advisor().value_of(rules.Sheet(), rules.Turn(), opening).expected


def tenths(accuracy: float) -> int:
    """``accuracy`` (0..100) in tenths of a percent, as the board shows and ranks it."""
    return max(0, min(BEST_TENTHS, round(accuracy * 10)))


def enter_result(game: Game, seat: Seat) -> None:
    """Write the attempt's total (the game has finished; its accuracy is entered as its card
    is graded: ``enter_accuracy``)."""
    assert game.challenge_day is not None and seat.grand_total is not None
    DailyAttempt.objects.filter(game=game).update(
        grand_total=seat.grand_total, finished_at=game.finished_at
    )


def enter_accuracy(game: Game, seat: Seat) -> None:
    """Write the attempt's accuracy: its seat's, as ``games.review.grading`` graded it (by the
    move that ended the game, or later if that failed), never worked out again here. Entered
    once: the first grade stands, and a ranked attempt is counted in the day's histogram once
    (a card that cannot be graded has none, and stays off the board)."""
    assert game.challenge_day is not None
    if seat.accuracy is None:
        return
    shown = tenths(seat.accuracy)
    fields = {"accuracy": seat.accuracy, "accuracy_tenths": shown}
    waiting = DailyAttempt.objects.filter(game=game, accuracy_tenths__isnull=True)
    if waiting.filter(ranked=True).update(**fields):
        count_accuracy(game.challenge_day, shown)
    else:
        waiting.update(**fields)  # not ranked (an account made on the day), or entered already


def count_accuracy(day: date, shown: int) -> None:
    """One more ranked attempt of ``day`` at ``shown`` tenths of a percent (the rank's
    histogram): the row made if missing (racing finishes make one), then counted by an atomic
    UPDATE."""
    DailyAccuracy.objects.bulk_create([DailyAccuracy(day=day, tenths=shown)], ignore_conflicts=True)
    DailyAccuracy.objects.filter(day=day, tenths=shown).update(attempts=F("attempts") + 1)
