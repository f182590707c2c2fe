"""`manage.py bench` on a tiny database: it fills, measures, prints the table and the JSON."""

from __future__ import annotations

import json
from io import StringIO
from pathlib import Path

import pytest
from django.core.management import CommandError, call_command
from django.db.models import Count, Max
from django.utils import timezone

from accounts.models import User
from games import rules, store
from games.models import Game, GameStatus, Invitation, Score, Seat, lobby_cutoff
from games.tables import selectors, waiting

pytestmark = pytest.mark.django_db

TINY = [
    "--games",
    "300",
    "--players",
    "20",
    "--requests",
    "5",
    "--warmup",
    "2",
    "--no-http",
    "--no-scaleout",
    "--no-strategy",
    "--daily-attempts",
    "0",
    "--rated-players",
    "0",
    "--rating-moves",
    "0",
    "--quickplay-waiting",
    "0",
    "--no-tournament",  # tested in test_bench_tournament.py
]


def bench(tmp_path: Path, *args: str) -> tuple[str, dict]:
    out = StringIO()
    path = tmp_path / "bench.json"
    call_command("bench", *TINY, "--json", str(path), "--no-fail", *args, stdout=out)
    return out.getvalue(), json.loads(path.read_text())


def test_fills_then_prints_a_table_with_times_and_query_counts(tmp_path: Path) -> None:
    printed, results = bench(tmp_path)

    assert Game.objects.filter(status=GameStatus.FINISHED).count() == 300
    assert User.objects.count() == 20
    assert Score.objects.count() == Seat.objects.filter(game_over=True).count() >= 300
    assert not User.objects.exclude(username__startswith="bench-").exists()
    assert "median ms" in printed and "p95 ms" in printed and "x trivial" in printed
    pages = {page["key"]: page for page in results["pages"]}
    assert {"trivial", "top10_all", "top10_7d", "top10_all_member", "player_typical"} <= set(pages)
    for key in ("top10_all", "top10_7d", "player_heaviest"):
        assert pages[key]["url"] in printed
    assert pages["trivial"]["queries"] == 0
    assert pages["top10_all"]["queries"] <= 3
    # Logged in, the session and user lookups come on top of the page's own queries.
    member = pages["top10_all_member"]
    assert member["logged_in"] and member["queries"] > member["page_queries"]
    assert member["my_rank"] is not None  # the viewer is outside the ten: "You: #N with M"
    for page in pages.values():
        assert 0 < page["median_ms"] <= page["p95_ms"]
    assert results["fill_seconds"] is not None


def test_seats_and_scores_carry_the_same_numbers_from_one_card(tmp_path: Path) -> None:
    bench(tmp_path)

    for score in Score.objects.select_related("seat", "game"):
        seat = score.seat
        sheet = store.match_of(score.game).sheets[seat.position]
        in_boxes = sum(1 for card in sheet.cards if card["yahtzee"] == rules.YAHTZEE_POINTS)
        assert (score.yahtzees, score.yahtzee_bonuses, score.grand_total) == (
            sheet.yahtzees,
            sheet.yahtzee_bonuses,
            seat.grand_total,
        )
        assert sheet.yahtzees >= in_boxes + sheet.yahtzee_bonuses
        card = rules.Sheet(
            kind=score.game.rules_kind,
            cards=tuple(sheet.cards),
            yahtzee_bonuses=sheet.yahtzee_bonuses,
        )
        assert sheet.kind == card.kind
        assert seat.grand_total == card.grand_total
        assert score.player_kind == seat.player_kind


def test_a_second_run_keeps_the_data_it_finds(tmp_path: Path) -> None:
    bench(tmp_path)
    first_game = Game.objects.order_by("id").first()

    printed, results = bench(tmp_path)

    assert "Fill skipped" in printed and results["fill_seconds"] is None
    assert Game.objects.order_by("id").first() == first_game


def test_refuses_a_database_with_real_accounts(tmp_path: Path, make_user) -> None:
    make_user("alice")

    with pytest.raises(CommandError, match="not bench-"):
        bench(tmp_path)

    assert not Game.objects.exists()


def test_with_force_a_refill_spares_real_accounts(tmp_path: Path, make_user) -> None:
    alice = make_user("alice")

    bench(tmp_path, "--force")
    bench(tmp_path, "--force", "--refill")

    assert User.objects.filter(pk=alice.pk).exists()
    assert User.objects.filter(username__startswith="bench-").count() == 20
    assert Game.objects.filter(status=GameStatus.FINISHED).count() == 300


def test_times_the_lobby_with_as_many_games_as_the_players_may_keep_waiting(tmp_path: Path) -> None:
    printed, results = bench(tmp_path)

    cap = waiting.MAX_WAITING_GAMES
    waited = Game.objects.filter(status=GameStatus.WAITING)
    assert results["lobby"]["open_games"] == 20 * cap == results["lobby"]["closed_games"]
    assert waited.count() == 2 * 20 * cap
    viewer = User.objects.get(pk=results["data"]["typical_player"]["id"])
    listed = selectors.lobby(viewer=viewer, limit=1000)
    own = waited.filter(seats__user=viewer, created_at__gt=lobby_cutoff(timezone.now()))
    assert len(listed) == 20 * cap - own.count()  # nor the closed ones, nor the viewer's
    for game in waited.filter(pk__in=[seat.game_id for seat in listed]):
        hosted = waited.filter(owner=game.owner_id, pk__in=[s.game_id for s in listed])
        assert hosted.count() <= cap
    assert not Invitation.objects.filter(seat__isnull=False, seat__game__status="finished")
    page = {p["key"]: p for p in results["pages"]}["lobby"]
    assert page["url"] == "/play/lobby/" and page["page_queries"] == 2
    assert results["lobby"]["ratio_to_trivial"] == page["ratio_to_trivial"] > 0
    assert f"Lobby with {20 * cap:,} games waiting" in printed


