"""The one door (``games.play.actions``) and what it tells (``games.events``): every action is
one transaction with what its listeners write, asks the Match what it was told to ask, and
answers with what the page shows of the move; ``Moved`` says what a move did."""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from datetime import timedelta
from typing import Any

import pytest

from accounts.models import TRIAL_GAMES
from games import events, rules, store, strategy
from games.models import Game, GameStatus, Move, Seat
from games.play import actions as play
from games.rules import Match
from games.tables import services
from tests.factories import ScriptedDice, make_user, roll_now, score_now


def thrown(*values: int) -> rules.DiceSource:
    return lambda n: values[:n]


# --- What a move did (pure) ------------------------------------------------------------------


def moved(before: Match | None, after: Match) -> events.Moved:
    return events.Moved(game=Game(), seats=[], before=before, after=after, by=None, shown=True)


def test_a_moves_events_are_the_new_end_of_the_log() -> None:
    started = Match.start(rules.CLASSIC, 2)
    rolled, _ = started.roll(0, thrown(1, 2, 3, 4, 5))

    assert moved(started, rolled).events == rolled.log[len(started.log) :] != ()
    assert moved(None, started).events == started.log  # a start: its whole log
    assert moved(started, rolled).rolled and not moved(None, started).rolled
    held, _ = rolled.hold(0, (True, False, False, False, False))
    again, _ = held.roll(0, thrown(6, 6, 6, 6))
    assert moved(rolled, again).rolled  # a re-roll: the hold, then the roll
    with pytest.raises(dataclasses.FrozenInstanceError):
        moved(rolled, again).after = rolled  # type: ignore[misc]


def test_the_turn_passes_when_the_seat_on_turn_changes_or_play_begins() -> None:
    started = Match.start(rules.CLASSIC, 2)
    rolled, _ = started.roll(0, thrown(1, 2, 3, 4, 5))
    scored, _ = rolled.score(0, "chance")

    assert moved(None, started).turn_passed_to == 0
    assert moved(started, rolled).turn_passed_to is None
    assert moved(rolled, scored).turn_passed_to == 1


def test_a_match_finishes_once_with_its_last_box() -> None:
    match = Match.start(rules.CLASSIC, 1)
    for box in rules.CATEGORIES[:-1]:
        match, _ = match.roll(0, thrown(1, 2, 3, 4, 5))
        match, _ = match.score(0, box)
    before, _ = match.roll(0, thrown(6, 6, 6, 6, 6))
    after, _ = before.score(0, rules.CATEGORIES[-1])

    assert moved(before, after).finished and not moved(match, before).finished
    assert not moved(after, after).finished  # finished already: not again


def test_a_listener_is_told_once_however_often_it_listens(monkeypatch) -> None:
    monkeypatch.setattr(events, "_listeners", [])
    heard: list[str] = []

    def first(m: events.Moved) -> None:
        heard.append("first")

    def second(m: events.Moved) -> None:
        heard.append("second")

    for listener in (first, second, first):
        events.listen(listener)
    events.tell(moved(None, Match.start(rules.CLASSIC, 1)))

    assert heard == ["first", "second"]


# --- Every action is one transaction with its listeners' writes ----------------------------

Act = Callable[[Game, Any], object]


def _solo(player, *, roll: bool = True, score: bool = False) -> Game:
    game = services.start_game(owner=player)
    if roll:
        roll_now(game, player, 6, 6, 6, 2, 2)
    if score:
        score_now(game, player, "full_house")
    return game


def _version(game: Game) -> int:
    return Game.objects.get(pk=game.pk).version


