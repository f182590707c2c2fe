"""Migrations 0026-0028 on an existing database: the days' challenges leave the high scores,
the board's attempts are ranked by accuracy with their histogram, perfect play kept for days
nobody played goes; and back again."""

from __future__ import annotations

from datetime import UTC, date, datetime

import pytest
from django.db import connection
from django.db.migrations.executor import MigrationExecutor
from django.utils import timezone

pytestmark = pytest.mark.django_db(transaction=True)

DAY = date(2026, 11, 20)


def leaf(app: str) -> str:
    executor = MigrationExecutor(connection)
    (found,) = [node for node in executor.loader.graph.leaf_nodes() if node[0] == app]
    return found[1]


def migrate(games: str):
    """The database with the games app at migration ``games`` (the accounts at their latest),
    and the models as they were then."""
    targets = [("accounts", leaf("accounts")), ("games", games)]
    executor = MigrationExecutor(connection)
    executor.loader.build_graph()
    executor.migrate(targets)
    return MigrationExecutor(connection).loader.project_state(targets).apps


BEFORE, AFTER = "0025_seat_accuracy", "0028_daily_board_ranked_by_accuracy"


def test_existing_challenges_are_ranked_by_accuracy_and_leave_the_high_scores() -> None:
    try:
        _existing_rows_migrated()
    finally:
        migrate(leaf("games"))


def _existing_rows_migrated() -> None:
    old = migrate(BEFORE)
    User = old.get_model("accounts", "User")
    Game, Seat, Score = (old.get_model("games", name) for name in ("Game", "Seat", "Score"))
    Attempt, Total, Challenge = (
        old.get_model("games", name) for name in ("DailyAttempt", "DailyTotal", "DailyChallenge")
    )
    before_the_day = datetime(2026, 11, 19, 23, 59, tzinfo=UTC)
    on_the_day = datetime(2026, 11, 20, 8, 0, tzinfo=UTC)
    for name, joined, total, accuracy in [
        ("old", before_the_day, 250, 97.26),
        ("new", on_the_day, 300, 91.0),
        ("wait", before_the_day, 200, None),
    ]:
        user = User.objects.create(username=name, display_name=name, date_joined=joined)
        game = Game.objects.create(owner=user, kind="classic", status="finished", challenge_day=DAY)
        seat = Seat.objects.create(game=game, position=0, user=user, display_name=name)
        Score.objects.create(
            seat=seat, game=game, kind="classic", user=user, display_name=name,
            grand_total=total, finished_at=timezone.now(), high_score_rank=1,
            high_score_period="all",
        )  # fmt: skip
        Attempt.objects.create(
            day=DAY, user=user, game=game, display_name=name, grand_total=total,
            accuracy=accuracy, finished_at=timezone.now(),
        )  # fmt: skip
        Total.objects.create(day=DAY, total=total, attempts=1)
    Challenge.objects.create(day=DAY, perfect_total=240, perfect_turns=[])
    Challenge.objects.create(day=date(1821, 3, 4), perfect_total=230, perfect_turns=[])
    new = migrate(AFTER)
    Attempt = new.get_model("games", "DailyAttempt")
    rows = {a.display_name: a for a in Attempt.objects.all()}
    assert (rows["old"].accuracy_tenths, rows["old"].ranked) == (973, True)
    assert (rows["new"].accuracy_tenths, rows["new"].ranked) == (910, False)
    assert (rows["wait"].accuracy_tenths, rows["wait"].ranked) == (None, True)
    histogram = new.get_model("games", "DailyAccuracy").objects.values_list(
        "day", "tenths", "attempts"
    )
    assert list(histogram) == [(DAY, 973, 1)]  # ranked and graded only
    scores = new.get_model("games", "Score").objects.all()
    assert {(s.challenge, s.high_score_rank, s.high_score_period) for s in scores} == {
        (True, None, "")
    }
    challenges = new.get_model("games", "DailyChallenge").objects.values_list("day", flat=True)
    assert list(challenges) == [DAY]
    from games.daily import selectors  # the site's own reads over what the migration wrote

    board = selectors.board(DAY)
    assert [(line.name, line.rank, line.accuracy_shown) for line in board.lines] == [
        ("old", 1, "97.3%")
    ]

    back = migrate(BEFORE)
    totals = back.get_model("games", "DailyTotal").objects.values_list("total", "attempts")
    assert sorted(totals) == [(200, 1), (250, 1), (300, 1)]
