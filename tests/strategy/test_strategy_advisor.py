"""Hints: hand-picked positions whose best move is known, and the ranking's consistency."""

from __future__ import annotations

import itertools

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from games import rules
from games.strategy import Advisor, Convention, RollDice, ScoreBox, StrategyTable
from games.strategy.advisor import describe_keep, held_for

SIXES = (6, 6, 6, 6, 6)


def sheet(card: dict[str, int]) -> rules.Sheet:
    return rules.Sheet(cards=(card,))


def rolled(dice: tuple[int, ...], rolls_used: int = 1) -> rules.Turn:
    return rules.Turn(dice=dice, rolls_used=rolls_used)


def test_five_sixes_with_yahtzee_open_go_in_yahtzee(advisor: Advisor) -> None:
    hint = advisor.hint(sheet({}), rolled(SIXES))
    assert hint.best.action == ScoreBox(0, rules.Box.YAHTZEE)
    assert hint.exact


def test_five_sixes_with_sixes_open_and_yahtzee_scratched_go_in_sixes(advisor: Advisor) -> None:
    hint = advisor.hint(sheet({"yahtzee": 0}), rolled(SIXES))
    assert hint.best.action == ScoreBox(0, rules.Box.SIXES)
    assert hint.best.points == 30


def test_a_large_straight_in_hand_is_scored(advisor: Advisor) -> None:
    hint = advisor.hint(sheet({}), rolled((2, 3, 4, 5, 6)))
    assert hint.best.action == ScoreBox(0, rules.Box.LARGE_STRAIGHT)
    assert hint.best.description == "Score 40 in Lg. Straight"


def test_the_upper_bonus_within_reach_is_taken(advisor: Advisor) -> None:
    # 51 in the upper boxes but Fours: three 4s make 63 and the 35 bonus.
    card = {"aces": 3, "twos": 6, "threes": 9, "fives": 15, "sixes": 18, "chance": 20}
    hint = advisor.hint(sheet(card), rolled((4, 4, 4, 1, 2), rolls_used=3))
    assert hint.best.action == ScoreBox(0, rules.Box.FOURS)
    assert hint.best.expected >= sheet(card).grand_total + 12 + 35


def test_three_of_a_kind_early_holds_the_three(advisor: Advisor) -> None:
    hint = advisor.hint(sheet({}), rolled((4, 2, 4, 6, 4)))
    assert hint.best.action == RollDice((True, False, True, False, True))
    assert hint.explanation.startswith("Hold the three 4s: expect 261.5 at the end; ")


def test_before_the_first_roll_the_hint_is_to_roll(advisor: Advisor, table: StrategyTable) -> None:
    hint = advisor.hint(sheet({}), rules.Turn())
    assert hint.best.action == RollDice(rules.NO_HOLD)
    assert hint.best.expected == pytest.approx(table.new_game)


def test_triple_and_several_players_get_a_heuristic_said_to_be_one(advisor: Advisor) -> None:
    triple = advisor.hint(rules.Sheet(kind=rules.TRIPLE), rolled((1, 2, 3, 4, 5)))
    many = advisor.hint(sheet({}), rolled((1, 2, 3, 4, 5)), players=3)
    assert not triple.exact and not many.exact
    assert "estimate" in triple.explanation
    assert "winning" in many.explanation
    assert triple.best.action in {
        ScoreBox(c, rules.Box.LARGE_STRAIGHT) for c in range(3)
    }  # 40 points wherever it goes


def test_the_advisor_needs_the_forced_joker_table(free_table: StrategyTable) -> None:
    with pytest.raises(ValueError, match="forced"):
        Advisor(free_table)


def test_a_finished_game_has_no_hint(advisor: Advisor) -> None:
    full = {box: 0 for box in rules.CATEGORIES}
    with pytest.raises(ValueError, match="over"):
        advisor.hint(sheet(full), rolled(SIXES))


