"""The turn and the score sheet as a state machine: roll, hold, score and what each refuses."""

from __future__ import annotations

import dataclasses
from collections.abc import Callable

import pytest

from games import rules
from tests.factories import ScriptedThrows

HOLD_FIRST_TWO = (True, True, False, False, False)


def first_roll(*dice: int) -> rules.Turn:
    turn, _ = rules.roll(rules.Turn(), ScriptedThrows(dice))
    return turn


def third_roll() -> rules.Turn:
    source = ScriptedThrows((1, 2, 3, 4, 5), (1, 2, 3, 4, 5), (1, 2, 3, 4, 5))
    turn = rules.Turn()
    for _ in range(3):
        turn, _ = rules.roll(turn, source)
    return turn


def full_sheet() -> rules.Sheet:
    return rules.Sheet(cards=({box: 0 for box in rules.CATEGORIES},))


# --- Rolling ----------------------------------------------------------------------------------


def test_the_first_roll_throws_all_five_dice() -> None:
    source = ScriptedThrows((6, 1, 3, 3, 2))
    turn, record = rules.roll(rules.Turn(), source)
    assert source.asked == [5]
    assert (turn.dice, turn.rolls_used, turn.rolls_left) == ((6, 1, 3, 3, 2), 1, 2)
    assert record == rules.Roll(dice=(6, 1, 3, 3, 2), held=rules.NO_HOLD, roll_number=1)


def test_the_first_roll_ignores_any_hold_left_on_a_fresh_turn() -> None:
    source = ScriptedThrows((6, 1, 3, 3, 2))
    rules.roll(rules.Turn(held=(True,) * 5), source)
    assert source.asked == [5]


def test_a_reroll_asks_the_source_only_for_the_unheld_dice() -> None:
    source = ScriptedThrows((5, 5, 1, 2, 3), (4, 4, 6))
    turn, _ = rules.roll(rules.Turn(), source)
    rules.roll(rules.hold(turn, HOLD_FIRST_TWO), source)
    assert source.asked == [5, 3]


def test_a_reroll_keeps_the_held_dice_in_place() -> None:
    source = ScriptedThrows((5, 2, 5, 1, 3), (6, 6, 6))
    turn, _ = rules.roll(rules.Turn(), source)
    held = (True, False, True, False, False)
    turn, record = rules.roll(rules.hold(turn, held), source)
    assert turn.dice == (5, 6, 5, 6, 6)
    assert record == rules.Roll(dice=(5, 6, 5, 6, 6), held=held, roll_number=2)


def test_held_dice_may_be_released_before_a_later_roll() -> None:
    source = ScriptedThrows((5, 5, 1, 2, 3), (4, 4, 4), (6, 6, 1, 1, 1))
    turn, _ = rules.roll(rules.Turn(), source)
    turn, _ = rules.roll(rules.hold(turn, HOLD_FIRST_TWO), source)
    turn, _ = rules.roll(rules.hold(turn, rules.NO_HOLD), source)
    assert (source.asked, turn.dice) == ([5, 3, 5], (6, 6, 1, 1, 1))


def test_held_dice_stay_held_after_a_roll_until_released() -> None:
    source = ScriptedThrows((5, 5, 1, 2, 3), (4, 4, 4), (6, 6, 6))
    turn, _ = rules.roll(rules.Turn(), source)
    turn, _ = rules.roll(rules.hold(turn, HOLD_FIRST_TWO), source)

    assert turn.held == HOLD_FIRST_TWO
    turn, _ = rules.roll(turn, source)  # no new hold: the same two stay
    assert (source.asked, turn.dice, turn.held) == ([5, 3, 3], (5, 5, 6, 6, 6), HOLD_FIRST_TWO)


def test_holding_all_five_rerolls_nothing_but_uses_a_roll() -> None:
    source = ScriptedThrows((2, 3, 4, 5, 6), ())
    turn, _ = rules.roll(rules.Turn(), source)
    turn, _ = rules.roll(rules.hold(turn, (True,) * 5), source)
    assert (source.asked, turn.dice, turn.rolls_used) == ([5, 0], (2, 3, 4, 5, 6), 2)


def test_a_fourth_roll_is_refused() -> None:
    with pytest.raises(rules.NoRollsLeft):
        rules.roll(third_roll(), ScriptedThrows((1, 1, 1, 1, 1)))


