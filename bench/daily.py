"""The day's board of the daily challenge under a crowd: ``attempts`` finished attempts at
today's challenge (100,000 by default, one account each, as the unique constraint wants),
written straight into the tables, and the board page a player in the middle of it sees.

The board reads a page of rows off the ``daily_attempt_board`` index and sums the viewer's
rank from the day's histogram of accuracies: its time is to stay flat however many played.
The accounts (``bench-daily-…``) are made once and kept while the runs time pages alone; the
games and attempts are written afresh each run, for the day the run is on. Before the game is
timed over HTTP, ``clear`` takes all of it out again, accounts too.
"""

from __future__ import annotations

import random
import time
from collections import Counter
from dataclasses import dataclass
from datetime import date, timedelta

from django.contrib.auth.hashers import make_password
from django.db import connection, transaction
from django.db.models import Max
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from accounts.models import User
from bench import fill, tables
from bench.output import Console
from bench.scenarios import Page, allowed_host
from games import rules
from games.daily import results, selectors, services
from games.daily.models import DailyAccuracy, DailyAttempt
from games.models import Game, GameStatus

KEY = "daily_board"
MEMBER_KEY = "daily_board_member"
ATTEMPTS = 100_000
PREFIX = f"{fill.PREFIX}daily-"
TOTALS = (210.0, 40.0)
"""The spread of the attempts' totals (mean, standard deviation)."""
ACCURACIES = (55.0, 100.0)
"""The range of the attempts' accuracies: many share one, to a tenth of a percent."""


@dataclass(frozen=True)
class Crowd:
    day: date
    attempts: int
    viewer_id: int


def _accounts(count: int, console: Console) -> list[int]:
    """``count`` daily bench accounts (made once, kept between runs); their ids in order."""
    players = User.objects.filter(username__startswith=PREFIX)
    have = players.count()
    if have < count:
        width, password = 6, make_password(None)  # no usable password: nothing to hash
        made = [
            User(username=f"{PREFIX}{i:0{width}d}", display_name=f"Daily {i}", email="",
                 password=password)
            for i in range(have + 1, count + 1)
        ]  # fmt: skip
        with transaction.atomic():
            User.objects.bulk_create(made, batch_size=5_000)
        console.line(f"  {count - have:,} daily challenge accounts made")
    return list(players.order_by("username").values_list("id", flat=True)[:count])


def _clear() -> None:
    """The daily bench accounts' games and attempts, gone (raw deletes: nothing else points
    at them)."""
    owned = Game.objects.filter(owner__username__startswith=PREFIX).values("id")
    with transaction.atomic():
        DailyAttempt.objects.filter(game_id__in=owned)._raw_delete(connection.alias)
        Game.objects.filter(id__in=owned)._raw_delete(connection.alias)
        # The histograms of the days the bench wrote (no real player plays a bench database).
        DailyAccuracy.objects.all()._raw_delete(connection.alias)


def clear(console: Console) -> None:
    """The crowd gone, accounts too: the database holds the fill alone again."""
    started = time.perf_counter()
    _clear()
    with transaction.atomic():
        User.objects.filter(username__startswith=PREFIX)._raw_delete(connection.alias)
    console.line(f"  cleared the daily crowd in {time.perf_counter() - started:.1f} s")


def write(attempts: int, *, seed: int, console: Console) -> Crowd:
    """Replace the daily bench accounts' attempts by ``attempts`` finished ones today."""
    started = time.perf_counter()
    ids = _accounts(attempts, console)
    _clear()
    rng, day, now = random.Random(seed), services.today(), timezone.now()
    at = connection.ops.adapt_datetimefield_value
    on = connection.ops.adapt_datefield_value(day)
    first_game = (Game.objects.aggregate(m=Max("id"))["m"] or 0) + 1
    first_attempt = (DailyAttempt.objects.aggregate(m=Max("id"))["m"] or 0) + 1
    games, rows = [], []
    for number, user_id in enumerate(ids):
        done = at(now - timedelta(seconds=rng.random() * 3600))
        total = max(40, min(500, round(rng.gauss(*TOTALS))))
        accuracy = round(rng.uniform(*ACCURACIES), 1)
        game_id = first_game + number
        games.append((game_id, rules.CLASSIC.key, GameStatus.FINISHED, user_id, on, done, done,
                      done))  # fmt: skip
        rows.append((first_attempt + number, on, user_id, game_id, f"Daily {number + 1}",
                     total, accuracy, results.tenths(accuracy), True, done, done))  # fmt: skip
    game_writer = tables.TableWriter(
        Game, ("id", "kind", "status", "owner_id", "challenge_day", "created_at", "updated_at",
               "finished_at")
    )  # fmt: skip
    attempt_writer = tables.TableWriter(
        DailyAttempt, ("id", "day", "user_id", "game_id", "display_name", "grand_total",
                       "accuracy", "accuracy_tenths", "ranked", "started_at", "finished_at")
    )  # fmt: skip
    histogram = Counter(row[7] for row in rows)
    accuracy_writer = tables.TableWriter(DailyAccuracy, ("id", "day", "tenths", "attempts"))
    with transaction.atomic():
        game_writer.write(games)
        attempt_writer.write(rows)
        accuracy_writer.write(
            (number, on, tenths, count)
            for number, (tenths, count) in enumerate(sorted(histogram.items()), start=1)
        )
    tables.reset_sequences((Game, DailyAttempt, DailyAccuracy))
    tables.analyze((DailyAttempt, DailyAccuracy))
    # The viewer: a player in the middle of the board, whose rank is summed over half of it.
    middle = sorted(zip((r[7] for r in rows), ids, strict=True))[len(rows) // 2][1]
    console.line(
        f"Daily challenge: {attempts:,} finished attempts at {day}'s challenge, written in "
        f"{time.perf_counter() - started:.1f} s"
    )
    return Crowd(day=day, attempts=attempts, viewer_id=middle)


def pages(crowd: Crowd) -> list[Page]:
    """The day's board as anyone sees it (public, like the top ten: held to the limits), and as
    a player in the middle of it sees it, logged in (their attempt and rank on top)."""
    viewer = User.objects.get(pk=crowd.viewer_id)
    member = Client(HTTP_HOST=allowed_host())
    member.force_login(viewer)  # outside anything timed
    services.challenge(crowd.day)  # perfect play on the day's dice: computed once, outside
    url = reverse("daily:board", kwargs={"day": crowd.day.isoformat()})

    def public() -> object:
        return selectors.board(crowd.day)

    def mine() -> object:
        return selectors.board(crowd.day, viewer=viewer, own=selectors.attempt(viewer, crowd.day))

    played = f"{crowd.attempts:,} played"
    return [
        Page(KEY, f"Daily board, {played}", url, Client(HTTP_HOST=allowed_host()), None, True,
             data=public),
        Page(MEMBER_KEY, f"Daily board, {played}, logged in", url, member, viewer.pk,
             data=mine),
    ]  # fmt: skip
