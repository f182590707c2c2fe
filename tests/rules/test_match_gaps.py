"""What the mutation run (``make mutation``) found the other match tests leave open: which
refusal a move meets first, what a decided draw leaves behind, and that the match's values
(events and actions) are frozen like the match itself."""

from __future__ import annotations

import dataclasses

import pytest

from games import rules
from games.rules import Match, MatchPhase, actions
from tests.rules.test_match import PLAIN, first_open_box, play_turn, roll_off, throws

# --- Setting up -------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("options", "message"),
    [
        ({"host": -1}, r"^The host must sit at the table \(seat 0 to 1\)\.$"),
        ({"players": (0, -1)}, r"^Each seat is played by a person seated at the table, or none\.$"),
        ({"players": (0, 2)}, r"^Each seat is played by a person seated at the table, or none\.$"),
        ({"turn_limit": 0}, r"^A turn limit is a number of seconds above zero\.$"),
    ],
)
def test_a_match_is_not_set_up_with_a_seat_that_is_not_at_the_table(
    options: dict[str, object], message: str
) -> None:
    with pytest.raises(ValueError, match=message):
        Match.start(rules.CLASSIC, 2, **options)  # type: ignore[arg-type]


def test_one_to_six_seats_and_a_one_second_limit_are_allowed() -> None:
    assert Match.start(rules.CLASSIC, 1).seats == 1
    assert Match.start(rules.CLASSIC, 6, turn_limit=1, host=5).host == 5


# --- Turns ------------------------------------------------------------------------------------


def test_only_the_seat_on_turn_or_still_to_throw_for_first_has_a_move_to_make() -> None:
    match = Match.start(rules.CLASSIC, 3)
    assert [match.can_act(s) for s in range(3)] == [True, False, False]
    drawing = roll_off(Match.start(rules.CLASSIC, 3, roll_for_first=True), s1=PLAIN)
    assert [drawing.can_act(s) for s in range(3)] == [True, False, True]
    ended, _ = match.end(0)
    assert [ended.can_act(s) for s in range(3)] == [False, False, False]


def test_there_is_no_seat_before_the_first() -> None:
    match = Match.start(rules.CLASSIC, 2)
    with pytest.raises(rules.UnknownSeat, match=r"^There is no seat -1 at this game\.$"):
        match.roll(-1, throws(PLAIN))


def test_a_box_is_scored_in_the_first_column_unless_another_is_named() -> None:
    match, _ = Match.start(rules.CLASSIC, 1).roll(0, throws(PLAIN))
    assert match.verify_score(0, "chance") == 16
    assert not match.can_hold(0, (True,) * 3)


# --- The draw for first -----------------------------------------------------------------------


def test_the_draw_for_first_is_played_in_round_one() -> None:
    match = Match.start(rules.TRIPLE, 2, roll_for_first=True)
    assert (match.phase, match.current, match.round) == (MatchPhase.ROLLING_FOR_FIRST, None, 1)


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


def test_ending_the_game_closes_the_undo() -> None:
    match = play_turn(Match.start(rules.CLASSIC, 2))
    assert match.undo is not None
    ended, _ = match.end(0)
    assert (ended.phase, ended.undo) == (MatchPhase.ABANDONED, None)


def _seat_1_has_filled(match: Match, *, but: tuple[str, ...] = ()) -> Match:
    card = {box: 0 for box in rules.CATEGORIES if box not in but}
    return dataclasses.replace(match, sheets=(match.sheets[0], rules.Sheet(rules.CLASSIC, (card,))))


def test_a_match_finished_by_a_resignation_has_nobody_on_turn_no_dice_and_no_undo() -> None:
    match, _ = _seat_1_has_filled(Match.start(rules.CLASSIC, 2)).roll(0, throws(PLAIN))
    finished, _ = match.resign(0)
    assert (finished.phase, finished.current, finished.turn) == (
        MatchPhase.FINISHED,
        None,
        rules.Turn(),
    )
    match = _seat_1_has_filled(Match.start(rules.CLASSIC, 2), but=("chance",))
    match, _ = dataclasses.replace(match, current=1).roll(1, throws(PLAIN))
    match, _ = match.score(1, "chance")  # seat 1's last box: its undo stays open
    assert match.on_turn == 0 and match.undo is not None
    finished, _ = match.resign(0)
    assert (finished.phase, finished.undo) == (MatchPhase.FINISHED, None)


def test_the_last_player_resigning_with_dice_on_the_table_leaves_none() -> None:
    match, _ = Match.start(rules.CLASSIC, 1).roll(0, throws(PLAIN))
    abandoned, _ = match.resign(0)
    assert (abandoned.phase, abandoned.turn) == (MatchPhase.ABANDONED, rules.Turn())


def test_the_turn_passes_round_the_table_past_resigned_seats() -> None:
    match, _ = Match.start(rules.CLASSIC, 4).resign(3)
    match, _ = match.resign(1)
    seen = []
    for _ in range(4):
        match = play_turn(match, first_open_box(match))
        seen.append(match.on_turn)
    assert seen == [2, 0, 2, 0]


# --- Actions as values: can and verify say what act would ---------------------------------------


