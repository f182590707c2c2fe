"""What the mutation run (``make mutation``) found the other match tests leave open: which
refusal a move meets first, what a decided draw leaves behind, and that the match's values
(events and actions) are frozen like the match itself."""

from __future__ import annotations

import dataclasses

import pytest

from games import rules
from games.rules import Match, MatchPhase, actions
from tests.rules.test_match import PLAIN, play_turn, roll_off, throws

# --- The draw for first -----------------------------------------------------------------------


def test_a_decided_draw_leaves_no_contenders_behind() -> None:
    match = roll_off(Match.start(rules.CLASSIC, 3, roll_for_first=True), s0=PLAIN, s1=(6,) * 5)
    match = roll_off(match, s2=(1,) * 5)
    assert (match.phase, match.first, match.contenders) == (MatchPhase.PLAYING, 1, ())


def test_a_resigned_player_is_told_so_before_being_told_the_draw_goes_on_without_them() -> None:
    match, _ = Match.start(rules.CLASSIC, 3, roll_for_first=True).resign(1)
    with pytest.raises(rules.SeatResigned, match=r"^You have resigned from this game\.$"):
        match.roll_for_first(1, throws(PLAIN))


def test_nobody_throws_for_first_in_an_ended_game_nor_for_a_seat_not_at_the_table() -> None:
    match = Match.start(rules.CLASSIC, 2, roll_for_first=True)
    with pytest.raises(rules.UnknownSeat, match=r"^There is no seat 2 at this game\.$"):
        match.roll_for_first(2, throws(PLAIN))
    ended, _ = match.end(0)
    with pytest.raises(rules.MatchOver, match=r"^The game was ended\.$"):
        ended.roll_for_first(1, throws(PLAIN))


# --- Resign and skip --------------------------------------------------------------------------


def test_a_scorer_who_resigns_leaves_no_scoring_to_take_back() -> None:
    match = play_turn(Match.start(rules.CLASSIC, 3))
    assert match.undo is not None
    match, _ = match.resign(0)
    assert match.undo is None and not match.can_undo(0)


def test_there_is_no_seat_beyond_the_table_to_skip() -> None:
    match = Match.start(rules.CLASSIC, 2, turn_limit=60)
    with pytest.raises(rules.UnknownSeat, match=r"^There is no seat 7 at this game\.$"):
        match.skip(7, by=1, idle=600)


def test_a_skip_asked_for_directly_keeps_the_time_limit_too() -> None:
    match = Match.start(rules.CLASSIC, 2, turn_limit=60)
    assert not match.can_skip(0, by=1, idle=15) and match.can_skip(0, by=1, idle=60)
    with pytest.raises(rules.CannotSkip, match=r"^The player on turn has 45 more seconds to play"):
        match.skip(0, by=1, idle=15)
    skipped, event = match.skip(0, by=1, idle=60)
    assert (event, skipped.on_turn) == (rules.Skipped(0, 1, 0, "aces"), 1)


# --- Frozen values ----------------------------------------------------------------------------

EVENTS = (
    rules.Started("classic", 2),
    rules.FirstRoll(0, PLAIN),
    rules.Rolled(0, PLAIN, (False,) * 5, 1),
    rules.HeldDice(0, (True,) * 5),
    rules.Scored(0, 0, "chance", 16, PLAIN),
    rules.Undone(0, 0, "chance", 16),
    rules.Resigned(0),
    rules.Skipped(1, 0, 0, "aces"),
    rules.Ended(0),
)
ACTIONS = (
    actions.Hold(0, (True,) * 5),
    actions.Roll(0),
    actions.Score(0, "chance"),
    actions.Undo(0),
    actions.Resign(0),
    actions.Skip(0, 61.0),
    actions.End(0),
    actions.ThrowForFirst(None),
)


@pytest.mark.parametrize("value", EVENTS + ACTIONS, ids=lambda v: type(v).__name__)
def test_events_and_actions_are_frozen_values(value: object) -> None:
    name = dataclasses.fields(value)[0].name  # type: ignore[arg-type]
    with pytest.raises(dataclasses.FrozenInstanceError):
        setattr(value, name, 1)
    assert hash(value) == hash(dataclasses.replace(value))  # type: ignore[type-var]
