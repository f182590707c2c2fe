"""Joins racing on their own connections, released at one barrier (SQLite and PostgreSQL
alike): never past the cap, one entry per account; the host's end racing the last move."""

from __future__ import annotations

import pytest

from games.errors import TournamentOver
from games.tournaments import services
from games.tournaments.models import Entry, Tournament
from tests.factories import make_user
from tests.licensing.licensing_support import run_together
from tests.tournaments.tournament_support import opened, play_out, started_with

pytestmark = pytest.mark.django_db(transaction=True)


def test_eight_racing_for_three_places_seat_three():
    tournament = opened(cap=3)
    racers = [make_user(f"racer{i}") for i in range(8)]

    results = run_together(8, lambda i: services.join(user=racers[i], token=tournament.token))

    refused = [r for r in results if isinstance(r, Exception)]
    assert len(refused) == 5, results
    assert {str(r) for r in refused} == {"This tournament is full: it takes 3 players."}
    tournament.refresh_from_db()
    assert tournament.entrants == 3 == Entry.objects.filter(tournament=tournament).count()


@pytest.mark.parametrize("attempt", range(2))
def test_one_account_joining_twice_at_once_enters_once(attempt):
    tournament = opened()
    bob = make_user("bob")

    results = run_together(4, lambda i: services.join(user=bob, token=tournament.token))

    refused = [r for r in results if isinstance(r, Exception)]
    assert len(refused) == 3, results
    assert {str(r) for r in refused} == {"You have joined this tournament already."}
    tournament.refresh_from_db()
    assert tournament.entrants == 1 == Entry.objects.filter(tournament=tournament).count()


def test_the_cap_holds_at_a_thousand():
    """The largest tournament: the thousandth joins, the next is told it is full."""
    tournament = opened()
    Tournament.objects.filter(pk=tournament.pk).update(entrants=999)
    last, late = make_user("last"), make_user("late")

    services.join(user=last, token=tournament.token)
    with pytest.raises(services.TournamentRefused, match="full: it takes 1,000 players"):
        services.join(user=late, token=tournament.token)
    assert Tournament.objects.get(pk=tournament.pk).entrants == 1000


def test_a_move_racing_the_end_is_before_it_or_refused():
    alice = make_user("alice")
    tournament = started_with(alice)
    game = services.play(user=alice, token=tournament.token)
    play_out(alice, game, moves=1)
    game.refresh_from_db()

    def act(i: int) -> object:
        if i == 0:
            return services.end(user=tournament.host, token=tournament.token)
        from games.play import actions as play

        return play.score_box(game_id=game.pk, user=alice, version=game.version, box="chance")

    results = run_together(2, act)

    tournament.refresh_from_db()
    assert tournament.ended_at is not None
    moved = results[1]
    if isinstance(moved, Exception):
        assert isinstance(moved, TournamentOver), results
    else:  # committed first: the end waited for it
        game.refresh_from_db()
        assert game.updated_at <= tournament.ended_at