SETUPS: dict[str, Callable[[Any], tuple[Game, Callable[[Game, Any], object]]]] = {
    "hold": lambda u: (_solo(u), lambda g, u: play.set_held(
        game_id=g.pk, user=u, version=_version(g), held=[True] * 5)),
    "roll": lambda u: (_solo(u, roll=False), lambda g, u: play.roll_dice(
        game_id=g.pk, user=u, version=_version(g))),
    "score": lambda u: (_solo(u), lambda g, u: play.score_box(
        game_id=g.pk, user=u, version=_version(g), box="chance")),
    "undo": lambda u: (_solo(u, score=True), lambda g, u: play.undo_score(
        game_id=g.pk, user=u, version=_version(g))),
    "hint": lambda u: (_solo(u), lambda g, u: play.take_hint(
        game_id=g.pk, user=u, version=_version(g))),
    "first": lambda u: (services.start_game(owner=u, guests=["Ann"], roll_for_first=True),
                        lambda g, u: play.throw_for_first(game_id=g.pk, user=u)),
    "resign": lambda u: (services.start_game(owner=u, guests=["Ann"]), lambda g, u: play.resign(
        game_id=g.pk, user=u, version=_version(g))),
    "abandon": lambda u: (_solo(u), lambda g, u: play.abandon_game(game_id=g.pk, user=u)),
}  # fmt: skip


@pytest.fixture
def break_a_listener(monkeypatch) -> Callable[[], list[events.Moved]]:
    """Add a listener that writes and then fails (the whole move must be taken back); what it
    was told."""

    def arm() -> list[events.Moved]:
        told: list[events.Moved] = []

        def fails(m: events.Moved) -> None:
            told.append(m)
            Seat.objects.filter(game=m.game).update(display_name="Written by a listener")
            raise RuntimeError("a listener broke")

        monkeypatch.setattr(events, "_listeners", [*events._listeners, fails])
        return told

    return arm


@pytest.mark.parametrize("name", SETUPS)
def test_a_failing_listener_takes_back_the_whole_move(
    player, strategy_ready, break_a_listener, name
) -> None:
    game, action = SETUPS[name](player)
    before = (_version(game), Move.objects.filter(game=game).count())
    columns = ("display_name", "hints", "resigned")
    seats = list(Seat.objects.filter(game=game).values_list(*columns))
    told = break_a_listener()

    with pytest.raises(RuntimeError, match="a listener broke"):
        action(game, player)

    assert told, f"{name} told nobody"
    assert (_version(game), Move.objects.filter(game=game).count()) == before
    assert list(Seat.objects.filter(game=game).values_list(*columns)) == seats


def test_a_computers_step_and_a_skip_are_one_transaction_too(
    player, strategy_ready, break_a_listener
) -> None:
    game = services.start_game(owner=player, computers=["good"])
    roll_now(game, player, 1, 2, 3, 4, 5)
    score_now(game, player, "chance")
    bob = make_user("bob")
    online = services.open_game(owner=player, invites=1, turn_limit=60)
    services.join_game(token=online.invitations.get().token, user=bob)
    services.begin_game(game_id=online.pk, user=player)
    version = _version(game)
    break_a_listener()

    with pytest.raises(RuntimeError):
        play.play_computer(game_id=game.pk, user=player, version=version)
    assert _version(game) == version

    later = Game.objects.get(pk=online.pk).updated_at + timedelta(seconds=61)
    version = _version(online)
    with pytest.raises(RuntimeError):
        play.skip_turn(game_id=online.pk, user=bob, version=version, now=later)
    assert _version(online) == version


# --- What the door asks the Match, and answers ---------------------------------------------


def test_the_page_is_shown_the_last_move_a_computers_turn_made(player, strategy_ready) -> None:
    game = services.start_game(owner=player, computers=["perfect"])
    roll_now(game, player, 1, 2, 3, 4, 5)
    score_now(game, player, "chance")

    table = play.play_computer(
        game_id=game.pk, user=player, version=_version(game), to_the_end=True
    )

    last = [m for m in Move.objects.filter(game=game, action="score").order_by("seq")][-1]
    assert table.actor == 1 and isinstance(table.record, rules.Scoring)
    assert (table.record.box, table.record.points) == (last.box, last.points)


def test_a_scoring_is_shown_with_every_part_of_it() -> None:
    scored = rules.Scored(0, 2, "yahtzee", 50, (4, 4, 4, 4, 4), 100, True, 35)

    assert play.scoring_of(scored) == rules.Scoring(
        column=2, box="yahtzee", points=50, yahtzee_bonus=100, dice=(4, 4, 4, 4, 4),
        joker=True, upper_bonus=35,
    )  # fmt: skip


