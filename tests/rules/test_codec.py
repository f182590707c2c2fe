"""The rules' codec: a match as stored data (JSON) and back, whatever state it is in."""

from __future__ import annotations

import json
from dataclasses import fields, replace

import pytest
from hypothesis import HealthCheck, settings
from hypothesis.stateful import invariant

from games import rules
from games.rules import Match, MatchPhase, codec
from tests.rules.test_match_machine import MatchMachine


def thrown(*values: int) -> rules.DiceSource:
    return lambda n: values[:n]


def trimmed(match: Match) -> Match:
    """``match`` as a decoded one is: its log only the scoring an undo would take back."""
    if match.undo is None:
        return replace(match, log=())
    scored = next(e for e in reversed(match.log) if isinstance(e, rules.Scored))
    return replace(match, log=(scored,), undo=replace(match.undo, log=()))


def stored(match: Match) -> Match:
    """``match`` written as JSON text and read back, as the database column does."""
    return codec.from_state(json.loads(json.dumps(codec.to_state(match))))


def test_every_field_of_a_match_is_kept() -> None:
    assert {f.name for f in fields(Match)} == codec.FIELDS


def test_a_new_match_comes_back_equal() -> None:
    match = Match.start(rules.CLASSIC, 1)

    assert stored(match) == trimmed(match)
    assert codec.to_state(match)["v"] == codec.VERSION


def test_a_turn_in_progress_comes_back_with_its_dice_held_and_rolls() -> None:
    match, _ = Match.start(rules.CLASSIC, 1).roll(0, thrown(6, 6, 2, 3, 6))
    match, _ = match.hold(0, (True, True, False, False, True))

    back = stored(match)

    assert back.turn == rules.Turn((6, 6, 2, 3, 6), (True, True, False, False, True), 1)
    back, _ = back.roll(0, thrown(6, 6))
    assert back.turn.dice == (6, 6, 6, 6, 6)


def test_a_scoring_can_still_be_taken_back_after_the_trip() -> None:
    match, _ = Match.start(rules.CLASSIC, 2).roll(0, thrown(5, 5, 5, 2, 2))
    before = match
    match, _ = match.score(0, "full_house")

    back = stored(match)
    undone, event = back.undo_scoring(0)

    assert event == rules.Undone(0, 0, "full_house", 25)
    assert replace(undone, log=()) == replace(before, log=())
    assert undone.current == 0 and undone.turn.dice == (5, 5, 5, 2, 2)


def test_the_draw_for_first_guests_computers_resigned_seats_and_the_limit_come_back() -> None:
    match = Match.start(
        rules.TRIPLE, 4, roll_for_first=True, host=1, players=(0, 1, 1, None), turn_limit=3600
    )
    match, _ = match.roll_for_first(0, thrown(1, 1, 1, 1, 1))

    back = stored(match)

    assert back == trimmed(match)
    assert back.phase is MatchPhase.ROLLING_FOR_FIRST
    assert back.first_rolls[0] == (1, 1, 1, 1, 1) and back.players == (0, 1, 1, None)
    assert back.kind is rules.TRIPLE and back.turn_limit == 3600


@pytest.mark.parametrize(
    "state",
    [
        {},
        {"v": codec.VERSION + 1},
        {"v": codec.VERSION, "kind": "classic"},
        {"v": codec.VERSION, **codec.to_state(Match.start(rules.CLASSIC, 1)), "kind": "nope"},
        {"v": codec.VERSION, **codec.to_state(Match.start(rules.CLASSIC, 1)), "phase": "lost"},
        {"v": codec.VERSION, **codec.to_state(Match.start(rules.CLASSIC, 1)), "turn": [1]},
    ],
)
def test_data_that_is_no_stored_match_is_refused(state: dict[str, object]) -> None:
    with pytest.raises(codec.BadState):
        codec.from_state(state)


class CodecMachine(MatchMachine):
    """The match machine's whole games, each state stored and read back on the way."""

    @invariant()
    def the_stored_match_is_the_match(self) -> None:
        back = stored(self.match)
        assert back == trimmed(self.match)
        if self.match.undo is not None and self.match.on_turn is not None:
            # The scorer may take it back from the stored match as from the live one.
            scorer = self.match.undo.current
            assert scorer is not None
            assert back.can_undo(scorer) == self.match.can_undo(scorer)


TestCodecMachine = CodecMachine.TestCase
TestCodecMachine.settings = settings(
    max_examples=25,
    stateful_step_count=200,
    deadline=None,
    suppress_health_check=[HealthCheck.large_base_example],
)


def test_a_daily_challenge_stays_one_after_the_trip() -> None:
    match = Match.start(rules.CLASSIC, 1, challenge=True)

    back = stored(match)

    assert back.challenge and not back.can_hint(0) and not back.can_coach(0)


@pytest.mark.parametrize("state", [None, [], "v", 1, [("v", 1)]])
def test_anything_but_a_mapping_is_refused(state: object) -> None:
    with pytest.raises(codec.BadState):
        codec.from_state(state)  # type: ignore[arg-type]


STORED_V1 = {
    "v": 1, "kind": "classic", "host": 0, "phase": "playing", "first": 1, "current": 0,
    "sheets": [[[{"aces": 3, "chance": 22}], 0, 0], [[{"sixes": 24, "aces": 2}], 100, 2]],
    "states": ["playing", "resigned"],
    "turn": [[6, 6, 2, 3, 6], [True, True, False, False, True], 2],
    "contenders": [], "first_rolls": [None, None], "players": [], "turn_limit": 3600,
    "challenge": False,
}  # fmt: skip
"""A match as version 1 stores it, written out by hand: the games stored so far read this way,
whatever the codec becomes (a new shape is a new version, this one still read)."""


def test_a_match_stored_by_version_1_reads_as_it_was_written() -> None:
    match = codec.from_state(STORED_V1)

    assert codec.VERSION == 1 and codec.to_state(match) == STORED_V1
    assert match.sheets[1].cards == ({"sixes": 24, "aces": 2},)
    assert (match.sheets[1].yahtzee_bonuses, match.sheets[1].yahtzees) == (100, 2)
    assert match.states[1] is rules.SeatState.RESIGNED and match.first == 1
    assert match.turn == rules.Turn((6, 6, 2, 3, 6), (True, True, False, False, True), 2)
    assert match.turn_limit == 3600 and match.undo is None and match.log == ()


def test_one_seats_sheet_reads_as_the_whole_match_has_it() -> None:
    assert codec.sheet_of(STORED_V1, 1) == rules.Sheet(
        kind=rules.CLASSIC, cards=({"sixes": 24, "aces": 2},), yahtzee_bonuses=100, yahtzees=2
    )
    assert codec.sheet_of(STORED_V1, 0) == codec.from_state(STORED_V1).sheets[0]


@pytest.mark.parametrize(
    ("state", "seat"),
    [
        (None, 0),
        ([("v", 1)], 0),
        ({**STORED_V1, "v": 2}, 0),
        ({key: value for key, value in STORED_V1.items() if key != "v"}, 0),
        (STORED_V1, 2),  # no such seat
        ({**STORED_V1, "kind": "nope"}, 0),
    ],
)
def test_a_sheet_of_no_stored_match_is_refused(state: object, seat: int) -> None:
    with pytest.raises(codec.BadState):
        codec.sheet_of(state, seat)
