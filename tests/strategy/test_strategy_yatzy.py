"""Yatzy's exact solver and table: the published optimum, agreement with the rules engine state
by state, and the advisor, bots and analysis reading it through Classic's interface."""

from __future__ import annotations

import random
from io import StringIO
from pathlib import Path

import numpy as np
import pytest
from django.core.management import call_command
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from games import rules
from games.rules import YATZY
from games.strategy import (
    Advisor,
    GameRecord,
    RollDice,
    ScoreBox,
    StrategyTable,
    analyse,
    dice,
    load_table,
    make_bot,
    play_game,
    seeded_dice,
    solver,
    table_path,
    yatzy,
)

OPTIMUM = 248.4399894  # published solvers of Scandinavian Yatzy (issue 39)


def test_the_table_reproduces_the_published_optimum(yatzy_table: StrategyTable) -> None:
    assert yatzy_table.kind is YATZY
    assert yatzy_table.new_game == pytest.approx(OPTIMUM, abs=5e-5)


def test_the_table_is_stored_apart_from_classics_and_read_back(
    strategy_dir: Path, yatzy_table: StrategyTable
) -> None:
    path = table_path(strategy_dir, kind=YATZY)
    assert path.name == "strategy-yatzy.bin" and path == yatzy_table.path
    assert load_table(path, kind=YATZY).new_game == yatzy_table.new_game


@st.composite
def cards(draw: st.DrawFn) -> dict[str, int]:
    """A Yatzy card a game can reach, with at least one box open."""
    filled = draw(st.sets(st.sampled_from(YATZY.boxes), max_size=14))
    card = {}
    for box in filled:
        if box.face is not None:
            card[box] = box.face * draw(st.integers(0, 5))
        else:
            card[box] = draw(st.integers(0, box.best))
    return card


def engine_value(table: StrategyTable, card: dict[str, int], roll: tuple[int, ...]) -> float:
    """The best box for ``roll`` worked out by the engine: points gained (the upper bonus of 50
    included) plus the table's value after."""
    sheet = rules.Sheet(kind=YATZY, cards=(card,))
    turn = rules.Turn(dice=roll, rolls_used=3)
    best = -np.inf
    for (_, box), _points in rules.legal_moves(YATZY, roll, sheet.cards).items():
        after, _ = rules.score(sheet, turn, box)
        gained = after.grand_total - sheet.grand_total
        future = 0.0 if after.is_complete else table.values[yatzy.state_index(after.cards[0])]
        best = max(best, gained + future)
    return float(best)


def solver_values(table: StrategyTable, card: dict[str, int]) -> np.ndarray:
    index = yatzy.state_index(card)
    return yatzy.score_values(
        np.asarray(table.values), np.array([index >> 6]), np.array([index & 63])
    )[:, 0]


