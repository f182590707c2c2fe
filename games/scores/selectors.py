"""The high scores and a player's statistics, each read written for the index it uses.

``Score`` rows are ranked best first, earlier first among equals (then by id, so a rank is
always one place). The top ten reads the ``score_ranking`` index and stops after ten rows; a
player's statistics read their own rows through ``score_player``.

A day's challenge (``Score.challenge``) is never ranked: its dice are the same for everyone that
day, so one account could read them for another (its own board ranks it by accuracy instead,
``games.daily``). A player's statistics count it like any game they finished.
"""

from __future__ import annotations

import statistics
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from typing import Any
from uuid import UUID

from django.db.models import (
    Count,
    F,
    IntegerField,
    Max,
    OuterRef,
    Q,
    QuerySet,
    Subquery,
    Value,
)
from django.db.models.functions import Coalesce
from django.utils import timezone

from accounts.models import User
from games import rules
from games.models import (
    Game,
    GameStatus,
    HighScorePeriod,
    PlayerKind,
    Score,
    Seat,
)
from games.rules import codec

# --- A game and its seats ------------------------------------------------------------------


TOP = 10


PERIOD_DAYS: dict[str, int | None] = {
    HighScorePeriod.ALL_TIME: None,
    HighScorePeriod.MONTH: 30,
    HighScorePeriod.WEEK: 7,
}


PERIOD_PHRASES = {
    HighScorePeriod.ALL_TIME: "of all time",
    HighScorePeriod.MONTH: "of the last 30 days",
    HighScorePeriod.WEEK: "of the last 7 days",
}


RANKING = ("-grand_total", "finished_at", "id")

PUBLIC_PLAYER_KINDS = (PlayerKind.HUMAN, PlayerKind.COMPUTER)
"""The tables shown to the public: a guest's typed name is never ranked in public."""


def ranked(
    *,
    kind: str,
    player_kind: str = PlayerKind.HUMAN,
    period: str = HighScorePeriod.ALL_TIME,
    now: datetime | None = None,
    walk_ranking: bool = True,
) -> QuerySet[Score]:
    """The scores of a table, best first.

    A period's first rows are found by walking the ranking index down from the best score and
    skipping older games (a few hundred rows at most), so with ``walk_ranking`` the date test
    is wrapped to keep the planner off ``score_recent`` — which would sort a whole month.
    Counting a period's rows (``walk_ranking=False``) wants ``score_recent``.
    """
    scores = Score.objects.filter(kind=kind, player_kind=player_kind, challenge=False)
    if days := PERIOD_DAYS[period]:
        since = (now or timezone.now()) - timedelta(days=days)
        if walk_ranking:
            scores = scores.alias(ended=Coalesce("finished_at", "finished_at")).filter(
                ended__gte=since
            )
        else:
            scores = scores.filter(finished_at__gte=since)
    return scores.order_by(*RANKING)


def scores_version() -> int:
    """The newest score's id: it changes exactly when a finished game may change a table."""
    return Score.objects.aggregate(newest=Max("id"))["newest"] or 0


def _ahead_of(total: Any, finished_at: Any, pk: Any) -> Q:
    """Scores ranked before a score with these values."""
    return (
        Q(grand_total__gt=total)
        | Q(grand_total=total, finished_at__lt=finished_at)
        | Q(grand_total=total, finished_at=finished_at, id__lt=pk)
    )


@dataclass(frozen=True)
class TopTenRow:
    rank: int
    display_name: str
    user_id: int | None
    player_id: UUID | None  # the player's public id, for the link to their page
    grand_total: int
    finished_at: datetime
    yahtzees: int
    hints: int
    coached: bool
    mine: bool
    game_id: int
    position: int  # the seat's place in its game: the address of the game's replay


@dataclass(frozen=True)
class TopTen:
    kind: str
    player_kind: str
    period: str
    rows: list[TopTenRow]
    my_rank: int | None = None
    my_best: int | None = None


