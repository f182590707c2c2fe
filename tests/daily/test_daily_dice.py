"""The day's dice: one face per (day, round, roll, position), fixed by the key; pure code."""

from __future__ import annotations

import hashlib
import hmac
from collections import Counter
from datetime import date

import pytest
from hypothesis import given
from hypothesis import strategies as st

from games import rules
from games.daily.dice import face, positional_source, site_key, source_for, thrown_positions
from games.rules import actions

KEY = b"a fixed key for the pinned faces"
DAY = date(2026, 12, 3)

days = st.dates(min_value=date(2020, 1, 1), max_value=date(2100, 1, 1))
rounds = st.integers(1, 13)
roll_numbers = st.integers(1, 3)
positions = st.integers(0, 4)


def test_the_faces_are_pinned():
    """A change to the generator changes every past day's dice: it must show up here."""
    first_turn = [[face(KEY, DAY, 1, roll, p) for p in range(5)] for roll in (1, 2, 3)]
    last_turn = [face(KEY, DAY, 13, 3, p) for p in range(5)]
    next_day = [face(KEY, date(2026, 12, 4), 1, 1, p) for p in range(5)]

    assert first_turn == PINNED_FIRST_TURN
    assert last_turn == PINNED_LAST_TURN
    assert next_day == PINNED_NEXT_DAY


@given(days, rounds, roll_numbers, positions)
def test_a_face_is_a_die_and_the_same_every_time(day, round, roll, position):
    shown = face(KEY, day, round, roll, position)

    assert 1 <= shown <= 6
    assert face(KEY, day, round, roll, position) == shown


def test_another_key_gives_other_dice():
    places = [(r, n, p) for r in range(1, 14) for n in (1, 2, 3) for p in range(5)]
    ours = [face(KEY, DAY, *place) for place in places]
    theirs = [face(b"another key", DAY, *place) for place in places]

    assert ours != theirs
    # Independent draws agree about one time in six, not always.
    assert sum(a == b for a, b in zip(ours, theirs, strict=True)) < len(ours) / 3


def test_the_faces_are_not_biased():
    """Rejection sampling: 6 × 3,000 draws land within a few standard deviations of even."""
    faces = Counter(
        face(KEY, date(2026, 1, 1 + d % 28), r, n, p)
        for d in range(28) for r in range(1, 14) for n in (1, 2, 3) for p in range(5)
    )  # fmt: skip
    total = sum(faces.values())
    assert set(faces) == {1, 2, 3, 4, 5, 6}
    for count in faces.values():
        assert abs(count - total / 6) < 4 * (total * (1 / 6) * (5 / 6)) ** 0.5


def test_a_byte_that_would_favour_faces_1_to_4_is_passed_over():
    """The first place of the first day of 2026 whose first byte is 252 or more: its face is
    the next byte's, not that one's."""
    for round, roll, position in (
        (r, n, p) for r in range(1, 14) for n in (1, 2, 3) for p in range(5)
    ):
        message = f"yahtzee-daily:{DAY.isoformat()}:{round}:{roll}:{position}:0".encode()
        digest = hmac.new(KEY, message, hashlib.sha256).digest()
        if digest[0] >= 252:
            break
    else:
        pytest.skip("no byte of 252 or more at this day's places")
    usable = next(b for b in digest if b < 252)

    assert face(KEY, DAY, round, roll, position) == usable % 6 + 1


def _reference_face(key: bytes, day: date, round: int, roll: int, position: int) -> int:
    """The generator as its docstring states it, written again: the first byte below 252 of
    HMAC-SHA256(key, "yahtzee-daily:<day>:<round>:<roll>:<position>:<block>"), mod 6, plus 1."""
    for block in range(100):
        message = f"yahtzee-daily:{day.isoformat()}:{round}:{roll}:{position}:{block}"
        for byte in hmac.new(key, message.encode(), hashlib.sha256).digest():
            if byte < 252:
                return byte % 6 + 1
    raise AssertionError("no usable byte")


def test_every_face_of_ten_days_is_the_stated_generators():
    """Ten days of places hold first bytes of 252 to 255 several times over: each is passed
    over exactly as stated, and every other face is its byte's."""
    days = [date(2026, 12, d) for d in range(1, 11)]
    places = [(r, n, p) for r in range(1, 14) for n in (1, 2, 3) for p in range(5)]

    for day in days:
        for place in places:
            assert face(KEY, day, *place) == _reference_face(KEY, day, *place), (day, place)


def test_a_challenge_game_gets_the_days_dice_and_another_game_none():
    match = _started()
    action = actions.Roll(0)

    assert source_for(None, match, action) is None
    thrown = source_for(DAY, match, action)
    assert thrown is not None
    assert tuple(thrown(5)) == tuple(face(site_key(), DAY, 1, 1, p) for p in range(5))


def _started() -> rules.Match:
    return rules.Match.start(rules.CLASSIC, 1, players=(0,))


def test_the_first_roll_throws_every_position():
    match = _started()
    action = actions.Roll(0)

    after = match.act(action, positional_source(KEY, DAY, match, action))

    assert thrown_positions(match, action) == (0, 1, 2, 3, 4)
    assert after.turn.dice == tuple(face(KEY, DAY, 1, 1, p) for p in range(5))


@given(st.lists(st.booleans(), min_size=5, max_size=5))
def test_a_reroll_throws_the_positions_not_held_and_keeps_the_others(held):
    match = _started()
    first = actions.Roll(0)
    match = match.act(first, positional_source(KEY, DAY, match, first))
    again = actions.Roll(0, tuple(held))

    after = match.act(again, positional_source(KEY, DAY, match, again))

    assert after.turn.dice is not None and match.turn.dice is not None
    for p in range(5):
        expected = match.turn.dice[p] if held[p] else face(KEY, DAY, 1, 2, p)
        assert after.turn.dice[p] == expected


def test_a_hold_set_before_the_roll_is_the_one_that_counts():
    match = _started()
    first = actions.Roll(0)
    match = match.act(first, positional_source(KEY, DAY, match, first))
    match = match.act(actions.Hold(0, (True, True, False, False, False)))
    again = actions.Roll(0)

    assert thrown_positions(match, again) == (2, 3, 4)


def test_the_source_refuses_a_count_its_positions_do_not_explain():
    match = _started()
    source = positional_source(KEY, DAY, match, actions.Roll(0))

    try:
        source(3)
    except ValueError as refused:
        assert "3 dice asked, 5 positions thrown" in str(refused)
    else:
        raise AssertionError("a wrong count was served")


# Pinned on the day the challenge began: faces are never to change for a day gone by.
PINNED_FIRST_TURN = [[1, 6, 4, 1, 6], [4, 5, 4, 5, 2], [6, 1, 4, 3, 4]]
PINNED_LAST_TURN = [5, 4, 3, 6, 6]
PINNED_NEXT_DAY = [1, 4, 3, 5, 4]
