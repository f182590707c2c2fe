"""A tournament's dice: one face per (tournament, turn, roll, position), the same in every
game of the tournament; another tournament (or a day's challenge) throws others."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from games.daily import dice as daily_dice
from games.daily.dice import site_key
from games.models import Game
from games.tournaments import dice, services
from tests.tournaments.tournament_support import faces_thrown, play_out, started_with

KEY = b"a fixed key for the tournaments' tests"
PLACES = [(r, n, p) for r in range(1, 14) for n in (1, 2, 3) for p in range(5)]


@given(st.integers(1, 2**40), st.integers(1, 39), st.integers(1, 3), st.integers(0, 4))
def test_a_face_is_a_die_and_the_same_every_time(tournament, round, roll, position):
    shown = dice.face(KEY, tournament, round, roll, position)

    assert 1 <= shown <= 6
    assert dice.face(KEY, tournament, round, roll, position) == shown


def test_another_tournament_throws_other_dice():
    ours = [dice.face(KEY, 7, *place) for place in PLACES]
    theirs = [dice.face(KEY, 8, *place) for place in PLACES]

    assert ours != theirs
    assert sum(a == b for a, b in zip(ours, theirs, strict=True)) < len(ours) / 3


def test_a_tournament_is_not_a_day():
    """Its own prefix: tournament 20261203 throws no day's faces."""
    from datetime import date

    ours = [dice.face(KEY, 20261203, *place) for place in PLACES]
    day = [daily_dice.face(KEY, date(2026, 12, 3), *place) for place in PLACES]

    assert ours != day


@pytest.mark.django_db
def test_every_die_of_every_game_is_the_tournaments_face(make_user):
    """Two entrants playing alike play the same game; a third, a beginner, throws the same face
    wherever it throws the same (turn, roll, position)."""
    alice, bob, carol = make_user("alice"), make_user("bob"), make_user("carol")
    tournament = started_with(alice, bob, carol)
    games = {}
    for player, style in ((alice, "perfect"), (bob, "perfect"), (carol, "beginner")):
        games[player.pk] = services.play(user=player, token=tournament.token)
        play_out(player, games[player.pk], decide=style)

    thrown = {pk: faces_thrown(Game.objects.get(pk=game.pk)) for pk, game in games.items()}
    assert thrown[alice.pk] == thrown[bob.pk]
    for round, roll, position, face in [*thrown[alice.pk], *thrown[carol.pk]]:
        assert face == dice.face(site_key(), tournament.pk, round, roll, position)
    finished = Game.objects.filter(pk__in=[g.pk for g in games.values()])
    assert {g.status for g in finished} == {"finished"}


@pytest.mark.django_db
def test_two_tournaments_games_throw_differently(make_user):
    alice = make_user("alice")
    first = started_with(alice)
    second = started_with(alice)
    games = [services.play(user=alice, token=t.token) for t in (first, second)]
    for game in games:
        play_out(alice, game, moves=1)  # the first roll: five dice

    rolls = [faces_thrown(game) for game in games]
    assert [f for *_, f in rolls[0]] != [f for *_, f in rolls[1]]