def test_a_match_begins_as_its_rows_say_it_was_set_up(player) -> None:
    together = services.start_game(owner=player, guests=["Ann"], roll_for_first=True)
    match = store.load(game_id=together.pk, user=player).match()
    assert match.players == (0, 0) and match.phase is rules.MatchPhase.ROLLING_FOR_FIRST

    bob = make_user("bob")
    online = services.open_game(owner=bob, invites=1, turn_limit=3600)
    services.join_game(token=online.invitations.get().token, user=player)
    services.begin_game(game_id=online.pk, user=bob)
    match = store.load(game_id=online.pk, user=player).match()
    assert (match.host, match.turn_limit, match.challenge) == (0, 3600, False)

    from games.daily.services import start_challenge

    daily = start_challenge(user=make_user("carol"))
    assert Game.objects.get(pk=daily.pk).challenge_day is not None
    carol = Seat.objects.get(game=daily).user
    assert store.load(game_id=daily.pk, user=carol).match().challenge


def test_the_dice_a_roll_and_a_throw_are_given_are_the_ones_thrown(player) -> None:
    game = services.start_game(owner=player)
    table = play.roll_dice(
        game_id=game.pk,
        user=player,
        version=_version(game),
        dice_source=ScriptedDice(5, 4, 3, 2, 1),
    )
    assert table.match().turn.dice == (5, 4, 3, 2, 1)

    drawing = services.start_game(owner=player, guests=["Ann"], roll_for_first=True)
    table = play.throw_for_first(
        game_id=drawing.pk, user=player, dice_source=ScriptedDice(6, 6, 6, 6, 6, 1, 1, 1, 1, 1)
    )
    assert table.match().first == 0  # the host's 30 beat Ann's 5


def test_a_hint_ranks_the_best_and_two_more_for_the_table_it_is_asked_at(
    player, strategy_ready
) -> None:
    game = services.start_game(owner=player, guests=["Ann"])
    roll_now(game, player, 6, 6, 6, 2, 2)

    _, found = play.take_hint(game_id=game.pk, user=player, version=_version(game))

    assert len(found.options) == 3
    assert not found.exact  # a game of two: the stated estimate, not solitaire's exact table


def test_a_skip_waits_for_the_turn_limit(player) -> None:
    bob = make_user("bob")
    online = services.open_game(owner=player, invites=1, turn_limit=60)
    services.join_game(token=online.invitations.get().token, user=bob)
    services.begin_game(game_id=online.pk, user=player)
    since = Game.objects.get(pk=online.pk).updated_at

    with pytest.raises(rules.CannotSkip):
        play.skip_turn(
            game_id=online.pk, user=bob, version=_version(online), now=since + timedelta(seconds=30)
        )
    play.skip_turn(
        game_id=online.pk, user=bob, version=_version(online), now=since + timedelta(seconds=61)
    )
    assert Move.objects.filter(game=online, action="skip").count() == 1


def test_a_seat_without_a_named_strategy_plays_as_the_good_computer(
    player, strategy_ready, monkeypatch
) -> None:
    game = services.start_game(owner=player, computers=["perfect"])
    Seat.objects.filter(game=game, position=1).update(bot="")
    roll_now(game, player, 1, 2, 3, 4, 5)
    score_now(game, player, "chance")
    asked: list[str] = []
    real = strategy.make_bot

    def recorded(name: str, *args: Any) -> strategy.Bot:
        asked.append(name)
        return real(name, *args)

    monkeypatch.setattr(strategy, "make_bot", recorded)
    play.play_computer(game_id=game.pk, user=player, version=_version(game))

    assert asked == ["good"]


# --- Abandoning ----------------------------------------------------------------------------


def test_abandoning_before_the_first_roll_gives_the_trial_game_back(player) -> None:
    trial = make_user("trial")
    unplayed, played = services.start_game(owner=trial), services.start_game(owner=trial)
    roll_now(played, trial, 1, 2, 3, 4, 5)

    given_back = play.abandon_game(game_id=unplayed.pk, user=trial)
    kept = play.abandon_game(game_id=played.pk, user=trial)

    assert (given_back.trial_games_given_back, kept.trial_games_given_back) == (1, 0)
    trial.refresh_from_db()
    assert trial.trial_games_used == 1 < TRIAL_GAMES


