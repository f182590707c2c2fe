"""The bench's cards: finished, legal, totalled and counted as the rules engine would."""

from __future__ import annotations

import functools
import itertools
import random

import pytest

from bench.cards import FinishedCard, card_pool
from bench.fill import games_per_player
from games import rules
from games.rules import Box


@functools.cache
def pool(kind: rules.GameKind) -> list[FinishedCard]:
    return card_pool(random.Random(7), kind, 3_000)


FILLED = (rules.CLASSIC, rules.TRIPLE)
"""The kinds whose cards ``bench.fill`` writes (Yatzy's scores are not in the filled data)."""


def columns_of(card: FinishedCard) -> list[dict[str, int]]:
    return [dict(column) for column in card.sheet.cards]


def yahtzee_boxes(card: FinishedCard) -> int:
    return sum(1 for column in columns_of(card) if column[Box.YAHTZEE] == rules.YAHTZEE_POINTS)


def points_a_roll_can_score() -> dict[str, set[int]]:
    """Every value each box can hold: any roll at face value, and any Joker's value."""
    rolls = list(itertools.combinations_with_replacement(range(1, 7), 5))
    possible = {box: {rules.box_score(box, dice) for dice in rolls} for box in rules.CATEGORIES}
    for face in range(1, 7):
        joker = rules.column_scores((face,) * 5, {Box.YAHTZEE: 0}, rules.CLASSIC)
        for box, points in joker.items():
            possible[box].add(points)
    return possible


@pytest.mark.parametrize("kind", FILLED, ids=lambda kind: kind.key)
def test_every_card_is_full_and_totals_as_the_rules_total_it(kind: rules.GameKind) -> None:
    for card in pool(kind):
        columns = columns_of(card)
        totals = rules.game_totals(kind, columns, card.yahtzee_bonuses)

        assert len(columns) == kind.columns
        assert all(set(column) == set(rules.CATEGORIES) for column in columns)
        assert card.grand_total == totals["grand_total"]
        assert card.upper_bonuses == sum(1 for c in totals["columns"] if c["upper_bonus"])


@pytest.mark.parametrize("kind", FILLED, ids=lambda kind: kind.key)
def test_every_box_holds_points_a_roll_could_score(kind: rules.GameKind) -> None:
    possible = points_a_roll_can_score()
    for card in pool(kind):
        for column in columns_of(card):
            for box, points in column.items():
                assert points in possible[box], (box, points)


@pytest.mark.parametrize("kind", FILLED, ids=lambda kind: kind.key)
def test_yahtzees_count_the_box_the_bonuses_and_now_and_then_more(kind: rules.GameKind) -> None:
    cards = pool(kind)
    beyond = [card.yahtzees - yahtzee_boxes(card) - card.yahtzee_bonuses for card in cards]

    assert min(beyond) >= 0
    # A Joker, or a five of a kind in Chance, after the YAHTZEE box was filled: a few percent.
    assert 0 < sum(1 for n in beyond if n) < len(cards) // 4


def test_bonuses_only_in_classic_and_only_over_a_yahtzee_of_50() -> None:
    classic, triple = pool(rules.CLASSIC), pool(rules.TRIPLE)

    assert all(yahtzee_boxes(card) for card in classic if card.yahtzee_bonuses)
    assert any(card.yahtzee_bonuses for card in classic)
    assert not any(card.yahtzee_bonuses for card in triple)


def test_a_stored_card_counts_a_jokers_yahtzee_as_the_engine_does() -> None:
    # Everything filled but Sixes and Chance, the YAHTZEE box scratched: five sixes are a Joker.
    column = {box: 0 for box in rules.CATEGORIES if box not in (Box.SIXES, Box.CHANCE)}
    sheet = rules.Sheet(cards=(column,))
    sheet, _ = rules.score(sheet, rules.Turn(dice=(6, 6, 6, 6, 6), rolls_used=1), Box.SIXES)
    sheet, _ = rules.score(sheet, rules.Turn(dice=(6, 6, 6, 6, 6), rolls_used=1), Box.CHANCE)

    card = FinishedCard.of(sheet)

    assert (card.yahtzees, card.yahtzee_bonuses, yahtzee_boxes(card)) == (2, 0, 0)
    assert card.grand_total == sheet.grand_total == 60


def test_the_same_seed_gives_the_same_cards() -> None:
    again = card_pool(random.Random(7), rules.CLASSIC, 3_000)

    assert again == pool(rules.CLASSIC)


def test_games_are_shared_out_to_every_player_and_add_up() -> None:
    counts = games_per_player(random.Random(1), players=500, games=20_000)

    assert sum(counts) == 20_000 and min(counts) >= 1
    assert max(counts) > 5 * 20_000 / 500  # a few play far more than most
