"""Accuracy on known games: perfect play scores 100; any other game scores exactly
100 × (1 − the losses of its decisions, summed here independently ÷ the new game's value);
a game with one known mistake scores the value the solver's table gives that mistake."""

from __future__ import annotations

import random

import pytest

from games import rules
from games.strategy import (
    Advisor,
    GameRecord,
    RollDice,
    ScoreBox,
    StrategyTable,
    TurnRecord,
    accuracy,
    analyse,
    make_bot,
    play_game,
    seeded_dice,
    simulate,
)
from games.strategy.bots import MEASURED_ACCURACY
from games.strategy.scores import BIT
from games.strategy.states import State


def _losses_summed_apart(advisor: Advisor, record: GameRecord) -> tuple[float, int]:
    """Each decision of ``record`` replayed through the rules here, with its loss taken as the
    best option's expected final score less the chosen one's: their sum, and how many."""
    sheet, total, count = rules.Sheet(kind=record.kind), 0.0, 0
    for played in record.turns:
        turn = rules.Turn()
        for i, dice in enumerate(played.rolls):
            if i:
                held = tuple(played.holds[i - 1])
                best = max(o.expected for o in advisor.options(sheet, turn))
                total += best - advisor.value_of(sheet, turn, RollDice(held)).expected
                count += 1
                turn = rules.hold(turn, held)
            fresh = [d for d, h in zip(dice, turn.held, strict=True) if not h] if i else dice
            turn, _ = rules.roll(turn, lambda n, fresh=tuple(fresh): fresh)
        best = max(o.expected for o in advisor.options(sheet, turn))
        chosen = ScoreBox(played.column, rules.Box(played.box))
        total += best - advisor.value_of(sheet, turn, chosen).expected
        count += 1
        sheet, _ = rules.score(sheet, turn, played.box, played.column)
    return total, count


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_a_perfect_bots_game_scores_100(advisor: Advisor, seed: int) -> None:
    _, record = play_game(
        make_bot("perfect", advisor, random.Random(seed)), seeded_dice(random.Random(seed + 10))
    )

    found = analyse(advisor, record)

    assert found.accuracy == 100.0
    assert found.exact and len(found.decisions) >= 13


def test_a_perfect_bots_triple_game_scores_100_by_the_estimate(advisor: Advisor) -> None:
    _, record = play_game(
        make_bot("perfect", advisor, random.Random(4)),
        seeded_dice(random.Random(5)),
        rules.TRIPLE,
    )

    found = analyse(advisor, record)

    assert found.accuracy == 100.0 and not found.exact


@pytest.mark.parametrize("seed", [1, 7])
def test_a_beginners_game_scores_what_the_formula_says(
    advisor: Advisor, table: StrategyTable, seed: int
) -> None:
    _, record = play_game(
        make_bot("beginner", advisor, random.Random(seed)), seeded_dice(random.Random(seed + 20))
    )

    lost, decisions = _losses_summed_apart(advisor, record)
    found = analyse(advisor, record)

    assert len(found.decisions) == decisions
    assert found.start == pytest.approx(table.new_game)
    assert found.accuracy == round(100 * (1 - lost / table.new_game), 1)
    assert 50 < found.accuracy < 97  # a beginner's: well short of perfect, far from nothing


def test_one_known_mistake_costs_what_the_table_says(
    advisor: Advisor, table: StrategyTable
) -> None:
    # Five sixes on the first roll of the game, scored as 30 in Chance instead of 50 in YAHTZEE.
    record = GameRecord([TurnRecord(rolls=[(6, 6, 6, 6, 6)], holds=[], box="chance")])
    yahtzee = 50 + table.value(State(BIT[rules.Box.YAHTZEE], 0, True))
    chance = 30 + table.value(State(BIT[rules.Box.CHANCE], 0, False))

    found = analyse(advisor, record)

    (decision,) = found.decisions
    assert decision.best.action == ScoreBox(0, rules.Box.YAHTZEE)
    assert decision.loss == pytest.approx(yahtzee - chance)
    assert found.accuracy == round(100 * (1 - (yahtzee - chance) / table.new_game), 1)
    # The table's price of that mistake: 20 points now, and 50.9 of what the rest of the game
    # can bring (a YAHTZEE of 50 opens the 100-point bonuses): 70.9 of 254.59 points.
    assert found.accuracy == 72.2


def test_the_accuracy_is_clipped_and_rounded_to_one_decimal() -> None:
    assert accuracy(12.75, 254.59) == 95.0  # 94.99…
    assert accuracy(-1.0, 254.59) == 100.0
    assert accuracy(1.0, 0.0) == 0.0


@pytest.mark.parametrize(("name", "games"), [("good", 120), ("beginner", 120)])
def test_the_stated_accuracy_of_each_computer_player_holds(
    advisor: Advisor, name: str, games: int
) -> None:
    report = simulate(
        lambda rng: make_bot(name, advisor, rng), games=games, seed=77, grader=advisor
    )

    stated = MEASURED_ACCURACY[name]
    assert report.accuracy is not None
    assert abs(report.accuracy.mean - stated["mean"]) < 4 * stated["sd"] / games**0.5


def test_the_perfect_players_stated_accuracy_is_100() -> None:
    assert MEASURED_ACCURACY["perfect"] == {
        "mean": 100.0,
        "sd": 0.0,
        "lowest": 100.0,
        "highest": 100.0,
    }
