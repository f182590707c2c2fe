"""The reads the rating pages need, each written for the index it walks: a season's table
(``season_table``: kind, season, rating down, account), the all-time table (``rating_table``:
kind, rating down, account), an account's rated games (``rating_history``: account, kind).

A table is ranked by rating, then by account (the index's order), so a row's place is its
offset in the table: a page costs its own rows, however far down it is, and the table's size
(which the leagues need): one COUNT, kept a minute in the cache (``SIZE_KEPT``), since counting
100,000 rows took 14 times the trivial page on SQLite (``make bench``) where the page's rows
take a millisecond; a table's size a minute old moves a league's bounds by a player or two.
An account made today enters no table (the abuse rule: a fresh account cannot be made to lose
on purpose and shown at once).
"""

from __future__ import annotations

import datetime
import math
from collections import defaultdict
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any, Final
from uuid import UUID

from django.core.cache import cache
from django.db.models import Count, F, IntegerField, OuterRef, Q, QuerySet, Subquery, Value
from django.db.models.functions import Coalesce
from django.utils import timezone

from games.ratings.models import Rating, RatingChange, SeasonRating
from games.ratings.scale import PROVISIONAL_SIGMA, League, league

PAGE_SIZE: Final = 25


def day_start(day: datetime.date) -> datetime.datetime:
    """The first moment of ``day`` in the site's time zone."""
    return timezone.make_aware(datetime.datetime.combine(day, datetime.time()))


def next_season(season: datetime.date) -> datetime.date:
    return (season + datetime.timedelta(days=31)).replace(day=1)


def provisional(sigma: float | None) -> bool:
    """Whether a rating with this ``sigma`` is shown with its "?" (``None``: not known, not
    marked)."""
    return sigma is not None and sigma > PROVISIONAL_SIGMA


@dataclass(frozen=True)
class TableRow:
    place: int
    user_id: int
    name: str
    player_id: UUID
    rating: int
    games: int
    provisional: bool
    league: League


@dataclass(frozen=True)
class Table:
    kind: str
    season: datetime.date | None
    """The season's first day; ``None`` for the all-time table."""
    rows: list[TableRow]
    players: int
    page: int
    pages: int


SIZE_KEPT: Final = 60
"""Seconds a table's size is kept (``SIZE_KEPT``): see the module's words."""


def _page(
    rows: QuerySet[SeasonRating] | QuerySet[Rating], page: int, *, key: str
) -> tuple[int, int, int]:
    """The table's size, its pages, and ``page`` brought within them (one COUNT, or none while
    the size counted last is kept under ``key``)."""
    players = cache.get(key)
    if players is None:
        players = rows.count()
        cache.set(key, players, SIZE_KEPT)
    pages = max(1, math.ceil(players / PAGE_SIZE))
    return players, pages, min(max(page, 1), pages)


_FIELDS: Final = ("user_id", "rating", "games", "sigma")
_ACCOUNT: Final = {"name": F("user__display_name"), "player_id": F("user__public_id")}
"""What a table's row reads: its own columns, and its account's name and public id."""


def _table(
    kind: str,
    season: datetime.date | None,
    values: Iterable[Mapping[str, Any]],
    *,
    offset: int,
    players: int,
    page: int,
    pages: int,
) -> Table:
    """The page's rows, placed from ``offset``; ``players`` (a size kept a while) is at least
    the rows seen."""
    found = list(values)
    players = max(players, offset + len(found))
    rows = [
        TableRow(
            place=place,
            user_id=row["user_id"],
            name=row["name"],
            player_id=row["player_id"],
            rating=row["rating"],
            games=row["games"],
            provisional=provisional(row["sigma"]),
            league=league(place, players),
        )
        for place, row in enumerate(found, start=offset + 1)
    ]
    return Table(kind, season, rows, players, page, pages)


def season_table(*, kind: str, season: datetime.date, page: int, today: datetime.date) -> Table:
    """A page of a season's table: its rows down the ``season_table`` index (and the table's
    size, unless kept), each with its account (joined by primary key) and how sure its
    rating was at its latest game of the season (the row's sigma). At 100,000 players on
    PostgreSQL: the count 25 ms, the first page 1 ms, the last 40 ms."""
    table = SeasonRating.objects.filter(kind=kind, season=season, joined__lt=today)
    players, pages, page = _page(table, page, key=f"ratings:size:{kind}:{season}:{today}")
    offset = (page - 1) * PAGE_SIZE
    # The page's rows are found down the index alone, then joined: joined first, a page far
    # down would have the database join and sort the whole table (200 ms at 100,000 players).
    rows = table.order_by("-rating", "user_id").values("id")[offset : offset + PAGE_SIZE]
    page_rows = SeasonRating.objects.filter(id__in=Subquery(rows))
    values = page_rows.order_by("-rating", "user_id").values(*_FIELDS, **_ACCOUNT)
    return _table(kind, season, values, offset=offset, players=players, page=page, pages=pages)


