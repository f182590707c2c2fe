"""The whole match: who goes first, whose turn it is, undo, resign, skip, the end and the log."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from games import rules
from games.rules import Match, MatchPhase

Throw = tuple[int, ...]
STRAIGHT = (1, 2, 3, 4, 5)
PLAIN = (1, 2, 3, 4, 6)  # no five of a kind, so every open box is legal
HOLD_TWO = (True, True, False, False, False)


def throws(*dice: Throw) -> rules.DiceSource:
    """A dice source handing out ``dice``, one throw per call, each cut to the dice asked for."""
    queue = list(dice)
    return lambda n: queue.pop(0)[:n]


def roll_off(match: Match, **totals_by_seat: Throw) -> Match:
    """Every seat named ``s0``, ``s1`` … throws its dice for first, in the order given."""
    for name, dice in totals_by_seat.items():
        match, _ = match.roll_for_first(int(name[1:]), throws(dice))
    return match


def play_turn(match: Match, box: str = "chance", dice: Throw = PLAIN, column: int = 0) -> Match:
    """The seat on turn rolls ``dice`` once and scores them in ``box``."""
    seat = match.on_turn
    assert seat is not None
    match, _ = match.roll(seat, throws(dice))
    match, _ = match.score(seat, box, column)
    return match


def first_open_box(match: Match) -> str:
    assert match.on_turn is not None
    card = match.sheets[match.on_turn].cards[0]
    return next(box for box in rules.CATEGORIES if box not in card)


def refused(match: Match, action: Callable[[Match], object], error: type[Exception]) -> None:
    """``action`` raises ``error`` and, the match being frozen, leaves it as it was."""
    before = match
    with pytest.raises(error):
        action(match)
    assert match == before


# --- Setting up -------------------------------------------------------------------------------


def test_without_a_roll_for_first_the_first_seat_begins_and_play_follows_the_seats() -> None:
    match = Match.start(rules.CLASSIC, 3)
    assert (match.phase, match.on_turn, match.order, match.round) == ("playing", 0, (0, 1, 2), 1)
    assert match.log == (rules.Started("classic", 3, roll_for_first=False, host=0),)
    match = play_turn(play_turn(match))
    assert match.on_turn == 2


@pytest.mark.parametrize("seats", [0, 7])
def test_a_game_seats_one_to_six(seats: int) -> None:
    with pytest.raises(ValueError, match="1 to 6"):
        Match.start(rules.CLASSIC, seats)


def test_the_host_sits_at_the_table() -> None:
    with pytest.raises(ValueError, match="host"):
        Match.start(rules.CLASSIC, 2, host=2)


# --- Roll for first ---------------------------------------------------------------------------


def test_the_highest_total_goes_first_and_play_passes_on_in_seating_order() -> None:
    match = Match.start(rules.CLASSIC, 4, roll_for_first=True)
    assert match.phase is MatchPhase.ROLLING_FOR_FIRST and match.on_turn is None
    match = roll_off(match, s3=(1, 1, 2, 2, 3), s0=(6, 5, 4, 3, 2), s2=(6, 6, 6, 5, 1), s1=PLAIN)
    assert (match.phase, match.first, match.on_turn) == ("playing", 2, 2)
    assert match.order == (2, 3, 0, 1)
    match = play_turn(play_turn(play_turn(match)))
    assert (match.on_turn, match.round) == (1, 1)
    match = play_turn(match)
    assert (match.on_turn, match.round) == (2, 2)


def test_nobody_goes_first_until_every_player_has_rolled() -> None:
    match = roll_off(Match.start(rules.CLASSIC, 3, roll_for_first=True), s0=(6,) * 5, s1=PLAIN)
    assert match.phase is MatchPhase.ROLLING_FOR_FIRST
    assert match.first_rolls == ((6,) * 5, PLAIN, None)


def test_a_tie_for_the_highest_total_is_rolled_again_among_the_tied_only() -> None:
    match = Match.start(rules.CLASSIC, 3, roll_for_first=True)
    match = roll_off(match, s0=(6, 6, 6, 1, 1), s1=(1, 1, 1, 1, 1), s2=(5, 5, 5, 3, 2))
    assert match.phase is MatchPhase.ROLLING_FOR_FIRST
    assert (match.contenders, match.first_rolls) == ((0, 2), (None, None, None))
    refused(match, lambda m: m.roll_for_first(1, throws(PLAIN)), rules.OutOfTurn)
    match = roll_off(match, s2=(2, 2, 2, 2, 2), s0=(3, 3, 3, 3, 3))
    assert (match.phase, match.first) == ("playing", 0)


def test_ties_are_rolled_again_as_often_as_they_come() -> None:
    match = Match.start(rules.CLASSIC, 4, roll_for_first=True)
    match = roll_off(match, s0=(6,) * 5, s1=(6,) * 5, s2=(6,) * 5, s3=(5,) * 5)
    assert match.contenders == (0, 1, 2)
    match = roll_off(match, s0=(4,) * 5, s1=(4,) * 5, s2=(3,) * 5)
    assert match.contenders == (0, 1)
    match = roll_off(match, s0=(2,) * 5, s1=(2,) * 5)
    assert match.contenders == (0, 1)
    match = roll_off(match, s1=(2,) * 5, s0=(1,) * 5)
    assert (match.phase, match.first, match.order) == ("playing", 1, (1, 2, 3, 0))
    assert sum(isinstance(e, rules.FirstRoll) for e in match.log) == 4 + 3 + 2 + 2


def test_each_player_rolls_for_first_once_a_round() -> None:
    match = roll_off(Match.start(rules.CLASSIC, 2, roll_for_first=True), s0=PLAIN)
    refused(match, lambda m: m.roll_for_first(0, throws(PLAIN)), rules.OutOfTurn)
    assert not match.can_roll_for_first(0) and match.can_roll_for_first(1)


def test_nobody_rolls_hold_or_scores_before_the_roll_for_first_is_decided() -> None:
    match = Match.start(rules.CLASSIC, 2, roll_for_first=True)
    refused(match, lambda m: m.roll(0, throws(PLAIN)), rules.OutOfTurn)
    refused(match, lambda m: m.score(0, "chance"), rules.OutOfTurn)


def test_once_decided_nobody_rolls_for_first_again() -> None:
    match = roll_off(Match.start(rules.CLASSIC, 2, roll_for_first=True), s0=(6,) * 5, s1=PLAIN)
    refused(match, lambda m: m.roll_for_first(1, throws(PLAIN)), rules.OutOfTurn)


def test_alone_at_the_table_there_is_nothing_to_roll_for() -> None:
    match = Match.start(rules.TRIPLE, 1, roll_for_first=True)
    assert (match.phase, match.on_turn) == ("playing", 0)


def test_a_player_who_leaves_the_draw_leaves_the_rest_to_decide_it() -> None:
    match = roll_off(Match.start(rules.CLASSIC, 3, roll_for_first=True), s0=PLAIN, s1=(6,) * 5)
    match, _ = match.resign(1)
    assert match.phase is MatchPhase.ROLLING_FOR_FIRST and match.contenders == (0, 2)
    match = roll_off(match, s2=STRAIGHT)
    assert (match.first, match.playing) == (0, (0, 2))


def test_the_last_player_left_in_the_draw_goes_first_without_rolling() -> None:
    match = Match.start(rules.CLASSIC, 3, roll_for_first=True)
    match = roll_off(match, s0=(6,) * 5, s1=(6,) * 5, s2=PLAIN)
    match, _ = match.skip(1, by=2)
    assert (match.phase, match.first) == ("playing", 0)
    assert match.log[-1] == rules.Skipped(seat=1, by=2)


def test_only_a_player_still_to_roll_for_first_can_be_skipped() -> None:
    match = roll_off(Match.start(rules.CLASSIC, 3, roll_for_first=True), s0=PLAIN)
    refused(match, lambda m: m.skip(0, by=1), rules.CannotSkip)
    assert match.can_skip(2, by=0)


# --- Turns ------------------------------------------------------------------------------------


def test_a_player_out_of_turn_is_refused_and_nothing_changes() -> None:
    match = Match.start(rules.CLASSIC, 2)
    refused(match, lambda m: m.roll(1, throws(PLAIN)), rules.OutOfTurn)
    match, _ = match.roll(0, throws(PLAIN))
    refused(match, lambda m: m.hold(1, HOLD_TWO), rules.OutOfTurn)
    refused(match, lambda m: m.score(1, "chance"), rules.OutOfTurn)
    assert not match.can_score(1, "chance") and match.can_score(0, "chance")


def test_there_is_no_seat_beyond_the_table() -> None:
    match = Match.start(rules.CLASSIC, 2)
    refused(match, lambda m: m.roll(2, throws(PLAIN)), rules.UnknownSeat)
    refused(match, lambda m: m.roll(True, throws(PLAIN)), rules.UnknownSeat)


def test_the_turn_keeps_the_rules_of_a_single_turn() -> None:
    match = Match.start(rules.CLASSIC, 2)
    refused(match, lambda m: m.hold(0, HOLD_TWO), rules.NotRolledYet)
    refused(match, lambda m: m.score(0, "chance"), rules.NotRolledYet)
    match, rolled = match.roll(0, throws((5, 5, 1, 2, 3)))
    match, held = match.hold(0, HOLD_TWO)
    match, rerolled = match.roll(0, throws((5, 4, 6)))
    assert held == rules.HeldDice(0, HOLD_TWO)
    assert rerolled == rules.Rolled(0, (5, 5, 5, 4, 6), HOLD_TWO, roll_number=2)
    assert match.log[-3:] == (rolled, held, rerolled)


def test_scoring_records_what_the_sheet_records() -> None:
    match = Match.start(rules.CLASSIC, 2)
    match, _ = match.roll(0, throws((3, 3, 3, 3, 3)))
    match, scored = match.score(0, "yahtzee")
    assert scored == rules.Scored(0, 0, "yahtzee", 50, (3, 3, 3, 3, 3))
    assert match.sheets[0].cards[0] == {"yahtzee": 50} and match.sheets[0].yahtzees == 1
    assert (match.on_turn, match.turn) == (1, rules.Turn())


# --- Undo -------------------------------------------------------------------------------------


def test_the_scorer_takes_the_box_back_and_the_turn_is_as_it_was() -> None:
    match = Match.start(rules.CLASSIC, 2)
    match, _ = match.roll(0, throws(STRAIGHT))
    before = match
    match, _ = match.score(0, "chance")
    refused(match, lambda m: m.undo_scoring(1), rules.NothingToUndo)
    undone, event = match.undo_scoring(0)
    assert event == rules.Undone(0, 0, "chance", 15)
    assert undone == rules.Match(**{**vars(before), "log": (*match.log, event)})
    assert undone.turn.dice == STRAIGHT and undone.turn.rolls_left == 2
    undone, _ = undone.score(0, "large_straight")
    assert undone.sheets[0].cards[0] == {"large_straight": 40}


def test_the_next_roll_of_anyone_closes_the_undo() -> None:
    match = play_turn(Match.start(rules.CLASSIC, 2))
    match, _ = match.roll(1, throws(PLAIN))
    refused(match, lambda m: m.undo_scoring(0), rules.NothingToUndo)


def test_a_yahtzee_bonus_does_not_survive_its_undo() -> None:
    match = play_turn(Match.start(rules.CLASSIC, 1), "yahtzee", (2,) * 5)
    match = play_turn(match, "twos", (2,) * 5)
    assert match.sheets[0].yahtzee_bonuses == 1
    match, _ = match.undo_scoring(0)
    assert match.sheets[0].yahtzee_bonuses == 0 and match.sheets[0].cards[0] == {"yahtzee": 50}


def test_another_player_leaving_keeps_the_undo_and_does_not_come_back_with_it() -> None:
    match = play_turn(Match.start(rules.CLASSIC, 3))
    match, _ = match.resign(2)
    match, _ = match.undo_scoring(0)
    assert match.playing == (0, 1) and match.sheets[0].cards[0] == {}
    match = play_turn(play_turn(match))
    assert match.on_turn == 0


def test_the_last_box_of_the_game_is_final() -> None:
    match = Match.start(rules.CLASSIC, 1)
    for _ in range(13):
        match = play_turn(match, first_open_box(match))
    assert match.phase is MatchPhase.FINISHED
    refused(match, lambda m: m.undo_scoring(0), rules.MatchOver)


# --- Resign -----------------------------------------------------------------------------------


def test_a_resigned_seat_is_passed_over_and_out_of_the_standings() -> None:
    match = Match.start(rules.CLASSIC, 3)
    match, event = match.resign(1)
    assert event == rules.Resigned(1)
    assert match.states == ("playing", "resigned", "playing") and match.playing == (0, 2)
    assert play_turn(match).on_turn == 2
    refused(match, lambda m: m.resign(1), rules.SeatResigned)
    assert [standing.seat for standing in match.standings()] == [0, 2]


def test_resigning_on_turn_passes_the_dice_on() -> None:
    match = Match.start(rules.CLASSIC, 2)
    match, _ = match.roll(0, throws(PLAIN))
    match, _ = match.resign(0)
    assert (match.on_turn, match.turn) == (1, rules.Turn())


def test_the_game_ends_when_the_players_left_have_filled_their_cards() -> None:
    match = Match.start(rules.CLASSIC, 2)
    for _ in range(12):
        match = play_turn(play_turn(match, first_open_box(match)), first_open_box(match))
    match = play_turn(match, "chance")
    match, _ = match.resign(1)
    assert match.phase is MatchPhase.FINISHED and match.winners == (0,)


def test_when_the_last_player_resigns_the_game_is_abandoned() -> None:
    match, _ = Match.start(rules.CLASSIC, 2).resign(0)
    match, _ = match.resign(1)
    assert match.phase is MatchPhase.ABANDONED and match.winners == ()


# --- Skip -------------------------------------------------------------------------------------


def test_a_skipped_turn_scores_zero_in_the_box_that_could_score_least() -> None:
    match = Match.start(rules.CLASSIC, 2)
    match, _ = match.roll(0, throws((6,) * 5))
    match, event = match.skip(0, by=1)
    assert event == rules.Skipped(seat=0, by=1, column=0, box="aces")
    assert match.sheets[0].cards[0] == {"aces": 0} and match.sheets[0].yahtzees == 0
    assert (match.on_turn, match.turn) == (1, rules.Turn())


def test_skipped_turns_fill_a_classic_card_from_the_least_valuable_box() -> None:
    sheet = rules.Sheet()
    order = []
    for _ in range(13):
        _, box = rules.skipped_box(sheet)
        order.append(box)
        sheet = rules.Sheet(cards=({**sheet.cards[0], box: 0},))
    assert order == [
        "aces", "twos", "threes", "fours", "fives", "full_house", "sixes", "three_of_a_kind",
        "four_of_a_kind", "small_straight", "chance", "large_straight", "yahtzee",
    ]  # fmt: skip
    with pytest.raises(ValueError):
        rules.skipped_box(sheet)


def test_in_triple_the_column_weights_the_box() -> None:
    sheet = rules.Sheet(kind=rules.TRIPLE, cards=({"aces": 1}, {}, {}))
    # Twos in the first column and Aces in the second could each score 10: the left one goes.
    assert rules.skipped_box(sheet) == (0, "twos")
    sheet = rules.Sheet(kind=rules.TRIPLE, cards=({"aces": 1, "twos": 2}, {}, {}))
    assert rules.skipped_box(sheet) == (1, "aces")


def test_only_another_player_skips_and_only_the_player_on_turn() -> None:
    match = Match.start(rules.CLASSIC, 3)
    refused(match, lambda m: m.skip(0, by=0), rules.CannotSkip)
    refused(match, lambda m: m.skip(1, by=0), rules.CannotSkip)
    match, _ = match.resign(2)
    refused(match, lambda m: m.skip(0, by=2), rules.SeatResigned)
    refused(match, lambda m: m.skip(2, by=0), rules.CannotSkip)
    assert not Match.start(rules.CLASSIC, 1).can_skip(0, by=0)


def test_a_skip_closes_the_undo() -> None:
    match = play_turn(Match.start(rules.CLASSIC, 2))
    match, _ = match.skip(1, by=0)
    refused(match, lambda m: m.undo_scoring(0), rules.NothingToUndo)


# --- End and standings ------------------------------------------------------------------------


def test_the_host_ends_the_game_for_everyone() -> None:
    match = Match.start(rules.CLASSIC, 3, host=1)
    refused(match, lambda m: m.end(0), rules.NotHost)
    match, event = match.end(1)
    assert event == rules.Ended(1) and match.phase is MatchPhase.ABANDONED
    refused(match, lambda m: m.roll(0, throws(PLAIN)), rules.MatchOver)
    refused(match, lambda m: m.resign(2), rules.MatchOver)


def test_the_game_ends_exactly_after_the_last_box_of_the_last_player() -> None:
    match = Match.start(rules.CLASSIC, 2)
    for _ in range(13 * 2 - 1):
        match = play_turn(match, first_open_box(match))
        assert match.phase is MatchPhase.PLAYING
    match = play_turn(match, first_open_box(match))
    assert (match.phase, match.on_turn, match.round, match.is_over) == ("finished", None, 13, True)
    refused(match, lambda m: m.roll(0, throws(PLAIN)), rules.MatchOver)


def test_equal_totals_share_the_win() -> None:
    match = Match.start(rules.CLASSIC, 3)
    for _ in range(13):
        match = play_turn(match, first_open_box(match), STRAIGHT)
        match = play_turn(match, first_open_box(match), PLAIN)
        match = play_turn(match, first_open_box(match), STRAIGHT)
    total = match.sheets[0].grand_total
    assert match.standings() == (
        rules.Standing(0, total, 1),
        rules.Standing(2, total, 1),
        rules.Standing(1, match.sheets[1].grand_total, 3),
    )
    assert match.winners == (0, 2)


# --- The log ----------------------------------------------------------------------------------


def test_a_log_replays_to_the_same_match() -> None:
    match = roll_off(Match.start(rules.TRIPLE, 3, roll_for_first=True), s0=STRAIGHT, s1=PLAIN)
    match = roll_off(match, s2=(6, 6, 1, 1, 1))
    assert match.order == (1, 2, 0)
    match, _ = match.roll(1, throws(PLAIN))
    match, _ = match.hold(1, HOLD_TWO)
    match, _ = match.roll(1, throws((6, 6, 6)))
    match, _ = match.score(1, "sixes", 2)
    match, _ = match.undo_scoring(1)
    match, _ = match.score(1, "chance", 1)
    match, _ = match.skip(2, by=0)
    match, _ = match.resign(0)
    assert Match.replay(match.log) == match


def test_a_log_whose_points_were_altered_does_not_replay() -> None:
    match = play_turn(Match.start(rules.CLASSIC, 2))
    scored = match.log[-1]
    assert isinstance(scored, rules.Scored)
    forged = (*match.log[:-1], rules.Scored(0, 0, "chance", 30, scored.dice))
    with pytest.raises(ValueError, match="rules make it"):
        Match.replay(forged)


def test_a_log_starts_with_how_the_game_was_set_up() -> None:
    with pytest.raises(ValueError, match="Started"):
        Match.replay([rules.Resigned(0)])


def test_a_triple_game_ends_after_its_39_rounds_even_when_every_turn_is_skipped() -> None:
    match = Match.start(rules.TRIPLE, 2)
    for turn in range(2 * 39):
        assert match.phase is MatchPhase.PLAYING and match.round == turn // 2 + 1
        seat = match.on_turn
        assert seat is not None
        match, _ = match.skip(seat, by=1 - seat)
    assert match.phase is MatchPhase.FINISHED
    assert [s.grand_total for s in match.sheets] == [0, 0] and match.winners == (0, 1)
    assert Match.replay(match.log) == match