def test_a_second_run_writes_the_lobby_afresh(tmp_path: Path) -> None:
    bench(tmp_path)
    waiting = Game.objects.filter(status=GameStatus.WAITING)
    first = waiting.aggregate(newest=Max("created_at"), count=Count("id"))

    bench(tmp_path)

    again = waiting.aggregate(newest=Max("created_at"), count=Count("id"))
    assert again["count"] == first["count"] and again["newest"] > first["newest"]


def test_times_only_the_pages_asked_for(tmp_path: Path) -> None:
    _, results = bench(tmp_path, "--page", "lobby", "--lobby-games", "12")

    assert [p["key"] for p in results["pages"]] == ["trivial", "plain", "lobby"]
    assert results["lobby"]["open_games"] == 12


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--lobby-games", "61"], "--lobby-games must be between 0 and"),
        (["--daily-attempts", "-1"], "--daily-attempts cannot be negative"),
        (["--streams", "-1"], "--streams cannot be negative"),
        (["--http-seconds", "0"], "--http-seconds must be positive"),
        (["--http-clients", "0"], "--http-clients at least 1"),
        (["--games", "10"], "--games must be at least --players"),
    ],
)
def test_refuses_what_it_cannot_measure_before_it_touches_the_database(
    tmp_path: Path, args: list[str], message: str
) -> None:
    with pytest.raises(CommandError, match=message):
        bench(tmp_path, *args)
    assert not User.objects.exists() and not Game.objects.exists()


def test_refuses_a_page_it_does_not_have(tmp_path: Path) -> None:
    with pytest.raises(CommandError, match="nowhere"):
        bench(tmp_path, "--page", "nowhere")


def test_the_daily_board_under_a_crowd_is_read_in_three_queries(tmp_path: Path) -> None:
    from games.daily.models import DailyAttempt

    daily = ["--daily-attempts", "120", "--page", "daily_board", "--page", "daily_board_member"]
    printed, results = bench(tmp_path, *daily)

    assert DailyAttempt.objects.filter(grand_total__isnull=False).count() == 120
    pages = {page["key"]: page for page in results["pages"]}
    board, member = pages["daily_board"], pages["daily_board_member"]
    assert board["url"] in printed and board["gated"]
    assert board["queries"] == 1  # anyone: a page of rows off the board's index
    # Logged in, in the middle: their attempt, a page of rows, their rank from the histogram.
    assert member["page_queries"] == 3
    # The histogram the bench wrote ranks as a count over the attempts would.
    from games.daily import selectors, services

    day = services.today()
    middle = DailyAttempt.objects.filter(day=day).order_by("accuracy_tenths", "id")[60]
    own = selectors.attempt(middle.user, day)
    ranked = selectors.board(day, viewer=middle.user, own=own, rows=10).mine
    tenths = middle.accuracy_tenths
    above = DailyAttempt.objects.filter(day=day, accuracy_tenths__gt=tenths).count()
    assert ranked is not None and ranked.rank == above + 1
    # Again: the attempts are written afresh, the accounts kept.
    bench(tmp_path, *daily)
    assert DailyAttempt.objects.count() == 120


def test_the_game_is_timed_over_http_on_the_fill_alone(tmp_path: Path, monkeypatch) -> None:
    """The lobby's waiting games and the daily crowd are timed with the pages, then taken out:
    the HTTP scenario's tables are the fill's, as in every run before those scenarios came."""
    from bench import daily, runner
    from games.daily.models import DailyAttempt

    seen: dict[str, int] = {}

    def scenario(**_: object) -> None:
        seen["waiting"] = Game.objects.filter(status=GameStatus.WAITING).count()
        seen["attempts"] = DailyAttempt.objects.count()
        seen["crowd"] = User.objects.filter(username__startswith=daily.PREFIX).count()

    monkeypatch.setattr(runner.http_scenario, "run", scenario)
    with_http = [arg for arg in TINY if arg != "--no-http"]
    out, path = StringIO(), tmp_path / "bench.json"
    call_command(
        "bench", *with_http, "--daily-attempts", "30", "--json", str(path), "--no-fail", stdout=out
    )

    results = json.loads(path.read_text())
    assert results["lobby"]["open_games"] == 20 * waiting.MAX_WAITING_GAMES
    assert {p["key"] for p in results["pages"]} >= {"lobby", "daily_board"}
    assert seen == {"waiting": 0, "attempts": 0, "crowd": 0}
    assert Game.objects.filter(status=GameStatus.FINISHED).count() == 300  # the fill, whole
