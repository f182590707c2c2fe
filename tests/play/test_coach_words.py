"""The coach's sentences for every kind of pair (a hold, rolling all five, holding all five, a
box, a box of a column), and its note: the player's choice found among the best however the
dice held lie, or set below them."""

from __future__ import annotations

import pytest

from games import rules, strategy
from games.play import coach

DICE = (5, 2, 5, 6, 1)


def hold(*indexes: int, expected: float = 250.0) -> strategy.Option:
    held = tuple(i in indexes for i in range(rules.DICE_COUNT))
    return strategy.Option(strategy.RollDice(held), expected, f"Hold {indexes}")


def box(key: str, points: int, expected: float, column: int = 0) -> strategy.Option:
    return strategy.Option(strategy.ScoreBox(column, rules.Box(key)), expected, key, points)


@pytest.mark.parametrize(
    ("best", "choice", "said"),
    [
        (hold(0, 2, expected=253.0), hold(0, 2, 3, expected=251.04),
         "Holding 5 5 was worth 2.0 more expected points than 5 5 6."),
        (hold(0, 2, expected=253.0), hold(expected=249.5),
         "Holding 5 5 was worth 3.5 more expected points than rolling all five."),
        (hold(expected=249.5), hold(0, 2, expected=248.0),
         "Rolling all five was worth 1.5 more expected points than holding 5 5."),
        (box("chance", 19, 251.0), hold(0, 1, 2, 3, 4, expected=240.0),
         "Chance (19) was worth 11.0 more expected points than holding all five."),
        (box("full_house", 25, 253.92), box("chance", 22, 241.96),
         "Full House (25) was worth 12.0 more expected points than Chance (22)."),
        (hold(3, expected=255.25), box("sixes", 6, 253.95),
         "Holding 6 was worth 1.3 more expected points than Sixes (6)."),
        (box("yahtzee", 0, 80.0), hold(4, expected=79.0),
         "YAHTZEE (0) was worth 1.0 more expected points than holding 1."),
    ],
)  # fmt: skip
def test_the_sentence_names_both_choices_and_the_points_between(best, choice, said) -> None:
    assert coach.sentence(best, choice, DICE) == said


def test_in_triple_a_box_names_its_column() -> None:
    best, choice = box("full_house", 25, 1526.85), box("full_house", 25, 1526.17, column=1)

    said = coach.sentence(best, choice, DICE, columns=3)

    assert (
        said == "Full House in column 1 (25) was worth 0.7 more expected points than "
        "Full House in column 2 (25)."
    )


def test_the_choice_is_found_among_the_best_however_its_dice_lie() -> None:
    dice = (5, 5, 6, 5, 1)
    ranked = [hold(0, 1, 3, expected=253.0), hold(0, 1, 2, expected=251.0), hold(expected=249.0)]
    choice = hold(1, 2, 3, expected=251.0)  # 5 6 5: the same keep as 5 5 6, other dice held
    decision = strategy.Decision(1, 1, dice, choice, ranked[0], rules.Sheet())

    note = coach.note_of(decision, ranked, exact=True)

    assert [o["yours"] for o in note["best"]] == [False, True, False]
    assert note["yours"] is None and note["held"] == [False, True, True, True, False]
    assert (note["dice"], note["roll"], note["exact"]) == ([5, 5, 6, 5, 1], 1, True)


def test_a_choice_outside_the_best_three_is_set_below_them() -> None:
    ranked = [hold(0, 2, expected=253.0), hold(0, 2, 3, expected=251.0), hold(expected=249.0)]
    chance = box("chance", 19, 240.04)
    decision = strategy.Decision(2, 3, DICE, chance, ranked[0], rules.Sheet())

    note = coach.note_of(decision, ranked, exact=False)

    assert not any(o["yours"] for o in note["best"])
    assert note["yours"] == {"description": "chance", "expected": 240.0, "held": None,
                             "yours": True}  # fmt: skip
    assert note["held"] == [False] * 5 and note["exact"] is False


def test_the_help_page_quotes_the_coach_as_it_speaks(client, db) -> None:
    from django.urls import reverse

    from tests.factories import page_text

    said = coach.sentence(hold(0, 2, expected=253.0), hold(0, 2, 3, expected=251.04), DICE)

    assert said == "Holding 5 5 was worth 2.0 more expected points than 5 5 6."
    assert f"“{said}”" in page_text(client.get(reverse("help")))
