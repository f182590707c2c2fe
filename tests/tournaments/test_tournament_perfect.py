"""The perfect bot on a tournament's dice: worked out once the tournament is over (by its host,
its clock or its last game), never while it runs (its dice are sealed); its total is what an
independent loop over the faces makes of the same choices, and what an entrant playing the
same choices through the door scores; the final standings show it, unranked."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from games import advice, rules, strategy
from games.daily import dice as shared
from games.rules.dice import DICE_COUNT
from games.rules.turn import Sheet, Turn, score
from games.tournaments import dice, perfect, services, tasks
from games.tournaments.models import Tournament
from tests.factories import page_text
from tests.tournaments.tournament_support import opened, play_out, started_with

pytestmark = pytest.mark.django_db

KEY = b"a key of the tests' own"


def replayed(key: bytes, tournament_id: int, kind: rules.GameKind) -> int:
    """A second, plain loop: the advisor's best choice each step, the dice read straight from
    ``dice.face`` (the first roll of a turn throws all five positions; a re-roll the positions
    not held), the card filled by the turn rules alone: no Match, no dice source."""
    advisor = advice.advisor(kind)
    sheet = Sheet(kind=kind)
    for round in range(1, kind.rounds + 1):
        dice_now = tuple(dice.face(key, tournament_id, round, 1, p) for p in range(DICE_COUNT))
        turn = Turn(dice=dice_now, rolls_used=1)
        while True:
            chosen = advisor.best_action(sheet, turn)
            if isinstance(chosen, strategy.ScoreBox):
                sheet, _ = score(sheet, turn, chosen.box.value, chosen.column)
                break
            roll = turn.rolls_used + 1
            assert turn.dice is not None
            thrown = tuple(
                turn.dice[p] if chosen.held[p] else dice.face(key, tournament_id, round, roll, p)
                for p in range(DICE_COUNT)
            )
            turn = Turn(dice=thrown, held=chosen.held, rolls_used=roll)
    assert sheet.is_complete
    return sheet.grand_total


@pytest.mark.parametrize("tournament_id", [1, 2, 38, 4049])
def test_its_total_is_the_plain_loops_on_the_same_faces(tournament_id):
    assert perfect.total_on(KEY, tournament_id, rules.CLASSIC, advice.advisor()) == replayed(
        KEY, tournament_id, rules.CLASSIC
    )


def test_on_a_triple_card_too():
    assert perfect.total_on(KEY, 7, rules.TRIPLE, advice.advisor()) == replayed(
        KEY, 7, rules.TRIPLE
    )


def test_a_pinned_total():
    """Worked out by ``replayed`` (6 December 2026): a change to the dice, the positions or the
    bot shows here even if both loops moved together."""
    assert replayed(KEY, 38, rules.CLASSIC) == 263
    assert perfect.total_on(KEY, 38, rules.CLASSIC, advice.advisor()) == 263


def test_nothing_is_worked_out_while_it_runs(make_user, django_capture_on_commit_callbacks):
    alice = make_user("alice")
    tournament = started_with(alice, make_user("bob"))

    with django_capture_on_commit_callbacks(execute=True) as ran:
        play_out(alice, services.play(user=alice, token=tournament.token))
    assert ran  # the moves' own work ran (grading)...
    assert not [c for c in ran if tasks.work_out_perfect in getattr(c, "args", ())]  # not this
    assert perfect.work_out(tournament.pk) is False  # asked anyway: sealed, so no
    tournament.refresh_from_db()
    assert tournament.is_running and tournament.perfect_total is None


def test_the_hosts_end_works_it_out_equal_to_an_entrant_playing_it(
    make_user, django_capture_on_commit_callbacks
):
    alice = make_user("alice")
    tournament = started_with(alice, make_user("bob"), kind="classic")
    played = play_out(alice, services.play(user=alice, token=tournament.token), "perfect")

    with django_capture_on_commit_callbacks(execute=True):
        services.end(user=tournament.host, token=tournament.token)

    tournament.refresh_from_db()
    entrant_total = played.match().sheets[0].grand_total
    assert tournament.perfect_total == entrant_total  # the same choices on the same faces


def test_the_last_game_over_works_it_out(make_user):
    alice = make_user("alice")
    tournament = started_with(alice, kind="triple")

    play_out(alice, services.play(user=alice, token=tournament.token))  # runs what commits

    tournament.refresh_from_db()
    assert tournament.is_over
    assert tournament.perfect_total == replayed(_site_key(), tournament.pk, rules.TRIPLE)


def test_the_clocks_end_works_it_out(monkeypatch, django_capture_on_commit_callbacks):
    now = timezone.now()
    tournament = opened(starts_at=now + timedelta(hours=1), length=timedelta(hours=1))
    monkeypatch.setattr(timezone, "now", lambda: now + timedelta(hours=3))

    with django_capture_on_commit_callbacks(execute=True):
        assert services.end_on_time(tournament_id=tournament.pk)

    tournament.refresh_from_db()
    assert tournament.perfect_total == replayed(_site_key(), tournament.pk, rules.CLASSIC)


def test_the_final_standings_show_the_line(make_user):
    alice = make_user("alice")
    tournament = started_with(alice)
    running = page_text(Client().get(_url(tournament)))
    assert "Perfect play (computer)" not in running

    services.end(user=tournament.host, token=tournament.token)  # its task not run yet
    waiting = page_text(Client().get(_url(tournament)))
    assert "Perfect play (computer) working it out…" in waiting

    Tournament.objects.filter(pk=tournament.pk).update(perfect_total=251)
    shown = page_text(Client().get(_url(tournament)))
    assert "Perfect play (computer) 100.0% 251" in shown


def _url(tournament: Tournament) -> str:
    return reverse("tournaments:page", kwargs={"token": tournament.token})


def _site_key() -> bytes:
    return shared.site_key()


def test_the_standings_are_final_only_once_perfect_play_is_worked_out_and_told(
    make_user, django_capture_on_commit_callbacks, monkeypatch
):
    """The standings' streams end with the final standings: not before the perfect line is in
    them (its total written, its news told), or a watcher would keep "working it out…"."""
    from games.play import broadcast
    from games.tournaments import selectors

    told: list[dict] = []
    monkeypatch.setattr(broadcast, "publish", told.append)
    alice = make_user("alice")
    tournament = started_with(alice)
    services.end(user=tournament.host, token=tournament.token)
    tournament.refresh_from_db()
    before = selectors.board(tournament)
    assert before.over and not before.final

    told.clear()
    with django_capture_on_commit_callbacks(execute=True):
        assert perfect.work_out(tournament.pk)
    tournament.refresh_from_db()
    after = selectors.board(tournament)

    assert after.final and after.version > before.version
    assert told == [broadcast.standings_news(tournament.pk)]


def test_a_yatzy_tournament_works_it_out_on_yatzys_table(make_user):
    alice = make_user("alice")
    tournament = started_with(alice, kind=rules.YATZY.key)

    game = services.play(user=alice, token=tournament.token)
    played = play_out(alice, game)  # the perfect bot's choices, as the tournament's

    tournament.refresh_from_db()
    assert game.kind == rules.YATZY.key and tournament.is_over
    assert tournament.perfect_total == replayed(_site_key(), tournament.pk, rules.YATZY)
    assert tournament.perfect_total == played.match().sheets[0].grand_total
    assert set(played.match().sheets[0].cards[0]) == set(rules.YATZY.boxes)


def test_a_lost_perfect_task_is_asked_again_by_the_page_once_in_a_while(
    make_user, monkeypatch, django_capture_on_commit_callbacks
):
    """A tournament over for a while without perfect play's total (its task lost) has its page
    ask the worker again: once, however often the page is asked for, and not while the first
    task may still be on its way."""
    from django.core.cache import cache

    alice = make_user("alice")
    tournament = started_with(alice)
    services.end(user=tournament.host, token=tournament.token)
    asked: list[dict] = []
    monkeypatch.setattr(
        perfect, "later", lambda task, **kw: asked.append({"task": task.name, **kw})
    )
    cache.delete(f"tournament-perfect-asked:{tournament.pk}")

    def lost_since(minutes: float) -> None:
        Tournament.objects.filter(pk=tournament.pk).update(
            perfect_total=None, ended_at=timezone.now() - timedelta(minutes=minutes)
        )

    lost_since(1)  # its task may still be on its way
    with django_capture_on_commit_callbacks(execute=True):
        Client().get(_url(tournament))
    assert asked == []

    lost_since(3)
    with django_capture_on_commit_callbacks(execute=True):
        for _ in range(3):
            assert Client().get(_url(tournament)).status_code == 200
    assert asked == [{"task": tasks.work_out_perfect.name, "tournament_id": tournament.pk}]
