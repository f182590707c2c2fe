"""Rated play under load (issue 37): what the rating costs the move that ends a game, what
rating a game costs the task worker, and the season's table with 100,000 rated players.

- **The ending move.** Pairs of two-account online games stand one scoring from their end
  (copies of one game played there through the site's services); the last scoring is posted
  through the whole request path, alternately with the ratings listening and not
  (``games.events``), so the two sets of moves differ by the rating alone: the listener and
  the task it enqueues once the move commits. Target: at most 10% more.
- **The worker.** Each of those rated games is then rated by ``services.rate_game`` (what the
  task runs), timed.
- **The season's table.** ``PLAYERS`` accounts rated this season, written straight into the
  tables once (kept between runs), their table page timed with the other pages: at most three
  queries, at most twice the trivial page.
"""

from __future__ import annotations

import random
import statistics
import time
from dataclasses import dataclass
from datetime import timedelta
from typing import Any

from django.conf import settings
from django.contrib.auth.hashers import make_password
from django.db import transaction
from django.db.models import Max
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from accounts.models import User
from bench import tables
from bench.output import BenchError, Console
from bench.scenarios import Page, allowed_host
from games import events, rules, store
from games.models import Game, GameStatus, Invitation, Seat
from games.play import actions as play
from games.ratings import events as rating_events
from games.ratings import scale, services
from games.ratings.models import Rating, RatingChange, SeasonRating
from games.rules import actions
from games.tables import services as table_services

KEY = "ratings_season"
PLAYERS = 100_000
RATED_PREFIX = "bench-rated-"
ENDING_PAIRS = 100
LIMIT = 1.10
"""The ending move with the rating, at most this many times the move without it."""


# --- The season's table ------------------------------------------------------------------------


def rated_accounts() -> Any:
    return User.objects.filter(username__startswith=RATED_PREFIX)


def write_season(players: int, *, seed: int, console: Console) -> int:
    """``players`` accounts rated at Classic this season (kept when already there); how many."""
    season = services.season_of(timezone.now())
    held = SeasonRating.objects.filter(
        user__username__startswith=RATED_PREFIX, kind="classic", season=season
    ).count()
    if held == players:
        console.line(f"Season table: {held:,} rated players kept from an earlier run.")
        return held
    started = time.perf_counter()
    with transaction.atomic():
        SeasonRating.objects.filter(user__in=rated_accounts()).delete()
        Rating.objects.filter(user__in=rated_accounts()).delete()
        rated_accounts().delete()
    rng = random.Random(seed)
    now = timezone.now()
    joined = now - timedelta(days=200)
    password = make_password(None)
    User.objects.bulk_create(
        (
            User(
                username=f"{RATED_PREFIX}{i:06d}",
                display_name=f"Rated {i}",
                email="",
                password=password,
                date_joined=joined,
            )
            for i in range(players)
        ),
        batch_size=5_000,
    )
    ids = list(rated_accounts().order_by("pk").values_list("pk", flat=True))
    beliefs = [(rng.gauss(25, 4), rng.uniform(1.5, 8)) for _ in ids]
    season_writer = tables.TableWriter(
        SeasonRating, ("id", "user_id", "kind", "season", "rating", "sigma", "games", "joined")
    )
    rating_writer = tables.TableWriter(
        Rating, ("id", "user_id", "kind", "mu", "sigma", "rating", "games", "updated_at")
    )
    first = {
        model: (model.objects.aggregate(m=Max("id"))["m"] or 0) + 1
        for model in (SeasonRating, Rating)
    }
    with transaction.atomic():
        season_writer.write(
            (first[SeasonRating] + i, user_id, "classic", season, scale.shown(mu), sigma,
             rng.randint(1, 40), joined.date())
            for i, (user_id, (mu, sigma)) in enumerate(zip(ids, beliefs, strict=True))
        )  # fmt: skip
        rating_writer.write(
            (first[Rating] + i, user_id, "classic", mu, sigma, scale.shown(mu),
             rng.randint(1, 200), now)
            for i, (user_id, (mu, sigma)) in enumerate(zip(ids, beliefs, strict=True))
        )  # fmt: skip
    tables.reset_sequences((SeasonRating, Rating))
    tables.analyze((SeasonRating, Rating))
    console.line(
        f"Season table: {players:,} rated players written in {time.perf_counter() - started:.1f} s"
    )
    return players


def season_page() -> Page:
    """The season's table as a visitor sees it (logged out), gated like the top ten."""
    url = reverse("ratings:season")  # Classic, this season, its first page
    return Page(KEY, f"Season table, {PLAYERS:,} rated", url, Client(HTTP_HOST=allowed_host()),
                gated=True)  # fmt: skip


# --- The ending move -----------------------------------------------------------------------


