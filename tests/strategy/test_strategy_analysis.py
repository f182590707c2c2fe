"""Post-game analysis: perfect play loses nothing, mistakes are priced, bad records refused."""

from __future__ import annotations

import random

import pytest

from games import rules
from games.strategy import (
    Advisor,
    GameRecord,
    RecordError,
    TurnRecord,
    analyse,
    make_bot,
    play_game,
    seeded_dice,
)


def test_a_perfect_game_loses_nothing(advisor: Advisor) -> None:
    sheet, record = play_game(
        make_bot("perfect", advisor, random.Random(1)), seeded_dice(random.Random(2))
    )
    analysis = analyse(advisor, record)
    assert analysis.total_loss == pytest.approx(0, abs=1e-9)
    assert analysis.final_score == sheet.grand_total
    assert analysis.exact
    assert len(analysis.path) == len(analysis.decisions) + 1


def test_a_beginners_losses_add_up_and_the_costliest_come_first(advisor: Advisor) -> None:
    _, record = play_game(
        make_bot("beginner", advisor, random.Random(1)), seeded_dice(random.Random(3))
    )
    analysis = analyse(advisor, record)
    assert analysis.total_loss > 5
    assert analysis.total_loss == pytest.approx(sum(d.loss for d in analysis.decisions))
    worst = analysis.costliest(3)
    assert [d.loss for d in worst] == sorted((d.loss for d in worst), reverse=True)
    assert worst[0].loss == max(d.loss for d in analysis.decisions)


def test_scratching_aces_instead_of_taking_a_large_straight_is_priced(advisor: Advisor) -> None:
    turn = TurnRecord(rolls=[(1, 2, 3, 4, 5)], holds=[], box="aces")
    decision = analyse(advisor, GameRecord([turn])).decisions[0]
    assert decision.best.action.box == rules.Box.LARGE_STRAIGHT  # type: ignore[union-attr]
    assert decision.choice.description == "Score 1 in Aces"
    assert decision.loss > 20


def test_a_hold_is_a_decision_too(advisor: Advisor) -> None:
    turn = TurnRecord(
        rolls=[(4, 2, 4, 6, 4), (4, 1, 4, 5, 4)],
        holds=[(True, False, True, False, True)],
        box="three_of_a_kind",
    )
    decisions = analyse(advisor, GameRecord([turn])).decisions
    assert [d.roll_number for d in decisions] == [1, 2]
    assert decisions[0].is_best


def test_a_held_die_that_changed_is_refused(advisor: Advisor) -> None:
    turn = TurnRecord(
        rolls=[(4, 2, 4, 6, 4), (5, 1, 4, 5, 4)],
        holds=[(True, False, True, False, True)],
        box="chance",
    )
    with pytest.raises(RecordError, match="held die"):
        analyse(advisor, GameRecord([turn]))


def test_a_move_the_rules_forbid_is_refused(advisor: Advisor) -> None:
    turns = [
        TurnRecord([(1, 1, 1, 1, 1)], [], "yahtzee"),
        TurnRecord([(2, 2, 2, 2, 2)], [], "chance"),
    ]
    with pytest.raises(RecordError, match="Joker"):
        analyse(advisor, GameRecord(turns))


def test_accuracy_is_the_share_of_the_expected_points_kept() -> None:
    from games.strategy import accuracy

    assert accuracy(0.0, 250.0) == 100.0
    assert accuracy(25.0, 250.0) == 90.0
    assert accuracy(2.5, 254.59) == 99.0  # 100 × (1 − 2.5 ÷ 254.59) = 99.018…, to one decimal
    assert accuracy(400.0, 250.0) == 0.0  # clipped
    assert accuracy(0.0, 0.0) == 0.0  # a game with nothing to play for grades nothing
