"""The reads: a game as its pages need it, a player's games, the high scores and statistics.

Each read is written for the index it uses. ``Score`` rows are ranked best first, earlier
first among equals (then by id, so a rank is always one place). The top ten reads the
``score_ranking`` index and stops after ten rows; a player's statistics read their own rows
through ``score_player``.
"""

from __future__ import annotations

import statistics
from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from datetime import datetime, timedelta
from typing import Any
from uuid import UUID

from django.db import connection
from django.db.backends.base.base import BaseDatabaseWrapper
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
from django.db.models.lookups import IsNull
from django.db.models.sql.compiler import SQLCompiler
from django.urls import reverse
from django.utils import timezone

from accounts import licensing
from accounts.models import User
from games import rules, strategy
from games.errors import GameNotFound
from games.models import (
    Game,
    GameStatus,
    HighScorePeriod,
    Invitation,
    Move,
    MoveAction,
    PlayerKind,
    Score,
    Seat,
    lobby_cutoff,
)
from yahtzee_site import prepared

# --- A game and its seats ------------------------------------------------------------------


@dataclass(frozen=True)
class SeatedGame:
    """A game with its seats loaded, as the pages and services use it."""

    game: Game
    seats: list[Seat]
    record: rules.Roll | rules.Scoring | None = None
    """What the action that produced this state did: the page shows it (a line of the log, a
    celebration) without reading the log again."""
    actor: int | None = None
    """The seat (its place in ``seats``) whose ``record`` it is: after a scoring, the turn has
    passed on."""

    @property
    def current(self) -> Seat:
        return self.seats[self.game.current_seat]

    def seat_of(self, user: User) -> Seat | None:
        return next((seat for seat in self.seats if seat.user_id == user.pk), None)

    def match(self) -> rules.Match:
        """The game in play as the pure rules see it: every seat's sheet and state, the draw
        for first while it lasts, who went first, the seat on turn and its turn (the ``Move``
        table keeps the log). Services act on it; presenters read the standings from it."""
        game, kind = self.game, self.game.rules_kind
        finished = game.status == GameStatus.FINISHED
        drawing = bool(game.contenders) and not finished
        phase = rules.MatchPhase.PLAYING
        if finished:
            phase = rules.MatchPhase.FINISHED
        elif drawing:
            phase = rules.MatchPhase.ROLLING_FOR_FIRST
        now = rules.Match(
            kind=kind,
            sheets=tuple(seat.sheet(kind) for seat in self.seats),
            states=tuple(
                rules.SeatState.RESIGNED if seat.resigned else rules.SeatState.PLAYING
                for seat in self.seats
            ),
            phase=phase,
            first=None if drawing else game.first_seat,
            current=None if finished or drawing else game.current_seat,
            turn=game.turn(),
            contenders=tuple(game.contenders) if drawing else (),
            first_rolls=tuple(
                tuple(game.first_rolls[str(s)]) if str(s) in game.first_rolls else None
                for s in range(len(self.seats))
            ),
        )
        return self._with_undo(now) if game.undo and not finished else now

    def _with_undo(self, now: rules.Match) -> rules.Match:
        """``now`` able to take back the last scoring: the game row keeps the scorer's sheet
        and turn as they were before it, and the scoring itself (the match's latest event)."""
        before = self.game.undo
        assert before is not None
        seat, kind = before["seat"], self.game.rules_kind
        sheet = rules.Sheet(
            kind=kind,
            cards=tuple(before["cards"]),
            yahtzee_bonuses=before["yahtzee_bonuses"],
            yahtzees=before["yahtzees"],
        )
        held = tuple(before["held"]) if len(before["held"]) == rules.DICE_COUNT else rules.NO_HOLD
        turn = rules.Turn(dice=tuple(before["dice"]), held=held, rolls_used=before["rolls_used"])
        undo = replace(
            now,
            sheets=tuple(sheet if s == seat else other for s, other in enumerate(now.sheets)),
            current=seat,
            turn=turn,
        )
        scored = rules.Scored(
            seat, before["column"], before["box"], before["points"], tuple(before["dice"])
        )
        return replace(now, undo=undo, log=(scored,))


