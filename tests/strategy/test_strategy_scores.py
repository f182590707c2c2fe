"""The solver's scoring tables agree with ``games.rules`` on every roll and box."""

from __future__ import annotations

import pytest

from games import rules
from games.strategy import dice, scores


@pytest.mark.parametrize("box", rules.CATEGORIES)
def test_every_roll_scores_in_every_box_as_the_engine_says(box: rules.Box) -> None:
    for r, roll in enumerate(dice.KEEPS[:252]):
        assert scores.SCORES[r, scores.BOX_INDEX[box]] == rules.box_score(box, roll), roll


@pytest.mark.parametrize("face", range(1, 7))
def test_joker_values_are_the_engines(face: int) -> None:
    five = (face,) * 5
    # YAHTZEE filled and the face's upper box filled: the Joker may go in any open lower box.
    card = {"yahtzee": 50, rules.UPPER_BOX_OF_FACE[face]: 0}
    legal = rules.legal_scores(five, card)
    for box in rules.LOWER:
        if box != "yahtzee":
            assert legal[box] == scores.joker_score(box, face)


def test_five_of_a_kind_rolls_are_the_six_in_face_order() -> None:
    assert [dice.KEEPS[r] for r in scores.YAHTZEE_ROLLS] == [(f,) * 5 for f in range(1, 7)]