def test_with_exactly_one_roll_left_the_dice_may_be_rolled_once_more() -> None:
    source = ScriptedThrows((1, 2, 3, 4, 5), (1, 2, 3, 4, 5))
    turn = rules.Turn()
    for _ in range(2):
        turn, _ = rules.roll(turn, source)
    assert turn.rolls_left == 1
    assert rules.can_roll(turn)
    rules.verify_roll(turn)  # raises nothing

    last, record = rules.roll(turn, ScriptedThrows((6, 6, 6, 6, 6)))

    assert (last.dice, last.rolls_left, record.roll_number) == ((6,) * 5, 0, 3)
    assert not rules.can_roll(last)


def test_a_refused_roll_does_not_ask_the_source() -> None:
    source = ScriptedThrows()
    with pytest.raises(rules.NoRollsLeft):
        rules.roll(third_roll(), source)
    assert source.asked == []


def test_a_source_giving_a_value_outside_one_to_six_is_refused() -> None:
    with pytest.raises(ValueError):
        rules.roll(rules.Turn(), ScriptedThrows((1, 2, 3, 4, 7)))


def test_system_dice_gives_the_number_asked_for_each_from_one_to_six() -> None:
    dice = [value for _ in range(200) for value in rules.system_dice(5)]
    assert len(dice) == 1000
    assert set(dice) <= {1, 2, 3, 4, 5, 6}


def test_system_dice_can_be_asked_for_no_dice() -> None:
    assert rules.system_dice(0) == ()


def test_rolling_with_the_default_source_throws_five_real_dice() -> None:
    turn, _ = rules.roll(rules.Turn())
    assert turn.dice is not None and len(turn.dice) == 5
    assert all(1 <= die <= 6 for die in turn.dice)


# --- Holding ----------------------------------------------------------------------------------


def test_holding_before_the_first_roll_is_refused() -> None:
    with pytest.raises(rules.NotRolledYet):
        rules.hold(rules.Turn(), HOLD_FIRST_TWO)


@pytest.mark.parametrize(
    "held",
    [
        (True, False, True, False),
        (False,) * 6,
        (),
        (1, 0, 0, 0, 0),
        (True, False, 1, False, False),  # one die said with a number among the booleans
        ("yes",) * 5,
        (None,) * 5,
    ],
)
def test_a_malformed_hold_is_refused(held: tuple[object, ...]) -> None:
    with pytest.raises(rules.InvalidHold):
        rules.hold(first_roll(1, 2, 3, 4, 5), held)  # type: ignore[arg-type]


def test_holding_after_the_third_roll_is_refused() -> None:
    with pytest.raises(rules.NoRollsLeft):
        rules.hold(third_roll(), HOLD_FIRST_TWO)


def test_holding_changes_neither_the_dice_nor_the_rolls_used() -> None:
    turn = first_roll(1, 2, 3, 4, 5)
    held = rules.hold(turn, HOLD_FIRST_TWO)
    assert (held.dice, held.rolls_used, held.held) == (turn.dice, 1, HOLD_FIRST_TWO)


# --- Scoring ----------------------------------------------------------------------------------


def test_scoring_fills_the_box_and_records_what_happened() -> None:
    turn = first_roll(2, 2, 2, 5, 5)
    sheet, record = rules.score(rules.Sheet(), turn, "full_house")
    assert sheet.cards == ({"full_house": 25},)
    assert record == rules.Scoring(
        column=0, box="full_house", points=25, yahtzee_bonus=0, dice=(2, 2, 2, 5, 5), joker=False
    )


def test_scoring_leaves_the_old_sheet_untouched() -> None:
    sheet = rules.Sheet()
    rules.score(sheet, first_roll(2, 2, 2, 5, 5), "chance")
    assert sheet.cards == ({},)


def test_a_zero_may_be_scored() -> None:
    sheet, record = rules.score(rules.Sheet(), first_roll(1, 2, 3, 5, 6), "yahtzee")
    assert (record.points, sheet.cards[0]["yahtzee"]) == (0, 0)


def test_after_the_third_roll_scoring_is_still_allowed() -> None:
    sheet, _ = rules.score(rules.Sheet(), third_roll(), "large_straight")
    assert sheet.cards[0]["large_straight"] == 40


def test_scoring_before_rolling_is_refused() -> None:
    with pytest.raises(rules.NotRolledYet):
        rules.score(rules.Sheet(), rules.Turn(), "chance")


