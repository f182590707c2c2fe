"""Quick play's pairing under a crowd: ``WAITING`` accounts waiting at Classic with ratings spread
about 1,500, then ``ARRIVALS`` more clicking Quick play one after another, each through the
site in this process (``POST /play/quick/join/``, a logged-in client). The figure is the time
from the second of a pair arriving until both are seated: the arrival's request, which finds
its opponent, locks both waits, lays the table and begins the game before it answers (the
first's page learns of it at its next check, within a second). Written afresh each run, and
cleared after it: the accounts are the bench's own (``PREFIX``)."""

from __future__ import annotations

import datetime
import random
import statistics
import time
from dataclasses import dataclass
from typing import Any

from django.contrib.auth.hashers import make_password
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from django.utils import timezone

from accounts.models import User
from bench import fill
from bench.output import Console
from bench.scenarios import allowed_host
from games.quickplay.models import QuickWait
from games.ratings.models import Rating
from games.ratings.scale import START_MU, START_SIGMA

KEY = "quickplay"
PREFIX = f"{fill.PREFIX}quick-"
WAITING = 1_000
ARRIVALS = 200
SPREAD = 250
"""The ratings' standard deviation about 1,500: most within 1,000 to 2,000, as a site's are."""
WAITED = datetime.timedelta(seconds=25)
"""The waits were joined up to this long before the arrivals (their windows 100 to 300)."""
TOUCH_EVERY = 50
"""Arrivals between two rounds of the waiting pages checking in (untimed): a run longer than
``services.GONE_AFTER`` must not find its crowd gone."""
TARGET_P95_MS = 1000.0


@dataclass(frozen=True)
class Outcome:
    waiting: int
    arrivals: int
    paired: int
    waited: int
    median_ms: float
    p95_ms: float
    max_ms: float
    queries: int
    """Queries of one arrival that was paired (the session's and the account's included)."""

    @property
    def met(self) -> bool:
        return self.p95_ms <= TARGET_P95_MS

    def as_json(self) -> dict[str, Any]:
        return {
            "waiting": self.waiting,
            "arrivals": self.arrivals,
            "paired": self.paired,
            "waited": self.waited,
            "median_ms": round(self.median_ms, 2),
            "p95_ms": round(self.p95_ms, 2),
            "max_ms": round(self.max_ms, 2),
            "queries": self.queries,
            "target_p95_ms": TARGET_P95_MS,
            "met": self.met,
        }


def clear(console: Console | None = None) -> None:
    """Delete the quick-play bench accounts, with their waits, ratings and games."""
    started = time.perf_counter()
    deleted, _ = User.objects.filter(username__startswith=PREFIX).delete()
    if deleted and console is not None:
        console.line(f"  cleared the quick-play accounts in {time.perf_counter() - started:.1f} s")


def _accounts(count: int, rng: random.Random) -> list[User]:
    password = make_password(None)  # unusable: they are logged in by the bench alone
    users = User.objects.bulk_create(
        User(
            username=f"{PREFIX}{n}",
            display_name=f"Quick {n}",
            email=f"{PREFIX}{n}@bench.invalid",
            email_confirmed=True,
            password=password,
        )
        for n in range(count)
    )
    now = timezone.now()
    Rating.objects.bulk_create(
        Rating(
            user=user,
            kind="classic",
            mu=START_MU,
            sigma=START_SIGMA,
            rating=round(rng.gauss(1500, SPREAD)),
            updated_at=now,
        )
        for user in users
    )
    return users


def _percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(share * (len(ordered) - 1)))]


def run(*, waiting: int, arrivals: int, seed: int, console: Console) -> Outcome:
    """Write the crowd, time the arrivals, clear it all again."""
    clear(console)
    rng = random.Random(seed)
    started = time.perf_counter()
    users = _accounts(waiting + arrivals, rng)
    ratings = dict(Rating.objects.filter(user__in=users).values_list("user_id", "rating"))
    crowd, coming = users[:waiting], users[waiting:]
    clients = []
    for user in coming:  # logged in before anything is timed
        client = Client(HTTP_HOST=allowed_host())
        client.force_login(user)
        clients.append(client)
    now = timezone.now()
    QuickWait.objects.bulk_create(
        QuickWait(
            user=user,
            kind="classic",
            rating=ratings[user.pk],
            joined_at=now - WAITED * rng.random(),
            checked_at=now,
        )
        for user in crowd
    )
    console.line(
        f"Quick play: {waiting:,} accounts waiting at Classic (ratings about 1,500, sd {SPREAD}),"
        f" written in {time.perf_counter() - started:.1f} s; {arrivals:,} arrivals"
    )
    join, waiting_page = reverse("games:quick_join"), reverse("games:quick")
    times: list[float] = []
    paired_times: list[float] = []
    queries = 0
    try:
        for n, client in enumerate(clients):
            if n % TOUCH_EVERY == 0:
                QuickWait.objects.filter(game__isnull=True).update(checked_at=timezone.now())
            with CaptureQueriesContext(connection) as ran:
                begun = time.perf_counter()
                response = client.post(join, {"kind": "classic"})
                took = (time.perf_counter() - begun) * 1000
            if response.status_code != 302:
                raise AssertionError(f"Quick play answered {response.status_code}")
            times.append(took)
            if response["Location"] != waiting_page:
                paired_times.append(took)
                queries = queries or len(ran)
    finally:
        clear(console)
    timed = paired_times or times
    outcome = Outcome(
        waiting=waiting,
        arrivals=arrivals,
        paired=len(paired_times),
        waited=len(times) - len(paired_times),
        median_ms=statistics.median(timed),
        p95_ms=_percentile(timed, 0.95),
        max_ms=max(timed),
        queries=queries,
    )
    return outcome


def print_outcome(outcome: Outcome, console: Console) -> None:
    """Quick play's line, and its target met or missed."""
    console.line(
        f"Quick play, {outcome.waiting:,} waiting: from the second of a pair arriving until both "
        f"are seated {outcome.median_ms:.1f} ms median, p95 {outcome.p95_ms:.1f} ms, max "
        f"{outcome.max_ms:.1f} ms over {outcome.paired:,} pairings ({outcome.waited:,} arrivals "
        f"found nobody in reach and waited); {outcome.queries} queries a pairing."
    )
    verdict = "met" if outcome.met else "MISSED"
    line = f"  target p95 <= {TARGET_P95_MS:.0f} ms: {verdict}"
    if outcome.met:
        console.success(line)
    else:
        console.warning(line)
    console.line()
