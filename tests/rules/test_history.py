"""A seat's turns as the rules read them from a match's log (``rules.played_turns``): what the
analysis grades and the replay steps through."""

from __future__ import annotations

import pytest

from games import rules
from games.rules import Match


def thrown(*values: int) -> rules.DiceSource:
    return lambda n: values[:n]


def test_each_roll_each_hold_and_the_box_of_a_turn_are_read() -> None:
    match, _ = Match.start(rules.CLASSIC, 2).roll(0, thrown(1, 2, 3, 6, 6))
    match, _ = match.hold(0, (False, False, False, True, True))
    match, _ = match.roll(0, thrown(6, 5, 4))
    match, _ = match.score(0, "sixes")
    match, _ = match.roll(1, thrown(2, 2, 2, 2, 2))
    match, _ = match.score(1, "yahtzee")

    (turn,) = rules.played_turns(match.log, 0)

    assert turn == rules.PlayedTurn(
        rolls=((1, 2, 3, 6, 6), (6, 5, 4, 6, 6)),
        holds=((False, False, False, True, True),),
        box="sixes",
        column=0,
    )
    assert [t.box for t in rules.played_turns(match.log, 1)] == ["yahtzee"]


def test_a_scoring_taken_back_opens_its_turn_again() -> None:
    match, _ = Match.start(rules.CLASSIC, 1).roll(0, thrown(5, 5, 5, 2, 2))
    match, _ = match.score(0, "chance")
    match, _ = match.undo_scoring(0)
    match, _ = match.score(0, "full_house")

    (turn,) = rules.played_turns(match.log, 0)

    assert (turn.box, turn.rolls) == ("full_house", ((5, 5, 5, 2, 2),))


def test_a_seat_with_a_skipped_turn_has_no_history() -> None:
    match = Match.start(rules.CLASSIC, 2, turn_limit=60)
    match, _ = match.skip(0, by=1, idle=61)

    with pytest.raises(rules.NoHistory, match="skipped turn"):
        rules.played_turns(match.log, 0)
    assert rules.played_turns(match.log, 1) == ()


def test_a_whole_game_alone_has_a_turn_for_every_box() -> None:
    match = Match.start(rules.CLASSIC, 1)
    for box in rules.CATEGORIES:
        match, _ = match.roll(0, thrown(1, 2, 3, 4, 5))
        match, _ = match.score(0, box)

    played = rules.played_turns(Match.replay(match.log).log, 0)

    assert [t.box for t in played] == list(rules.CATEGORIES)
