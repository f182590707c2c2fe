"""Rating a game: where its players finished, turned into each account's new rating, its
history and its season's table. Run on the task worker once a rated game is over
(``games.ratings.events``); idempotent (a game rates an account once, however often this runs).

Which games: online games between accounts, always; a game with computer players or guests
at the host's screen when its host chose a rated one (``Game.rated``); never a day's challenge,
nor a game of one. Who is rated: the seats of confirmed accounts; the computers take part at
their fixed ratings (``anchors``), guests not at all (nobody can vouch for a typed name).
"""

from __future__ import annotations

import datetime
from collections import defaultdict
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Final

from django.db import transaction
from django.utils import timezone

from accounts.models import User
from games import rules, store
from games.models import Game, GameStatus, MoveAction, PlayerKind, Seat
from games.ratings import anchors, scale
from games.ratings.models import Rating, RatingChange, SeasonRating

MEETINGS_WINDOW: Final = datetime.timedelta(days=30)
"""How far back the same accounts meeting again make a game count less (``scale.weight``)."""


def season_of(moment: datetime.datetime) -> datetime.date:
    """The season (its first day: seasons are calendar months, the site's) of ``moment``."""
    return timezone.localdate(moment).replace(day=1)


def joined_on(user: User) -> datetime.date:
    return timezone.localdate(user.date_joined)


@dataclass(frozen=True)
class _Entry:
    """One player the game rates or places: an account's seat (``user``), or a computer's
    (``user`` None: its fixed rating, never moved)."""

    seat: Seat
    user: User | None
    place: int


def counts(game: Game, seats: Sequence[Seat]) -> bool:
    """Whether ``game`` (with ``seats``) is a rated one: see the module's words (a day's
    challenge is played alone: ``rules.Match.verify_table``)."""
    if len(seats) < 2:
        return False
    return game.rated or all(seat.player_kind == PlayerKind.HUMAN for seat in seats)


def rateable(seat: Seat) -> bool:
    """Whether ``seat`` is an account the game rates: a person's, confirmed and active."""
    user = seat.user
    return (
        seat.player_kind == PlayerKind.HUMAN
        and user is not None
        and user.is_active
        and user.email_confirmed
    )


def _finishes(game: Game, seats: Sequence[Seat]) -> list[scale.Finish] | None:
    """Each seat's finish, or ``None`` for a game with nothing to rate (abandoned by nobody)."""
    match = store.match_of(game)
    moves = game.moves.filter(action__in=[MoveAction.SKIP, MoveAction.END])
    skipped: dict[int, int] = defaultdict(int)
    left = None
    for action, position in moves.values_list("action", "seat__position"):
        if action == MoveAction.SKIP:
            skipped[position] += 1
        else:
            left = position
    if game.status == GameStatus.ABANDONED and left is None:
        return None
    return [
        scale.Finish(
            total=sheet.grand_total,
            out=state is not rules.SeatState.PLAYING or skipped[p] >= scale.SKIPPED_OUT,
            left=p == left,
        )
        for p, (sheet, state) in enumerate(zip(match.sheets, match.states, strict=True))
    ]


