"""A tournament's clock: the host's form sets a start (to come, within 30 days) and a length;
it starts and ends by itself at those times, whether or not a task has run (no task runs in
these tests: the database tests never commit); the tasks themselves are idempotent and lose to
the host's earlier start or end."""

from __future__ import annotations

from datetime import datetime, timedelta

import pytest
from django.urls import reverse
from django.utils import timezone

from games.errors import BadInput, TournamentOver
from games.models import GameStatus
from games.play import actions as play
from games.tournaments import clock, services, tasks
from games.tournaments.models import Tournament
from games.tournaments.services import TournamentRefused
from tests.factories import client_for, page_text
from tests.tournaments.tournament_support import opened, play_out, registered

pytestmark = pytest.mark.django_db

NOW = datetime(2026, 12, 6, 9, 0, tzinfo=timezone.UTC)


@pytest.fixture
def now(monkeypatch: pytest.MonkeyPatch):
    """The clock, moved by the test: ``now.to(instant)``."""

    class Clock:
        at = NOW

        def to(self, instant: datetime) -> None:
            self.at = instant

    moved = Clock()
    monkeypatch.setattr(timezone, "now", lambda: moved.at)
    return moved


def form(**fields: str) -> dict[str, str]:
    return {"name": "Saturday cup", "cap": "10", "listed": "on", **fields}


# --- The host's form -------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("fields", "message"),
    [
        ({"start": "at", "starts_at": "2026-12-06T08:59"}, "The start must be later than now"),
        ({"start": "at", "starts_at": "2026-12-06T09:00"}, "The start must be later than now"),
        ({"start": "at", "starts_at": "2027-01-05T09:01"}, "at most 30 days ahead"),
        ({"start": "at", "starts_at": ""}, "Give the start as a date and a time"),
        ({"start": "at", "starts_at": "tomorrow"}, "Give the start as a date and a time"),
        ({"start": "at", "starts_at": "2026-02-30T18:00"}, "no such date and time"),
        ({"start": "at", "starts_at": "２026-12-12T18:00"}, "Give the start as a date"),
        ({"start": "at", "starts_at": "0001-01-01T00:00"}, "within 30 days"),
        ({"start": "host", "runs": "3"}, "A set length needs a set start"),
        ({"start": "at", "starts_at": "2026-12-12T18:00", "runs": "169"}, "1 hour to 7 days"),
        ({"start": "at", "starts_at": "2026-12-12T18:00", "runs": "0"}, "1 hour to 7 days"),
        ({"start": "at", "starts_at": "2026-12-12T18:00", "runs": "x"}, "1 hour to 7 days"),
    ],
)
def test_a_start_or_length_that_will_not_do_is_refused_and_opens_nothing(now, fields, message):
    answer = client_for(registered("host")).post(reverse("tournaments:new"), form(**fields))

    assert answer.status_code == 400
    assert message in page_text(answer)
    assert not Tournament.objects.exists()


def test_a_set_start_and_length_are_kept_in_the_sites_time(now, settings):
    settings.TIME_ZONE = "Europe/Paris"  # UTC+1 in December
    answer = client_for(registered("host")).post(
        reverse("tournaments:new"), form(start="at", starts_at="2026-12-12T19:00", runs="24")
    )

    assert answer.status_code == 302
    tournament = Tournament.objects.get()
    assert tournament.starts_at == datetime(2026, 12, 12, 18, 0, tzinfo=timezone.UTC)
    assert tournament.ends_at == datetime(2026, 12, 13, 18, 0, tzinfo=timezone.UTC)
    assert tournament.started_at is None and tournament.ended_at is None


def test_the_page_says_when_it_starts_and_ends(now):
    host = registered("host")
    client_for(host).post(
        reverse("tournaments:new"), form(start="at", starts_at="2026-12-12T18:00", runs="3")
    )
    tournament = Tournament.objects.get()

    text = page_text(client_for(host).get(url(tournament)))
    assert "It starts at Saturday 12 December 2026, 18:00 UTC" in text
    assert "It ends at Saturday 12 December 2026, 21:00 UTC" in text


def url(tournament: Tournament) -> str:
    return reverse("tournaments:page", kwargs={"token": tournament.token})


# --- Starting and ending by the clock, no task needed -----------------------------------------


def set_start(hours: int = 5, length: int | None = 3, **fields: object) -> Tournament:
    return opened(
        starts_at=NOW + timedelta(hours=hours),
        length=timedelta(hours=length) if length else None,
        **fields,
    )


def test_it_starts_at_its_time_without_the_task(now, make_user):
    alice = make_user("alice")
    tournament = set_start()
    services.join(user=alice, token=tournament.token)

    with pytest.raises(
        TournamentRefused, match="has not started: it starts at Sunday 6 December 2026, 14:00 UTC"
    ):
        services.play(user=alice, token=tournament.token)
    assert not Tournament.objects.get(pk=tournament.pk).started_at

    now.to(NOW + timedelta(hours=5))
    game = services.play(user=alice, token=tournament.token)

    tournament.refresh_from_db()
    assert tournament.started_at == tournament.starts_at
    played = play_out(alice, game, moves=3)
    assert played.game.version > game.version  # its moves pass the door


