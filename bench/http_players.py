"""The HTTP scenario's players and their games in the bench database: made by ``prepare`` before
a run (without timing), taken out again by ``clear``, so the page figures never see them.

Two registered ``bench-http-…`` players: a mover, who plays (its games started through
``games.tables.services``, one of them left unchanged for the 304 check), and a dashboard player
with 300 unfinished and 5,000 finished games (the finished ones written as ``bench.fill`` writes
them). A third, the waiter, sits with the mover in online two-player games (invited, joined,
begun through ``games.tables.services``), the mover on turn; and the mover hosts six-seat games,
five guests at one screen.
"""

from __future__ import annotations

import random
import time
from dataclasses import dataclass

from django.db import connection, transaction
from django.db.models import ForeignObjectRel, QuerySet
from django.utils import timezone

from accounts import licensing
from accounts.models import User
from bench import fill, tables
from bench.cards import card_pool
from bench.output import BenchError, Console
from games import rules
from games.models import Game, Invitation, Seat
from games.tables import services

PREFIX = f"{fill.PREFIX}http-"
MOVER = f"{PREFIX}mover"
DASHBOARD_PLAYER = f"{PREFIX}dashboard"
WAITER = f"{PREFIX}waiter"
GUESTS = ("Ann", "Ben", "Cid", "Dot", "Eve")  # five guests at the mover's screen: six seats
SIX_SEAT_GAMES = 6  # per client: 78 turns each, more than a run's client plays
YATZY_GAMES = 32  # per client: 15 turns each, as many turns as the six-seat games give

OPEN_GAMES = 300
FINISHED_GAMES = 5_000
BATCH = "bench-http"


@dataclass(frozen=True)
class Prepared:
    mover: User
    dashboard: User
    games: list[int]  # one game of the mover's per client process, then one to count queries
    unchanged: int  # the mover's game fetched again and again, never changed
    waiter: User | None = None  # seated with the mover in the online games below
    waiting: int = 0  # a two-player online game, the mover on turn, never changed
    follow: tuple[int, ...] = ()  # two-player online games, the mover on turn, A moves in them
    stream_follow: tuple[int, ...] = ()  # as many again, followed by stream
    watched: tuple[int, ...] = ()  # one per watcher count: A moves in them, watched by streams
    six_seats: tuple[tuple[int, ...], ...] = ()  # per client (then one to count queries)
    yatzy: tuple[tuple[int, ...], ...] = ()  # Yatzy games alone, per client


def clear(console: Console | None = None) -> None:
    """Delete the HTTP scenario's players and every game they own (and nothing else)."""
    if delete_players(User.objects.filter(username__startswith=PREFIX)) and console:
        console.line("  cleared the HTTP scenario's players and games")


def delete_players(players: QuerySet[User]) -> bool:
    """Delete ``players`` and every game they own, the games' rows written straight (a cascade
    through Django would load every row); whether there were any."""
    if not players.exists():
        return False
    owned = Game.objects.filter(owner__in=players).values("id")
    dependants = [r.related_model for r in Game._meta.related_objects]
    dependants.sort(key=lambda model: model is Seat)
    # Rows that point at the seats (the trainer's positions and harvests of the games finished).
    of_seats = [
        (f.related_model, f.field.name)
        for f in Seat._meta.get_fields(include_hidden=True)
        if isinstance(f, ForeignObjectRel)
    ]
    with transaction.atomic():
        for model, field in of_seats:
            rows = model._base_manager.filter(**{f"{field}__game_id__in": owned})
            rows._raw_delete(connection.alias)
        for model in dependants:
            model._base_manager.filter(game_id__in=owned)._raw_delete(connection.alias)
        Game.objects.filter(id__in=owned)._raw_delete(connection.alias)
        players.delete()
    return True


def registered_player(username: str, display_name: str) -> User:
    """A new account registered with a serial, as a player would (mint, then redeem)."""
    user = User.objects.create_user(
        username=username, display_name=display_name, email="", password=None
    )
    user.confirm_zero = False  # a zero is scored at once, as the player chose in their options
    user.save(update_fields=["confirm_zero"])
    serial = licensing.mint_serials(count=1, batch_name=BATCH)[0]
    licensing.redeem_serial(user=user, text=serial, client_ip="127.0.0.1")
    return user


