"""The daily challenge's reads: a day's board, an account's attempt, history and streak.

The board ranks by accuracy, score beside it: everyone throws the same dice, so an account
that read them in advance could raise its score, never its accuracy (each decision is graded
against the best one on the dice seen). It walks the partial index ``daily_attempt_board``
(ranked, graded attempts of the day, most accurate first): one read of a page of rows however
many played, and for a viewer below that page their rank summed from the day's histogram of
accuracies (``DailyAccuracy``: 1,001 rows at most).
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date, datetime, timedelta

from django.db.models import QuerySet, Sum

from accounts.models import User
from games.daily.models import DailyAccuracy, DailyAttempt
from games.models import GameStatus

BOARD_ROWS = 25


def shown(tenths: int | None) -> str:
    """An accuracy in tenths of a percent as the board writes it: "97.3%" ("—": none yet)."""
    return "—" if tenths is None else f"{tenths // 10}.{tenths % 10}%"


@dataclass(frozen=True)
class Line:
    """One finished attempt on a day's board (``rank`` ``None``: the viewer's own, not ranked:
    its account was made on the day, or its accuracy is still being worked out)."""

    rank: int | None
    name: str
    total: int
    tenths: int | None
    mine: bool
    game_id: int

    @property
    def accuracy_shown(self) -> str:
        return shown(self.tenths)

    @property
    def grading(self) -> bool:
        return self.tenths is None


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
    ranked: bool = True
    tenths: int | None = None

    @property
    def accuracy_shown(self) -> str:
        return shown(self.tenths)

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
    """The viewer's own line when it is not among the rows shown: below them, or not ranked."""


_ATTEMPT_FIELDS = (
    "day", "game_id", "game__status", "grand_total", "accuracy", "started_at", "display_name",
    "ranked", "accuracy_tenths",
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
    rows: int | None = None,
) -> Board:
    """``day``'s ranked, graded attempts, most accurate first (earlier first among equals);
    ranks shared by equal accuracies as shown (tenths of a percent). At most two reads: the top
    ``rows``, and the rank of the viewer's attempt (``own``, as ``attempt`` read it) when it is
    below them, summed over the day's histogram (``rows``: ``BOARD_ROWS`` unless given). An
    attempt still being graded, or of an account made on the day, is on nobody's board but its
    player's own line."""
    rows = rows or BOARD_ROWS
    found = list(
        _ranked(day).values_list(
            "display_name", "grand_total", "accuracy_tenths", "user_id", "game_id"
        )[:rows]
    )
    lines: list[Line] = []
    rank = 0
    for place, (name, total, tenths, user_id, game_id) in enumerate(found, start=1):
        assert total is not None  # graded attempts are finished ones
        if not lines or tenths != lines[-1].tenths:
            rank = place
        mine = viewer is not None and user_id == viewer.pk
        lines.append(Line(rank, name, total, tenths, mine, game_id))
    return Board(day, lines, _own_line(day, own, lines, full=len(found) == rows))


def _ranked(day: date) -> QuerySet[DailyAttempt]:
    """``day``'s board in its order, as the partial index ``daily_attempt_board`` keeps it."""
    return DailyAttempt.objects.filter(
        day=day, ranked=True, accuracy_tenths__isnull=False
    ).order_by("-accuracy_tenths", "finished_at", "id")


def on_board(day: date, game_id: int) -> bool:
    """Whether the attempt played in ``game_id`` is among the rows ``day``'s board shows
    (``BOARD_ROWS``): one read of those rows' games off the board's index."""
    return game_id in set(_ranked(day).values_list("game_id", flat=True)[:BOARD_ROWS])


def _own_line(day: date, own: Attempt | None, lines: list[Line], *, full: bool) -> Line | None:
    """The viewer's own line when the rows shown leave it out: below them (ranked from the
    histogram, one read), or not ranked at all (no read)."""
    if own is None or own.total is None or any(line.mine for line in lines):
        return None
    if not own.ranked or own.tenths is None:
        return Line(None, own.name, own.total, own.tenths, True, own.game_id)
    if not full:
        return None  # ranked and graded, yet not among fewer rows than a page: not yet read
    above = DailyAccuracy.objects.filter(day=day, tenths__gt=own.tenths).aggregate(
        n=Sum("attempts")
    )["n"]
    return Line((above or 0) + 1, own.name, own.total, own.tenths, True, own.game_id)


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
