"""`manage.py bench`: a million finished games, then the high-score and statistics pages timed.

Fills the database (unless it already holds enough) with ``--players`` bench accounts and
``--games`` finished games, one seat and one score each (about 1% also seat the computer), spread
over the last 365 days. Then it requests, in this process through ``django.test.Client`` (the
whole middleware, view and template path, no network), the trivial page (the front page: the
site's layout, no query; /healthz is timed too, as the floor of any request) and the pages under
test, round robin so drift hits them all alike, and reports per page the median and p95 server time,
the ratio of the median to the trivial page's and the queries. The results also go to
``var/bench-<vendor>.json``. It exits non-zero when the anonymous top-ten page (all time, 30 or
7 days) costs more than ``MAX_QUERIES`` queries or more than ``MAX_RATIO`` times the trivial page.

Rows are written straight to the tables named by the models' ``_meta`` (COPY on PostgreSQL,
``executemany`` elsewhere), into empty tables without the models' own indexes, which are built
once at the end; a million games take a minute or two. It refuses to touch a database holding
accounts other than ``bench-…`` ones unless ``--force``.
"""

from __future__ import annotations

import json
import math
import random
import re
import statistics
import time
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from pathlib import Path
from typing import Any

import django
from django.conf import settings
from django.contrib.auth.hashers import make_password
from django.core.management.base import BaseCommand, CommandError, CommandParser
from django.core.management.color import no_style
from django.db import connection, transaction
from django.db.models import Count, Max, Model
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from accounts.models import User
from games import rules, selectors
from games.models import Game, GameStatus, HighScorePeriod, PlayerKind, Score, Seat

PREFIX = "bench-"
MAX_QUERIES = 3
MAX_RATIO = 2.0
CHUNK = 25_000  # games per transaction
DAYS = 365
TYPICAL_GAMES = 100
TRIPLE_SHARE = 0.05
COMPUTER_SHARE = 0.01  # games that also seat the computer (a second seat and score)

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


# --- Plausible score cards -----------------------------------------------------------------

# How many dice of its face an upper box holds, in percent (mean about 3: bonus about 45%).
UPPER_COUNTS = [0] * 3 + [1] * 7 + [2] * 20 + [3] * 40 + [4] * 22 + [5] * 8


def random_column(rng: random.Random) -> dict[str, int]:
    """One column of a finished card: every box filled with points a game could give."""
    r = rng.random
    card = {box: face * UPPER_COUNTS[int(r() * 100)] for box, face in rules.FACE_OF.items()}
    card["three_of_a_kind"] = 0 if r() < 0.08 else rng.randint(12, 28)
    card["four_of_a_kind"] = 0 if r() < 0.35 else rng.randint(10, 29)
    card["full_house"] = 25 if r() < 0.88 else 0
    card["small_straight"] = 30 if r() < 0.85 else 0
    card["large_straight"] = 40 if r() < 0.65 else 0
    card["yahtzee"] = rules.YAHTZEE_POINTS if r() < 0.32 else 0
    card["chance"] = rng.randint(15, 28)
    return card


@dataclass(frozen=True)
class Sheet:
    """A finished card, ready to store: its JSON, totals and counts."""

    cards_json: str
    grand_total: int
    upper_bonuses: int
    yahtzee_boxes: int


def sheet_pool(rng: random.Random, kind: rules.GameKind, size: int) -> list[Sheet]:
    pool = []
    for _ in range(size):
        cards = [random_column(rng) for _ in range(kind.columns)]
        totals = rules.game_totals(kind, cards)
        pool.append(
            Sheet(
                cards_json=json.dumps(cards, separators=(",", ":")),
                grand_total=totals["grand_total"],
                upper_bonuses=sum(1 for col in totals["columns"] if col["upper_bonus"]),
                yahtzee_boxes=sum(1 for c in cards if c["yahtzee"] == rules.YAHTZEE_POINTS),
            )
        )
    return pool


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


# --- Writing rows fast, to the tables and columns the models name -------------------------


