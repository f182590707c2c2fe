"""Properties of legal moves, and whole random games played through roll, hold and score."""

from __future__ import annotations

import random
from collections.abc import Sequence

import pytest
from hypothesis import Phase, given, settings
from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, invariant, precondition, rule

from games import rules

UPPER_BOXES = ("aces", "twos", "threes", "fours", "fives", "sixes")

any_roll = st.tuples(*[st.integers(1, 6)] * 5)
five_of_a_kind = st.integers(1, 6).map(lambda face: (face,) * 5)
# Five of a kind is rare in fair dice (6 in 7,776); offer it often so the Joker paths get played.
dice = st.one_of(five_of_a_kind, any_roll)
holds = st.tuples(*[st.booleans()] * 5)


@st.composite
def cards(draw: st.DrawFn, *, max_filled: int = 13) -> dict[str, int]:
    """A Classic column with some boxes filled; YAHTZEE, when filled, holds 50 or 0."""
    filled = draw(st.sets(st.sampled_from(rules.CATEGORIES), max_size=max_filled))
    return {
        box: draw(st.sampled_from([0, 50]) if box == "yahtzee" else st.integers(0, 40))
        for box in filled
    }


open_cards = cards(max_filled=12)


def recomputed_total(kind: rules.GameKind, scorings: Sequence[rules.Scoring]) -> int:
    """The grand total worked out again from the scoring records alone."""
    total = 0
    for column, multiplier in enumerate(kind.multipliers):
        entries = [s for s in scorings if s.column == column]
        upper = sum(s.points for s in entries if s.box in UPPER_BOXES)
        upper_bonus = 35 if upper >= 63 else 0
        total += multiplier * (sum(s.points for s in entries) + upper_bonus)
    return total + sum(s.yahtzee_bonus for s in scorings)


# --- Legal moves ------------------------------------------------------------------------------


@given(dice, cards())
def test_legal_scores_never_offer_a_filled_box(dice: rules.Dice, card: dict[str, int]) -> None:
    assert not set(rules.legal_scores(dice, card)) & set(card)


@given(dice, open_cards)
def test_some_box_is_always_legal_while_one_is_open(dice: rules.Dice, card: dict[str, int]) -> None:
    assert rules.legal_scores(dice, card)


@given(dice, cards())
def test_points_are_never_negative(dice: rules.Dice, card: dict[str, int]) -> None:
    assert all(points >= 0 for points in rules.legal_scores(dice, card).values())


@given(any_roll.filter(lambda d: len(set(d)) > 1), cards())
def test_without_five_of_a_kind_every_open_box_is_legal_at_face_value(
    dice: rules.Dice, card: dict[str, int]
) -> None:
    open_boxes = [box for box in rules.CATEGORIES if box not in card]
    assert rules.legal_scores(dice, card) == {box: rules.box_score(box, dice) for box in open_boxes}


@given(five_of_a_kind, open_cards.filter(lambda card: "yahtzee" in card))
def test_the_joker_only_ever_narrows_the_open_boxes(dice: rules.Dice, card: dict[str, int]) -> None:
    open_boxes = {box for box in rules.CATEGORIES if box not in card}
    assert set(rules.legal_scores(dice, card)) <= open_boxes


@given(five_of_a_kind, open_cards.filter(lambda card: "yahtzee" in card))
def test_the_joker_forces_an_open_face_box(dice: rules.Dice, card: dict[str, int]) -> None:
    face_box = UPPER_BOXES[dice[0] - 1]
    if face_box in card:
        assert face_box not in rules.legal_scores(dice, card)
    else:
        assert rules.legal_scores(dice, card) == {face_box: 5 * dice[0]}


@given(st.permutations([1, 2, 3, 4, 5]), dice, cards())
def test_the_order_of_the_dice_does_not_matter(
    order: list[int], dice: rules.Dice, card: dict[str, int]
) -> None:
    shuffled = tuple(dice[i - 1] for i in order)
    assert rules.legal_scores(shuffled, card) == rules.legal_scores(dice, card)


@given(dice, st.tuples(cards(), cards(), cards()))
def test_triple_offers_every_open_slot_at_face_value(
    dice: rules.Dice, columns: tuple[dict[str, int], ...]
) -> None:
    expected = {
        (column, box): rules.box_score(box, dice)
        for column, card in enumerate(columns)
        for box in rules.CATEGORIES
        if box not in card
    }
    assert rules.legal_moves(rules.TRIPLE, dice, columns) == expected


# --- Whole games, one rule at a time ----------------------------------------------------------