def test_a_waiting_game_is_closed_by_its_host_and_left_by_the_others(player) -> None:
    bob = make_user("bob")
    game = services.open_game(owner=player, invites=1)
    services.join_game(token=game.invitations.get().token, user=bob)

    left = play.abandon_game(game_id=game.pk, user=bob)
    closed = play.abandon_game(game_id=game.pk, user=player)

    assert (left.left, left.trial_games_given_back, len(left.seated.seats)) == (True, 0, 1)
    assert (closed.left, closed.trial_games_given_back) == (False, 0)
    assert closed.seated.game.status == GameStatus.ABANDONED


def test_what_the_door_asks_and_answers_are_values() -> None:
    with pytest.raises(dataclasses.FrozenInstanceError):
        play.ComputersTurn(to_the_end=True).to_the_end = False  # type: ignore[misc]
    abandoned = play.Abandoned(seated=None, trial_games_given_back=0)  # type: ignore[arg-type]
    with pytest.raises(dataclasses.FrozenInstanceError):
        abandoned.left = True  # type: ignore[misc]
    assert abandoned.left is False


def test_a_begun_match_is_told_as_a_start_and_computers_throw_for_first_at_once(
    player, monkeypatch
) -> None:
    heard: list[events.Moved] = []
    monkeypatch.setattr(events, "_listeners", [*events._listeners, heard.append])

    game = services.start_game(owner=player, computers=["good"], roll_for_first=True)

    (start,) = heard
    assert start.before is None and start.turn_passed_to is None  # both to throw: no turn yet
    assert [type(e) for e in start.events] == [rules.Started, rules.FirstRoll]
    assert Move.objects.get(game=game).action == "first"  # the computer's throw, logged


def test_each_match_begins_with_the_setup_its_rows_say(player, monkeypatch) -> None:
    heard: list[events.Moved] = []
    monkeypatch.setattr(events, "_listeners", [*events._listeners, heard.append])
    bob = make_user("bob")
    online = services.open_game(owner=bob, invites=1, turn_limit=3600)
    services.join_game(token=online.invitations.get().token, user=player)
    from games.daily.services import start_challenge

    services.start_game(owner=player, guests=["Ann"], computers=["good"], roll_for_first=True)
    services.begin_game(game_id=online.pk, user=bob)
    start_challenge(user=make_user("carol"))

    together, remote, daily = (m.after for m in heard if m.before is None)
    assert together.players == (0, 0, None) and together.contenders == (0, 1, 2)
    assert (remote.turn_limit, remote.players, remote.challenge) == (3600, (0, 1), False)
    assert daily.challenge and daily.seats == 1


CLOCKED = {
    "hold": lambda g, u, now: play.set_held(
        game_id=g.pk, user=u, version=_version(g), held=[False] * 5, now=now),
    "roll": lambda g, u, now: play.roll_dice(game_id=g.pk, user=u, version=_version(g), now=now),
    "score": lambda g, u, now: play.score_box(
        game_id=g.pk, user=u, version=_version(g), box="chance", now=now),
    "undo": lambda g, u, now: play.undo_score(game_id=g.pk, user=u, version=_version(g), now=now),
    "hint": lambda g, u, now: play.take_hint(game_id=g.pk, user=u, version=_version(g), now=now),
    "first": lambda g, u, now: play.throw_for_first(game_id=g.pk, user=u, now=now),
    "computer": lambda g, u, now: play.play_computer(
        game_id=g.pk, user=u, version=_version(g), now=now),
    "resign": lambda g, u, now: play.resign(game_id=g.pk, user=u, version=_version(g), now=now),
    "skip": lambda g, u, now: play.skip_turn(game_id=g.pk, user=u, version=_version(g), now=now),
}  # fmt: skip


@pytest.mark.parametrize("name", CLOCKED)
def test_every_action_asks_the_clock_it_is_given_whether_a_challenge_still_counts(
    player, name
) -> None:
    from games.daily import clock
    from games.daily.services import start_challenge

    game = start_challenge(user=player)
    roll_now(game, player, 1, 2, 3, 4, 5)
    tomorrow = clock.closes_at(Game.objects.get(pk=game.pk).challenge_day) + timedelta(minutes=1)

    with pytest.raises(clock.ChallengeClosed):
        CLOCKED[name](game, player, tomorrow)
