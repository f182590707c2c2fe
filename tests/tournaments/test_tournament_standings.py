"""The standings: while it runs, each entrant's total so far and boxes left; once over, ranked
by accuracy (not by total), ties sharing a rank, the unfinished after the ranked."""

from __future__ import annotations

import pytest

from games.daily.results import tenths
from games.models import Grading, Seat
from games.tournaments import selectors, services
from tests.factories import sheet_of
from tests.tournaments.tournament_support import play_out, started_with

pytestmark = pytest.mark.django_db


def by_name(lines):
    return {line.name: line for line in lines}


def test_while_it_runs_totals_so_far_and_boxes_left(make_user):
    alice, bob, carol = (make_user(n, display_name=n.title()) for n in ("alice", "bob", "carol"))
    tournament = started_with(alice, bob, carol)
    a = services.play(user=alice, token=tournament.token)
    b = services.play(user=bob, token=tournament.token)
    play_out(alice, a)
    play_out(bob, b, decide="beginner", moves=6)

    lines = selectors.standings(tournament, viewer=bob)

    shown = by_name(lines)
    assert shown["Alice"].total == Seat.objects.get(game=a).grand_total
    assert shown["Alice"].boxes_left == 0 and shown["Alice"].state == "finished"
    bobs = sheet_of(b)
    assert shown["Bob"].total == bobs.grand_total
    assert shown["Bob"].boxes_left == 13 - len(bobs.cards[0]) and shown["Bob"].mine
    assert shown["Carol"].state == "waiting" and shown["Carol"].total is None
    assert [line.name for line in lines] == sorted(shown, key=lambda n: -(shown[n].total or 0))
    assert all(line.rank is None for line in lines)  # no rank before the end


def test_once_over_ranked_by_accuracy_not_by_total(make_user):
    names = ("high", "sharp", "tied", "slow", "never")
    players = [make_user(n, display_name=n.title()) for n in names]
    tournament = started_with(*players)
    games = {}
    for player in players[:4]:
        games[player.username] = services.play(user=player, token=tournament.token)
        if player.username != "slow":
            play_out(player, games[player.username])
    play_out(players[3], games["slow"], moves=4)
    # As grading would have it: the highest total played worse than the sharpest.
    for name, accuracy in (("high", 80.04), ("sharp", 91.2), ("tied", 80.0)):
        Seat.objects.filter(game=games[name]).update(accuracy=accuracy, grading=Grading.EXACT)
    Seat.objects.filter(game=games["high"]).update(grand_total=400)
    services.end(user=tournament.host, token=tournament.token)
    tournament.refresh_from_db()

    lines = selectors.standings(tournament, viewer=None)

    assert [(line.name, line.rank) for line in lines[:3]] == [
        ("Sharp", 1),
        ("High", 2),  # 80.0% as shown, like Tied: the earlier finish first, one rank
        ("Tied", 2),
    ]
    assert lines[0].accuracy_tenths == tenths(91.2) and lines[0].accuracy_shown == "91.2%"
    assert {line.name: line.state for line in lines[3:]} == {
        "Slow": "unfinished",
        "Never": "waiting",
    }
    assert all(line.rank is None for line in lines[3:])


def test_a_finished_card_not_yet_graded_waits_unranked(make_user):
    alice = make_user("alice", display_name="Alice")
    tournament = started_with(alice)
    game = services.play(user=alice, token=tournament.token)
    play_out(alice, game)  # its end ends the tournament: all games are over
    Seat.objects.filter(game=game).update(accuracy=None, grading=Grading.PENDING)
    tournament.refresh_from_db()

    (line,) = selectors.standings(tournament, viewer=alice)

    assert tournament.is_over and line.grading and line.rank is None