def games_of(user: User) -> QuerySet[Game]:
    """The games ``user`` is seated in: the only ones they may see or act on."""
    return Game.objects.filter(seats__user=user).distinct()


def seated_game(*, game_id: int, user: User, lock: bool = False) -> SeatedGame:
    """The game and its seats, if ``user`` is seated in it; else ``GameNotFound``.

    Two reads, the game then its seats in order, through SQL the ORM compiled once per process
    (``prepared``), in one round trip on PostgreSQL: every roll, score and page starts here.
    With ``lock`` the game row is locked until the transaction ends (the writes use this;
    SQLite's IMMEDIATE transactions lock anyway), before its seats are read.
    """
    game_rows, seat_rows = prepared.rows_together(
        (_locked_game if lock else _game, game_id, None), (_seats, game_id, None)
    )
    alias = connection.alias
    game = Game.from_db(alias, _GAME_FIELDS, game_rows[0]) if game_rows else None
    seats = [Seat.from_db(alias, _SEAT_FIELDS, row) for row in seat_rows]
    if game is None or not any(seat.user_id == user.pk for seat in seats):
        raise GameNotFound("There is no such game.")
    for seat in seats:
        seat.game = game  # one Game object for all, so a change made through one is seen by all
    return SeatedGame(game=game, seats=seats)


_GAME_FIELDS = [field.attname for field in Game._meta.concrete_fields]
_SEAT_FIELDS = [field.attname for field in Seat._meta.concrete_fields]


def _game(game_id: int) -> QuerySet[Game, tuple[Any, ...]]:
    return Game.objects.filter(pk=game_id).order_by().values_list(*_GAME_FIELDS)


def _locked_game(game_id: int) -> QuerySet[Game, tuple[Any, ...]]:
    return _game(game_id).select_for_update()


def _seats(game_id: int) -> QuerySet[Seat, tuple[Any, ...]]:
    return Seat.objects.filter(game_id=game_id).order_by("position").values_list(*_SEAT_FIELDS)


@dataclass(frozen=True)
class OpenSeat:
    """A seat offered in the lobby: the game, its host, and the seats taken so far."""

    token: str
    game_id: int
    kind: str
    host: str
    seated: int
    offered: int


class _MostlyNull(IsNull):
    """``IS NULL``, said to SQLite's planner to hold for most rows (``likelihood``). Told
    nothing, SQLite takes the lobby's ``seat_id IS NULL`` to pick out about one row through the
    seat's unique index, so it reads every seat ever offered and never taken that way, then
    sorts them all, even after ``ANALYZE`` (70 ms at 200,000 invitations, against 0.2 ms down
    the lobby's own index). Other databases get the plain ``IS NULL``."""

    def as_sqlite(
        self, compiler: SQLCompiler, connection: BaseDatabaseWrapper
    ) -> tuple[str, Sequence[Any]]:
        sql, params = self.as_sql(compiler, connection)
        return f"likelihood({sql}, 0.9375)", params


_PAST_WAITING = [status for status in GameStatus.values if status != GameStatus.WAITING]


