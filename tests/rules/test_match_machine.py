"""Whole matches of two to six seats played at random, watched for the invariants of a game.

Every action of every seat is tried, in turn and out of it: totals always equal the sum of each
sheet's parts, turns rotate over the seats still playing, the game ends exactly when every one
of them has filled its card, an undo restores the match as it was, a refused action changes
nothing, and the log replays to the very same match.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace

import pytest
from hypothesis import HealthCheck, Phase, settings
from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, initialize, invariant, precondition, rule

from games import rules
from games.rules import Match, MatchPhase

UPPER_BOXES = {"aces", "ones", "twos", "threes", "fours", "fives", "sixes"}
UPPER_BONUS = {"classic": 35, "triple": 35, "yatzy": 50}

any_roll = st.tuples(*[st.integers(1, 6)] * 5)
# Five of a kind (for the Joker and the bonus) and a few throws of equal totals (for ties in the
# roll for first) are rare in fair dice: offer them often.
dice = st.one_of(
    st.integers(1, 6).map(lambda face: (face,) * 5),
    st.sampled_from([(6, 6, 6, 6, 5), (5, 6, 6, 6, 6), (1, 2, 3, 4, 5), (3, 3, 3, 3, 3)]),
    any_roll,
)
holds = st.tuples(*[st.booleans()] * 5)
# Leaving the game, or ending it for all, would end most games within a few steps: mostly not.
now_and_then = st.sampled_from([True, False, False, False, False, False, False, False])

Entry = tuple[int, str, int, int]
"""One filled box as the model keeps it: column, box, points, Yahtzee bonus."""


def thrown(values: rules.Dice) -> rules.DiceSource:
    return lambda n: values[:n]


def recomputed_total(kind: rules.GameKind, entries: list[Entry]) -> int:
    """A grand total worked out again from the filled boxes alone."""
    total = 0
    for column, multiplier in enumerate(kind.multipliers):
        points = [(box, p) for c, box, p, _ in entries if c == column]
        upper = sum(p for box, p in points if box in UPPER_BOXES)
        bonus = UPPER_BONUS[kind.key] if upper >= 63 else 0
        total += multiplier * (sum(p for _, p in points) + bonus)
    return total + sum(bonus for *_, bonus in entries)


class MatchMachine(RuleBasedStateMachine):
    def __init__(self) -> None:
        super().__init__()
        self.match = Match.start(rules.CLASSIC, 2)
        self.entries: list[list[Entry]] = []
        self.before_scoring: Match | None = None
        self.ended = False

    @initialize(
        seats=st.integers(2, 6),
        kind=st.sampled_from([rules.CLASSIC, rules.CLASSIC, rules.TRIPLE, rules.YATZY]),
        roll_for_first=st.booleans(),
        host=st.integers(0, 5),
    )
    def start(self, seats: int, kind: rules.GameKind, roll_for_first: bool, host: int) -> None:
        self.match = Match.start(kind, seats, roll_for_first=roll_for_first, host=host % seats)
        self.entries = [[] for _ in range(seats)]

    # --- Helpers ------------------------------------------------------------------------------

    @property
    def on_turn(self) -> int | None:
        return self.match.on_turn

    def in_play(self) -> bool:
        return self.match.phase is MatchPhase.PLAYING

    def next_seat_after(self, seat: int, match: Match) -> int:
        """The next seat round the table from ``seat`` that has not resigned."""
        seats = match.seats
        return next(
            s
            for s in ((seat + step) % seats for step in range(1, seats + 1))
            if match.states[s] is rules.SeatState.PLAYING
        )

    def turn_ended(self, before: Match) -> None:
        """After a turn ends, the dice pass to the next seat still playing, or the game ends."""
        assert before.current is not None
        if self.in_play():
            assert self.match.current == self.next_seat_after(before.current, self.match)
            assert self.match.turn == rules.Turn()

    def refused(self, action: Callable[[Match], object]) -> None:
        """``action`` raises an ``IllegalMove`` and changes nothing.

        A match is frozen all through but for the dicts of its cards, so those are what a
        refused action could still have changed (a deep copy of a whole match and its log at
        every refusal would make the machine crawl).
        """
        before, cards = self.match, self.all_cards()
        with pytest.raises(rules.IllegalMove):
            action(self.match)
        assert self.match is before and self.all_cards() == cards

    def all_cards(self) -> list[dict[str, int]]:
        matches = [self.match] if self.match.undo is None else [self.match, self.match.undo]
        return [dict(card) for match in matches for sheet in match.sheets for card in sheet.cards]

    # --- Roll for first -----------------------------------------------------------------------

    @precondition(lambda self: self.match.phase is MatchPhase.ROLLING_FOR_FIRST)
    @rule(data=st.data(), throw=dice)
    def roll_for_first(self, data: st.DataObject, throw: rules.Dice) -> None:
        waiting = [s for s in range(self.match.seats) if self.match.can_roll_for_first(s)]
        seat = data.draw(st.sampled_from(waiting))
        contenders = self.match.contenders
        before = self.match
        self.match, event = self.match.roll_for_first(seat, thrown(throw))
        assert event == rules.FirstRoll(seat, throw) == self.match.log[-1]
        rolls = {s: before.first_rolls[s] for s in contenders} | {seat: throw}
        if any(rolled is None for rolled in rolls.values()):
            assert self.match.contenders == contenders
            return
        best = max(sum(rolled or ()) for rolled in rolls.values())
        tied = tuple(s for s in contenders if sum(rolls[s] or ()) == best)
        if len(tied) == 1:
            assert (self.match.phase, self.match.first, self.match.current) == (
                MatchPhase.PLAYING,
                tied[0],
                tied[0],
            )
        else:
            assert self.match.phase is MatchPhase.ROLLING_FOR_FIRST
            assert self.match.contenders == tied
            assert self.match.first_rolls == (None,) * self.match.seats

    # --- The turn -----------------------------------------------------------------------------

    @precondition(lambda self: self.in_play() and self.match.can_roll(self.on_turn))
    @rule(throw=dice)
    def roll(self, throw: rules.Dice) -> None:
        seat, turn = self.on_turn, self.match.turn
        assert seat is not None
        self.match, event = self.match.roll(seat, thrown(throw))
        assert event == self.match.log[-1] and event.seat == seat
        assert self.match.turn.rolls_used == turn.rolls_used + 1
        assert self.match.undo is None
        self.before_scoring = None

    @precondition(lambda self: self.in_play() and self.match.turn.has_rolled)
    @rule(held=holds)
    def hold(self, held: rules.Held) -> None:
        seat = self.on_turn
        assert seat is not None
        if not rules.can_roll(self.match.turn):
            self.refused(lambda m: m.hold(seat, held))
            return
        self.match, event = self.match.hold(seat, held)
        assert event == rules.HeldDice(seat, held) and self.match.turn.held == held

    def score(self, column: int, box: str) -> None:
        seat, before = self.on_turn, self.match
        assert seat is not None
        self.match, event = self.match.score(seat, box, column)
        assert self.match.log[-1] == event and (event.column, event.box) == (column, box)
        self.entries[seat].append((column, box, event.points, event.yahtzee_bonus))
        self.before_scoring = None if self.match.is_over else before
        self.turn_ended(before)

    @precondition(lambda self: self.in_play() and self.match.turn.has_rolled)
    @rule(data=st.data())
    def score_a_legal_box(self, data: st.DataObject) -> None:
        seat, dice_on_table = self.on_turn, self.match.turn.dice
        assert seat is not None and dice_on_table is not None
        legal = rules.legal_moves(self.match.kind, dice_on_table, self.match.sheets[seat].cards)
        column, box = data.draw(st.sampled_from(sorted(legal)))
        assert self.match.verify_score(seat, box, column) == legal[column, box]
        self.score(column, box)

    @precondition(lambda self: self.in_play() and self.match.turn.has_rolled)
    @rule(column=st.integers(0, 2), box=st.sampled_from(list(rules.Box)))  # any kind's box
    def score_any_box(self, column: int, box: str) -> None:
        seat = self.on_turn
        assert seat is not None
        if self.match.can_score(seat, box, column):
            self.score(column, box)
        else:
            self.refused(lambda m: m.score(seat, box, column))

    @precondition(lambda self: self.in_play() and not self.match.turn.has_rolled)
    @rule(throw=dice, data=st.data())
    def a_whole_turn(self, throw: rules.Dice, data: st.DataObject) -> None:
        """Roll once and score: a step that plays a whole turn, so that games reach their end."""
        self.roll(throw)
        self.score_a_legal_box(data)

    # --- Undo ---------------------------------------------------------------------------------

    @precondition(lambda self: self.match.undo is not None)
    @rule()
    def undo(self) -> None:
        assert self.before_scoring is not None and self.before_scoring.current is not None
        scorer = self.before_scoring.current
        self.match, event = self.match.undo_scoring(scorer)
        assert self.match == replace(self.before_scoring, log=self.match.log)
        assert self.match.log[-1] == event
        column, box, _, _ = self.entries[scorer].pop()
        assert (event.seat, event.column, event.box) == (scorer, column, box)
        self.before_scoring = None

    @rule(seat=st.integers(0, 5))
    def undo_by_anyone_else(self, seat: int) -> None:
        scorer = self.match.undo.current if self.match.undo is not None else None
        if seat != scorer:
            assert not self.match.can_undo(seat)
            self.refused(lambda m: m.undo_scoring(seat))

    # --- Resign, skip, end --------------------------------------------------------------------

    @precondition(lambda self: not self.match.is_over)
    @rule(seat=st.integers(0, 5), really=now_and_then)
    def resign(self, seat: int, really: bool) -> None:
        if not really or not self.match.can_resign(seat):
            return
        before = self.match
        self.match, event = self.match.resign(seat)
        assert event == rules.Resigned(seat) and self.match.states[seat] == "resigned"
        if self.before_scoring is not None and seat != self.before_scoring.current:
            resigned = replace(self.before_scoring, states=self.match.states)
            self.before_scoring = resigned
        else:
            self.before_scoring = None
        if not self.match.playing:
            assert self.match.phase is MatchPhase.ABANDONED
        elif seat == before.on_turn:
            self.turn_ended(before)

    @precondition(lambda self: not self.match.is_over)
    @rule(data=st.data())
    def skip(self, data: st.DataObject) -> None:
        pairs = [
            (seat, by)
            for seat in range(self.match.seats)
            for by in range(self.match.seats)
            if self.match.can_skip(seat, by=by)
        ]
        if not pairs:
            return
        seat, by = data.draw(st.sampled_from(pairs))
        before = self.match
        self.match, event = self.match.skip(seat, by=by)
        assert self.match.log[-1] == event and (event.seat, event.by) == (seat, by)
        self.before_scoring = None
        if before.phase is MatchPhase.ROLLING_FOR_FIRST:
            assert event.box is None and seat not in self.match.contenders
            return
        assert event.column is not None and event.box is not None
        assert (event.column, event.box) == rules.skipped_box(before.sheets[seat])
        assert self.match.sheets[seat].cards[event.column][event.box] == 0
        self.entries[seat].append((event.column, event.box, 0, 0))
        self.turn_ended(before)

    @precondition(lambda self: not self.match.is_over)
    @rule(by=st.integers(0, 5), really=now_and_then)
    def end(self, by: int, really: bool) -> None:
        if not really:
            return
        if by != self.match.host or not self.match.can_end(by):
            self.refused(lambda m: m.end(by))
            return
        self.match, event = self.match.end(by)
        assert event == rules.Ended(by) and self.match.phase is MatchPhase.ABANDONED
        self.ended = True
        self.before_scoring = None

    # --- Refusals -----------------------------------------------------------------------------

    @rule(seat=st.integers(0, 5), throw=dice, held=holds, box=st.sampled_from(rules.CATEGORIES))
    def out_of_turn(self, seat: int, throw: rules.Dice, held: rules.Held, box: str) -> None:
        if seat == self.on_turn:
            return
        assert not self.match.can_roll(seat)
        self.refused(lambda m: m.roll(seat, thrown(throw)))
        self.refused(lambda m: m.hold(seat, held))
        self.refused(lambda m: m.score(seat, box))

    @precondition(lambda self: self.match.is_over)
    @rule(seat=st.integers(0, 5), throw=dice)
    def nothing_moves_once_the_game_is_over(self, seat: int, throw: rules.Dice) -> None:
        self.refused(lambda m: m.roll(seat, thrown(throw)))
        self.refused(lambda m: m.roll_for_first(seat, thrown(throw)))
        self.refused(lambda m: m.resign(seat))
        self.refused(lambda m: m.end(seat))

    # --- Invariants ---------------------------------------------------------------------------

    @invariant()
    def totals_are_the_sum_of_each_sheets_parts(self) -> None:
        for sheet, entries in zip(self.match.sheets, self.entries, strict=True):
            assert sheet.boxes_filled == len(entries)
            assert sheet.grand_total == recomputed_total(self.match.kind, entries)
            assert 100 * sheet.yahtzee_bonuses == sum(bonus for *_, bonus in entries)

    @invariant()
    def turns_rotate_and_the_game_ends_exactly_when_every_card_is_full(self) -> None:
        match = self.match
        full = [match.sheets[s].is_complete for s in match.playing]
        match match.phase:
            case MatchPhase.ROLLING_FOR_FIRST:
                assert all(sheet.boxes_filled == 0 for sheet in match.sheets)
            case MatchPhase.PLAYING:
                assert match.current in match.playing and not all(full)
                # Seats that have played this round hold one box more than the seat on turn.
                filled = match.sheets[match.current].boxes_filled
                for seat in match.playing:
                    ahead = match.order.index(seat) < match.order.index(match.current)
                    assert match.sheets[seat].boxes_filled == filled + ahead
                assert match.round == filled + 1
            case MatchPhase.FINISHED:
                assert all(full) and match.playing and match.round == match.kind.rounds
                assert match.winners
            case MatchPhase.ABANDONED:
                assert self.ended or not match.playing

    def teardown(self) -> None:
        assert Match.replay(self.match.log) == self.match


# Most generated games of two or three Classic seats reach their end in this many steps; a
# Triple game rarely does (its end is tested by example), but its turns are as well watched.
TestMatchMachine = MatchMachine.TestCase
TestMatchMachine.settings = settings(
    max_examples=40,
    stateful_step_count=250,
    deadline=None,
    phases=(Phase.explicit, Phase.reuse, Phase.generate, Phase.target, Phase.shrink),
    # A whole game is long by nature: many steps, each with its dice, holds and seats.
    suppress_health_check=[HealthCheck.large_base_example],
)