@transaction.atomic
def rate_game(game_id: int) -> bool:
    """Rate the game ``game_id`` if it is a rated game over and not rated yet: whether this run
    rated it."""
    game = Game.objects.select_for_update().filter(pk=game_id).first()
    if (
        game is None
        or game.state is None  # ended while it waited for players: never played
        or game.status not in (GameStatus.FINISHED, GameStatus.ABANDONED)
        or RatingChange.objects.filter(game=game).exists()
    ):
        return False
    seats = list(game.seats.select_related("user").order_by("position"))
    if not counts(game, seats):
        return False
    finishes = _finishes(game, seats)
    if finishes is None:
        return False
    places = scale.places(finishes)
    taking_part = [
        (seat, place)
        for seat, place in zip(seats, places, strict=True)
        if rateable(seat) or seat.player_kind == PlayerKind.COMPUTER
    ]
    entries = [
        _Entry(
            seat,
            seat.user if seat.player_kind == PlayerKind.HUMAN else None,
            1 + sum(1 for _, other in taking_part if other < place),  # places among those rated
        )
        for seat, place in taking_part
    ]
    accounts = [entry.user for entry in entries if entry.user is not None]
    if not accounts or len(entries) < 2:
        return False

    when = game.finished_at or game.updated_at
    ids = [user.pk for user in accounts]
    ratings = _locked_ratings(ids, game.kind, when)
    meetings = _meetings(ids, when)

    def entrant(entry: _Entry) -> scale.Entrant:
        if entry.user is None:
            return scale.Entrant(anchors.anchor(game.kind, entry.seat.bot), entry.place, fixed=True)
        rating = ratings[entry.user.pk]
        return scale.Entrant(
            scale.Belief(rating.mu, rating.sigma),
            entry.place,
            weight=scale.weight(meetings[entry.user.pk]),
        )

    rated = [entrant(entry) for entry in entries]
    changes = []
    for entry, given, belief in zip(entries, rated, scale.rate(rated), strict=True):
        if entry.user is None:
            continue
        rating = ratings[entry.user.pk]
        changes.append(
            RatingChange(
                user=entry.user,
                game=game,
                seat=entry.seat,
                kind=game.kind,
                place=entry.place,
                players=len(entries),
                weight=given.weight,
                before=rating.rating,
                after=belief.shown,
                mu=belief.mu,
                sigma=belief.sigma,
                created_at=when,
            )
        )
        rating.mu, rating.sigma, rating.rating = belief.mu, belief.sigma, belief.shown
        rating.games += 1
        rating.updated_at = when
    Rating.objects.bulk_update(ratings.values(), ["mu", "sigma", "rating", "games", "updated_at"])
    RatingChange.objects.bulk_create(changes)
    _enter_season(game.kind, season_of(when), accounts, ratings)
    return True


def _locked_ratings(user_ids: list[int], kind: str, when: datetime.datetime) -> dict[int, Rating]:
    """The accounts' ratings at ``kind``, made at the start for those who have none, locked in
    the order of their accounts (two games rating the same accounts at once take turns)."""
    Rating.objects.bulk_create(
        [
            Rating(
                user_id=user_id,
                kind=kind,
                mu=scale.START_MU,
                sigma=scale.START_SIGMA,
                rating=scale.SHOWN_AT_START,
                updated_at=when,
            )
            for user_id in user_ids
        ],
        ignore_conflicts=True,
    )
    locked = Rating.objects.select_for_update().filter(user_id__in=user_ids, kind=kind)
    return {rating.user_id: rating for rating in locked.order_by("user_id")}


def _meetings(user_ids: list[int], when: datetime.datetime) -> dict[int, int]:
    """For each account, the most rated games it has played lately with any one of the others."""
    since = when - MEETINGS_WINDOW
    rows = RatingChange.objects.filter(user_id__in=user_ids, created_at__gte=since)
    players: dict[int, set[int]] = defaultdict(set)
    for game_id, user_id in rows.values_list("game_id", "user_id"):
        players[game_id].add(user_id)
    met: dict[tuple[int, int], int] = defaultdict(int)
    for together in players.values():
        for a in together:
            for b in together - {a}:
                met[a, b] += 1
    return {a: max((met[a, b] for b in user_ids if b != a), default=0) for a in user_ids}


def _enter_season(
    kind: str, season: datetime.date, accounts: Sequence[User], ratings: dict[int, Rating]
) -> None:
    """Each account's row in the season's table, with its rating now."""
    rows = {
        row.user_id: row
        for row in SeasonRating.objects.filter(
            user_id__in=[user.pk for user in accounts], kind=kind, season=season
        )
    }
    new = []
    for user in accounts:
        row = rows.get(user.pk)
        if row is None:
            new.append(
                SeasonRating(
                    user=user,
                    kind=kind,
                    season=season,
                    rating=ratings[user.pk].rating,
                    sigma=ratings[user.pk].sigma,
                    games=1,
                    joined=joined_on(user),
                )
            )
        else:
            row.rating, row.sigma = ratings[user.pk].rating, ratings[user.pk].sigma
            row.games += 1
    SeasonRating.objects.bulk_update(rows.values(), ["rating", "sigma", "games"])
    SeasonRating.objects.bulk_create(new)
