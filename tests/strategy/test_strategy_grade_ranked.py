"""``grade`` with the position's ranking handed in (the coach ranks once, for the grading and
for the note it shows) grades exactly as it does when it ranks itself."""

from __future__ import annotations

from games import rules
from games.strategy import Advisor, RollDice, ScoreBox, grade


def test_a_ranking_handed_in_grades_as_one_worked_out(advisor: Advisor) -> None:
    sheet = rules.Sheet(kind=rules.CLASSIC, cards=({"aces": 3},))
    turn = rules.Turn(dice=(5, 5, 6, 2, 1), held=rules.NO_HOLD, rolls_used=1)
    ranked = advisor.options(sheet, turn)
    choices = [RollDice((True, True, True, False, False)), ScoreBox(0, rules.Box.CHANCE)]

    for choice in choices:
        handed = grade(advisor, sheet, turn, choice, ranked=ranked)
        worked = grade(advisor, sheet, turn, choice)
        assert (handed.choice, handed.best) == (worked.choice, worked.best)
        assert handed.loss == worked.loss
        assert handed.loss > 0.5
