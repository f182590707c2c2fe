"""The reads a tournament's pages need: the public list, an account's entry, and the standings
(two queries whatever the entrants: the entries with their games, then their cards' seats).

While the tournament runs, each entrant's total so far and boxes left, read from their game's
state; once it is over, the final standings ranked by accuracy against perfect play on the dice
each entrant saw (``games.review.grading``, as the daily board ranks): every entrant throws the
same faces, so foreknowledge of them can raise a total, never an accuracy."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime

from django.db.models import Q

from accounts.models import User
from games.daily.results import tenths
from games.models import Game, GameStatus, Seat
from games.rules import codec
from games.tournaments.models import Entry, Tournament

LISTED = 50
"""The most tournaments of each state the public list shows (newest first)."""

RANKING_NOTE = (
    "Final standings are ranked by accuracy: how close each decision came to perfect play on "
    "the dice that player saw. Everyone throws the same dice, so knowing them in advance "
    "could raise a score, never an accuracy; the score is shown beside it. Equal accuracies "
    "(to a tenth of a percent) share a rank. A game not finished before the end is not ranked."
)


@dataclass(frozen=True)
class Listing:
    weekly: list[Tournament]
    """The site's weekly tournaments not over (this week's, next week's), soonest first."""
    open: list[Tournament]
    running: list[Tournament]
    over: list[Tournament]

    @property
    def shown(self) -> list[Tournament]:
        """Those whose clock may still move: the weekly, open and running ones."""
        return self.weekly + self.open + self.running


def listed() -> Listing:
    """The listed tournaments, newest first, by state (the ``tournament_listed`` index); the
    site's weekly ones not over first, in a list of their own (the unique ``weekly`` key's
    index)."""
    rows = Tournament.objects.filter(listed=True).order_by("-created_at", "-id")
    hosts = rows.filter(weekly__isnull=True).select_related("host")
    return Listing(
        weekly=list(
            Tournament.objects.filter(weekly__isnull=False, ended_at__isnull=True).order_by(
                "starts_at"
            )[:2]
        ),
        open=list(hosts.filter(started_at__isnull=True, ended_at__isnull=True)[:LISTED]),
        running=list(hosts.filter(started_at__isnull=False, ended_at__isnull=True)[:LISTED]),
        over=list(rows.filter(ended_at__isnull=False).select_related("host")[:LISTED]),
    )


def entry_of(tournament: Tournament, user: User | None) -> Entry | None:
    if user is None:
        return None
    return Entry.objects.filter(tournament=tournament, user=user).first()


def entered(tournament: Tournament, user: User | None) -> bool:
    return entry_of(tournament, user) is not None


@dataclass(frozen=True)
class Line:
    """One entrant in the standings."""

    name: str
    mine: bool
    state: str
    """"waiting" (no game yet), "playing", "finished", "abandoned", "unfinished" (the end came
    first)."""
    total: int | None
    boxes_left: int | None
    game_id: int | None
    rank: int | None = None
    accuracy_tenths: int | None = None
    finished_at: datetime | None = None

    @property
    def accuracy_shown(self) -> str:
        return "" if self.accuracy_tenths is None else f"{self.accuracy_tenths / 10:.1f}%"

    @property
    def grading(self) -> bool:
        return self.state == "finished" and self.accuracy_tenths is None


def standings(tournament: Tournament, viewer: User | None) -> list[Line]:
    """Every entrant's line: while it runs (or before), by total so far; once over, the
    ranked lines first (by accuracy, then the earlier finish), then those being graded, then
    those that did not finish."""
    entries = list(Entry.objects.filter(tournament=tournament).select_related("game"))
    games = [e.game for e in entries if e.game is not None]
    seats = {
        seat.game_id: seat
        for seat in Seat.objects.filter(Q(position=0), game__in=[g.pk for g in games])
    }
    lines = [_line(e, seats.get(e.game_id or 0), viewer, over=tournament.is_over) for e in entries]
    if not tournament.is_over:
        return sorted(lines, key=lambda line: (-(line.total or 0), line.boxes_left or 0, line.name))
    return _ranked(lines)


def _line(entry: Entry, seat: Seat | None, viewer: User | None, *, over: bool) -> Line:
    mine = viewer is not None and entry.user_id == viewer.pk
    game = entry.game
    if game is None or game.state is None:
        return Line(entry.display_name, mine, "waiting", None, None, None)
    sheet = codec.sheet_of(game.state, 0)
    left = game.rules_kind.rounds - sum(len(card) for card in sheet.cards)
    state = {
        GameStatus.FINISHED: "finished",
        GameStatus.ABANDONED: "abandoned",
    }.get(GameStatus(game.status), "unfinished" if over else "playing")
    accuracy = seat.accuracy if seat is not None and state == "finished" else None
    return Line(
        name=entry.display_name,
        mine=mine,
        state=state,
        total=sheet.grand_total,
        boxes_left=left,
        game_id=game.pk,
        accuracy_tenths=None if accuracy is None else tenths(accuracy),
        finished_at=game.finished_at,
    )


def _ranked(lines: Sequence[Line]) -> list[Line]:
    """Ranked by accuracy (equal tenths share a rank: 1, 1, 3), the earlier finish first among
    equals; then the cards being graded; then the rest, by total."""
    graded = sorted(
        (line for line in lines if line.accuracy_tenths is not None),
        key=lambda line: (
            -(line.accuracy_tenths or 0),
            line.finished_at.timestamp() if line.finished_at else float("inf"),
        ),
    )
    ranked: list[Line] = []
    for place, line in enumerate(graded, start=1):
        same = ranked and ranked[-1].accuracy_tenths == line.accuracy_tenths
        rank = ranked[-1].rank if same else place
        ranked.append(Line(**{**line.__dict__, "rank": rank}))
    grading = [line for line in lines if line.grading]
    rest = sorted(
        (line for line in lines if line.state != "finished"),
        key=lambda line: (-(line.total or 0), line.name),
    )
    return ranked + grading + rest


def game_tournament(game: Game) -> Tournament | None:
    """The tournament ``game`` is played in, if any (one indexed read)."""
    if game.tournament_id is None:
        return None
    return Tournament.objects.filter(pk=game.tournament_id).first()
