"""The standings while a tournament runs: each entrant's accuracy so far (graded on the worker
after each score, a late grade never over a newer one) and the leader's expected final (total
so far + the strategy table's value of their card)."""

from __future__ import annotations

from typing import Any

import pytest
from django.test import TestCase
from django.urls import reverse

from games import advice, rules, store, strategy
from games.daily.results import tenths
from games.tournaments import grading, selectors, services
from games.tournaments.models import Entry
from tests.factories import client_for, sheet_of
from tests.tournaments.tournament_support import score_a_turn, started_with

pytestmark = pytest.mark.django_db

OPTIMUM = 254.5877
"""The expected final of a new Classic game under perfect play, this site's forced Joker
(``tests/strategy/test_strategy_solver.py``)."""


def scored(user: Any, game: Any, turns: int, decide: str = "beginner") -> None:
    with TestCase.captureOnCommitCallbacks(execute=True):
        for turn in range(turns):
            score_a_turn(user, game, decide, seed=turn)


def test_each_score_grades_the_accuracy_so_far(make_user):
    alice = make_user("alice", display_name="Alice")
    tournament = started_with(alice)
    game = services.play(user=alice, token=tournament.token)

    scored(alice, game, 3)

    turns = rules.played_turns(store.replay(game).log, 0)
    record = strategy.GameRecord(
        [strategy.TurnRecord(t.rolls, t.holds, t.box, t.column) for t in turns]
    )
    expected = strategy.analyse(advice.advisor(), record).accuracy
    entry = Entry.objects.get(game=game)
    assert (entry.graded_turns, entry.accuracy) == (3, expected)
    assert expected < 100  # the beginner gave something away: a grade, not a default
    line = selectors.board(tournament).lines[0]
    assert (line.so_far_tenths, line.graded_turns) == (tenths(expected), 3)
    page = client_for(alice).get(reverse("tournaments:page", args=[tournament.token]))
    assert f"{tenths(expected) / 10:.1f}% <small>(3 turns)</small>" in page.content.decode()


def test_a_late_grade_never_overwrites_a_newer_one(make_user):
    alice = make_user("alice", display_name="Alice")
    tournament = started_with(alice)
    game = services.play(user=alice, token=tournament.token)
    scored(alice, game, 2)
    Entry.objects.filter(game=game).update(accuracy=12.5, graded_turns=5)  # as a newer grade

    assert grading.grade_so_far(game.pk) is False

    entry = Entry.objects.get(game=game)
    assert (entry.accuracy, entry.graded_turns) == (12.5, 5)


def test_the_leaders_expected_final_at_the_start_is_the_optimum(make_user):
    alice, bob = (make_user(n, display_name=n.title()) for n in ("alice", "bob"))
    tournament = started_with(alice, bob)
    services.play(user=alice, token=tournament.token)

    lines = {line.name: line for line in selectors.board(tournament).lines}

    assert lines["Alice"].expected_final == pytest.approx(OPTIMUM, abs=1e-4)
    assert lines["Bob"].expected_final is None  # not begun: no card to expect from


def test_the_leaders_expected_final_is_total_plus_the_tables_value(make_user):
    alice, bob = (make_user(n, display_name=n.title()) for n in ("alice", "bob"))
    tournament = started_with(alice, bob)
    games = {u.username: services.play(user=u, token=tournament.token) for u in (alice, bob)}
    scored(alice, games["alice"], 3, decide="perfect")
    scored(bob, games["bob"], 1)

    board = selectors.board(tournament)

    sheets = {name: sheet_of(g) for name, g in games.items()}
    best = max(sheets, key=lambda name: sheets[name].grand_total)
    card = sheets[best].cards[0]
    table = advice.advisor().table
    value = sheets[best].grand_total + table.value(strategy.State.of_card(card))
    assert board.lines[0].name == best.title()
    assert board.lines[0].expected_final == pytest.approx(value)
    assert board.lines[1].expected_final is None and not board.expected_is_estimate


def test_triple_says_its_expected_final_is_an_estimate(make_user):
    alice = make_user("alice", display_name="Alice")
    tournament = started_with(alice, kind="triple")
    services.play(user=alice, token=tournament.token)

    page = client_for(alice).get(reverse("tournaments:page", args=[tournament.token]))

    assert selectors.board(tournament).expected_is_estimate
    assert "<small>(estimate)</small>" in page.content.decode()


def test_the_page_marks_its_viewer_and_offers_the_stream(make_user):
    alice = make_user("alice", display_name="Alice")
    tournament = started_with(alice)
    entry = Entry.objects.get(user=alice)

    html = client_for(alice).get(reverse("tournaments:page", args=[tournament.token]))

    text = html.content.decode()
    assert 'class="tag tag-you">you</span>' in text
    assert f'data-my-entry="{entry.pk}"' in text
    assert reverse("tournaments:stream", args=[tournament.token]) in text
    assert "js/standings.js" in text
