"""The reads a tournament's pages need: the public list, an account's entry, and the standings
(one query whatever the entrants while it runs: the entries with their games' state; two once
over: then their cards' seats).

While the tournament runs, each entrant's total so far, boxes left and accuracy so far, read
from their game's state and their entry, and the leader's expected final; once it is over,
the final standings ranked by accuracy against perfect play on the dice each entrant saw
(``games.review.grading``, as the daily board ranks): every entrant throws the same faces, so
foreknowledge of them can raise a total, never an accuracy."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace
from datetime import datetime
from typing import Any

from accounts.models import User
from games import advice, rules, strategy
from games.daily.results import tenths
from games.models import Game, GameStatus, Grading, Seat
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
    entry_id: int = 0
    so_far_tenths: int | None = None
    """The accuracy of the decisions graded so far (``Entry.accuracy``), in tenths."""
    graded_turns: int = 0
    expected_final: float | None = None
    """The leader's alone, while it runs: total so far + the expected rest under perfect play."""
    awaiting_grade: bool = False
    """Finished, its card's final accuracy still to be graded (``Grading.PENDING``)."""

    @property
    def accuracy_shown(self) -> str:
        return "" if self.accuracy_tenths is None else f"{self.accuracy_tenths / 10:.1f}%"

    @property
    def so_far_shown(self) -> str:
        return "" if self.so_far_tenths is None else f"{self.so_far_tenths / 10:.1f}%"

    @property
    def grading(self) -> bool:
        return self.state == "finished" and self.accuracy_tenths is None


@dataclass(frozen=True)
class Board:
    """A tournament's standings as read at one moment, with the version they were read at."""

    lines: list[Line]
    version: int
    """Rises with every change the standings show: the sum of its games' versions, of the
    turns graded so far, of its entrants, of its start and end, and once over of the cards
    graded and of the perfect play worked out. Each part only rises, so the sum does; read
    alike by every process."""
    over: bool
    expected_is_estimate: bool
    """The leader's expected final is the advisor's estimate (Triple), not the exact value."""
    perfect_known: bool = False
    """Perfect play's total on the dice is worked out (once over: ``perfect.work_out``)."""

    @property
    def final(self) -> bool:
        """Over, every finished card graded and perfect play's total worked out: nothing on
        the standings changes any more."""
        return (
            self.over and self.perfect_known and not any(line.awaiting_grade for line in self.lines)
        )


_ENTRY_FIELDS = (
    "pk", "user_id", "display_name", "accuracy", "graded_turns", "game_id", "game__state",
    "game__status", "game__version", "game__finished_at",
)  # fmt: skip


def standings(tournament: Tournament, viewer: User | None) -> list[Line]:
    """Every entrant's line (``board``)."""
    return board(tournament, viewer).lines


def board(tournament: Tournament, viewer: User | None = None) -> Board:
    """Every entrant's line: while it runs (or before), by total so far, the leader's with its
    expected final; once over, the ranked lines first (by accuracy, then the earlier finish),
    then those being graded, then those that did not finish. One query while it runs (the
    entries with their games' state columns, through ``game``'s key), two once over (the
    cards' seats, by the games' ``tournament`` index)."""
    over = tournament.is_over
    rows = list(Entry.objects.filter(tournament=tournament).values_list(*_ENTRY_FIELDS))
    seats: dict[int, tuple[float | None, str]] = {}
    if over:
        found = Seat.objects.filter(position=0, game__tournament=tournament).values_list(
            "game_id", "accuracy", "grading"
        )
        seats = {game_id: (accuracy, grading) for game_id, accuracy, grading in found}
    sheets: dict[int, rules.Sheet] = {}
    lines = [_line(row, seats, sheets, viewer, over=over) for row in rows]
    version = (
        sum(row[8] or 0 for row in rows)
        + sum(row[4] for row in rows)
        + len(rows)
        + (tournament.started_at is not None)
        + over
        + sum(grading != Grading.PENDING for _, grading in seats.values())
        + (tournament.perfect_total is not None)
    )
    estimate = tournament.rules_kind is rules.TRIPLE  # Classic's and Yatzy's tables are exact
    if over:
        return Board(_ranked(lines), version, over, estimate, tournament.perfect_total is not None)
    lines.sort(key=lambda line: (-(line.total or 0), line.boxes_left or 0, line.name))
    leader = next((line for line in lines if line.state in ("playing", "finished")), None)
    if leader is not None:
        expected = expected_final(sheets[leader.entry_id])
        lines[lines.index(leader)] = replace(leader, expected_final=expected)
    return Board(lines, version, over, estimate)


def expected_final(sheet: rules.Sheet) -> float:
    """The final score ``sheet`` is expected to reach from the start of its next turn under
    perfect play: its total so far + its kind's strategy table's value of its card (Classic and
    Yatzy: exact); for Triple the advisor's estimate (each column valued as a Classic card of
    its own, weighted by its multiplier)."""
    opening = strategy.RollDice(rules.NO_HOLD)
    return advice.advisor(sheet.kind).value_of(sheet, rules.Turn(), opening).expected


Row = tuple[Any, ...]


def _line(
    row: Row,
    seats: dict[int, tuple[float | None, str]],
    sheets: dict[int, rules.Sheet],
    viewer: User | None,
    *,
    over: bool,
) -> Line:
    entry_id, user_id, name, so_far, graded_turns, game_id, state, status, _, finished_at = row
    mine = viewer is not None and user_id == viewer.pk
    if game_id is None or state is None:
        return Line(name, mine, "waiting", None, None, None, entry_id=entry_id)
    sheet = sheets[entry_id] = codec.sheet_of(state, 0)
    left = sheet.kind.rounds - sum(len(card) for card in sheet.cards)
    shown = {
        GameStatus.FINISHED: "finished",
        GameStatus.ABANDONED: "abandoned",
    }.get(GameStatus(status), "unfinished" if over else "playing")
    accuracy, grading = seats.get(game_id, (None, Grading.PENDING))
    accuracy = accuracy if shown == "finished" else None
    return Line(
        name=name,
        mine=mine,
        state=shown,
        total=sheet.grand_total,
        boxes_left=left,
        game_id=game_id,
        accuracy_tenths=None if accuracy is None else tenths(accuracy),
        finished_at=finished_at,
        entry_id=entry_id,
        so_far_tenths=None if so_far is None else tenths(so_far),
        graded_turns=graded_turns,
        awaiting_grade=over and shown == "finished" and grading == Grading.PENDING,
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