def top_ten(
    *,
    kind: str,
    player_kind: str = PlayerKind.HUMAN,
    period: str = HighScorePeriod.ALL_TIME,
    viewer: User | None = None,
    now: datetime | None = None,
) -> TopTen:
    """The ten best scores of a table; with a viewer outside it, their best rank too.

    One query, or two when the viewer has scores but none in the ten.
    """
    now = now or timezone.now()
    viewer_id = viewer.pk if viewer is not None and viewer.is_authenticated else None
    values = ranked(
        kind=kind, player_kind=player_kind, period=period, now=now
    ).values(
        "display_name",
        "user_id",
        "grand_total",
        "finished_at",
        "yahtzees",
        "hints",
        "coached",
        "game_id",
        player_id=F("user__public_id"),  # joined for the ten rows only, by primary key
        position=F("seat__position"),  # likewise
    )[:TOP]
    rows = [
        TopTenRow(rank=i, mine=viewer_id is not None and row["user_id"] == viewer_id, **row)
        for i, row in enumerate(values, start=1)
    ]
    my_rank = my_best = None
    if viewer_id is not None and player_kind == PlayerKind.HUMAN and not any(r.mine for r in rows):
        found = best_rank(kind=kind, period=period, user_id=viewer_id, now=now)
        if found is not None:
            my_rank, my_best = found
    return TopTen(kind, player_kind, period, rows, my_rank, my_best)


def best_rank(
    *, kind: str, period: str, user_id: int, now: datetime | None = None
) -> tuple[int, int] | None:
    """(rank, total) of a player's best score in a table, in one query; None without one.

    The rows ahead are counted in two index ranges: higher totals, then equal totals reached
    earlier. (One OR of the two would keep the database from using the index range.)
    """
    table = ranked(kind=kind, period=period, now=now, walk_ranking=False)
    higher = table.filter(grand_total__gt=OuterRef("grand_total"))
    tied_earlier = table.filter(grand_total=OuterRef("grand_total")).filter(
        Q(finished_at__lt=OuterRef("finished_at"))
        | Q(finished_at=OuterRef("finished_at"), id__lt=OuterRef("id"))
    )
    # The best row is picked first, so the counts run once, not once per game of the player.
    best_id = ranked(kind=kind, period=period, now=now).filter(user_id=user_id).values("id")[:1]
    best = (
        Score.objects.filter(id=Subquery(best_id))
        .annotate(higher=_count(higher), tied_earlier=_count(tied_earlier))
        .values("grand_total", "higher", "tied_earlier")
        .first()
    )
    if best is None:
        return None
    return best["higher"] + best["tied_earlier"] + 1, best["grand_total"]


def _count(rows: QuerySet[Score]) -> Coalesce:
    counted = rows.order_by().values("kind").annotate(n=Count("id")).values("n")
    return Coalesce(Subquery(counted, output_field=IntegerField()), Value(0))


def high_score_entry(score: Score, *, now: datetime | None = None) -> tuple[int, str] | None:
    """Where a just-finished score enters the high scores: (rank, period), best period first.

    Each check counts at most ten rows ahead of it, so it costs the same however large the
    table grows.
    """
    if score.player_kind != PlayerKind.HUMAN or score.challenge:
        return None

    def rank_in(period: str) -> int | None:
        table = ranked(kind=score.kind, period=period, now=now)
        ahead = table.filter(_ahead_of(score.grand_total, score.finished_at, score.pk))
        count = ahead[:TOP].count()
        return count + 1 if count < TOP else None

    # Each period's table holds the next one's (all time ⊇ 30 days ⊇ 7 days), so a score with
    # ten ahead of it in the narrowest has ten ahead in every other: most scores, one query.
    *wider, narrowest = PERIOD_DAYS
    in_narrowest = rank_in(narrowest)
    if in_narrowest is None:
        return None
    for period in wider:
        if (rank := rank_in(period)) is not None:
            return rank, period
    return in_narrowest, narrowest


def public_rank(score: Score, *, now: datetime | None = None) -> tuple[int, str] | None:
    """Where ``score`` stands today in a public top ten: (rank, period), widest period first;
    ``None`` when it is in none (a guest's, a score pushed out, or one too old for the periods
    whose ten it would enter). At most one count of ten rows per period, as ``high_score_entry``.
    """
    if score.player_kind not in PUBLIC_PLAYER_KINDS or score.challenge:
        return None
    now = now or timezone.now()
    for period, days in PERIOD_DAYS.items():
        if days and score.finished_at < now - timedelta(days=days):
            continue
        table = ranked(kind=score.kind, player_kind=score.player_kind, period=period, now=now)
        ahead = table.filter(_ahead_of(score.grand_total, score.finished_at, score.pk))
        if (count := ahead[:TOP].count()) < TOP:
            return count + 1, period
    return None


