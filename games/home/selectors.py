"""A player's games as their dashboard lists them: open ones (those awaiting their move first),
then their latest finished ones, and their licence, read off the ``seat_user_turn`` index."""

from __future__ import annotations

from dataclasses import dataclass, replace
from datetime import datetime
from typing import Any

from django.db.models import (
    Count,
    QuerySet,
    Subquery,
)

from accounts import licensing
from accounts.models import User
from games import rules
from games.models import (
    Grading,
    Seat,
)
from games.rules import codec

# --- A game and its seats ------------------------------------------------------------------


@dataclass(frozen=True)
class GameSummary:
    """One line of the dashboard: a game, and where the viewer's card stands in it."""

    game_id: int
    kind: str
    status: str
    updated_at: datetime
    finished_at: datetime | None
    score: int
    boxes_filled: int
    rounds: int
    your_turn: bool = False
    position: int = 0  # the viewer's seat, for the link to its analysis
    accuracy: float | None = None  # a finished card's, once graded (``games.review.grading``)
    estimated: bool = False  # the accuracy is the stated estimate (Triple, a game of several)


@dataclass(frozen=True)
class Dashboard:
    open_games: list[GameSummary]
    open_count: int
    finished: list[GameSummary]
    licence: licensing.Licence
    more_finished: bool = False

    @property
    def more_open(self) -> bool:
        return self.open_count > len(self.open_games)


_GAME_COLUMNS = ("game_id", "game__kind", "game__status", "game__updated_at", "game__finished_at")
"""What a dashboard line shows of its game: read as values, no ``Game`` built, no JSON decoded."""


def dashboard(*, user: User, open_shown: int = 10, finished_shown: int = 10) -> Dashboard:
    """The viewer's open games, those where it is their move first, then their latest finished
    ones, newest first, a page of each; and the viewer's licence.

    Each list is one range of the ``seat_user_turn`` index: its seats on turn (``on_turn``)
    come first in it, so a game waiting for the viewer is never on a later page, however many
    are open. The same query counts the open games off the index (a subquery run once). The
    three reads: the open seats, the finished ones, the licence.
    """
    open_seats = list(_open_seats(user.pk)[:open_shown])
    finished_seats = list(_finished_seats(user.pk)[: finished_shown + 1])  # one more: any more?
    finished = [_line(*row) for row in finished_seats]
    return Dashboard(
        open_games=[_summary(*row[:-1]) for row in open_seats],
        open_count=open_seats[0][-1] if open_seats else 0,
        finished=finished[:finished_shown],
        more_finished=len(finished) > finished_shown,
        licence=licensing.licence_of(user),
    )


def _seats_of(user_id: int, *, over: bool) -> QuerySet[Seat]:
    """The viewer's seats in open or ended games, those on turn first, then newest first (the
    ``seat_user_turn`` index; no seat of an ended game is on turn)."""
    return Seat.objects.filter(user_id=user_id, game_over=over).order_by("-on_turn", "-game_id")


def _open_seats(user_id: int) -> QuerySet[Seat, tuple[Any, ...]]:
    counted = (
        Seat.objects.filter(user_id=user_id, game_over=False)
        .order_by()
        .values("user_id")
        .annotate(count=Count("pk"))
        .values("count")
    )
    return (
        _seats_of(user_id, over=False)
        .annotate(open_count=Subquery(counted))
        .values_list(*_GAME_COLUMNS, "position", "game__state", "on_turn", "open_count")
    )


def _finished_seats(user_id: int) -> QuerySet[Seat, tuple[Any, ...]]:
    return _seats_of(user_id, over=True).values_list(
        *_GAME_COLUMNS, "position", "grand_total", "accuracy", "grading"
    )


def latest_finished(*, user: User, shown: int) -> list[GameSummary]:
    """The viewer's latest games that are over (finished or abandoned), newest first: their
    stored totals and accuracies (none for an abandoned one), no card read."""
    return [_line(*row) for row in _finished_seats(user.pk)[:shown]]


def _line(
    game_id: int,
    kind: str,
    status: str,
    updated_at: datetime,
    finished_at: datetime | None,
    position: int,
    total: int | None,
    accuracy: float | None = None,
    grading: str = Grading.PENDING,
) -> GameSummary:
    """A dashboard line, with the total given (none stored for an abandoned game: 0), and a
    finished card's accuracy."""
    return GameSummary(
        game_id=game_id,
        kind=kind,
        status=status,
        updated_at=updated_at,
        finished_at=finished_at,
        score=total or 0,
        boxes_filled=0,
        rounds=rules.KINDS[kind].rounds,
        position=position,
        accuracy=accuracy,
        estimated=grading == Grading.ESTIMATE,
    )


def _summary(
    game_id: int,
    kind: str,
    status: str,
    updated_at: datetime,
    finished_at: datetime | None,
    position: int,
    state: codec.State | None,
    on_turn: bool,
) -> GameSummary:
    """A game in progress (or waiting for players): the viewer's card as it stands."""
    sheet = codec.sheet_of(state, position) if state else rules.Sheet(kind=rules.KINDS[kind])
    line = _line(game_id, kind, status, updated_at, finished_at, position, sheet.grand_total)
    return replace(line, boxes_filled=sheet.boxes_filled, your_turn=on_turn)