class TableWriter:
    """Inserts tuples of the given attributes (in order) into a model's table.

    Every other concrete column gets its field default, computed once; a schema change that
    adds a required column without a default, or drops one of ``attnames``, fails loudly here.
    """

    def __init__(self, model: type[Model], attnames: Sequence[str]) -> None:
        fields = {
            f.attname: f for f in model._meta.concrete_fields if not getattr(f, "generated", False)
        }
        unknown = [name for name in attnames if name not in fields]
        if unknown:
            raise CommandError(f"{model.__name__} has no column for {unknown}: update bench.py")
        tail_fields = []
        for name, f in fields.items():
            if name in attnames:
                continue
            if f.has_default() or f.null:
                tail_fields.append(f)
            elif f.has_db_default():
                continue  # the database fills it
            elif f.empty_strings_allowed:
                tail_fields.append(f)  # CharField and friends default to ""
            else:
                raise CommandError(
                    f"{model.__name__}.{name} is required and has no default: update bench.py"
                )
        self.table = model._meta.db_table
        self.columns = [fields[name].column for name in attnames] + [f.column for f in tail_fields]
        self.tail = tuple(f.get_db_prep_save(f.get_default(), connection) for f in tail_fields)

    def write(self, rows: Iterable[tuple[Any, ...]]) -> None:
        qn = connection.ops.quote_name
        tail = self.tail
        columns = ", ".join(qn(c) for c in self.columns)
        with connection.cursor() as cursor:
            if connection.vendor == "postgresql":
                raw = cursor.cursor  # the psycopg cursor under Django's wrapper
                with raw.copy(f"COPY {qn(self.table)} ({columns}) FROM STDIN") as copy:
                    for row in rows:
                        copy.write_row(row + tail)
            else:
                marks = ", ".join(["%s"] * len(self.columns))
                cursor.executemany(
                    f"INSERT INTO {qn(self.table)} ({columns}) VALUES ({marks})",
                    [row + tail for row in rows],
                )


# --- Measuring -----------------------------------------------------------------------------


@dataclass
class Page:
    key: str
    title: str
    url: str
    client: Client
    viewer_id: int | None = None
    gated: bool = False  # held to MAX_QUERIES and MAX_RATIO
    # The page's reads alone (the selector it calls), timed apart to split data from rendering.
    data: Callable[[], object] | None = None
    data_times: list[float] = field(default_factory=list)
    times: list[float] = field(default_factory=list)
    query_counts: list[int] = field(default_factory=list)
    page_query_counts: list[int] = field(default_factory=list)
    sql: list[str] = field(default_factory=list)
    # Every distinct query the page made (less auth lookups), by shape: a cached page may
    # make different queries on a miss and on a hit.
    page_sql: dict[str, str] = field(default_factory=dict)
    body: str = ""
    plans: list[dict[str, Any]] = field(default_factory=list)

    def median_ms(self) -> float:
        return statistics.median(self.times) * 1000

    def p95_ms(self) -> float:
        ordered = sorted(self.times)
        return ordered[max(0, math.ceil(0.95 * len(ordered)) - 1)] * 1000

    def data_ms(self) -> float | None:
        return statistics.median(self.data_times) * 1000 if self.data_times else None


def _quoted(table: str, column: str | None = None) -> str:
    qn = connection.ops.quote_name
    return f"{qn(table)}.{qn(column)}" if column else qn(table)


def is_auth_query(sql: str) -> bool:
    """A lookup every logged-in request makes: its session, or its user's whole row."""
    from django.contrib.sessions.models import Session

    if f"FROM {_quoted(Session._meta.db_table)}" in sql:
        return True
    password = _quoted(User._meta.db_table, User._meta.get_field("password").column)
    return sql.lstrip().upper().startswith("SELECT") and password in sql


def shape(sql: str) -> str:
    """A query with its literals taken out, to tell distinct queries apart."""
    return re.sub(r"\b\d+\b", "?", re.sub(r"'(?:[^']|'')*'", "?", sql))


def _fmt_counts(counts: list[int]) -> str:
    low, high = min(counts), max(counts)
    return str(low) if low == high else f"{low}-{high}"


def allowed_host() -> str:
    """A Host header the site accepts."""
    hosts = settings.ALLOWED_HOSTS
    if not hosts or "localhost" in hosts or "*" in hosts:
        return "localhost"
    if "testserver" in hosts:
        return "testserver"
    return next((h for h in hosts if not h.startswith(".")), hosts[0].lstrip("."))