class ClassicGame(RuleBasedStateMachine):
    """A player who rolls, holds and scores at random, watched for the invariants of a game."""

    kind: rules.GameKind = rules.CLASSIC

    def __init__(self) -> None:
        super().__init__()
        self.sheet = rules.Sheet(kind=self.kind)
        self.turn = rules.Turn()
        self.scorings: list[rules.Scoring] = []

    def playing(self) -> bool:
        return not self.sheet.is_complete

    def rolled(self) -> bool:
        return self.playing() and self.turn.has_rolled

    def score(self, column: int, box: str) -> rules.Scoring:
        assert self.turn.dice is not None
        over_a_yahtzee_of_50 = self.sheet.cards[column].get("yahtzee") == 50
        self.sheet, scoring = rules.score(self.sheet, self.turn, box, column)
        earns_bonus = (
            self.kind.yahtzee_bonus and over_a_yahtzee_of_50 and len(set(scoring.dice)) == 1
        )
        assert scoring.yahtzee_bonus == (100 if earns_bonus else 0)
        self.scorings.append(scoring)
        self.turn = rules.Turn()
        return scoring

    @precondition(lambda self: self.playing() and rules.can_roll(self.turn))
    @rule(thrown=dice)
    def roll(self, thrown: rules.Dice) -> None:
        before = self.turn
        self.turn, record = rules.roll(self.turn, lambda n: thrown[:n])
        assert record.dice == self.turn.dice
        if before.dice is not None:
            kept = zip(self.turn.dice, before.dice, before.held, strict=True)
            assert all(new == old for new, old, held in kept if held)

    @precondition(lambda self: self.rolled() and rules.can_roll(self.turn))
    @rule(held=holds)
    def hold(self, held: rules.Held) -> None:
        self.turn = rules.hold(self.turn, held)

    @precondition(lambda self: self.rolled())
    @rule(data=st.data())
    def score_a_legal_box(self, data: st.DataObject) -> None:
        assert self.turn.dice is not None
        legal = rules.legal_moves(self.kind, self.turn.dice, self.sheet.cards)
        column, box = data.draw(st.sampled_from(sorted(legal)))
        assert self.score(column, box).points == legal[column, box]

    @precondition(lambda self: self.rolled())
    @rule(column=st.integers(0, 2), box=st.sampled_from(rules.CATEGORIES))
    def score_any_box(self, column: int, box: str) -> None:
        assert self.turn.dice is not None
        legal = rules.legal_moves(self.kind, self.turn.dice, self.sheet.cards)
        assert rules.can_score(self.sheet, self.turn, box, column) == ((column, box) in legal)
        if (column, box) in legal:
            self.score(column, box)
        else:
            before = self.sheet
            with pytest.raises(rules.IllegalMove):
                rules.score(self.sheet, self.turn, box, column)
            assert self.sheet == before

    @precondition(lambda self: not self.playing())
    @rule(thrown=dice, box=st.sampled_from(rules.CATEGORIES))
    def a_finished_game_takes_no_more_scores(self, thrown: rules.Dice, box: str) -> None:
        with pytest.raises(rules.ScorecardComplete):
            rules.score(self.sheet, rules.Turn(dice=thrown, rolls_used=1), box)

    # Two invariants rather than one per fact: Hypothesis prints every invariant after every
    # step of a failing game, and a game is long.
    @invariant()
    def the_turn_and_the_sheet_keep_count(self) -> None:
        assert 0 <= self.turn.rolls_used <= 3
        assert self.sheet.boxes_filled == len(self.scorings) <= self.kind.rounds
        assert self.sheet.is_complete == (len(self.scorings) == self.kind.rounds)

    @invariant()
    def the_grand_total_is_the_sum_of_its_parts(self) -> None:
        assert self.sheet.grand_total == recomputed_total(self.kind, self.scorings)
        assert 100 * self.sheet.yahtzee_bonuses == sum(s.yahtzee_bonus for s in self.scorings)


class TripleGame(ClassicGame):
    kind = rules.TRIPLE

    def score(self, column: int, box: str) -> rules.Scoring:
        scoring = super().score(column, box)
        assert not scoring.joker
        return scoring


# A Classic game takes about 60 steps and a Triple one about 180; these step counts let many
# runs finish their game. Shrinking a failing game replays it thousands of times, which takes
# about a minute for Classic and several for Triple, so the Triple machine reports its failing
# game unshrunk (the Classic machine and the games below shrink the same rules quickly), and
# neither runs the slow "explain" phase.
_QUICK_PHASES = (Phase.explicit, Phase.reuse, Phase.generate, Phase.target)

TestClassicGame = ClassicGame.TestCase
TestClassicGame.settings = settings(
    max_examples=40, stateful_step_count=120, deadline=None, phases=(*_QUICK_PHASES, Phase.shrink)
)
TestTripleGame = TripleGame.TestCase
TestTripleGame.settings = settings(
    max_examples=15, stateful_step_count=300, deadline=None, phases=_QUICK_PHASES
)


# --- Whole games, start to finish -------------------------------------------------------------


@settings(max_examples=60, deadline=None)
@given(kind=st.sampled_from([rules.CLASSIC, rules.TRIPLE]), rng=st.randoms(use_true_random=True))
def test_random_games_end_after_every_round_with_totals_that_add_up(
    kind: rules.GameKind, rng: random.Random
) -> None:
    def loaded_dice(n: int) -> tuple[int, ...]:
        if rng.random() < 0.25:
            return (rng.randint(1, 6),) * n
        return tuple(rng.randint(1, 6) for _ in range(n))

    sheet = rules.Sheet(kind=kind)
    scorings: list[rules.Scoring] = []
    for _ in range(kind.rounds):
        assert not sheet.is_complete
        turn, _ = rules.roll(rules.Turn(), loaded_dice)
        while rules.can_roll(turn) and rng.random() < 0.6:
            turn = rules.hold(turn, tuple(rng.random() < 0.5 for _ in range(5)))
            turn, _ = rules.roll(turn, loaded_dice)
        assert turn.dice is not None and turn.rolls_used <= 3
        column, box = rng.choice(sorted(rules.legal_moves(kind, turn.dice, sheet.cards)))
        sheet, scoring = rules.score(sheet, turn, box, column)
        scorings.append(scoring)

    assert sheet.is_complete
    assert not rules.can_score(sheet, rules.Turn(dice=(1, 2, 3, 4, 5), rolls_used=1), "chance")
    assert sheet.grand_total == recomputed_total(kind, scorings)
