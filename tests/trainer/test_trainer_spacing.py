"""The trainer's schedule: a miss comes back the next day, each best answer after it waits
longer (3, 7, 14 days), and a best answer after the longest wait, or at first sight, learns it;
a decision of the player's own game was missed there, so it is never learned at first sight."""

from __future__ import annotations

from datetime import date
from zoneinfo import ZoneInfo

import pytest

from games.trainer import spacing

MONDAY = date(2026, 5, 4)


def test_a_miss_comes_back_the_next_day_whatever_its_interval() -> None:
    for interval in (spacing.NEW, 1, 3, 7, 14):
        found = spacing.after_answer(interval, best=False, today=MONDAY)
        assert found == spacing.Next(1, date(2026, 5, 5))


def test_best_answers_after_a_miss_wait_3_then_7_then_14_days_then_learn_it() -> None:
    waits, interval, day = [], 1, MONDAY
    while True:
        found = spacing.after_answer(interval, best=True, today=day)
        if found.learned:
            break
        waits.append((found.due_on - day).days)
        interval, day = found.interval, found.due_on
    assert waits == [3, 7, 14]
    assert interval == 14


def test_a_position_right_at_first_sight_is_learned() -> None:
    found = spacing.after_answer(spacing.NEW, best=True, today=MONDAY)

    assert found.learned and found.due_on is None


def test_a_position_missed_in_the_players_own_game_is_not_learned_by_its_first_best_answer() -> (
    None
):
    found = spacing.after_answer(spacing.NEW, best=True, today=MONDAY, missed_before=True)

    assert not found.learned
    assert found == spacing.Next(3, date(2026, 5, 7))  # as the first best answer after a miss


def test_a_day_starts_at_midnight_in_the_players_zone() -> None:
    tokyo = ZoneInfo("Asia/Tokyo")

    start = spacing.start_of(date(2026, 5, 5), tokyo)

    assert start.isoformat() == "2026-05-05T00:00:00+09:00"


@pytest.mark.parametrize(
    ("due", "words"),
    [
        (MONDAY, "today"),
        (date(2026, 5, 5), "tomorrow"),
        (date(2026, 5, 7), "in 3 days (Thursday 7 May)"),
    ],
)
def test_when_a_position_comes_back_in_words(due: date, words: str) -> None:
    assert spacing.in_words(due, MONDAY) == words
