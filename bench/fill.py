"""The bench's data set: ``bench-…`` accounts and their finished games, one seat and one score each
(about 1% also seat the computer), spread over the last year, written straight into the tables.

Only bench accounts and their games are ever deleted; a database holding other accounts is
refused unless forced.
"""

from __future__ import annotations

import json
import random
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from typing import Any

from django.contrib.auth.hashers import make_password
from django.db import connection, transaction
from django.db.models import Max, Model, QuerySet
from django.db.models.fields.reverse_related import ForeignObjectRel
from django.utils import timezone

from accounts.models import User
from bench import tables
from bench.cards import FinishedCard, card_pool
from bench.output import BenchError, Console
from games import rules
from games.models import Game, GameStatus, PlayerKind, Score, Seat
from games.rules import codec

PREFIX = "bench-"
DAYS = 365
CHUNK = 25_000  # games per transaction
TRIPLE_SHARE = 0.05
COMPUTER_SHARE = 0.01  # games that also seat the computer (a second seat and score)
COMPUTER_NAME = "Computer"
FILLED: tuple[type[Model], ...] = (Game, Seat, Score)
"""The tables the fill writes by hand (and whose indexes it drops and builds)."""

FIRST_NAMES = (
    "Ada", "Alan", "Anna", "Ben", "Bea", "Carl", "Cleo", "Dan", "Dora", "Eli", "Emma", "Finn",
    "Gus", "Hana", "Ian", "Ida", "Jack", "Jo", "Kai", "Kim", "Leo", "Lena", "Max", "Mia", "Ned",
    "Nora", "Otto", "Ola", "Paul", "Pia", "Quin", "Rosa", "Sam", "Sara", "Tom", "Tess", "Uma",
    "Val", "Walt", "Zoe",
)  # fmt: skip
SURNAMES = (
    "Abbott", "Baker", "Clark", "Dunn", "Ellis", "Fox", "Grant", "Hale", "Irwin", "Jones", "Kerr",
    "Lowe", "Moss", "Nash", "Owen", "Page", "Quill", "Reed", "Shaw", "Todd", "Upton", "Vance",
    "Ward", "Young", "Zane",
)  # fmt: skip


def bench_accounts() -> QuerySet[User]:
    return User.objects.filter(username__startswith=PREFIX)


def check_safe(*, force: bool) -> None:
    """Refuse a database that looks real (it holds accounts the bench did not make)."""
    others = User.objects.exclude(username__startswith=PREFIX).count()
    if others and not force:
        raise BenchError(
            f"{connection.settings_dict['NAME']} holds {others} account(s) that are not "
            f"{PREFIX}… ones: this looks like a real database. Point SQLITE_PATH or "
            "DATABASE_URL at a bench database, or pass --force."
        )


def games_per_player(rng: random.Random, players: int, games: int) -> list[int]:
    """A skewed share of ``games`` per player (log-normal: most near the median, a few with
    thousands), at least one each, summing to ``games`` exactly."""
    weights = [rng.lognormvariate(0, 1.1) for _ in range(players)]
    total = sum(weights)
    spare = games - players
    raw = [w / total * spare for w in weights]
    counts = [1 + int(x) for x in raw]
    short = games - sum(counts)
    by_fraction = sorted(range(players), key=lambda i: raw[i] - int(raw[i]), reverse=True)
    for i in by_fraction[:short]:
        counts[i] += 1
    return counts


