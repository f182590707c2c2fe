"""The lobby under spam (issue 19, item 5): thousands of games waiting for players, written
straight into the tables, and the lobby page that lists them, timed with the other pages.

Each run writes them afresh, since seats close ``LOBBY_SEAT_LIFETIME`` after they are offered:
``games`` games opened within that time by bench players, at most ``MAX_WAITING_GAMES`` each,
each offering one to three seats to anyone and a third of them with one taken already; and as
many again opened before it and still waiting, their seats closed (hosts who went away). The
lobby must read neither more than a page: its time is to stay flat in both numbers.
"""

from __future__ import annotations

import random
import time
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

from django.db import connection, transaction
from django.db.models import Max, Model, QuerySet
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from accounts.models import User
from bench import fill, tables
from bench.output import BenchError, Console
from bench.scenarios import Dataset, Page, allowed_host
from games import rules
from games.models import LOBBY_SEAT_LIFETIME, Game, GameStatus, Invitation, PlayerKind, Seat
from games.tables import selectors
from games.tables.waiting import MAX_WAITING_GAMES

KEY = "lobby"
GAMES = 25_000
"""Games waiting with seats open, by default: more than the 23,000 of issue 19's probe."""
OPEN_AT_MOST = 3
TAKEN_SHARE = 1 / 3
CLOSED_AGE = (LOBBY_SEAT_LIFETIME + timedelta(hours=1), timedelta(days=7))
"""How long ago the games whose seats have closed were opened."""
OPEN_AGE = (timedelta(0), LOBBY_SEAT_LIFETIME - timedelta(hours=1))
"""How long ago the listed games were opened: none closes during a run."""
WRITTEN: tuple[type[Model], ...] = (Game, Seat, Invitation)

Row = tuple[Any, ...]


@dataclass(frozen=True)
class Lobby:
    """What the lobby holds for the run."""

    open_games: int
    closed_games: int
    hosts: int
    open_seats: int

    def as_json(self) -> dict[str, int]:
        return {
            "open_games": self.open_games,
            "closed_games": self.closed_games,
            "hosts": self.hosts,
            "open_seats": self.open_seats,
        }