def explain(sql: str) -> list[str]:
    """The plan of one captured query (with its parameters inlined, as captured)."""
    if connection.vendor == "postgresql":
        prefix = "EXPLAIN (ANALYZE, BUFFERS) "
    elif connection.vendor == "sqlite":
        prefix = "EXPLAIN QUERY PLAN "
    else:
        prefix = "EXPLAIN "
    try:
        with transaction.atomic(), connection.cursor() as cursor:
            cursor.execute(prefix + sql.replace("%", "%%"))
            rows = cursor.fetchall()
    except Exception as exc:  # a plan is a bonus; never let it sink the run
        return [f"(no plan: {exc})"]
    if connection.vendor == "sqlite":
        return [f"{row[1]}|{row[3]}" for row in rows]  # parent | detail
    return [" ".join(str(v) for v in row) for row in rows]


class Command(BaseCommand):
    help = (
        "Fill the database with bench players and finished games (unless it holds enough), "
        "then time the high-score and statistics pages against /healthz."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--games", type=int, default=1_000_000)
        parser.add_argument("--players", type=int, default=10_000)
        parser.add_argument("--requests", type=int, default=300, help="timed requests per page")
        parser.add_argument("--warmup", type=int, default=None, help="untimed rounds first")
        parser.add_argument("--refill", action="store_true", help="delete bench data, fill anew")
        parser.add_argument(
            "--force", action="store_true", help="run on a database with non-bench accounts"
        )
        parser.add_argument("--seed", type=int, default=2026)
        parser.add_argument("--json", dest="json_path", default=None, help="results file")
        parser.add_argument("--explain", action="store_true", help="print the query plans")
        parser.add_argument(
            "--no-fail",
            action="store_true",
            help="report a page over its limits but exit 0 all the same",
        )

    # --- entry ---------------------------------------------------------------------------

    def handle(self, *args: Any, **opts: Any) -> None:
        if opts["games"] < opts["players"] or opts["players"] < 1:
            raise CommandError("--games must be at least --players, and --players at least 1.")
        self.check_safe(force=opts["force"])
        self.describe_setup()

        fill_seconds = None
        self.restore_indexes()  # never measure without an index the models declare
        held = Score.objects.count()
        if opts["refill"] or held < opts["games"]:
            fill_seconds = self.fill(
                games=opts["games"], players=opts["players"], seed=opts["seed"]
            )
        else:
            self.line(f"Fill skipped: the database holds {held:,} scores (--refill to redo).")
        dataset = self.describe_data()

        pages = self.pages(dataset)
        warmup = opts["warmup"] if opts["warmup"] is not None else max(5, opts["requests"] // 10)
        self.measure(pages, requests=opts["requests"], warmup=warmup)
        for page in pages:
            page.plans = [{"sql": sql, "plan": explain(sql)} for sql in page.page_sql.values()]

        failures = self.over_limits(pages)
        results = self.results(pages, dataset, fill_seconds, opts, failures)
        self.print_table(pages, results)
        if opts["explain"]:
            self.print_plans(pages)
        path = Path(opts["json_path"] or self.default_json_path())
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(json.dumps(results, indent=2, default=str) + "\n")
        self.line(f"Results written to {path}")
        if failures:
            for failure in failures:
                self.stderr.write(f"FAIL: {failure}")
            if not opts["no_fail"]:
                raise CommandError("the top-ten page is over its limits (see above)")
        else:
            self.line(
                self.style.SUCCESS(
                    f"OK: the anonymous top-ten page costs at most {MAX_QUERIES} queries and "
                    f"stays within {MAX_RATIO:g}x the trivial page."
                )
            )

    def line(self, text: str = "") -> None:
        self.stdout.write(text)
        self.stdout.flush()

    def default_json_path(self) -> Path:
        var = Path(getattr(settings, "VAR_DIR", Path(settings.BASE_DIR) / "var"))
        return var / f"bench-{connection.vendor}.json"

    def check_safe(self, *, force: bool) -> None:
        others = User.objects.exclude(username__startswith=PREFIX).count()
        if others and not force:
            raise CommandError(
                f"{connection.settings_dict['NAME']} holds {others} account(s) that are not "
                f"{PREFIX}… ones: this looks like a real database. Point SQLITE_PATH or "
                "DATABASE_URL at a bench database, or pass --force."
            )

    def describe_setup(self) -> None:
        name = connection.settings_dict["NAME"]
        self.line(
            f"Database: {connection.vendor} {name} · Django {django.get_version()} · "
            f"DEBUG={settings.DEBUG}"
        )
        if settings.DEBUG:
            self.line(self.style.WARNING("DEBUG is on: timings are not representative."))

    # --- fill ------------------------------------------------------------------------------

    def clear(self) -> None:
        """Delete the bench accounts and their games (and only theirs)."""
        started = time.perf_counter()
        # Rows that point at a game or a seat (moves, scores) first, then seats, then games.
        dependants = [r.related_model for r in Game._meta.related_objects]
        dependants.sort(key=lambda model: model is Seat)
        only_bench = not User.objects.exclude(username__startswith=PREFIX).exists()
        with transaction.atomic():
            if only_bench:
                # Every game belongs to a bench account: empty the tables in one go.
                tables = [m._meta.db_table for m in (*dependants, Game)]
                with connection.cursor() as cursor:
                    if connection.vendor == "postgresql":
                        qn = connection.ops.quote_name
                        cursor.execute(f"TRUNCATE {', '.join(qn(t) for t in tables)}")
                    else:
                        for table in tables:
                            cursor.execute(f"DELETE FROM {connection.ops.quote_name(table)}")
            else:
                bench_games = Game.objects.filter(owner__username__startswith=PREFIX).values("id")
                for model in dependants:
                    rows = model._base_manager.filter(game_id__in=bench_games)
                    rows._raw_delete(connection.alias)
                Game.objects.filter(id__in=bench_games)._raw_delete(connection.alias)
            User.objects.filter(username__startswith=PREFIX).delete()
        self.line(f"  cleared earlier bench data in {time.perf_counter() - started:.1f} s")

    def fill(self, *, games: int, players: int, seed: int) -> float:
        self.line(f"Filling: {players:,} players, {games:,} finished games ...")
        started = time.perf_counter()
        if User.objects.filter(username__startswith=PREFIX).exists():
            self.clear()
        rng = random.Random(seed)
        now = timezone.now().replace(microsecond=0)
        if connection.vendor == "sqlite":
            with connection.cursor() as cursor:
                cursor.execute("PRAGMA cache_size = -1000000")  # 1 GB while filling

        user_ids = self.create_users(rng, players, now)
        counts = games_per_player(rng, players, games)
        owners = [i for i, n in enumerate(counts) for _ in range(n)]
        rng.shuffle(owners)
        # Finished times uniform over the last year, oldest first, so ids follow time.
        ages = sorted((rng.random() * DAYS * 86400 for _ in range(games)), reverse=True)
        classic = sheet_pool(rng, rules.CLASSIC, min(100_000, max(1_000, games // 10)))
        triple = sheet_pool(rng, rules.TRIPLE, min(20_000, max(200, games // 50)))
        display = dict(
            User.objects.filter(username__startswith=PREFIX).values_list("id", "display_name")
        )
        self.line(f"  players and cards ready in {time.perf_counter() - started:.1f} s")

        dropped = self.drop_indexes()
        try:
            self.insert_games(rng, now, user_ids, owners, ages, classic, triple, display, started)
        finally:
            if dropped:
                self.restore_indexes()
        with connection.cursor() as cursor:
            for sql in connection.ops.sequence_reset_sql(no_style(), [Game, Seat, Score]):
                cursor.execute(sql)
        inserted = time.perf_counter()
        self.analyze()
        self.line(f"  statistics gathered in {time.perf_counter() - inserted:.1f} s")
        seconds = time.perf_counter() - started
        self.line(f"Filled in {seconds:.1f} s.")
        if not connection.in_atomic_block:
            connection.close()  # measure on a fresh connection, without the fill's settings
        return seconds

    def insert_games(
        self,
        rng: random.Random,
        now: datetime,
        user_ids: list[int],
        owners: list[int],
        ages: list[float],
        classic: list[Sheet],
        triple: list[Sheet],
        display: dict[int, str],
        started: float,
    ) -> None:
        games = len(owners)
        game_w = TableWriter(
            Game,
            ["id", "kind", "status", "owner_id", "current_seat", "round", "dice", "held",
             "rolls_used", "version", "created_at", "updated_at", "finished_at"],
        )  # fmt: skip
        seat_w = TableWriter(
            Seat,
            ["id", "game_id", "position", "player_kind", "user_id", "display_name", "cards",
             "yahtzee_bonuses", "yahtzees", "grand_total"],
        )  # fmt: skip
        score_w = TableWriter(
            Score,
            ["id", "seat_id", "game_id", "kind", "player_kind", "user_id", "display_name",
             "grand_total", "upper_bonuses", "yahtzees", "yahtzee_bonuses", "finished_at"],
        )  # fmt: skip
        next_id = {
            model: (model.objects.aggregate(m=Max("id"))["m"] or 0) + 1
            for model in (Game, Seat, Score)
        }
        adapt = connection.ops.adapt_datetimefield_value
        empty = json.dumps([])
        finished = GameStatus.FINISHED
        computer_name = "Computer"
        last_report = time.perf_counter()

        for start in range(0, games, CHUNK):
            game_rows, seat_rows, score_rows = [], [], []
            for g in range(start, min(start + CHUNK, games)):
                user_id = user_ids[owners[g]]
                is_triple = rng.random() < TRIPLE_SHARE
                kind = rules.TRIPLE.key if is_triple else rules.CLASSIC.key
                rules_kind = rules.TRIPLE if is_triple else rules.CLASSIC
                finished_dt = now - timedelta(seconds=ages[g])
                minutes = rng.uniform(6, 15) * rules_kind.columns
                finished_at = adapt(finished_dt)
                created_at = adapt(finished_dt - timedelta(minutes=minutes))
                game_id = next_id[Game]
                next_id[Game] += 1
                game_rows.append(
                    (game_id, kind, finished, user_id, 0, rules_kind.rounds, empty, empty, 0,
                     rules_kind.rounds * 3, created_at, finished_at, finished_at)
                )  # fmt: skip
                seats = [(PlayerKind.HUMAN, user_id, display[user_id])]
                if rng.random() < COMPUTER_SHARE:
                    seats.append((PlayerKind.COMPUTER, None, computer_name))
                for position, (seat_kind, seat_user, name) in enumerate(seats):
                    sheet = rng.choice(triple if is_triple else classic)
                    bonuses = 0
                    if not is_triple and sheet.yahtzee_boxes:
                        r = rng.random()
                        bonuses = 2 if r < 0.02 else 1 if r < 0.12 else 0
                    total = sheet.grand_total + bonuses * rules.YAHTZEE_BONUS
                    seat_id = next_id[Seat]
                    next_id[Seat] += 1
                    seat_rows.append(
                        (seat_id, game_id, position, seat_kind, seat_user, name,
                         sheet.cards_json, bonuses, sheet.yahtzee_boxes + bonuses, total)
                    )  # fmt: skip
                    score_rows.append(
                        (next_id[Score], seat_id, game_id, kind, seat_kind, seat_user, name,
                         total, sheet.upper_bonuses, sheet.yahtzee_boxes + bonuses, bonuses,
                         finished_at)
                    )  # fmt: skip
                    next_id[Score] += 1
            with transaction.atomic():
                game_w.write(game_rows)
                seat_w.write(seat_rows)
                score_w.write(score_rows)
            done = start + len(game_rows)
            if time.perf_counter() - last_report > 10 or done == games:
                last_report = time.perf_counter()
                elapsed = last_report - started
                self.line(f"  {done:>10,} games  {elapsed:6.1f} s  ({done / elapsed:,.0f}/s)")

    # A million rows go in about twice as fast without the models' own indexes (the ranking,
    # recent and per-player ones) kept up row by row; they are built once at the end instead.
    # Only into empty tables, and never inside a transaction (as in the tests).

    def drop_indexes(self) -> bool:
        if connection.in_atomic_block or any(m.objects.exists() for m in (Game, Seat, Score)):
            return False
        present = self.present_indexes()
        with connection.schema_editor() as editor:
            for model, index in self.model_indexes():
                if index.name in present[model]:
                    editor.remove_index(model, index)
        return True

    def restore_indexes(self) -> None:
        """Build any of these models' own indexes that is missing (as after drop_indexes, or
        after a fill killed midway)."""
        if connection.in_atomic_block:
            return
        started = time.perf_counter()
        present = self.present_indexes()
        missing = [(m, index) for m, index in self.model_indexes() if index.name not in present[m]]
        if not missing:
            return
        with connection.cursor() as cursor:
            if connection.vendor == "postgresql":
                cursor.execute("SET maintenance_work_mem = '256MB'")
        with connection.schema_editor() as editor:
            for model, index in missing:
                editor.add_index(model, index)
        names = ", ".join(index.name for _, index in missing)
        self.line(f"  built indexes {names} in {time.perf_counter() - started:.1f} s")

    @staticmethod
    def model_indexes() -> list[tuple[type[Model], Any]]:
        return [(model, index) for model in (Game, Seat, Score) for index in model._meta.indexes]

    @staticmethod
    def present_indexes() -> dict[type[Model], set[str]]:
        with connection.cursor() as cursor:
            return {
                model: set(connection.introspection.get_constraints(cursor, model._meta.db_table))
                for model in (Game, Seat, Score)
            }

    def create_users(self, rng: random.Random, players: int, now: datetime) -> list[int]:
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
        ids = dict(User.objects.filter(username__startswith=PREFIX).values_list("username", "id"))
        return [ids[user.username] for user in users]

    def analyze(self) -> None:
        tables = [m._meta.db_table for m in (User, Game, Seat, Score)]
        with connection.cursor() as cursor:
            if connection.vendor == "postgresql":
                qn = connection.ops.quote_name
                # VACUUM also sets the visibility map, for index-only scans; not in a transaction.
                verb = "ANALYZE" if connection.in_atomic_block else "VACUUM (ANALYZE)"
                cursor.execute(f"{verb} {', '.join(qn(t) for t in tables)}")
            elif connection.vendor == "sqlite":
                cursor.execute("ANALYZE")
            else:
                for table in tables:
                    cursor.execute(f"ANALYZE TABLE {connection.ops.quote_name(table)}")

    # --- what to measure -------------------------------------------------------------------

    def describe_data(self) -> dict[str, Any]:
        human = Score.objects.filter(kind=rules.CLASSIC.key, player_kind=PlayerKind.HUMAN)
        counts = dict(
            human.filter(user__isnull=False)
            .order_by()
            .values_list("user_id")
            .annotate(n=Count("id"))
            .values_list("user_id", "n")
        )
        if not counts:
            raise CommandError("No finished classic games by players: nothing to measure.")
        now = timezone.now()
        newest = human.aggregate(m=Max("finished_at"))["m"]
        top_ids = {row.user_id for row in selectors.top_ten(kind=rules.CLASSIC.key).rows}
        outside = [u for u in counts if u not in top_ids] or list(counts)
        typical = min(outside, key=lambda u: (abs(counts[u] - TYPICAL_GAMES), u))
        heaviest = max(counts, key=lambda u: (counts[u], -u))
        data = {
            "scores": Score.objects.count(),
            "games": Game.objects.count(),
            "players": User.objects.count(),
            "classic_human_table": {
                HighScorePeriod.ALL_TIME.value: human.count(),
                HighScorePeriod.MONTH.value: human.filter(
                    finished_at__gte=now - timedelta(days=30)
                ).count(),
                HighScorePeriod.WEEK.value: human.filter(
                    finished_at__gte=now - timedelta(days=7)
                ).count(),
            },
            "typical_player": {"id": typical, "classic_games": counts[typical]},
            "heaviest_player": {"id": heaviest, "classic_games": counts[heaviest]},
            "newest_score": newest,
        }
        table = data["classic_human_table"]
        self.line(
            f"Data: {data['games']:,} games, {data['scores']:,} scores, "
            f"{data['players']:,} accounts; classic top-ten table: {table['all']:,} all time, "
            f"{table['30d']:,} in 30 days, {table['7d']:,} in 7 days."
        )
        self.line(
            f"Typical player #{typical} ({counts[typical]} classic games, not in the top ten); "
            f"heaviest player #{heaviest} ({counts[heaviest]} classic games)."
        )
        if newest and now - newest > timedelta(days=1):
            self.line(
                self.style.WARNING(
                    f"The newest score is {(now - newest).days} day(s) old: the 7- and 30-day "
                    "tables have shrunk since the fill. Use --refill for fresh dates."
                )
            )
        return data

    def pages(self, data: dict[str, Any]) -> list[Page]:
        host = allowed_host()
        anonymous = Client(HTTP_HOST=host)
        viewer = User.objects.get(pk=data["typical_player"]["id"])
        member = Client(HTTP_HOST=host)
        member.force_login(viewer)  # outside anything timed
        typical, heaviest = data["typical_player"], data["heaviest_player"]
        classic = rules.CLASSIC.key

        def top(period: str, viewer: User | None = None) -> Callable[[], object]:
            return lambda: selectors.top_ten(kind=classic, period=period, viewer=viewer)

        def stats(user_id: int) -> Callable[[], object]:
            return lambda: selectors.player_stats(user_id=user_id, kind=classic)

        week, month, ever = HighScorePeriod.WEEK, HighScorePeriod.MONTH, HighScorePeriod.ALL_TIME
        return [
            # The yardstick: the site's simplest page in its layout (the front page: a template,
            # no query). A plain-text /healthz is shown too, as the floor of any request.
            Page("trivial", "Trivial page (home)", "/", anonymous),
            Page("plain", "Plain text", "/healthz", anonymous),
            Page("top10_all", "Top ten, all time", "/scores/", anonymous, None, True, top(ever)),
            Page("top10_30d", "Top ten, 30 days", "/scores/?period=30d", anonymous, None, True,
                 top(month)),
            Page("top10_7d", "Top ten, 7 days", "/scores/?period=7d", anonymous, None, True,
                 top(week)),
            Page("top10_all_member", "Top ten, logged in", "/scores/", member, viewer.pk, False,
                 top(ever, viewer)),
            Page("player_typical", f"Stats, {typical['classic_games']} games",
                 f"/players/{typical['id']}/", anonymous, data=stats(typical["id"])),
            Page("player_heaviest", f"Stats, {heaviest['classic_games']} games",
                 f"/players/{heaviest['id']}/", anonymous, data=stats(heaviest["id"])),
        ]  # fmt: skip

    def measure(self, pages: list[Page], *, requests: int, warmup: int) -> None:
        self.line(
            f"Measuring {len(pages)} pages: {warmup} warm-up rounds (queries counted), then "
            f"{requests} timed rounds, round robin ..."
        )
        clock = time.perf_counter
        secure = bool(settings.SECURE_SSL_REDIRECT)  # ask over https when http would redirect
        for round_no in range(warmup + requests):
            timed = round_no >= warmup
            shift = round_no % len(pages)  # rotate the order, so no page always goes first
            for page in pages[shift:] + pages[:shift]:
                if timed:
                    started = clock()
                    response = page.client.get(page.url, secure=secure)
                    page.times.append(clock() - started)
                else:
                    with CaptureQueriesContext(connection) as captured:
                        response = page.client.get(page.url, secure=secure)
                    sql = [q["sql"] for q in captured.captured_queries]
                    page_sql = [s for s in sql if page.viewer_id is None or not is_auth_query(s)]
                    page.query_counts.append(len(sql))
                    page.page_query_counts.append(len(page_sql))
                    page.sql = sql
                    for query in page_sql:
                        page.page_sql.setdefault(shape(query), query)
                    page.body = response.content.decode()
                if response.status_code != 200:
                    raise CommandError(f"{page.url} answered {response.status_code}, not 200")
        # The reads alone, round robin too: what is left of a page's time is rendering.
        for _ in range(max(5, requests // 5)):
            for page in pages:
                if page.data is not None:
                    started = clock()
                    page.data()
                    page.data_times.append(clock() - started)

    # --- results ---------------------------------------------------------------------------

    def over_limits(self, pages: list[Page]) -> list[str]:
        trivial = pages[0].median_ms()
        failures = []
        for page in pages:
            if not page.gated:
                continue
            if max(page.query_counts) > MAX_QUERIES:
                failures.append(
                    f"{page.url} made {max(page.query_counts)} queries (limit {MAX_QUERIES})"
                )
            ratio = page.median_ms() / trivial
            if ratio > MAX_RATIO:
                failures.append(
                    f"{page.url} took {page.median_ms():.2f} ms median, {ratio:.1f}x the "
                    f"trivial page's {trivial:.2f} ms (limit {MAX_RATIO:g}x)"
                )
        return failures

    def results(
        self,
        pages: list[Page],
        data: dict[str, Any],
        fill_seconds: float | None,
        opts: dict[str, Any],
        failures: list[str],
    ) -> dict[str, Any]:
        trivial = pages[0].median_ms()
        rows = []
        for page in pages:
            row: dict[str, Any] = {
                "key": page.key,
                "title": page.title,
                "url": page.url,
                "logged_in": page.viewer_id is not None,
                "median_ms": round(page.median_ms(), 3),
                "p95_ms": round(page.p95_ms(), 3),
                "ratio_to_trivial": round(page.median_ms() / trivial, 2),
                "ratio_to_plain": round(page.median_ms() / pages[1].median_ms(), 2),
                "data_median_ms": round(d, 3) if (d := page.data_ms()) is not None else None,
                "queries": max(page.query_counts),
                "page_queries": max(page.page_query_counts),
                "queries_seen": sorted(set(page.query_counts)),
                "gated": page.gated,
                "sql_last_request": page.sql,
                "plans": page.plans,
            }
            if page.viewer_id is not None:
                found = re.search(r"You: <strong>#(\d+)</strong> with (\d+)", page.body)
                row["my_rank"] = [int(found[1]), int(found[2])] if found else None
            rows.append(row)
        return {
            "vendor": connection.vendor,
            "database": str(connection.settings_dict["NAME"]),
            "django": django.get_version(),
            "debug": settings.DEBUG,
            "measured_at": timezone.now().isoformat(),
            "fill_seconds": round(fill_seconds, 1) if fill_seconds is not None else None,
            "requested": {"games": opts["games"], "players": opts["players"]},
            "requests_per_page": opts["requests"],
            "data": data,
            "limits": {"max_queries": MAX_QUERIES, "max_ratio": MAX_RATIO},
            "pages": rows,
            "failures": failures,
            "ok": not failures,
        }

    def print_table(self, pages: list[Page], results: dict[str, Any]) -> None:
        fill = results["fill_seconds"]
        self.line()
        self.line(
            f"Bench on {results['vendor']}: {results['data']['scores']:,} scores, "
            f"{results['requests_per_page']} requests per page"
            + (f", filled in {fill:.1f} s" if fill is not None else ", fill skipped")
        )
        header = (
            f"{'page':<22} {'url':<24} {'median ms':>9} {'p95 ms':>8} {'x trivial':>9} "
            f"{'queries':>7} {'page q.':>7} {'data ms':>8}"
        )
        self.line(header)
        self.line("-" * len(header))
        trivial = pages[0].median_ms()
        for page in pages:
            flag = ""
            if page.gated and (
                max(page.query_counts) > MAX_QUERIES or page.median_ms() / trivial > MAX_RATIO
            ):
                flag = "  <-- over limit"
            self.line(
                f"{page.title:<22} {page.url:<24} {page.median_ms():>9.2f} {page.p95_ms():>8.2f} "
                f"{page.median_ms() / trivial:>9.2f} {_fmt_counts(page.query_counts):>7} "
                f"{_fmt_counts(page.page_query_counts):>7} "
                f"{'' if (d := page.data_ms()) is None else f'{d:.2f}':>8}{flag}"
            )
        self.line(
            "queries: all queries of a request; page q.: less the session and user lookups of "
            "a logged-in request;\ndata ms: median time of the page's selector called directly, "
            "uncached (what the page's reads cost on a cache miss)."
        )
        for row in results["pages"]:
            if row.get("logged_in"):
                shown = row.get("my_rank")
                text = f"#{shown[0]} with {shown[1]}" if shown else "no rank shown"
                self.line(f"Logged-in top ten shows: You: {text}")
        self.line()

    def print_plans(self, pages: list[Page]) -> None:
        for page in pages:
            for item in page.plans:
                self.line(f"--- {page.title} ({page.url})")
                self.line(item["sql"])
                for step in item["plan"]:
                    self.line(f"    {step}")
        self.line()
