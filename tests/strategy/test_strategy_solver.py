"""The solver: the published optimum, agreement with the engine state by state, and the states."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from games import rules
from games.strategy import Convention, State, StrategyTable, dice, solver, states

VERHOEFF = 254.5896  # Tom Verhoeff's optimum, free-choice Joker
FORCED = 254.5877  # the same under RULES.md's forced Joker


def test_the_free_joker_reproduces_verhoeffs_optimum(free_table: StrategyTable) -> None:
    assert round(free_table.new_game, 4) == VERHOEFF


def test_the_forced_joker_of_our_rules_is_slightly_lower(table: StrategyTable) -> None:
    assert round(table.new_game, 4) == FORCED


def test_about_half_a_million_states_are_reachable() -> None:
    assert states.reachable().sum() == 536_320
    live = sum(len(layer) for layer in states.layers())
    assert live < 360_000  # a third share a value: their upper bonus is out of reach


@st.composite
def cards(draw: st.DrawFn) -> dict[str, int]:
    """A Classic card a game can reach, with at least one box open."""
    filled = draw(st.sets(st.sampled_from(rules.CATEGORIES), max_size=12))
    card = {}
    for box in filled:
        if box in rules.UPPER:
            card[box] = rules.FACE_OF[box] * draw(st.integers(0, 5))
        elif box == "yahtzee":
            card[box] = draw(st.sampled_from([0, 50]))
        else:
            card[box] = draw(st.integers(0, 30))
    return card


def engine_value(table: StrategyTable, card: dict[str, int], roll: tuple[int, ...]) -> float:
    """The best box for ``roll`` worked out by the engine: points gained plus the table after."""
    sheet = rules.Sheet(cards=(card,))
    turn = rules.Turn(dice=roll, rolls_used=3)
    best = -np.inf
    for box in rules.legal_scores(roll, card):
        after, _ = rules.score(sheet, turn, box)
        gained = after.grand_total - sheet.grand_total
        future = 0.0 if after.is_complete else table.value(State.of_card(after.cards[0]))
        best = max(best, gained + future)
    return best


@settings(max_examples=8, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(cards())
def test_each_rolls_value_agrees_with_the_engine(
    table: StrategyTable, card: dict[str, int]
) -> None:
    state = State.of_card(card)
    values = solver.score_values(
        np.asarray(table.values),
        np.array([state.mask]),
        np.array([state.upper]),
        np.array([int(state.yahtzee50)]),
        Convention.FORCED,
    )[:, 0]
    for r, roll in enumerate(dice.KEEPS[:252]):
        assert values[r] == pytest.approx(engine_value(table, card, roll), abs=1e-9), roll


@pytest.mark.parametrize(
    "card",
    [
        {"yahtzee": 50},
        {"yahtzee": 0, "sixes": 18},
        {"yahtzee": 50, **{b: 0 for b in rules.UPPER}},
        {b: 0 for b in rules.CATEGORIES if b not in ("aces", "chance")} | {"yahtzee": 50},
        {b: 0 for b in rules.LOWER} | {"yahtzee": 50},
    ],
)
def test_the_joker_positions_agree_with_the_engine(
    table: StrategyTable, card: dict[str, int]
) -> None:
    test_each_rolls_value_agrees_with_the_engine.hypothesis.inner_test(table, card)  # type: ignore[attr-defined]


def test_states_whose_bonus_is_out_of_reach_hold_their_own_value(table: StrategyTable) -> None:
    values = np.asarray(table.values)
    for layer in states.layers()[3:10]:
        picked = layer.copies[:: max(1, len(layer.copies) // 20)]
        mask, upper, flag = picked >> 7, (picked >> 1) & 63, picked & 1
        direct = solver.start_values(values, mask, upper, flag, Convention.FORCED)
        assert np.allclose(direct, values[picked], atol=1e-9)


def test_every_layer_half_of_each_process_holds_the_direct_value(table: StrategyTable) -> None:
    """Both processes' halves of every layer: the stored value is the state's own turn."""
    values = np.asarray(table.values)
    for layer in states.layers():
        picked = np.unique(np.linspace(0, len(layer) - 1, 12).astype(int))
        mask, upper, flag = layer.mask[picked], layer.upper[picked], layer.yahtzee50[picked]
        direct = solver.start_values(values, mask, upper, flag, Convention.FORCED)
        assert np.allclose(direct, values[states.index_array(mask, upper, flag)], atol=1e-9)