def test_joining_closes_at_the_start_without_the_task(now, make_user):
    tournament = set_start()
    now.to(NOW + timedelta(hours=5))

    with pytest.raises(TournamentRefused, match="has started"):
        services.join(user=make_user("late"), token=tournament.token)
    tournament.refresh_from_db()
    assert tournament.entrants == 0 and tournament.started_at == tournament.starts_at


def test_a_move_after_the_set_end_is_refused_without_the_task(now, make_user):
    alice = make_user("alice")
    tournament = set_start()
    services.join(user=alice, token=tournament.token)
    now.to(NOW + timedelta(hours=5))
    game = services.play(user=alice, token=tournament.token)
    version = play_out(alice, game, moves=2).game.version

    now.to(NOW + timedelta(hours=8))  # its end, to the second
    with pytest.raises(TournamentOver, match="ended at 17:00 on 6 December 2026"):
        play.roll_dice(game_id=game.pk, user=alice, version=version)

    tournament.refresh_from_db()
    assert tournament.ended_at is None  # the door refused on its read alone
    game.refresh_from_db()
    assert game.version == version and game.status == GameStatus.IN_PROGRESS


def test_a_move_a_second_before_the_set_end_passes(now, make_user):
    alice = make_user("alice")
    tournament = set_start()
    services.join(user=alice, token=tournament.token)
    now.to(NOW + timedelta(hours=5))
    game = services.play(user=alice, token=tournament.token)

    now.to(NOW + timedelta(hours=8, seconds=-1))
    played = play.roll_dice(game_id=game.pk, user=alice, version=game.version)
    assert played.game.version > game.version


def test_its_page_settles_it_ended_at_its_set_end(now, make_user):
    tournament = set_start()
    now.to(NOW + timedelta(hours=9))

    text = page_text(client_for(make_user("viewer")).get(url(tournament)))

    tournament.refresh_from_db()
    assert tournament.ended_at == tournament.ends_at and "Final standings" in text


def test_the_last_game_over_does_not_end_one_with_a_set_end(now, make_user):
    alice = make_user("alice")
    tournament = set_start()
    services.join(user=alice, token=tournament.token)
    now.to(NOW + timedelta(hours=5))
    play_out(alice, services.play(user=alice, token=tournament.token))

    tournament.refresh_from_db()
    assert tournament.is_running  # it ends by its clock, as its page said


# --- The tasks: idempotent, and the host's earlier start or end wins ---------------------------


def test_the_start_task_does_nothing_before_its_time_and_once_after(now, make_user):
    tournament = set_start()

    assert tasks.start_on_time.call(tournament_id=tournament.pk) is False
    now.to(NOW + timedelta(hours=6))
    assert tasks.start_on_time.call(tournament_id=tournament.pk) is True
    assert tasks.start_on_time.call(tournament_id=tournament.pk) is False

    tournament.refresh_from_db()
    assert tournament.started_at == tournament.starts_at  # when it was due, however late


def test_the_hosts_earlier_start_wins_over_the_task(now, make_user):
    tournament = set_start()
    services.join(user=make_user("alice"), token=tournament.token)
    now.to(NOW + timedelta(hours=1))
    services.start(user=tournament.host, token=tournament.token)

    now.to(NOW + timedelta(hours=5))
    assert tasks.start_on_time.call(tournament_id=tournament.pk) is False
    tournament.refresh_from_db()
    assert tournament.started_at == NOW + timedelta(hours=1)


def test_the_end_task_ends_once_and_loses_to_the_hosts_end(now, make_user):
    clocked, ended_early = set_start(), set_start()
    now.to(NOW + timedelta(hours=6))
    services.end(user=ended_early.host, token=ended_early.token)

    assert tasks.end_on_time.call(tournament_id=clocked.pk) is False  # not yet
    now.to(NOW + timedelta(hours=8))
    assert tasks.end_on_time.call(tournament_id=clocked.pk) is True
    assert tasks.end_on_time.call(tournament_id=clocked.pk) is False
    assert tasks.end_on_time.call(tournament_id=ended_early.pk) is False

    clocked.refresh_from_db()
    ended_early.refresh_from_db()
    assert clocked.ended_at == clocked.ends_at
    assert ended_early.ended_at == NOW + timedelta(hours=6)


def test_the_host_cannot_end_again_what_the_clock_ended(now):
    tournament = set_start()
    now.to(NOW + timedelta(hours=9))

    with pytest.raises(TournamentRefused, match="over already"):
        services.end(user=tournament.host, token=tournament.token)


def test_opening_with_a_set_time_enqueues_its_start_and_end(
    now, django_capture_on_commit_callbacks
):
    host = registered("host")
    with django_capture_on_commit_callbacks() as enqueued:
        tournament = set_start(host=host)
    timed = [(c.args[0], c.keywords["run_after"]) for c in enqueued if hasattr(c, "keywords")]
    assert timed == [
        (tasks.start_on_time, tournament.starts_at),
        (tasks.end_on_time, tournament.ends_at),
    ]


# --- The clock's words -----------------------------------------------------------------------


def test_the_form_start_is_read_in_the_sites_time(settings):
    settings.TIME_ZONE = "America/New_York"
    assert clock.parse_start("2026-07-04T12:00") == datetime(2026, 7, 4, 16, tzinfo=timezone.UTC)
    with pytest.raises(BadInput):
        clock.parse_start("2026-07-04T12:00+02:00")