def finished_games(user: User, count: int, *, seed: int, console: Console) -> None:
    """``count`` finished games of ``user``'s, with seats and scores, as ``bench.fill`` writes."""
    rng = random.Random(seed)
    now = timezone.now().replace(microsecond=0)
    pools = {
        rules.CLASSIC: card_pool(rng, rules.CLASSIC, 1_000),
        rules.TRIPLE: card_pool(rng, rules.TRIPLE, 200),
    }
    rows = fill.GameRows(rng, now, pools, {user.pk: user.display_name})
    ages = sorted((rng.random() * 30 * 86400 + 86400 for _ in range(count)), reverse=True)
    owners = [user.pk] * count
    fill.insert_games(rows, owners, ages, time.perf_counter(), console)
    tables.reset_sequences(fill.FILLED)


def prepare(
    *, clients: int, seed: int, console: Console, follow_count: int = 1, watched_count: int = 0
) -> Prepared:
    started = time.perf_counter()
    clear()
    mover = registered_player(MOVER, "Bench Mover")
    dashboard = registered_player(DASHBOARD_PLAYER, "Bench Dashboard")
    finished_games(dashboard, FINISHED_GAMES, seed=seed, console=console)
    with transaction.atomic():
        for _ in range(OPEN_GAMES):
            services.start_game(owner=dashboard, kind=rules.CLASSIC.key)
        games = [services.start_game(owner=mover).pk for _ in range(clients + 1)]
        unchanged = services.start_game(owner=mover).pk
    tables.analyze(fill.FILLED)
    # An open game was just left: the dashboard's newest games are open ones, the rest finished.
    open_count = Seat.objects.filter(user=dashboard, game_over=False).count()
    over_count = Seat.objects.filter(user=dashboard, game_over=True).count()
    if (open_count, over_count) != (OPEN_GAMES, FINISHED_GAMES):
        raise BenchError(f"dashboard player has {open_count} open, {over_count} over games")
    console.line(
        f"  players {mover.username} (plays) and {dashboard.username} ({OPEN_GAMES} open, "
        f"{FINISHED_GAMES:,} finished games) ready in {time.perf_counter() - started:.1f} s"
    )
    waiter = registered_player(WAITER, "Bench Waiter")
    with transaction.atomic():
        waiting = two_player_game(mover, waiter)
        follow = tuple(two_player_game(mover, waiter) for _ in range(follow_count))
        by_stream = tuple(two_player_game(mover, waiter) for _ in range(follow_count))
        watched = tuple(two_player_game(mover, waiter) for _ in range(watched_count))
        six_seats = tuple(
            tuple(
                services.start_game(owner=mover, guests=list(GUESTS)).pk
                for _ in range(SIX_SEAT_GAMES)
            )
            for _ in range(clients + 1)
        )
        yatzy = tuple(
            tuple(
                services.start_game(owner=mover, kind=rules.YATZY.key).pk
                for _ in range(YATZY_GAMES)
            )
            for _ in range(clients)
        )
    console.line(
        f"  {WAITER} waits in a two-player game; {follow_count} more to follow moves in; "
        f"{SIX_SEAT_GAMES} six-seat games and {YATZY_GAMES} Yatzy games per client"
    )
    return Prepared(
        mover=mover,
        dashboard=dashboard,
        games=games,
        unchanged=unchanged,
        waiter=waiter,
        waiting=waiting,
        follow=follow,
        stream_follow=by_stream if watched_count else (),
        watched=watched,
        six_seats=six_seats,
        yatzy=yatzy,
    )


def two_player_game(host: User, guest: User) -> int:
    """An online game as friends start one: the host invites, the guest follows the link, the
    host begins; the host is on turn."""
    game = services.open_game(owner=host, invites=1)
    token = Invitation.objects.get(game=game).token
    services.join_game(token=token, user=guest)
    seated = services.begin_game(game_id=game.pk, user=host)
    if len(seated.seats) != 2 or seated.match().on_turn != seated.position_of(host):
        raise BenchError(f"game {game.pk}: the host is not on turn in a two-player game")
    return game.pk
