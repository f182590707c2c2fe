"""Opening, joining, starting, playing and ending a tournament: each refusal says why and
changes nothing; a move after the end is refused; the last game over ends it."""

from __future__ import annotations

import pytest

from games import rules
from games.errors import BadInput, GameNotFound, NotRegistered, NotTheHost, TournamentOver
from games.models import Game, GameStatus
from games.play import actions as play
from games.tournaments import services
from games.tournaments.models import Entry, Tournament
from games.tournaments.services import TournamentRefused
from tests.tournaments.tournament_support import opened, play_out, registered, started_with

pytestmark = pytest.mark.django_db


def test_a_trial_account_cannot_host(make_user):
    with pytest.raises(NotRegistered, match="Only a registered account can host"):
        services.open_tournament(host=make_user("trial"), name="Mine", listed=True)
    assert not Tournament.objects.exists()


@pytest.mark.parametrize(
    ("fields", "message"),
    [
        ({"name": "   "}, "name of 1 to 60"),
        ({"name": "x" * 61}, "name of 1 to 60"),
        ({"name": "\x00"}, "cannot hold control"),  # the fuzzer's: a 500 on PostgreSQL
        ({"name": "Cup\x00final"}, "cannot hold control"),
        ({"name": "Cup \u202eevil"}, "direction-changing"),
        ({"kind": "quintuple"}, "Classic, Triple or Yatzy"),
        ({"cap": 0}, "1 to 1,000 players"),
        ({"cap": 1001}, "1 to 1,000 players"),
    ],
)
def test_a_form_that_will_not_do_opens_nothing(fields, message):
    host = registered("host")
    with pytest.raises(BadInput, match=message):
        opened(host, **fields)
    assert not Tournament.objects.exists()


def test_joining_twice_is_refused_and_counted_once(make_user):
    tournament = opened()
    alice = make_user("alice")
    services.join(user=alice, token=tournament.token)

    with pytest.raises(TournamentRefused, match="joined this tournament already"):
        services.join(user=alice, token=tournament.token)
    tournament.refresh_from_db()
    assert tournament.entrants == 1 and Entry.objects.count() == 1


def test_a_full_tournament_takes_nobody_more(make_user):
    tournament = opened(cap=2)
    for name in ("a1", "a2"):
        services.join(user=make_user(name), token=tournament.token)

    with pytest.raises(TournamentRefused, match="full: it takes 2 players"):
        services.join(user=make_user("late"), token=tournament.token)
    tournament.refresh_from_db()
    assert tournament.entrants == 2 and Entry.objects.count() == 2


def test_nobody_joins_once_started_or_over(make_user):
    tournament = started_with(make_user("alice"))
    with pytest.raises(TournamentRefused, match="has started"):
        services.join(user=make_user("bob"), token=tournament.token)
    services.end(user=tournament.host, token=tournament.token)
    with pytest.raises(TournamentRefused, match="is over"):
        services.join(user=make_user("carol"), token=tournament.token)
    assert Entry.objects.count() == 1


def test_a_bad_token_is_no_tournament(make_user):
    with pytest.raises(GameNotFound, match="no such tournament"):
        services.join(user=make_user("alice"), token="nope")


def test_only_the_host_starts_and_ends_once(make_user):
    tournament = opened()
    alice = make_user("alice")
    with pytest.raises(TournamentRefused, match="Nobody has joined yet"):
        services.start(user=tournament.host, token=tournament.token)
    services.join(user=alice, token=tournament.token)
    with pytest.raises(NotTheHost, match="Only the tournament's host can start it"):
        services.start(user=alice, token=tournament.token)
    services.start(user=tournament.host, token=tournament.token)
    with pytest.raises(TournamentRefused, match="started already"):
        services.start(user=tournament.host, token=tournament.token)
    with pytest.raises(NotTheHost, match="Only the tournament's host can end it"):
        services.end(user=alice, token=tournament.token)
    services.end(user=tournament.host, token=tournament.token)
    ended = Tournament.objects.get().ended_at
    with pytest.raises(TournamentRefused, match="over already"):
        services.end(user=tournament.host, token=tournament.token)
    assert Tournament.objects.get().ended_at == ended


def test_an_entrant_plays_one_game_once_started(make_user):
    alice, bob = make_user("alice"), make_user("bob")
    tournament = opened()
    services.join(user=alice, token=tournament.token)
    with pytest.raises(TournamentRefused, match="has not started"):
        services.play(user=alice, token=tournament.token)
    services.start(user=tournament.host, token=tournament.token)
    with pytest.raises(TournamentRefused, match="not joined"):
        services.play(user=bob, token=tournament.token)

    game = services.play(user=alice, token=tournament.token)

    assert services.play(user=alice, token=tournament.token) == game
    assert game.tournament_id == tournament.pk and game.kind == rules.CLASSIC.key
    assert Game.objects.filter(tournament=tournament).count() == 1


def test_a_triple_tournament_plays_triple(make_user):
    alice = make_user("alice")
    tournament = started_with(alice, kind=rules.TRIPLE.key)
    assert services.play(user=alice, token=tournament.token).kind == rules.TRIPLE.key


def test_a_tournament_game_gives_no_help(make_user):
    alice = make_user("alice")
    game = services.play(user=alice, token=started_with(alice).token)
    play_out(alice, game, moves=1)
    game.refresh_from_db()

    with pytest.raises(rules.NoHelpHere, match="No hints in the daily challenge or a tournament"):
        play.take_hint(game_id=game.pk, user=alice, version=game.version)


def test_a_move_after_the_end_is_refused_and_never_counts(make_user):
    alice = make_user("alice")
    tournament = started_with(alice)
    game = services.play(user=alice, token=tournament.token)
    play_out(alice, game, moves=3)
    services.end(user=tournament.host, token=tournament.token)
    game.refresh_from_db()
    version = game.version

    with pytest.raises(TournamentOver, match=r"ended at .*no longer counts.*abandon"):
        play.roll_dice(game_id=game.pk, user=alice, version=version)
    game.refresh_from_db()
    assert game.version == version and game.status == GameStatus.IN_PROGRESS
    play.abandon_game(game_id=game.pk, user=alice)  # abandoning still may
    assert Game.objects.get(pk=game.pk).status == GameStatus.ABANDONED


def test_the_last_game_over_ends_the_tournament(make_user):
    alice, bob = make_user("alice"), make_user("bob")
    tournament = started_with(alice, bob)
    first = services.play(user=alice, token=tournament.token)
    play_out(alice, first)
    assert Tournament.objects.get().ended_at is None  # bob has still to play

    second = services.play(user=bob, token=tournament.token)
    play.abandon_game(game_id=second.pk, user=bob)

    assert Tournament.objects.get().ended_at is not None


def test_an_entrant_who_never_began_keeps_it_running(make_user):
    alice, bob = make_user("alice"), make_user("bob")
    tournament = started_with(alice, bob)
    play_out(alice, services.play(user=alice, token=tournament.token))

    assert Tournament.objects.get().ended_at is None