def test_keeps_are_described_and_held_in_place() -> None:
    assert describe_keep(()) == "Roll all five dice"
    assert describe_keep((5,)) == "Hold the 5"
    assert describe_keep((2, 3, 4, 5)) == "Hold 2, 3, 4 and 5"
    # the die already held is kept in place rather than its twin
    assert held_for((3,), (3, 1, 3, 2, 2), (False, False, True, False, False)) == (
        False, False, True, False, False,
    )  # fmt: skip


@st.composite
def positions(draw: st.DrawFn) -> tuple[dict[str, int], tuple[int, ...], int]:
    filled = draw(st.sets(st.sampled_from(rules.CATEGORIES), max_size=12))
    card = {
        box: (rules.FACE_OF[box] * draw(st.integers(0, 5)) if box in rules.UPPER else 0)
        for box in filled
    }
    if "yahtzee" in card:
        card["yahtzee"] = draw(st.sampled_from([0, 50]))
    dice = draw(st.tuples(*[st.integers(1, 6)] * 5))
    return card, dice, draw(st.integers(1, 3))


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(positions())
def test_the_best_option_is_the_turns_value_and_bots_take_it(
    advisor: Advisor, position: tuple[dict[str, int], tuple[int, ...], int]
) -> None:
    card, dice, rolls_used = position
    s, turn = sheet(card), rolled(dice, rolls_used)
    options = advisor.options(s, turn)
    assert [o.expected for o in options] == sorted((o.expected for o in options), reverse=True)
    # The best action is worth the best option's value (equal keeps may tie: 1,1 or 3,3).
    chosen = advisor.value_of(s, turn, advisor.best_action(s, turn))
    assert chosen.expected == pytest.approx(options[0].expected, abs=1e-9)
    assert all(
        rules.can_score(s, turn, o.action.box) for o in options if isinstance(o.action, ScoreBox)
    )


ALL_BOXES = {box.value: 0 for box in rules.CATEGORIES}


def _final_score(card: dict[str, int], box: str, dice: tuple[int, ...]) -> int:
    """The game's final total once ``dice`` go into the last open ``box`` (the rules score it)."""
    after, _ = rules.score(sheet(card), rules.Turn(dice=dice, rolls_used=3), box)
    return after.grand_total


def _brute_force(card: dict[str, int], box: str, dice: tuple[int, ...]) -> float:
    """The best expected final total with one roll left and one box open, by trying every hold
    and every throw of the dice not held: no table, no advisor, only the rules."""
    best = float(_final_score(card, box, dice))  # score now
    for mask in itertools.product((False, True), repeat=5):
        kept = [d for d, k in zip(dice, mask, strict=True) if k]
        throws = list(itertools.product(range(1, 7), repeat=5 - len(kept)))
        mean = sum(_final_score(card, box, (*kept, *t)) for t in throws) / len(throws)
        best = max(best, mean)
    return best


@pytest.mark.parametrize(
    ("open_box", "filled", "dice"),
    [
        ("yahtzee", {}, (6, 6, 6, 2, 3)),
        # 54 in the upper boxes: two 6s make 66 and the 35 bonus, one 6 does not.
        ("sixes", {"aces": 3, "twos": 6, "threes": 9, "fours": 16, "fives": 20}, (6, 1, 2, 3, 6)),
        ("small_straight", {}, (1, 2, 3, 5, 5)),
    ],
)
def test_with_one_box_left_the_best_option_is_worth_what_trying_every_hold_gives(
    advisor: Advisor, open_box: str, filled: dict[str, int], dice: tuple[int, ...]
) -> None:
    card = {**ALL_BOXES, "chance": 20, **filled}
    del card[open_box]

    options = advisor.options(sheet(card), rolled(dice, rolls_used=2))

    assert options[0].expected == pytest.approx(_brute_force(card, open_box, dice), abs=1e-9)


def test_convention_is_named_in_the_table(table: StrategyTable) -> None:
    assert table.convention is Convention.FORCED