def lobby(*, viewer: User, limit: int = 30, now: datetime | None = None) -> list[OpenSeat]:
    """Games waiting for players with a seat open to anyone, newest first (a new host's game is
    seen at once), one entry per game; not the viewer's own games, nor seats offered longer
    than ``LOBBY_SEAT_LIFETIME``.

    Walks the ``invitation_lobby_newest`` partial index from its newest end, down to the cutoff
    at most, and stops after the rows of ``limit`` games (a game offers at most
    ``MAX_OFFERED``): no sort, no count, as fast with 20,000 games waiting as with 20. Then one
    query reads those games, their hosts and seats.

    The walk reads the invitation table alone, the game's status through a subquery by its key:
    joined, a planner that believes few games wait (PostgreSQL's statistics, gathered while
    none did) starts from the games instead, joins every open seat and sorts them, 276 ms at
    25,000 open games (and its cost estimate turns on JIT compilation). The status is asked as
    "not past waiting" for the same reason: a planner guesses an unknown value equal to one
    string for one row in 200, and to none of three for most rows, as here.
    """
    cutoff = lobby_cutoff(now or timezone.now())
    status = Game.objects.filter(pk=OuterRef("game_id")).order_by().values("status")[:1]
    open_seats = (
        Invitation.objects.alias(game_status=Subquery(status))
        .filter(
            _MostlyNull(F("seat"), True),
            open_to_all=True,
            revoked_at__isnull=True,
            created_at__gt=cutoff,
        )
        .exclude(game_status__in=_PAST_WAITING)
        .exclude(game__seats__user=viewer)
        .order_by("-created_at", "-id")
        .values_list("game_id", "token")
    )
    tokens: dict[int, str] = {}
    for game_id, token in open_seats[: limit * MAX_OFFERED]:
        tokens.setdefault(game_id, token)
        if len(tokens) == limit:
            break
    games = (
        Game.objects.filter(pk__in=tokens)
        .values("pk", "kind", "owner__display_name")  # grouped by the game alone
        .annotate(
            seated=Count("seats", distinct=True),
            offered=Count(
                "invitations",
                filter=Q(invitations__seat__isnull=True, invitations__revoked_at__isnull=True),
                distinct=True,
            ),
        )
        .values_list("pk", "kind", "owner__display_name", "seated", "offered")
    )
    found = {
        pk: OpenSeat(tokens[pk], pk, rules.KINDS[kind].name, host, seated, offered)
        for pk, kind, host, seated, offered in games
    }
    return [found[pk] for pk in tokens if pk in found]


MAX_OFFERED = 5
"""Seats a game can offer besides the host's."""


def invitations_of(game: Game) -> list[Invitation]:
    """A waiting game's invitations, for its host to copy or withdraw."""
    return list(Invitation.objects.filter(game=game).order_by("pk"))


def invitation(token: str) -> Invitation | None:
    """The invitation a link names, with its game and host."""
    return Invitation.objects.select_related("game__owner").filter(token=token).first()


class NoRecord(Exception):
    """A seat whose play cannot be replayed for analysis; the message says why."""


def game_record(seat: Seat) -> strategy.GameRecord:
    """One seat's play, read back from the ``Move`` log as the analysis replays it: each turn's
    dice after every roll, the dice held for each re-roll, the box. A box taken back (undo)
    re-opens its turn; a skipped turn cannot be graded, so such a game has no record."""
    turns: list[strategy.TurnRecord] = []
    rolls: list[rules.Dice] = []
    holds: list[rules.Held] = []
    last_closed: tuple[list[rules.Dice], list[rules.Held]] | None = None
    for move in Move.objects.filter(seat=seat).order_by("seq"):
        if move.action == MoveAction.ROLL:
            if rolls:
                holds.append(tuple(move.held))
            rolls.append(tuple(move.dice))
        elif move.action == MoveAction.SCORE:
            turns.append(
                strategy.TurnRecord(tuple(rolls), tuple(holds), move.box, move.column or 0)
            )
            last_closed, rolls, holds = (rolls, holds), [], []
        elif move.action == MoveAction.UNDO and last_closed is not None:
            turns.pop()
            (rolls, holds), last_closed = last_closed, None
        elif move.action == MoveAction.SKIP:
            raise NoRecord("A skipped turn cannot be graded: this game has no analysis.")
    return strategy.GameRecord(tuple(turns), kind=rules.KINDS[seat.game.kind])


def rematch_link(game: Game, viewer: User) -> tuple[str, str] | None:
    """Where the viewer goes for the rematch of ``game``, if one was asked for: into the new
    game when they sit there already, or to the seat kept for them."""
    if game.rematch_id is None:
        return None
    play = reverse("games:play", kwargs={"game_id": game.rematch_id})
    if Seat.objects.filter(game_id=game.rematch_id, user=viewer).exists():
        return play, "Go to the rematch"
    kept = Invitation.objects.filter(
        game_id=game.rematch_id, for_user=viewer, seat__isnull=True, revoked_at__isnull=True
    ).values_list("token", flat=True)
    token = next(iter(kept), None)
    if token is None:
        return None
    return reverse("games:join", kwargs={"token": token}), "Accept the rematch"


def has_moves(game: Game) -> bool:
    """Whether anything has been rolled in the game yet."""
    return Move.objects.filter(game=game).exists()