def high_score_entries(game: Game) -> dict[int, tuple[int, HighScorePeriod]]:
    """Where each seat of a finished game entered the high scores, by seat id (rank, period)."""
    if game.status != GameStatus.FINISHED:
        return {}
    rows = Score.objects.filter(game=game, high_score_rank__isnull=False).values_list(
        "seat_id", "high_score_rank", "high_score_period"
    )
    return {seat_id: (rank, HighScorePeriod(period)) for seat_id, rank, period in rows if rank}


@dataclass(frozen=True)
class BoxAverage:
    key: str
    label: str
    average: float
    best_possible: int


@dataclass(frozen=True)
class PlayerStats:
    kind: str
    started: int
    finished: int
    abandoned: int
    in_progress: int
    totals: list[int] = field(default_factory=list)
    dates: list[datetime] = field(default_factory=list)
    upper_bonuses: int = 0
    columns_played: int = 0
    yahtzees: int = 0
    yahtzee_bonuses: int = 0
    boxes: list[BoxAverage] = field(default_factory=list)
    accuracies: list[float] = field(default_factory=list)
    """Each graded game's accuracy, in the order played (games not graded are left out)."""

    @property
    def average(self) -> float | None:
        return statistics.fmean(self.totals) if self.totals else None

    @property
    def median(self) -> float | None:
        return statistics.median(self.totals) if self.totals else None

    @property
    def best(self) -> int | None:
        return max(self.totals, default=None)

    @property
    def worst(self) -> int | None:
        return min(self.totals, default=None)

    @property
    def upper_bonus_rate(self) -> float | None:
        return self.upper_bonuses / self.columns_played if self.columns_played else None


def newest_score_id(*, user_id: int, kind: str) -> int:
    """The id of a player's latest finished game of a kind (0 without one), read off the end
    of the ``score_player`` index: it changes exactly when their record does."""
    newest = (
        Score.objects.filter(user_id=user_id, kind=kind)
        .order_by("-finished_at", "-id")
        .values_list("id", flat=True)
        .first()
    )
    return newest or 0


def player_stats(*, user_id: int, kind: str, private: bool = True) -> PlayerStats:
    """A player's record in one kind of game, from their own rows (with each game's card, and
    its accuracy, joined by the seat's primary key).

    ``private`` adds what only the player sees (games started, abandoned, in progress), at the
    cost of a second query over their seats.
    """
    by_status: dict[str, int] = {}
    if private:
        by_status = dict(
            Seat.objects.filter(user_id=user_id, game__kind=kind)
            .values_list("game__status")
            .annotate(n=Count("id"))
            .values_list("game__status", "n")
        )
    scores = list(
        Score.objects.filter(user_id=user_id, kind=kind, player_kind=PlayerKind.HUMAN)
        .order_by("finished_at", "id")
        .values_list("grand_total", "finished_at", "upper_bonuses", "yahtzees",
                     "yahtzee_bonuses", "seat__accuracy", "seat__position", "game__state")
    )  # fmt: skip
    boxes, columns = rules.KINDS[kind].boxes, rules.KINDS[kind].columns
    box_sums: dict[str, int] = dict.fromkeys(boxes, 0)
    for *_, position, state in scores:  # a score's game is finished: it has a state
        for card in codec.sheet_of(state, position).cards:
            for box, points in card.items():
                box_sums[box] += points
    played_columns = len(scores) * columns
    return PlayerStats(
        kind=kind,
        started=sum(by_status.values()),
        finished=by_status.get(GameStatus.FINISHED, len(scores)),
        abandoned=by_status.get(GameStatus.ABANDONED, 0),
        in_progress=by_status.get(GameStatus.IN_PROGRESS, 0),
        totals=[row[0] for row in scores],
        dates=[row[1] for row in scores],
        upper_bonuses=sum(row[2] for row in scores),
        columns_played=played_columns,
        yahtzees=sum(row[3] for row in scores),
        yahtzee_bonuses=sum(row[4] for row in scores),
        accuracies=[row[5] for row in scores if row[5] is not None],
        boxes=[
            BoxAverage(
                key=box,
                label=box.label,
                average=box_sums[box] / played_columns if played_columns else 0.0,
                best_possible=box.best,
            )
            for box in boxes
        ],
    )