def all_time_table(*, kind: str, page: int, today: datetime.date) -> Table:
    """A page of the all-time table: each account's rating now, down the ``rating_table`` index
    (and the table's size, unless kept), the account joined by primary key."""
    table = Rating.objects.filter(kind=kind, user__date_joined__lt=day_start(today))
    players, pages, page = _page(table, page, key=f"ratings:size:{kind}:all:{today}")
    offset = (page - 1) * PAGE_SIZE
    values = table.order_by("-rating", "user_id").values(*_FIELDS, **_ACCOUNT)
    values = values[offset : offset + PAGE_SIZE]
    return _table(kind, None, values, offset=offset, players=players, page=page, pages=pages)


SEASONS_KEPT: Final = 24 * 3600


def past_seasons(*, kind: str, current: datetime.date) -> list[datetime.date]:
    """The seasons before ``current`` that have a table, newest first. A season over is never
    written again, so the list cannot change before the month does: it is read once (an
    index-only walk of ``season_table``) and kept under the month's name."""
    key = f"rating-seasons:{kind}:{current:%Y-%m}"

    def read() -> list[datetime.date]:
        seasons = SeasonRating.objects.filter(kind=kind, season__lt=current)
        return list(seasons.order_by("-season").values_list("season", flat=True).distinct())

    kept: list[datetime.date] | None = cache.get_or_set(key, read, timeout=SEASONS_KEPT)
    return read() if kept is None else kept


# --- One account ---------------------------------------------------------------------------


@dataclass(frozen=True)
class RatedGame:
    game_id: int
    before: int
    after: int
    sigma: float
    accuracy: float | None
    """The seat's accuracy, once the review room has graded it (``None`` until then)."""
    created_at: datetime.datetime

    @property
    def change(self) -> int:
        return self.after - self.before


def rated_games(*, user_id: int) -> dict[str, list[RatedGame]]:
    """Every rated game of an account by kind, oldest first: one query over its
    ``rating_history`` rows, each game's accuracy read from its seat (joined by primary key).
    The latest is its rating now (the services write both together)."""
    rows = (
        RatingChange.objects.filter(user_id=user_id)
        .order_by("created_at", "id")
        .values_list("kind", "game_id", "before", "after", "sigma", "seat__accuracy",
                     "created_at")
    )  # fmt: skip
    games: dict[str, list[RatedGame]] = defaultdict(list)
    for kind, game_id, before, after, sigma, accuracy, created_at in rows:
        games[kind].append(RatedGame(game_id, before, after, sigma, accuracy, created_at))
    return dict(games)


@dataclass(frozen=True)
class Standing:
    place: int
    players: int

    @property
    def league(self) -> League:
        return league(self.place, self.players)


def _counted(rows: QuerySet[SeasonRating]) -> Coalesce:
    counted = rows.order_by().values("kind").annotate(n=Count("id")).values("n")
    return Coalesce(Subquery(counted, output_field=IntegerField()), Value(0))


def standings(*, user_id: int, season: datetime.date, today: datetime.date) -> dict[str, Standing]:
    """Where an account stands in each kind's table of ``season`` (none where it has not
    played, or was made today): one query, its own rows with the rows ahead of each and the
    table's size counted as ranges of ``season_table`` (higher ratings, then equal ratings of
    earlier accounts: one OR of the two would keep the database from the index range)."""
    table = SeasonRating.objects.filter(
        kind=OuterRef("kind"), season=OuterRef("season"), joined__lt=today
    )
    mine = SeasonRating.objects.filter(user_id=user_id, season=season, joined__lt=today)
    rows = mine.annotate(
        higher=_counted(table.filter(rating__gt=OuterRef("rating"))),
        tied=_counted(table.filter(Q(rating=OuterRef("rating")), user_id__lt=OuterRef("user_id"))),
        players=_counted(table),
    ).values_list("kind", "higher", "tied", "players")
    return {
        kind: Standing(place=higher + tied + 1, players=players)
        for kind, higher, tied, players in rows
    }