def recent_moves(game: Game, *, limit: int = 8) -> list[Move]:
    """The game's last moves, newest first, read backwards along ``move_unique_seq`` (what a
    line of the log says; the player's name comes from the seats loaded with the game)."""
    return list(Move.objects.filter(game=game).order_by("-seq")[:limit])


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
    three reads are compiled once per process and sent together (``prepared.rows_together``):
    compiling cost more than running them, and on PostgreSQL each round trip as much again.
    """
    open_seats, finished_seats, licence = prepared.rows_together(
        (_open_seats, user.pk, open_shown),
        (_finished_seats, user.pk, finished_shown + 1),  # one more: are there more?
        licensing.licence_read(user),
    )
    finished = [_line(*row) for row in finished_seats]
    return Dashboard(
        open_games=[_summary(*row[:-1]) for row in open_seats],
        open_count=open_seats[0][-1] if open_seats else 0,
        finished=finished[:finished_shown],
        more_finished=len(finished) > finished_shown,
        licence=licensing.licence_from(user, licence),
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
        .values_list(
            *_GAME_COLUMNS, "position", "cards", "yahtzee_bonuses", "yahtzees", "on_turn",
            "open_count",
        )
    )  # fmt: skip


def _finished_seats(user_id: int) -> QuerySet[Seat, tuple[Any, ...]]:
    return _seats_of(user_id, over=True).values_list(*_GAME_COLUMNS, "position", "grand_total")


def latest_finished(*, user: User, shown: int) -> list[GameSummary]:
    """The viewer's latest games that are over (finished or abandoned), newest first: their
    stored totals (none for an abandoned one), no card read."""
    return [_line(*row) for row in prepared.rows(_finished_seats, user.pk, limit=shown)]


def _line(
    game_id: int,
    kind: str,
    status: str,
    updated_at: datetime,
    finished_at: datetime | None,
    position: int,
    total: int | None,
) -> GameSummary:
    """A dashboard line, with the total given (none stored for an abandoned game: 0)."""
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
    )


def _summary(
    game_id: int,
    kind: str,
    status: str,
    updated_at: datetime,
    finished_at: datetime | None,
    position: int,
    cards: list[dict[str, int]],
    yahtzee_bonuses: int,
    yahtzees: int,
    on_turn: bool,
) -> GameSummary:
    """A game in progress (or waiting for players): the viewer's card as it stands."""
    sheet = rules.Sheet(
        kind=rules.KINDS[kind],
        cards=tuple(cards) if cards else (),
        yahtzee_bonuses=yahtzee_bonuses,
        yahtzees=yahtzees,
    )
    line = _line(game_id, kind, status, updated_at, finished_at, position, sheet.grand_total)
    return replace(line, boxes_filled=sheet.boxes_filled, your_turn=on_turn)


# --- High scores -----------------------------------------------------------------------------

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
    scores = Score.objects.filter(kind=kind, player_kind=player_kind)
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
    mine: bool


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
        player_id=F("user__public_id"),  # joined for the ten rows only, by primary key
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
    if score.player_kind != PlayerKind.HUMAN:
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


def high_score_entries(game: Game) -> dict[int, tuple[int, HighScorePeriod]]:
    """Where each seat of a finished game entered the high scores, by seat id (rank, period)."""
    if game.status != GameStatus.FINISHED:
        return {}
    rows = Score.objects.filter(game=game, high_score_rank__isnull=False).values_list(
        "seat_id", "high_score_rank", "high_score_period"
    )
    return {seat_id: (rank, HighScorePeriod(period)) for seat_id, rank, period in rows if rank}


# --- Personal statistics -------------------------------------------------------------------


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
    """A player's record in one kind of game, from their own rows.

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
                     "yahtzee_bonuses", "seat__cards")
    )  # fmt: skip
    columns = rules.KINDS[kind].columns
    box_sums = dict.fromkeys(rules.CATEGORIES, 0)
    for *_, cards in scores:
        for card in cards:
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
        boxes=[
            BoxAverage(
                key=box,
                label=box.label,
                average=box_sums[box] / played_columns if played_columns else 0.0,
                best_possible=box.best,
            )
            for box in rules.CATEGORIES
        ],
    )
