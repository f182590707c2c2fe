"""The site's weekly tournament: one a week, made by the site itself (no host), listed, Classic,
keyed by its ISO week ("2026-W49", ``Tournament.weekly``).

The choices, said on the help page too (``help.html#tournaments``):

- Its week is the ISO week, in UTC (Monday to Sunday; a year's last days may be week 1 of the
  next year, or week 53).
- It starts by itself on that week's Saturday at 18:00 UTC and runs 24 hours, to Sunday 18:00
  UTC: evening in Europe, afternoon in the Americas, a weekend everywhere.
- It is made a week ahead (this week's and next week's always exist), so it is open to join
  all week, until it starts; nobody joins after.
- It ends by its clock alone, not when every game is over: its page has said when.

``ensure`` makes what is missing, idempotently: a ``get_or_create`` on the unique week key,
so makers racing make one. The tournaments list calls ``ensure_cheaply`` (a cached flag per
week: no write, one cache read, normally); ``manage.py weekly_tournament`` calls ``ensure``.
"""

from __future__ import annotations

import secrets
from dataclasses import dataclass
from datetime import UTC, date, datetime, time, timedelta
from typing import Final

from django.core.cache import cache
from django.db import transaction
from django.utils import timezone

from games import rules
from games.tournaments import services
from games.tournaments.models import MAX_PLAYERS, Tournament

STARTS_ON: Final = 6
"""The ISO weekday it starts on: Saturday."""
STARTS_AT: Final = time(18, 0)
"""In UTC."""
RUNS: Final = timedelta(hours=24)

FLAG_SECONDS: Final = 60
"""How long the list trusts that this week's and next week's are made."""


@dataclass(frozen=True, order=True)
class Week:
    """An ISO week: its ISO year (not always the calendar year of its days) and number."""

    year: int
    number: int

    @classmethod
    def of(cls, instant: datetime) -> Week:
        """The ISO week ``instant`` falls in, in UTC."""
        iso = instant.astimezone(UTC).date().isocalendar()
        return cls(iso.year, iso.week)

    @property
    def key(self) -> str:
        """ "2026-W49": ``Tournament.weekly``."""
        return f"{self.year}-W{self.number:02d}"

    @property
    def name(self) -> str:
        return f"Weekly tournament, week {self.number} of {self.year}"

    @property
    def next(self) -> Week:
        monday = date.fromisocalendar(self.year, self.number, 1)
        iso = (monday + timedelta(days=7)).isocalendar()
        return Week(iso.year, iso.week)

    @property
    def starts_at(self) -> datetime:
        day = date.fromisocalendar(self.year, self.number, STARTS_ON)
        return datetime.combine(day, STARTS_AT, tzinfo=UTC)

    @property
    def ends_at(self) -> datetime:
        return self.starts_at + RUNS


def made(week: Week) -> Tournament:
    """``week``'s tournament, made now if missing (racing makers make one: the unique key).
    The one that makes it enqueues its start and end."""
    with transaction.atomic():
        tournament, created = Tournament.objects.get_or_create(
            weekly=week.key,
            defaults={
                "host": None,
                "name": week.name,
                "kind": rules.CLASSIC.key,
                "listed": True,
                "cap": MAX_PLAYERS,
                "token": secrets.token_urlsafe(services.TOKEN_BYTES),
                "starts_at": week.starts_at,
                "ends_at": week.ends_at,
            },
        )
        if created:
            services.schedule(tournament)
    return tournament


def ensure(now: datetime | None = None) -> list[Tournament]:
    """This week's and next week's tournaments (at ``now``), made if missing."""
    week = Week.of(now or timezone.now())
    return [made(week), made(week.next)]


def ensure_cheaply(now: datetime | None = None) -> None:
    """``ensure``, unless it was done for this week in the last ``FLAG_SECONDS``."""
    flag = f"tournaments:weekly:{Week.of(now or timezone.now()).key}"
    if cache.get(flag):
        return
    ensure(now)
    cache.set(flag, True, FLAG_SECONDS)
