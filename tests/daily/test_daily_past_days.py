"""Past days cost nothing unless somebody played them: a day nobody played answers 404 with
one read, computes no perfect play and keeps nothing; what a process keeps is bounded; no date
the address admits answers 500."""

from __future__ import annotations

import html
from datetime import timedelta

import pytest

from games.daily import clock, perfect, services
from games.daily.models import DailyChallenge
from tests.daily.daily_support import noon

pytestmark = pytest.mark.usefixtures("strategy_ready")

NOBODY = "Nobody played the challenge of that day."


def text(response) -> str:
    return html.unescape(response.content.decode())


@pytest.fixture
def no_perfect_play(monkeypatch):
    """Perfect play refuses to be computed: a test that reaches it fails."""

    def refused(*args: object, **kwargs: object) -> perfect.PerfectGame:
        raise AssertionError("perfect play computed for a day nobody played")

    monkeypatch.setattr(perfect, "play_day", refused)


def board(day: str) -> str:
    return f"/daily/{day}/"


@pytest.mark.usefixtures("no_perfect_play")
def test_a_past_day_nobody_played_costs_one_read_and_answers_404(
    client, player, client_for, django_assert_num_queries
):
    with django_assert_num_queries(1):  # does anybody have an attempt that day?
        public = client.get(board("1821-03-04"))
    own = client_for(player).get(board("1821-03-04"))

    for page in (public, own):
        assert page.status_code == 404
        assert NOBODY in text(page)
        assert "Perfect play" not in text(page)
    assert not DailyChallenge.objects.exists()


@pytest.mark.parametrize(
    "day", ["0001-01-01", "0000-01-01", "9999-12-31", "2026-02-30", "2025-02-29", "2026-00-10"]
)
def test_no_date_the_address_admits_answers_500(client, player, client_for, day):
    for asker in (client, client_for(player)):
        assert asker.get(board(day)).status_code == 404
    assert not DailyChallenge.objects.exists()


def test_a_past_day_somebody_played_has_its_board_and_perfect_play(player, client):
    yesterday = clock.today() - timedelta(days=1)
    services.start_challenge(user=player, now=noon(yesterday))

    page = client.get(board(yesterday.isoformat()))

    assert page.status_code == 200
    assert "Perfect play's game on this day's dice" in text(page)
    assert list(DailyChallenge.objects.values_list("day", flat=True)) == [yesterday]


@pytest.mark.usefixtures("no_perfect_play")
def test_today_has_a_board_before_anybody_plays_it(client):
    page = client.get(board(clock.today().isoformat()))

    assert page.status_code == 200
    assert "Nobody has finished this day's challenge yet." in text(page)
    assert not DailyChallenge.objects.exists()


def test_perfect_play_kept_in_a_process_is_bounded(db, monkeypatch):
    computed = []
    real = perfect.play_day

    def counted(key, day, advisor):
        computed.append(day)
        return real(key, day, advisor)

    monkeypatch.setattr(perfect, "play_day", counted)
    first = clock.today() - timedelta(days=100)
    days = [first + timedelta(days=n) for n in range(services.KEPT_DAYS + 2)]

    for day in days:
        services.challenge(day)
    services.challenge(days[-1])  # kept: no read, no computing

    assert services._kept.cache_info().currsize == services.KEPT_DAYS
    assert computed == days
    DailyChallenge.objects.filter(day=days[0]).update(perfect_total=1)
    assert services.challenge(days[0]).perfect_total == 1  # no longer kept: read from its row
    assert computed == days
