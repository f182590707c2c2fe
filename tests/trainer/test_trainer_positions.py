"""Positions as values, and the instructive set: every position of it is reached by play under
the rules engine and is a real choice for the advisor (its best answer is the advisor's, worked
out here, never written down)."""

from __future__ import annotations

import pytest

from games import rules, strategy
from games.trainer import instructive
from games.trainer.positions import BadPosition, Position, played


@pytest.mark.parametrize("item", instructive.SET, ids=lambda item: item.slug)
def test_each_instructive_position_is_reached_by_play_under_the_rules(item) -> None:
    position = item.position

    sheet, turn = played(position)

    assert sheet.cards == position.sheet.cards
    assert turn == position.turn
    assert not sheet.is_complete and turn.rolls_left == rules.MAX_ROLLS - position.rolls_used


@pytest.mark.parametrize("item", instructive.SET, ids=lambda item: item.slug)
def test_each_instructive_position_is_a_real_choice(advisor: strategy.Advisor, item) -> None:
    """Its best choice beats the next by half a point or more (what makes a player's own
    decision worth training too)."""
    position = item.position

    ranked = advisor.options(position.sheet, position.turn)

    assert ranked[0].expected - ranked[1].expected >= 0.5


def test_the_set_is_large_and_covers_its_four_themes() -> None:
    themes = {item.theme for item in instructive.SET}

    assert len(instructive.SET) >= 12
    assert themes == {
        instructive.UPPER,
        instructive.STRAIGHTS,
        instructive.JOKER,
        instructive.LAST_ROUNDS,
    }
    assert len(instructive.BY_SLUG) == len(instructive.SET)


def test_the_joker_positions_roll_five_of_a_kind_over_a_filled_yahtzee_box() -> None:
    for item in instructive.SET:
        if item.theme == instructive.JOKER:
            card = item.position.card
            assert rules.joker_applies(item.position.dice, card), item.slug


def test_a_position_reads_back_what_it_wrote() -> None:
    position = Position(
        {"aces": 3, "yahtzee": 50}, (4, 4, 2, 4, 1), 2, (True, True, False, True, False), 1
    )

    again = Position.from_json(position.to_json())

    assert again == position
    assert again.sheet.yahtzee_bonuses == 1 and again.sheet.grand_total == 153
    assert again.turn == rules.Turn(
        dice=(4, 4, 2, 4, 1), held=(True, True, False, True, False), rolls_used=2
    )


@pytest.mark.parametrize(
    ("data", "reason"),
    [
        ({"card": {}, "dice": [1, 2, 3, 4, 7], "held": [False] * 5, "rolls_used": 1}, "5 dice"),
        ({"card": {}, "dice": [1, 2, 3, 4, 5], "held": [True] * 5, "rolls_used": 1}, "first roll"),
        ({"card": {}, "dice": [1, 2, 3, 4, 5], "held": [False] * 5, "rolls_used": 4}, "third roll"),
        (
            {"card": {"sevens": 7}, "dice": [1, 2, 3, 4, 5], "held": [False] * 5, "rolls_used": 1},
            "no box",
        ),
        (
            {
                "card": {"chance": 20},
                "dice": [1, 2, 3, 4, 5],
                "held": [False] * 5,
                "rolls_used": 1,
                "yahtzee_bonuses": 1,
            },
            "YAHTZEE of 50",
        ),
        ({"dice": [1, 2, 3, 4, 5]}, "Not a position"),
    ],
)
def test_data_that_is_no_position_is_refused_saying_why(data, reason: str) -> None:
    with pytest.raises(BadPosition, match=reason):
        Position.from_json(data)


@pytest.mark.parametrize(
    ("card", "reason"),
    [
        ({"full_house": 24}, "No roll scores 24 in Full House"),
        ({"aces": 6}, "No roll scores 6 in Aces"),
    ],
)
def test_a_card_no_play_can_fill_is_not_reached(card, reason: str) -> None:
    with pytest.raises(BadPosition, match=reason):
        played(Position(card, (1, 2, 3, 4, 5), 1))


def test_a_card_only_five_of_a_kind_fills_is_reached_before_its_yahtzee_box() -> None:
    """30 in 3 of a Kind takes five 6s: scored while the YAHTZEE box is open, no Joker needed."""
    position = Position({"three_of_a_kind": 30, "yahtzee": 0}, (2, 3, 3, 5, 6), 1)

    sheet, _ = played(position)

    assert sheet.cards[0] == {"three_of_a_kind": 30, "yahtzee": 0}