@settings(max_examples=10, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(cards())
def test_each_rolls_value_agrees_with_the_engine(
    yatzy_table: StrategyTable, card: dict[str, int]
) -> None:
    values = solver_values(yatzy_table, card)
    for r, roll in enumerate(dice.KEEPS[:252]):
        assert values[r] == pytest.approx(engine_value(yatzy_table, card, roll), abs=1e-9), roll


@pytest.mark.parametrize(
    "card",
    [
        {"sixes": 24, "fives": 20, "fours": 16},  # 60: three more reach the bonus
        {b: 0 for b in YATZY.boxes if b not in ("ones", "yatzy")},  # the last two boxes
        {b: 0 for b in YATZY.lower},
    ],
)
def test_the_bonus_and_the_last_turns_agree_with_the_engine(
    yatzy_table: StrategyTable, card: dict[str, int]
) -> None:
    test_each_rolls_value_agrees_with_the_engine.hypothesis.inner_test(yatzy_table, card)  # type: ignore[attr-defined]


def test_a_state_holds_the_mean_of_its_first_roll(yatzy_table: StrategyTable) -> None:
    """The stored value of sampled states (out-of-reach bonus copies included) is its own turn
    worked again from the values after it."""
    values = np.asarray(yatzy_table.values)
    for layer in yatzy.layers()[::3]:
        for picked in (layer.copies[::997], yatzy.index_array(layer.mask, layer.upper)[::997]):
            direct = yatzy.start_values(values, picked >> 6, picked & 63)
            assert np.allclose(direct, values[picked], atol=1e-9)


# --- The advisor, the bots and the analysis, as for Classic ---------------------------------


@pytest.fixture(scope="module")
def yatzy_advisor(yatzy_table: StrategyTable) -> Advisor:
    return Advisor(yatzy_table)


@pytest.mark.parametrize("rolls_used", [1, 2, 3])
@pytest.mark.parametrize(
    ("card", "roll"),
    [({}, (6, 6, 5, 5, 1)), ({"sixes": 18, "one_pair": 12}, (1, 2, 3, 4, 6))],
)
def test_the_best_choice_is_legal_and_worth_what_the_table_says(
    yatzy_advisor: Advisor,
    yatzy_table: StrategyTable,
    card: dict[str, int],
    roll: rules.Dice,
    rolls_used: int,
) -> None:
    sheet, turn = rules.Sheet(kind=YATZY, cards=(card,)), rules.Turn(roll, rolls_used=rolls_used)
    hint = yatzy_advisor.hint(sheet, turn)
    action = yatzy_advisor.best_action(sheet, turn)

    assert hint.exact and hint.best.action == action
    if isinstance(action, ScoreBox):
        assert rules.can_score(sheet, turn, action.box)
    else:
        assert rules.can_hold(turn, action.held)
    values = solver.turn_values(solver_values(yatzy_table, card))
    stage = {1: values.roll_first, 2: values.roll_second, 3: values.score}[rolls_used]
    r = dice.KEEP_INDEX[tuple(sorted(roll))]
    assert hint.best.expected == pytest.approx(sheet.grand_total + stage[r], abs=1e-9)
    start = yatzy_advisor.value_of(sheet, rules.Turn(), RollDice(rules.NO_HOLD)).expected
    assert start == pytest.approx(sheet.grand_total + yatzy_table.values[yatzy.state_index(card)])


def test_an_advisor_advises_only_the_kinds_its_table_solves(
    yatzy_advisor: Advisor, advisor: Advisor
) -> None:
    turn = rules.Turn((1, 2, 3, 4, 5), rolls_used=1)
    with pytest.raises(ValueError, match="Yatzy table cannot advise Classic"):
        yatzy_advisor.hint(rules.Sheet(), turn)
    with pytest.raises(ValueError, match="Classic Yahtzee table cannot advise Yatzy"):
        advisor.best_action(rules.Sheet(kind=YATZY), turn)
    assert advisor.advises(rules.TRIPLE) and not yatzy_advisor.advises(rules.TRIPLE)


@pytest.mark.parametrize("bot", ["perfect", "good", "beginner"])
def test_each_computer_player_plays_a_yatzy_game_to_its_end(
    yatzy_advisor: Advisor, bot: str
) -> None:
    sheet, record = play_game(
        make_bot(bot, yatzy_advisor, random.Random(7)), seeded_dice(random.Random(7)), YATZY
    )
    assert sheet.is_complete and set(sheet.cards[0]) == set(YATZY.boxes)
    analysis = analyse(yatzy_advisor, GameRecord(record.turns, YATZY))
    assert analysis.exact and analysis.final_score == sheet.grand_total
    if bot == "perfect":
        assert all(decision.is_best for decision in analysis.decisions)


def test_build_strategy_builds_or_finds_both_tables(
    settings: pytest.FixtureRequest,
    strategy_dir: Path,
    table: StrategyTable,
    yatzy_table: StrategyTable,
) -> None:
    out = StringIO()
    call_command("build_strategy", "--dir", str(strategy_dir), stdout=out)
    assert "strategy-yatzy.bin is up to date (Yatzy, no Joker)" in out.getvalue()
    assert "Expected score of a new game: 248.4400" in out.getvalue()


def test_the_beginner_chases_yatzys_straights_only_while_they_are_open(
    yatzy_advisor: Advisor,
) -> None:
    beginner = make_bot("beginner", yatzy_advisor, random.Random(0))
    run = rules.Turn((1, 2, 3, 4, 6), rolls_used=1)
    open_card = rules.Sheet(kind=YATZY)
    done = rules.Sheet(kind=YATZY, cards=({"yatzy_small_straight": 0, "yatzy_large_straight": 0},))

    assert beginner.decide(open_card, run) == RollDice((True, True, True, True, False))
    assert beginner.decide(done, run) == RollDice((False, False, False, False, True))
    house = rules.Turn((3, 3, 3, 5, 5), rolls_used=1)
    assert beginner.decide(open_card, house) == ScoreBox(0, rules.Box.YATZY_FULL_HOUSE)
