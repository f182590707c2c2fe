"""When a position comes back: spaced repetition over days, counted in the player's own days.

The schedule, in full:

- An instructive position answered with its best choice the first time it is seen is learned:
  it never comes back.
- A position missed (any answer but the best) comes back the next day. A position from the
  player's own game was missed there already: the coach may have shown its best choice just
  before, and the analysis does, so a first best answer to it is not "at first sight" but the
  first of the answers below.
- Each best answer after a miss waits longer before the position comes back: 3 days, then 7,
  then 14 (``INTERVALS``). Answered best once more after its 14 days, it is learned.
- A miss at any time starts it again at one day.

So a position once missed is learned after four best answers in a row, over at least
1 + 3 + 7 + 14 = 25 days: the answer that learns it comes two weeks after the last time its
best choice was shown, never straight after. A position comes back from the start of its day
(midnight) in the account's time zone (Options), else the site's: "tomorrow" is the player's
tomorrow, whatever the hour of the miss.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date, datetime, time, timedelta, tzinfo
from typing import Final

INTERVALS: Final = (1, 3, 7, 14)
"""Days a position waits before it comes back: 1 after a miss, then longer after each best
answer; a best answer at the last of them retires it."""

NEW: Final = 0
"""The interval of a position never missed."""


@dataclass(frozen=True)
class Next:
    """What an answer does to a position: its new interval and the day it is due again, or
    ``learned`` (retired: it never comes back)."""

    interval: int
    due_on: date | None

    @property
    def learned(self) -> bool:
        return self.due_on is None


def after_answer(interval: int, *, best: bool, today: date, missed_before: bool = False) -> Next:
    """The position's next interval and due day after an answer given on ``today`` (the
    player's day), the position having waited ``interval`` days (``NEW`` if never missed);
    ``missed_before``: missed before the trainer ever showed it (a decision of the player's own
    game), so it is never learned at first sight."""
    if interval == NEW and missed_before:
        interval = INTERVALS[0]
    if not best:
        return Next(INTERVALS[0], today + timedelta(days=INTERVALS[0]))
    if interval == NEW or interval >= INTERVALS[-1]:
        return Next(interval, None)
    longer = next(days for days in INTERVALS if days > interval)
    return Next(longer, today + timedelta(days=longer))


def start_of(day: date, zone: tzinfo) -> datetime:
    """Midnight at the start of ``day`` in ``zone`` (an aware moment)."""
    return datetime.combine(day, time(), tzinfo=zone)


def in_words(due_on: date, today: date) -> str:
    """ "tomorrow", "in 3 days (Friday 8 May)"."""
    days = (due_on - today).days
    if days <= 0:
        return "today"
    if days == 1:
        return "tomorrow"
    return f"in {days} days ({due_on:%A} {due_on.day} {due_on:%B})"