@dataclass(frozen=True)
class Ending:
    """The last scorings of rated games, with the rating and without it; and the worker's."""

    pairs: int
    with_rating_ms: float
    without_rating_ms: float
    rate_game_ms: float

    @property
    def ratio(self) -> float:
        return self.with_rating_ms / self.without_rating_ms

    def as_json(self) -> dict[str, Any]:
        return {
            "pairs": self.pairs,
            "with_rating_median_ms": round(self.with_rating_ms, 3),
            "without_rating_median_ms": round(self.without_rating_ms, 3),
            "ratio": round(self.ratio, 3),
            "limit": LIMIT,
            "rate_game_median_ms": round(self.rate_game_ms, 3),
        }


def _players() -> tuple[User, User]:
    made = []
    for name in ("a", "b"):
        user, _ = User.objects.update_or_create(
            username=f"bench-rater-{name}",
            defaults={
                "display_name": f"Rater {name.upper()}",
                "email": f"rater-{name}@bench.invalid",
                "email_confirmed": True,
                "trial_games_used": 0,
            },
        )
        made.append(user)
    return made[0], made[1]


def _open_box(match: rules.Match, seat: int) -> rules.Box:
    return next(box for box in rules.CATEGORIES if box not in match.sheets[seat].cards[0])


def _one_score_from_the_end(a: User, b: User) -> Game:
    """A game of ``a`` and ``b`` played through the door (a roll, then the first open box, each
    turn) until ``b`` has rolled for the last box of the game."""
    game = table_services.open_game(owner=a, invites=1)
    table_services.join_game(token=Invitation.objects.get(game=game).token, user=b)
    table_services.begin_game(game_id=game.pk, user=a)
    players = (a, b)
    while True:
        table = store.load(game_id=game.pk, user=a)
        match = table.match()
        seat = match.on_turn
        assert seat is not None
        if match.round == match.kind.rounds and seat == 1 and match.turn.has_rolled:
            return table.game
        action: rules.Action = (
            actions.Score(seat, _open_box(match, seat), 0)
            if match.turn.has_rolled
            else actions.Roll(seat, None)
        )
        with transaction.atomic():  # as a request's view holds it
            play.act(
                game_id=game.pk,
                user=players[seat],
                version=table.game.version,
                choose=lambda *_, action=action: action,
            )


def _copy(template: Game, seats: list[Seat]) -> Game:
    """Another game standing where ``template`` stands (its state, its seats)."""
    game = Game.objects.create(
        owner_id=template.owner_id,
        kind=template.kind,
        status=GameStatus.IN_PROGRESS,
        state=template.state,
        current_seat=template.current_seat,
        round=template.round,
        version=template.version,
    )
    Seat.objects.bulk_create(
        Seat(game=game, position=s.position, user_id=s.user_id, display_name=s.display_name,
             on_turn=s.on_turn)
        for s in seats
    )  # fmt: skip
    return game


def ending(pairs: int, console: Console) -> Ending:
    """Time ``pairs`` last scorings with the rating listening and as many without."""
    a, b = _players()
    template = _one_score_from_the_end(a, b)
    seats = list(template.seats.order_by("position"))
    box = str(_open_box(store.match_of(template), 1))
    client = Client(HTTP_HOST=allowed_host())
    client.force_login(b)
    secure = bool(settings.SECURE_SSL_REDIRECT)
    times: dict[bool, list[float]] = {True: [], False: []}
    rated: list[int] = []
    listener = rating_events.rate_when_over
    try:
        for i in range(pairs * 2):
            rating = (i % 4) in (0, 3)  # ABBA: drift hits both alike
            if rating:
                events.listen(listener)
            else:
                events.unlisten(listener)
            game = _copy(template, seats)
            url = reverse("games:score", kwargs={"game_id": game.pk})
            data = {"version": game.version, "box": box, "confirmed": box}
            started = time.perf_counter()
            response = client.post(url, data, headers={"HX-Request": "true"}, secure=secure)
            times[rating].append(time.perf_counter() - started)
            if response.status_code != 200:
                raise BenchError(f"The last scoring answered {response.status_code}")
            if rating:
                rated.append(game.pk)
    finally:
        events.listen(listener)
    worker = []
    for game_id in rated:
        RatingChange.objects.filter(game_id=game_id).delete()  # a worker may have run it
        started = time.perf_counter()
        services.rate_game(game_id)
        worker.append(time.perf_counter() - started)
    ms = 1000
    result = Ending(
        pairs=pairs,
        with_rating_ms=statistics.median(times[True]) * ms,
        without_rating_ms=statistics.median(times[False]) * ms,
        rate_game_ms=statistics.median(worker) * ms,
    )
    console.line(
        f"The move that ends a rated game: {result.with_rating_ms:.2f} ms median with the rating, "
        f"{result.without_rating_ms:.2f} ms without ({pairs} each): {result.ratio:.3f}x "
        f"(limit {LIMIT:.2f}x); rating it on the worker {result.rate_game_ms:.2f} ms median."
    )
    return result
