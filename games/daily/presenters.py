"""What the daily challenge's pages say: the countdown to the next day and to today's close
(in the site's time, its zone named), how the board ranks, accuracy, the perfect bot's game as
lines a person reads."""

from __future__ import annotations

from datetime import datetime, timedelta
from typing import Any

from django.utils import timezone
from django.utils.html import format_html
from django.utils.safestring import SafeString

from games import rules
from games.daily import clock

ACCURACY_FORMULA = (
    "Accuracy is the share of the expected points you kept: 100 × (1 − points lost ÷ "
    "{start}), where each decision's points lost are what the analysis says it cost in "
    "expected final score against the best move on the dice you saw, and {start} is the "
    "expected score of perfect play from the start. Perfect play scores 100; it is clipped "
    "to 0..100."
)
"""Behind the board's "How accuracy is worked out": its ranking note says it in a sentence."""


RANKING_NOTE = (
    "Ranked by accuracy: how close each decision came to perfect play on the same dice. "
    "Everyone throws the same dice, so knowing them in advance buys nothing here; the score is "
    "shown beside it. Accounts made on the day play but are not ranked."
)


def countdown(left: timedelta) -> str:
    """ "5 h 12 min" (whole minutes, rounded up: "0 h 1 min" rather than "0 h 0 min")."""
    minutes = max(1, -(-int(left.total_seconds()) // 60))
    hours, minutes = divmod(minutes, 60)
    return f"{hours} h {minutes} min"


def _midnight(now: datetime | None) -> tuple[SafeString, timedelta]:
    """The site's next midnight as a ``<time>`` (its instant for a script to put in the
    reader's own time; the site's time and zone for everyone), and how long until then."""
    now = now or timezone.now()
    at = clock.closes_at(clock.today(now))
    shown = format_html('<time datetime="{}">{}</time>', at.isoformat(), clock.clock_time(at))
    return shown, clock.next_day_in(now)


def next_challenge_text(now: datetime | None = None) -> SafeString:
    """ "Tomorrow's challenge in 5 h 12 min, at 00:00 UTC" (the time marked up)."""
    at, left = _midnight(now)
    return format_html("Tomorrow's challenge in {}, at {}", countdown(left), at)


def closes_text(now: datetime | None = None) -> SafeString:
    """When today's challenge closes: an attempt started late must be finished by then (its
    moves are refused after)."""
    at, left = _midnight(now)
    return format_html(
        "Today's challenge closes at midnight ({}), in {}: an attempt not finished by then no "
        "longer counts, and can no longer be played.",
        at,
        countdown(left),
    )


def accuracy_text(accuracy: float | None) -> str:
    return "—" if accuracy is None else f"{accuracy:.1f}%"


def perfect_lines(turns: list[dict[str, Any]]) -> list[dict[str, str]]:
    """The perfect bot's turns as the page lists them: rolls (held dice marked), box, points."""
    lines = []
    for number, turn in enumerate(turns, start=1):
        rolls = []
        for i, dice in enumerate(turn["rolls"]):
            held = turn["holds"][i] if i < len(turn["holds"]) else [False] * len(dice)
            shown = (f"[{d}]" if h else str(d) for d, h in zip(dice, held, strict=True))
            rolls.append(" ".join(shown))
        lines.append(
            {
                "turn": str(number),
                "rolls": " → ".join(rolls),
                "box": rules.Box(turn["box"]).label,
                "points": str(turn["points"]),
            }
        )
    return lines
