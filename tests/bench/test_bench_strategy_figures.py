"""Perfect play's bench: its positions are real positions, its verdicts follow its targets."""

from __future__ import annotations

import random

from bench import strategy_figures
from games import rules


def test_positions_are_legal_cards_with_dice_on_the_table() -> None:
    positions = strategy_figures._positions(random.Random(1), 50)

    assert len(positions) == 50
    for sheet, turn in positions:
        assert turn.has_rolled and 1 <= turn.rolls_used <= rules.MAX_ROLLS
        for box, points in sheet.cards[0].items():
            face = rules.Box(box).face
            assert points == 0 or (face is not None and points % face == 0 and points <= 5 * face)


def test_p95_is_the_value_at_the_95th_percentile() -> None:
    assert strategy_figures._p95([float(n) for n in range(1, 101)]) == 95.0
    assert strategy_figures._p95([3.0]) == 3.0


def test_each_target_is_met_at_its_bound_and_missed_past_it() -> None:
    at = {key: float(bound) for key, bound in strategy_figures.TARGETS.items()}
    past = {key: value * 1.01 for key, value in at.items()}

    assert all(strategy_figures._met(at).values())
    assert not any(strategy_figures._met(past).values())
