"""The weekly tournament's dates, pure arithmetic (no database): its ISO week, its key, its
start on the week's Saturday 18:00 UTC and its end 24 hours later, across a year's end."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from games.tournaments.weekly import Week


@pytest.mark.parametrize(
    ("instant", "key", "starts", "ends"),
    [
        # A Sunday morning: still the week whose Saturday was yesterday.
        ("2026-12-06T09:00", "2026-W49", "2026-12-05T18:00", "2026-12-06T18:00"),
        # Monday 00:00 begins the next week.
        ("2026-12-07T00:00", "2026-W50", "2026-12-12T18:00", "2026-12-13T18:00"),
        # 2026 has 53 ISO weeks: its last days are week 53, whose Saturday is 2 January 2027.
        ("2026-12-31T12:00", "2026-W53", "2027-01-02T18:00", "2027-01-03T18:00"),
        ("2027-01-03T23:59", "2026-W53", "2027-01-02T18:00", "2027-01-03T18:00"),
        ("2027-01-04T00:00", "2027-W01", "2027-01-09T18:00", "2027-01-10T18:00"),
        # 29 December 2025 (a Monday) is already week 1 of 2026.
        ("2025-12-29T08:00", "2026-W01", "2026-01-03T18:00", "2026-01-04T18:00"),
    ],
)
def test_the_week_of_an_instant_and_its_times(instant, key, starts, ends):
    week = Week.of(datetime.fromisoformat(instant).replace(tzinfo=UTC))

    assert week.key == key
    assert week.starts_at == datetime.fromisoformat(starts).replace(tzinfo=UTC)
    assert week.ends_at == datetime.fromisoformat(ends).replace(tzinfo=UTC)
    assert week.starts_at.weekday() == 5  # a Saturday


def test_the_week_is_counted_in_utc():
    """Sunday 23:30 in New York is Monday 04:30 UTC: the next week's."""
    from zoneinfo import ZoneInfo

    late_sunday = datetime(2026, 12, 13, 23, 30, tzinfo=ZoneInfo("America/New_York"))
    assert Week.of(late_sunday).key == "2026-W51"


@pytest.mark.parametrize(
    ("week", "following"),
    [
        (Week(2026, 49), Week(2026, 50)),
        (Week(2026, 52), Week(2026, 53)),
        (Week(2026, 53), Week(2027, 1)),
        (Week(2027, 52), Week(2028, 1)),  # 2027 has 52 weeks
    ],
)
def test_the_next_week_crosses_the_years_end(week, following):
    assert week.next == following
    assert (following.starts_at - week.starts_at).days == 7


def test_the_name_says_the_week_and_its_iso_year():
    assert Week(2026, 49).name == "Weekly tournament, week 49 of 2026"
    assert Week(2027, 1).key == "2027-W01"
