"""The daily challenge's reads: a day's board, an account's attempt, history and streak.

The board walks the partial index ``daily_attempt_board`` (finished attempts of the day, best
first): one read of a page of rows however many played, and for a viewer below that page their
rank summed from the day's histogram of totals (``DailyTotal``: a few hundred rows at most).
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date, datetime, timedelta

from django.db.models import Sum

from accounts.models import User
from games.daily.models import DailyAttempt, DailyTotal
from games.models import GameStatus

BOARD_ROWS = 25


@dataclass(frozen=True)
class Line:
    """One finished attempt on a day's board."""

    rank: int
    name: str
    total: int
    accuracy: float | None
    mine: bool

    @property
    def accuracy_shown(self) -> str:
        return "—" if self.accuracy is None else f"{self.accuracy:.1f}%"


@dataclass(frozen=True)
class Attempt:
    """An account's attempt at a day: its game and where it stands."""

    day: date
    game_id: int
    status: str
    total: int | None
    accuracy: float | None
    started_at: datetime
    name: str

    @property
    def finished(self) -> bool:
        return self.status == GameStatus.FINISHED

    @property
    def in_progress(self) -> bool:
        return self.status == GameStatus.IN_PROGRESS


@dataclass(frozen=True)
class Board:
    day: date
    lines: list[Line]
    mine: Line | None
    """The viewer's own line when it is below the rows shown."""


_ATTEMPT_FIELDS = (
    "day", "game_id", "game__status", "grand_total", "accuracy", "started_at", "display_name"
)  # fmt: skip


def attempt(user: User, day: date) -> Attempt | None:
    """``user``'s attempt at ``day``'s challenge (one read, by the unique (user, day) index)."""
    row = DailyAttempt.objects.filter(user=user, day=day).values_list(*_ATTEMPT_FIELDS).first()
    return Attempt(*row) if row else None


def board(
    day: date,
    *,
    viewer: User | None = None,
    own: Attempt | None = None,
    rows: int = BOARD_ROWS,
) -> Board:
    """``day``'s finished attempts, best first (earlier first among equals); ranks shared by
    equal totals. At most two reads: the top ``rows``, and the rank of the viewer's attempt
    (``own``, as ``attempt`` read it) when it is below them, counted over the index."""
    found = list(
        DailyAttempt.objects.filter(day=day, grand_total__isnull=False)
        .order_by("-grand_total", "finished_at", "id")
        .values_list("display_name", "grand_total", "accuracy", "user_id")[:rows]
    )
    lines: list[Line] = []
    rank = 0
    for place, (name, total, accuracy, user_id) in enumerate(found, start=1):
        assert total is not None  # the index holds finished attempts only
        if not lines or total != lines[-1].total:
            rank = place
        lines.append(Line(rank, name, total, accuracy, viewer is not None and user_id == viewer.pk))
    mine = None
    below = len(found) == rows and not any(line.mine for line in lines)
    if own is not None and own.total is not None and below:
        above = DailyTotal.objects.filter(day=day, total__gt=own.total).aggregate(
            n=Sum("attempts")
        )["n"]
        mine = Line((above or 0) + 1, own.name, own.total, own.accuracy, True)
    return Board(day, lines, mine)


def played(day: date) -> bool:
    """Whether anybody started ``day``'s challenge (one read of the unique (day, account)
    index): a day nobody played has no board, and costs nothing more."""
    return DailyAttempt.objects.filter(day=day).exists()


def history(user: User, *, days: int = 30) -> list[Attempt]:
    """``user``'s attempts, newest first (the last ``days``)."""
    rows = (
        DailyAttempt.objects.filter(user=user).order_by("-day").values_list(*_ATTEMPT_FIELDS)[:days]
    )
    return [Attempt(*row) for row in rows]


def streak(attempts: list[Attempt], today: date) -> int:
    """Days played in a row up to today (or up to yesterday while today's is still to play):
    each day with an attempt finished. ``attempts`` newest first, as ``history`` gives them."""
    finished = {a.day for a in attempts if a.finished}
    day = today if today in finished else today - timedelta(days=1)
    count = 0
    while day in finished:
        count += 1
        day -= timedelta(days=1)
    return count