def test_scoring_a_filled_box_is_refused() -> None:
    sheet = rules.Sheet(cards=({"chance": 12},))
    with pytest.raises(rules.BoxFilled):
        rules.score(sheet, first_roll(1, 2, 3, 4, 5), "chance")


def test_scoring_a_box_that_does_not_exist_is_refused() -> None:
    with pytest.raises(rules.UnknownBox):
        rules.score(rules.Sheet(), first_roll(1, 2, 3, 4, 5), "pair")


@pytest.mark.parametrize("column", [-1, 3])
def test_scoring_a_column_that_does_not_exist_is_refused(column: int) -> None:
    sheet = rules.Sheet(kind=rules.TRIPLE)
    with pytest.raises(rules.UnknownBox):
        rules.score(sheet, first_roll(1, 2, 3, 4, 5), "chance", column=column)


def test_classic_has_no_second_column() -> None:
    with pytest.raises(rules.UnknownBox):
        rules.score(rules.Sheet(), first_roll(1, 2, 3, 4, 5), "chance", column=1)


def test_triple_scores_into_the_column_chosen() -> None:
    sheet, record = rules.score(
        rules.Sheet(kind=rules.TRIPLE), first_roll(1, 2, 3, 4, 5), "chance", column=2
    )
    assert (sheet.cards, record.column) == (({}, {}, {"chance": 15}), 2)


def test_scoring_on_a_complete_sheet_is_refused() -> None:
    with pytest.raises(rules.ScorecardComplete):
        rules.score(full_sheet(), first_roll(1, 2, 3, 4, 5), "chance")


def test_a_sheet_is_complete_once_all_thirteen_boxes_are_filled() -> None:
    nearly = {box: 0 for box in rules.CATEGORIES if box != "chance"}
    sheet = rules.Sheet(cards=(nearly,))
    assert not sheet.is_complete
    sheet, _ = rules.score(sheet, first_roll(1, 2, 3, 4, 5), "chance")
    assert sheet.is_complete and sheet.boxes_filled == 13


# --- can_* agrees with verify_* ---------------------------------------------------------------

ROLLED = rules.Turn(dice=(1, 2, 3, 4, 5), rolls_used=1)


def refuses_nothing(verify: Callable[..., object], *args: object) -> bool:
    try:
        verify(*args)
    except rules.IllegalMove:
        return False
    return True


@pytest.mark.parametrize(
    "turn",
    [
        rules.Turn(),
        ROLLED,
        rules.Turn(dice=(1,) * 5, rolls_used=2),
        rules.Turn(dice=(1,) * 5, rolls_used=3),
    ],
)
def test_can_roll_agrees_with_verify_roll(turn: rules.Turn) -> None:
    assert rules.can_roll(turn) == refuses_nothing(rules.verify_roll, turn)


@pytest.mark.parametrize(
    ("turn", "held"),
    [
        (rules.Turn(), HOLD_FIRST_TWO),
        (ROLLED, HOLD_FIRST_TWO),
        (ROLLED, (True,)),
        (rules.Turn(dice=(1, 2, 3, 4, 5), rolls_used=3), HOLD_FIRST_TWO),
    ],
)
def test_can_hold_agrees_with_verify_hold(turn: rules.Turn, held: tuple[bool, ...]) -> None:
    assert rules.can_hold(turn, held) == refuses_nothing(rules.verify_hold, turn, held)


@pytest.mark.parametrize(
    ("sheet", "turn", "box"),
    [
        (rules.Sheet(), rules.Turn(), "chance"),
        (rules.Sheet(), ROLLED, "chance"),
        (rules.Sheet(), ROLLED, "pair"),
        (rules.Sheet(cards=({"chance": 5},)), ROLLED, "chance"),
        (rules.Sheet(cards=({"yahtzee": 50},)), rules.Turn(dice=(4,) * 5, rolls_used=1), "chance"),
        (full_sheet(), ROLLED, "chance"),
    ],
)
def test_can_score_agrees_with_verify_score(sheet: rules.Sheet, turn: rules.Turn, box: str) -> None:
    verdict = refuses_nothing(rules.verify_score, sheet, turn, box)
    assert rules.can_score(sheet, turn, box) == verdict


def test_verify_score_returns_the_points_score_would_enter() -> None:
    turn = first_roll(3, 3, 3, 1, 1)
    points = rules.verify_score(rules.Sheet(), turn, "three_of_a_kind")
    _, record = rules.score(rules.Sheet(), turn, "three_of_a_kind")
    assert points == record.points == 11


# --- Errors and records -----------------------------------------------------------------------


