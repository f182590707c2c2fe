"""A tournament's clock: a start at a set time (``starts_at``) and a set length (``ends_at``),
as the host's form gives them and the pages say them, in the site's time (``TIME_ZONE``).

The tournament starts and ends by itself at those times: tasks enqueued for the moment do it
(``games.tournaments.tasks``), and every place that matters settles it when a task is late
(``services.settle``; the door refuses a move after ``ends_at`` by itself: ``closing``)."""

from __future__ import annotations

import re
from datetime import datetime, timedelta
from typing import Final

from django.utils import timezone

from games.errors import BadInput

FURTHEST_START: Final = timedelta(days=30)
"""How far ahead a host may set the start."""

LENGTHS: Final = (1, 2, 3, 6, 12, 24, 48, 72, 168)
"""The lengths the host's form offers, in hours (1 hour to 7 days)."""
SHORTEST, LONGEST = timedelta(hours=LENGTHS[0]), timedelta(hours=LENGTHS[-1])

_LOCAL: Final = re.compile(r"\d{4}-\d\d-\d\dT\d\d:\d\d(:\d\d)?", re.ASCII)
"""What a ``datetime-local`` input sends: "2026-12-12T18:00" (seconds when the browser adds
them), in the reader's wall-clock time with no zone."""


def parse_start(text: str) -> datetime:
    """The instant a ``datetime-local`` value names in the site's time; ``BadInput`` for any
    other text."""
    text = text.strip()
    if not _LOCAL.fullmatch(text):
        raise BadInput("Give the start as a date and a time, such as 2026-12-12 18:00.")
    try:
        naive = datetime.fromisoformat(text)
    except ValueError as wrong:
        raise BadInput(f"There is no such date and time as {text!r}.") from wrong
    if not 2000 <= naive.year <= 9000:  # year 1 in a zone east of UTC is before year 1 in UTC
        raise BadInput("The start must be within 30 days from now.")
    return timezone.make_aware(naive, timezone.get_current_timezone())


def verify_start(starts_at: datetime, now: datetime) -> None:
    """Refuse a start that has passed or is more than ``FURTHEST_START`` away."""
    if starts_at <= now:
        raise BadInput(
            f"The start must be later than now (it is {shown(now)}): choose a time to come, "
            "or let it start when you press start."
        )
    if starts_at > now + FURTHEST_START:
        raise BadInput(
            f"The start can be at most {FURTHEST_START.days} days ahead, by "
            f"{shown(now + FURTHEST_START)}."
        )


def verify_length(length: timedelta) -> None:
    if not SHORTEST <= length <= LONGEST:
        raise BadInput("A tournament runs 1 hour to 7 days.")


def length_text(hours: int) -> str:
    """ "3 hours", "2 days", "7 days"."""
    if hours % 24 == 0:
        days = hours // 24
        return "1 day" if days == 1 else f"{days} days"
    return "1 hour" if hours == 1 else f"{hours} hours"


def shown(instant: datetime) -> str:
    """ "Saturday 12 December 2026, 18:00 UTC": the site's time of ``instant``, its zone named."""
    local = timezone.localtime(instant)
    return f"{local:%A %-d %B %Y, %H:%M} {local.tzname()}"