def fill(*, games: int, players: int, seed: int, console: Console) -> float:
    """Replace any bench data by ``players`` accounts and ``games`` finished games; the seconds
    it took."""
    console.line(f"Filling: {players:,} players, {games:,} finished games ...")
    started = time.perf_counter()
    if bench_accounts().exists():
        clear(console)
    rng = random.Random(seed)
    now = timezone.now().replace(microsecond=0)
    if connection.vendor == "sqlite":
        with connection.cursor() as cursor:
            cursor.execute("PRAGMA cache_size = -1000000")  # 1 GB while filling

    user_ids = create_users(rng, players, now)
    counts = games_per_player(rng, players, games)
    owners = [user_ids[i] for i, n in enumerate(counts) for _ in range(n)]
    rng.shuffle(owners)
    # Finished times uniform over the last year, oldest first, so ids follow time.
    ages = sorted((rng.random() * DAYS * 86400 for _ in range(games)), reverse=True)
    pools = {
        rules.CLASSIC: card_pool(rng, rules.CLASSIC, min(100_000, max(1_000, games // 10))),
        rules.TRIPLE: card_pool(rng, rules.TRIPLE, min(20_000, max(200, games // 50))),
    }
    rows = GameRows(rng, now, pools, dict(bench_accounts().values_list("id", "display_name")))
    console.line(f"  players and cards ready in {time.perf_counter() - started:.1f} s")

    dropped = tables.drop_indexes(FILLED)
    try:
        insert_games(rows, owners, ages, started, console)
    finally:
        if dropped:
            tables.restore_indexes(FILLED, console)
    tables.reset_sequences(FILLED)
    inserted = time.perf_counter()
    tables.analyze((User, *FILLED))
    console.line(f"  statistics gathered in {time.perf_counter() - inserted:.1f} s")
    seconds = time.perf_counter() - started
    console.line(f"Filled in {seconds:.1f} s.")
    if not connection.in_atomic_block:
        connection.close()  # measure on a fresh connection, without the fill's settings
    return seconds


def clear(console: Console) -> None:
    """Delete the bench accounts and their games (and only theirs)."""
    started = time.perf_counter()
    # Rows that point at a game or a seat (moves, scores, shared cards) first, then seats, then
    # games: each with the field that points, for the raw deletes below.
    pointing = [*_pointing_at(Seat), *_pointing_at(Game)]
    pointing.sort(key=lambda found: found[0] is Seat)
    dependants = list(dict.fromkeys(model for model, _ in pointing))
    only_bench = not User.objects.exclude(username__startswith=PREFIX).exists()
    qn = connection.ops.quote_name
    with transaction.atomic():
        if only_bench:
            # Every game belongs to a bench account: empty the tables in one go.
            emptied: list[type[Model]] = [*dependants, Game]
            names = [m._meta.db_table for m in emptied]
            with connection.cursor() as cursor:
                if connection.vendor == "postgresql":
                    cursor.execute(f"TRUNCATE {', '.join(qn(t) for t in names)}")
                else:
                    for name in names:
                        cursor.execute(f"DELETE FROM {qn(name)}")
        else:
            bench_games = Game.objects.filter(owner__username__startswith=PREFIX).values("id")
            bench_seats = Seat.objects.filter(game_id__in=bench_games).values("id")
            # Raw deletes: no signals and no cascade walk over a million rows (dependants first).
            for model, field in pointing:
                within = bench_seats if field == "seat" else bench_games
                rows = model._base_manager.filter(**{f"{field}_id__in": within})
                rows._raw_delete(connection.alias)
            Game.objects.filter(id__in=bench_games)._raw_delete(connection.alias)
        bench_accounts().delete()
    console.line(f"  cleared earlier bench data in {time.perf_counter() - started:.1f} s")


def _pointing_at(model: type[Model]) -> list[tuple[type[Model], str]]:
    """Every model with a foreign key to ``model`` (those without a reverse name too), and the
    key's name."""
    return [
        (relation.related_model, relation.field.name)
        for relation in model._meta.get_fields(include_hidden=True)
        if isinstance(relation, ForeignObjectRel)
        and relation.related_model is not None
        and relation.related_model is not Game  # a rematch: games go last, all at once
    ]


def create_users(rng: random.Random, players: int, now: datetime) -> list[int]:
    """``players`` bench accounts with made-up names and no usable password; their ids."""
    width = max(4, len(str(players)))
    taken: set[str] = set()
    users = []
    for i in range(1, players + 1):
        name = f"{rng.choice(FIRST_NAMES)} {rng.choice(SURNAMES)}"
        if name in taken:
            name = f"{name} {i}"
        taken.add(name)
        users.append(
            User(
                username=f"{PREFIX}{i:0{width}d}",
                display_name=name[:30],
                email="",
                # An unusable password, as set_unusable_password would: nothing hashed.
                password=make_password(None),
                date_joined=now - timedelta(days=DAYS + rng.random() * DAYS),
            )
        )
    with transaction.atomic():
        User.objects.bulk_create(users, batch_size=2_000)
    ids = dict(bench_accounts().values_list("username", "id"))
    return [ids[user.username] for user in users]


Row = tuple[Any, ...]


@dataclass
class GameRows:
    """Makes the rows of one finished game at a time: the game, its seats and their scores."""

    rng: random.Random
    now: datetime
    pools: dict[rules.GameKind, list[FinishedCard]]
    display_names: dict[int, str]
    next_id: dict[type[Model], int] = field(init=False)

    # The columns of each row, in order (the tables' other columns get their defaults).
    GAME = ("id", "kind", "status", "owner_id", "current_seat", "round", "state", "version",
            "created_at", "updated_at", "finished_at")  # fmt: skip
    SEAT = ("id", "game_id", "position", "player_kind", "user_id", "display_name", "grand_total",
            "game_over", "used_trial_game")  # fmt: skip
    SCORE = ("id", "seat_id", "game_id", "kind", "player_kind", "user_id", "display_name",
             "grand_total", "upper_bonuses", "yahtzees", "yahtzee_bonuses",
             "finished_at")  # fmt: skip

    def __post_init__(self) -> None:
        self.next_id = {
            model: (model._default_manager.aggregate(m=Max("id"))["m"] or 0) + 1 for model in FILLED
        }

    def _take_id(self, model: type[Model]) -> int:
        self.next_id[model] += 1
        return self.next_id[model] - 1

    def game(self, owner_id: int, age_seconds: float) -> tuple[Row, list[Row], list[Row]]:
        rng = self.rng
        kind = rules.TRIPLE if rng.random() < TRIPLE_SHARE else rules.CLASSIC
        adapt = connection.ops.adapt_datetimefield_value
        finished_dt = self.now - timedelta(seconds=age_seconds)
        minutes = rng.uniform(6, 15) * kind.columns
        finished_at = adapt(finished_dt)
        created_at = adapt(finished_dt - timedelta(minutes=minutes))
        game_id = self._take_id(Game)
        seats: list[tuple[PlayerKind, int | None, str]] = [
            (PlayerKind.HUMAN, owner_id, self.display_names[owner_id])
        ]
        if rng.random() < COMPUTER_SHARE:
            seats.append((PlayerKind.COMPUTER, None, COMPUTER_NAME))
        seat_rows, score_rows = [], []
        # One card gives the seat, its score and the game's state the same numbers, as a game's
        # end would.
        cards = [rng.choice(self.pools[kind]) for _ in seats]
        for position, (player_kind, user_id, name) in enumerate(seats):
            card = cards[position]
            seat_id = self._take_id(Seat)
            seat_rows.append(
                (seat_id, game_id, position, player_kind, user_id, name, card.grand_total, True,
                 False)
            )  # fmt: skip
            score_rows.append(
                (self._take_id(Score), seat_id, game_id, kind.key, player_kind, user_id, name,
                 card.grand_total, card.upper_bonuses, card.yahtzees, card.yahtzee_bonuses,
                 finished_at)
            )  # fmt: skip
        ended = rules.Match(
            kind=kind,
            sheets=tuple(card.sheet for card in cards),
            states=(rules.SeatState.PLAYING,) * len(seats),
            host=0,
            phase=rules.MatchPhase.FINISHED,
            first=0,
            current=None,
            first_rolls=(None,) * len(seats),
            players=(0, None)[: len(seats)],
        )
        state = json.dumps(codec.to_state(ended), separators=(",", ":"))
        game_row = (game_id, kind.key, GameStatus.FINISHED, owner_id, 0, kind.rounds, state,
                    kind.rounds * 3, created_at, finished_at, finished_at)  # fmt: skip
        return game_row, seat_rows, score_rows


def insert_games(
    rows: GameRows, owners: Sequence[int], ages: Sequence[float], started: float, console: Console
) -> None:
    """Write one game per owner (a user id) and age, a transaction per ``CHUNK`` games."""
    writers = (
        tables.TableWriter(Game, GameRows.GAME),
        tables.TableWriter(Seat, GameRows.SEAT),
        tables.TableWriter(Score, GameRows.SCORE),
    )
    games = len(owners)
    last_report = time.perf_counter()
    for start in range(0, games, CHUNK):
        chunk: tuple[list[Row], list[Row], list[Row]] = ([], [], [])
        for g in range(start, min(start + CHUNK, games)):
            game_row, seat_rows, score_rows = rows.game(owners[g], ages[g])
            chunk[0].append(game_row)
            chunk[1].extend(seat_rows)
            chunk[2].extend(score_rows)
        with transaction.atomic():
            for writer, table_rows in zip(writers, chunk, strict=True):
                writer.write(table_rows)
        done = start + len(chunk[0])
        if time.perf_counter() - last_report > 10 or done == games:
            last_report = time.perf_counter()
            elapsed = last_report - started
            console.line(f"  {done:>10,} games  {elapsed:6.1f} s  ({done / elapsed:,.0f}/s)")