def test_can_says_no_to_each_action_act_would_refuse() -> None:
    match = Match.start(rules.CLASSIC, 3, turn_limit=60)
    match, _ = match.resign(2)
    match, _ = match.roll(0, throws(PLAIN))
    assert match.can(actions.Roll(0)) and match.can(actions.Roll(0, (True,) * 5))
    assert match.can(actions.Hold(0, (True,) * 5)) and not match.can(actions.Hold(1, (True,) * 5))
    assert not match.can(actions.Roll(0, (True,) * 3))  # a hold of three dice is no hold
    assert not match.can(actions.Roll(1))
    assert not match.can(actions.Undo(0))
    assert not match.can(actions.Resign(2))
    assert not match.can(actions.Skip(1, idle=15)) and match.can(actions.Skip(1, idle=60))
    with pytest.raises(rules.InvalidHold, match=r"^Say for each of the five dice whether"):
        match.verify(actions.Roll(0, (True,) * 3))
    with pytest.raises(rules.OutOfTurn, match=r"^It is not your turn\.$"):
        match.verify(actions.Roll(1))
    with pytest.raises(rules.NothingToUndo, match=r"^There is no scoring to take back"):
        match.verify(actions.Undo(0))
    with pytest.raises(rules.SeatResigned, match=r"^You have resigned from this game\.$"):
        match.verify(actions.Resign(2))
    with pytest.raises(rules.CannotSkip, match=r"^The player on turn has 45 more seconds"):
        match.verify(actions.Skip(1, idle=15))


def test_can_says_no_to_ending_for_a_guest_and_to_throwing_once_the_draw_is_decided() -> None:
    match = Match.start(rules.CLASSIC, 2)
    assert match.can(actions.End(0)) and not match.can(actions.End(1))
    assert not match.can(actions.ThrowForFirst(0))
    with pytest.raises(rules.NotHost, match=r"^Only the host can end the game for everyone\.$"):
        match.verify(actions.End(1))
    with pytest.raises(rules.OutOfTurn, match=r"^Who goes first is already decided\.$"):
        match.verify(actions.ThrowForFirst(0))


def test_verify_says_why_for_a_seat_not_at_the_table_and_a_game_already_ended() -> None:
    match = Match.start(rules.CLASSIC, 2, roll_for_first=True, turn_limit=60)
    with pytest.raises(rules.UnknownSeat, match=r"^There is no seat 7 at this game\.$"):
        match.verify(actions.ThrowForFirst(7))
    ended, _ = Match.start(rules.CLASSIC, 2, turn_limit=60).end(0)
    with pytest.raises(rules.MatchOver, match=r"^The game was ended\.$"):
        ended.verify(actions.Skip(1, idle=600))
    alone, _ = Match.start(rules.CLASSIC, 1).end(0)
    with pytest.raises(rules.MatchOver, match=r"^The game was ended\.$"):
        alone.verify(actions.ThrowForFirst(None))


def test_computer_players_throw_for_first_in_seating_order() -> None:
    match = Match.start(
        rules.CLASSIC, 3, roll_for_first=True, players=(0, None, None), dice=throws(PLAIN, (6,) * 5)
    )
    assert match.first_rolls == (None, PLAIN, (6,) * 5)
    assert [e.seat for e in match.log if isinstance(e, rules.FirstRoll)] == [1, 2]


def test_can_roll_only_while_rolls_are_left() -> None:
    match = Match.start(rules.CLASSIC, 1)
    for _ in range(3):
        assert match.can(actions.Roll(0))
        match = match.act(actions.Roll(0), throws(PLAIN))
    assert not match.can(actions.Roll(0))
    with pytest.raises(rules.NoRollsLeft, match=r"^You have used all three rolls"):
        match.verify(actions.Roll(0))


def test_a_re_roll_holds_what_it_says_first() -> None:
    match = Match.start(rules.CLASSIC, 1).act(actions.Roll(0), throws(PLAIN))
    match = match.act(actions.Roll(0, (True, True, False, False, False)), throws((6, 6, 6)))
    assert match.log[-2:] == (
        rules.HeldDice(0, (True, True, False, False, False)),
        rules.Rolled(0, (1, 2, 6, 6, 6), (True, True, False, False, False), 2),
    )


# --- The log ----------------------------------------------------------------------------------


def test_a_log_that_names_only_the_kind_and_the_seats_replays_to_the_plainest_match() -> None:
    replayed = Match.replay([rules.Started("triple", 2)])
    assert replayed == Match.start(rules.TRIPLE, 2)
    assert (replayed.phase, replayed.host, replayed.on_turn) == (MatchPhase.PLAYING, 0, 0)


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


def test_a_match_is_frozen_made_by_keyword_and_shown_without_its_undo() -> None:
    match = play_turn(Match.start(rules.CLASSIC, 2))
    with pytest.raises(dataclasses.FrozenInstanceError):
        match.host = 1  # type: ignore[misc]
    with pytest.raises(TypeError):
        Match(rules.CLASSIC, match.sheets, match.states)  # type: ignore[misc]
    assert match.undo is not None and "undo=" not in repr(match)


@pytest.mark.parametrize("value", EVENTS + ACTIONS, ids=lambda v: type(v).__name__)
def test_events_and_actions_are_frozen_values(value: object) -> None:
    name = dataclasses.fields(value)[0].name  # type: ignore[arg-type]
    with pytest.raises(dataclasses.FrozenInstanceError):
        setattr(value, name, 1)
    assert hash(value) == hash(dataclasses.replace(value))  # type: ignore[type-var]