@pytest.mark.parametrize(
    "error",
    [
        rules.UnknownBox,
        rules.BoxFilled,
        rules.NoRollsLeft,
        rules.NotRolledYet,
        rules.JokerForbids,
        rules.InvalidHold,
        rules.ScorecardComplete,
    ],
)
def test_every_refusal_is_an_illegal_move_and_a_value_error(error: type[Exception]) -> None:
    assert issubclass(error, rules.IllegalMove) and issubclass(error, ValueError)


def test_refusals_carry_a_message_for_the_player() -> None:
    with pytest.raises(rules.NoRollsLeft, match="three rolls"):
        rules.roll(third_roll(), ScriptedThrows())


@pytest.mark.parametrize(
    "record",
    [
        rules.Roll(dice=(1, 2, 3, 4, 5), held=rules.NO_HOLD, roll_number=1),
        rules.Scoring(
            column=0, box="chance", points=15, yahtzee_bonus=0, dice=(1, 2, 3, 4, 5), joker=False
        ),
        rules.Turn(),
        rules.Sheet(),
    ],
)
def test_records_and_states_are_frozen(record: object) -> None:
    field = dataclasses.fields(record)[0].name  # type: ignore[arg-type]
    with pytest.raises(dataclasses.FrozenInstanceError):
        setattr(record, field, None)


def test_a_roll_record_holds_tuples_not_lists() -> None:
    _, record = rules.roll(rules.Turn(), lambda n: [4] * n)
    assert isinstance(record.dice, tuple) and isinstance(record.held, tuple)


@pytest.mark.parametrize(
    "given", [(1, 2, 3, 4), (1, 2, 3, 4, 5, 6), (1, 2, 3, 4, 2.5), (0, 1, 2, 3, 4)]
)
def test_a_dice_source_that_misbehaves_is_refused(given: tuple) -> None:
    with pytest.raises(ValueError, match="5 dice of 1 to 6 are needed"):
        rules.roll(rules.Turn(), lambda n: given)


def test_the_box_that_reaches_63_records_the_upper_bonus() -> None:
    sheet = rules.Sheet(cards=({"aces": 3, "twos": 6, "threes": 9, "fours": 12, "fives": 15},))
    _, record = rules.score(sheet, first_roll(6, 6, 6, 1, 2), "sixes")
    assert record.upper_bonus == rules.UPPER_BONUS


def test_a_box_after_the_bonus_records_no_second_one() -> None:
    card = {"aces": 3, "twos": 6, "threes": 9, "fours": 12, "fives": 15, "sixes": 18}
    _, record = rules.score(rules.Sheet(cards=(card,)), first_roll(6, 6, 6, 1, 2), "chance")
    assert record.upper_bonus == 0


def test_a_box_short_of_63_records_no_upper_bonus() -> None:
    sheet = rules.Sheet(cards=({"aces": 3, "twos": 6, "threes": 9, "fours": 12, "fives": 15},))
    _, record = rules.score(sheet, first_roll(6, 6, 1, 1, 2), "sixes")
    assert record.upper_bonus == 0


# --- Counting Yahtzees ------------------------------------------------------------------------


def test_a_new_sheet_has_no_yahtzee_and_no_bonus() -> None:
    sheet = rules.Sheet()

    assert (sheet.yahtzees, sheet.yahtzee_bonuses, sheet.grand_total) == (0, 0, 0)
    assert rules.Sheet(kind=rules.TRIPLE).yahtzees == 0


@pytest.mark.parametrize(
    ("card", "box"),
    [
        pytest.param({}, "yahtzee", id="in-its-box"),
        pytest.param({"yahtzee": 0, "fours": 12}, "chance", id="over-a-zeroed-yahtzee"),
        pytest.param({"yahtzee": 50}, "fours", id="as-a-joker"),
    ],
)
def test_every_five_of_a_kind_scored_counts_as_a_yahtzee_wherever_it_goes(
    card: dict[str, int], box: str
) -> None:
    sheet, _ = rules.score(rules.Sheet(cards=(card,)), first_roll(4, 4, 4, 4, 4), box)

    assert sheet.yahtzees == 1


def test_a_roll_that_is_no_five_of_a_kind_counts_no_yahtzee() -> None:
    sheet, _ = rules.score(rules.Sheet(), first_roll(4, 4, 4, 4, 2), "chance")

    assert (sheet.yahtzees, sheet.yahtzee_bonuses) == (0, 0)
