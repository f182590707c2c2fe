"""The daily challenge's clock: a day is the site's day (``settings.TIME_ZONE``); its challenge
opens at that day's midnight and closes at the next. Once closed, its games no longer count and
no longer move (``verify_open``, checked at the door of every action, ``games.play.actions``):
so the day's dice, and perfect play on them, may be shown from that moment on.
"""

from __future__ import annotations

from datetime import UTC, date, datetime, time, timedelta

from django.utils import timezone

from games.errors import ChallengeClosed


def today(now: datetime | None = None) -> date:
    """The site's day (``settings.TIME_ZONE``) at ``now``."""
    return timezone.localdate(now or timezone.now())


def closes_at(day: date) -> datetime:
    """The instant ``day``'s challenge closes: the site's midnight that ends ``day``."""
    zone = timezone.get_current_timezone()
    return datetime.combine(day + timedelta(days=1), time(), tzinfo=zone)


def next_day_in(now: datetime | None = None) -> timedelta:
    """How long until the next day's challenge opens (the site's midnight)."""
    now = now or timezone.now()
    # In UTC: a day with a clock change is an hour longer or shorter than 24.
    return closes_at(today(now)).astimezone(UTC) - now.astimezone(UTC)


def is_open(day: date, now: datetime | None = None) -> bool:
    """Whether ``day``'s challenge can still be played at ``now`` (its day is not over)."""
    return today(now) <= day


def clock_time(instant: datetime) -> str:
    """ "00:00 UTC": the site's time of ``instant``, with its zone's name."""
    local = timezone.localtime(instant)
    return f"{local:%H:%M} {local.tzname()}"


def closed_text(day: date) -> str:
    return (
        f"The challenge of {day:%A %-d %B %Y} closed at midnight "
        f"({clock_time(closes_at(day))}): this game no longer counts and can no longer be "
        "played. You may abandon it."
    )


def verify_open(day: date | None, now: datetime | None = None) -> None:
    """Refuse (``ChallengeClosed``) any move of a game of ``day``'s challenge once the day is
    over; a game that is no challenge (``day`` ``None``) passes."""
    if day is not None and not is_open(day, now):
        raise ChallengeClosed(closed_text(day))