def players_needed(games: int) -> int:
    """Bench players it takes to host ``games`` waiting games, none over the cap."""
    return -(-games // MAX_WAITING_GAMES)


def waiting_games() -> QuerySet[Game]:
    return Game.objects.filter(owner__username__startswith=fill.PREFIX, status=GameStatus.WAITING)


def clear(console: Console) -> None:
    """Delete the bench players' waiting games, with their seats and invitations."""
    started = time.perf_counter()
    ids = waiting_games().values("id")
    dependants = [r.related_model for r in Game._meta.related_objects]
    dependants.sort(key=lambda model: model is Seat)  # invitations point at seats
    with transaction.atomic():
        for model in dependants:
            model._base_manager.filter(game_id__in=ids)._raw_delete(connection.alias)
        Game.objects.filter(id__in=ids)._raw_delete(connection.alias)
    console.line(f"  cleared earlier lobby games in {time.perf_counter() - started:.1f} s")


class LobbyRows:
    """Makes the rows of one waiting game at a time: the game, its seats, its invitations."""

    GAME = ("id", "kind", "status", "owner_id", "current_seat", "round", "version", "created_at",
            "updated_at")  # fmt: skip
    SEAT = ("id", "game_id", "position", "player_kind", "user_id", "display_name", "game_over",
            "used_trial_game")  # fmt: skip
    INVITATION = ("id", "game_id", "token", "open_to_all", "seat_id", "created_at")

    def __init__(self, rng: random.Random, names: dict[int, str]) -> None:
        self.rng, self.names, self.players = rng, names, list(names)
        self.next_id = {
            model: (model._default_manager.aggregate(m=Max("id"))["m"] or 0) + 1
            for model in WRITTEN
        }
        self.open_seats = 0

    def _take_id(self, model: type[Model]) -> int:
        self.next_id[model] += 1
        return self.next_id[model] - 1

    def game(self, host: int, opened: datetime) -> tuple[Row, list[Row], list[Row]]:
        rng = self.rng
        kind = rules.TRIPLE if rng.random() < 0.05 else rules.CLASSIC
        at = connection.ops.adapt_datetimefield_value(opened)
        game_id = self._take_id(Game)
        taken = rng.random() < TAKEN_SHARE
        game = (game_id, kind.key, GameStatus.WAITING, host, 0, 1, int(taken), at, at)
        seated = [host]
        if taken:
            seated.append(rng.choice([p for p in rng.sample(self.players, 2) if p != host]))
        seats = [
            (self._take_id(Seat), game_id, position, PlayerKind.HUMAN, user, self.names[user],
             False, False)
            for position, user in enumerate(seated)
        ]  # fmt: skip
        offered = rng.randint(1, OPEN_AT_MOST)
        self.open_seats += offered
        invitations = []
        for number in range(offered + taken):
            seat_id = seats[1][0] if taken and number == 0 else None
            invitation_id = self._take_id(Invitation)
            token = f"bench-lobby-{invitation_id}-{rng.getrandbits(64):016x}"
            invitations.append((invitation_id, game_id, token, True, seat_id, at))
        return game, seats, invitations


def write(games: int, *, seed: int, console: Console) -> Lobby:
    """Replace the bench players' waiting games by ``games`` listed ones and as many closed."""
    started = time.perf_counter()
    clear(console)
    names = dict(
        User.objects.filter(username__regex=rf"^{fill.PREFIX}[0-9]+$").values_list(
            "id", "display_name"
        )
    )
    hosts_needed = players_needed(games)
    if len(names) < max(2, hosts_needed):
        raise BenchError(
            f"{games:,} lobby games need {hosts_needed:,} bench players (at most "
            f"{MAX_WAITING_GAMES} waiting each); there are {len(names):,}: raise --players."
        )
    rng = random.Random(seed)
    now = timezone.now()
    hosts = sorted(names)[:hosts_needed]
    listed = [host for host in hosts for _ in range(MAX_WAITING_GAMES)][:games]
    rng.shuffle(listed)
    gone = [rng.choice(hosts) for _ in range(games)]

    def ages(span: tuple[timedelta, timedelta]) -> list[timedelta]:
        low, high = span
        return sorted((low + (high - low) * rng.random() for _ in range(games)), reverse=True)

    # Oldest first, so ids follow time as they would.
    opened = [(host, now - age) for host, age in zip(gone, ages(CLOSED_AGE), strict=True)]
    opened += [(host, now - age) for host, age in zip(listed, ages(OPEN_AGE), strict=True)]
    rows = LobbyRows(rng, names)
    writers = [
        tables.TableWriter(Game, LobbyRows.GAME),
        tables.TableWriter(Seat, LobbyRows.SEAT),
        tables.TableWriter(Invitation, LobbyRows.INVITATION),
    ]
    chunk: tuple[list[Row], list[Row], list[Row]] = ([], [], [])
    for host, at in opened:
        game, seats, invitations = rows.game(host, at)
        chunk[0].append(game)
        chunk[1].extend(seats)
        chunk[2].extend(invitations)
    with transaction.atomic():
        for writer, table_rows in zip(writers, chunk, strict=True):
            writer.write(table_rows)
    tables.reset_sequences(WRITTEN)
    tables.analyze((Invitation,))
    lobby = Lobby(
        open_games=games,
        closed_games=games,
        hosts=len(set(listed) | set(gone)),
        open_seats=rows.open_seats,
    )
    console.line(
        f"Lobby: {games:,} games waiting with seats open to anyone and {games:,} whose seats "
        f"have closed, by {lobby.hosts:,} hosts, written in {time.perf_counter() - started:.1f} s"
    )
    return lobby


def page(dataset: Dataset, lobby: Lobby) -> Page:
    """The lobby page, as the typical player sees it (logged in)."""
    viewer = User.objects.get(pk=dataset.typical.id)
    member = Client(HTTP_HOST=allowed_host())
    member.force_login(viewer)  # outside anything timed

    def data() -> object:
        return selectors.lobby(viewer=viewer)

    return Page(
        KEY,
        f"Lobby, {lobby.open_games:,} open",
        reverse("games:lobby"),
        member,
        viewer.pk,
        data=data,
    )
