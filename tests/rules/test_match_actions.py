"""Actions as values: who asks (``by``), which seat they act for (their own, a guest's at their
screen, the computer's), the turn limit, the draw for first with computers and guests, and a
log that replays the seating and the limit too."""

from __future__ import annotations

import pytest

from games import rules
from games.rules import Match, MatchPhase, actions
from tests.rules.test_match import PLAIN, STRAIGHT, throws

HOST, GUEST, FRIEND, COMPUTER = 0, 1, 2, 3
TABLE = (HOST, HOST, FRIEND, None)
"""Alice hosts with her guest Ann at her screen; Bob on his own device; a computer player."""


def table(*, roll_for_first: bool = False, turn_limit: int | None = 60, **dice: object) -> Match:
    return Match.start(
        rules.CLASSIC,
        4,
        players=TABLE,
        roll_for_first=roll_for_first,
        turn_limit=turn_limit,
        **dice,  # type: ignore[arg-type]
    )


def turn(match: Match, by: rules.Player, box: str = "chance", dice=PLAIN) -> Match:
    match = match.act(actions.Roll(by), throws(dice))
    return match.act(actions.Score(by, box))


def test_the_host_plays_their_guests_turn_and_nobody_else_can() -> None:
    match = turn(table(), HOST)
    assert match.on_turn == GUEST

    with pytest.raises(rules.OutOfTurn, match=r"^It is not your turn\.$"):
        match.act(actions.Roll(FRIEND), throws(PLAIN))
    rolled = match.act(actions.Roll(HOST), throws(STRAIGHT))

    assert rolled.turn.dice == STRAIGHT
    assert rolled.log[-1] == rules.Rolled(GUEST, STRAIGHT, (False,) * 5, 1)


def test_the_computer_plays_only_its_own_seat() -> None:
    match = turn(turn(turn(table(), HOST), HOST), FRIEND)
    assert match.computer_on_turn and match.on_turn == COMPUTER

    with pytest.raises(rules.OutOfTurn, match=r"^It is not your turn\.$"):
        match.act(actions.Roll(HOST), throws(PLAIN))
    match = turn(match, None)

    assert match.on_turn == HOST and not match.computer_on_turn
    with pytest.raises(rules.OutOfTurn, match=r"^It is not a computer player's turn\.$"):
        match.act(actions.Roll(None), throws(PLAIN))


def test_a_person_takes_back_only_a_box_they_filled_for_a_seat_they_play() -> None:
    match = turn(turn(table(), HOST), HOST, box="large_straight", dice=STRAIGHT)  # Ann's box

    with pytest.raises(rules.NothingToUndo, match=r"^Only the player who has just scored"):
        match.act(actions.Undo(FRIEND))
    undone = match.act(actions.Undo(HOST))

    assert undone.on_turn == GUEST and undone.sheets[GUEST].cards == ({},)
    assert undone.log[-1] == rules.Undone(GUEST, 0, "large_straight", 40)


def test_the_host_throws_for_their_guests_and_the_computer_throws_at_once() -> None:
    match = table(roll_for_first=True, dice=throws((2, 2, 2, 2, 2)))
    assert match.first_rolls[COMPUTER] == (2, 2, 2, 2, 2)  # thrown as the game began

    match = match.act(actions.ThrowForFirst(HOST), throws((1,) * 5, (3,) * 5))

    assert match.first_rolls[HOST] == (1,) * 5 and match.first_rolls[GUEST] == (3,) * 5
    with pytest.raises(rules.OutOfTurn, match=r"^You have rolled for first"):
        match.act(actions.ThrowForFirst(HOST), throws(PLAIN))
    match = match.act(actions.ThrowForFirst(FRIEND), throws((6,) * 5))
    assert (match.phase, match.on_turn) == (MatchPhase.PLAYING, FRIEND)


def test_a_computer_in_a_tie_throws_again_by_itself() -> None:
    match = table(roll_for_first=True, dice=throws((6,) * 5))
    match = match.act(actions.ThrowForFirst(HOST), throws((1,) * 5, (1,) * 5))

    # Bob ties the computer's 30: the computer throws again at once, Bob is left to throw.
    match = match.act(actions.ThrowForFirst(FRIEND), throws((6,) * 5, (4,) * 5))

    assert match.contenders == (FRIEND, COMPUTER)
    assert match.first_rolls[COMPUTER] == (4,) * 5 and match.first_rolls[FRIEND] is None
    assert match.can_act(FRIEND) and not match.can_act(HOST)


def test_nobody_is_skipped_in_a_game_without_a_time_limit() -> None:
    match = table(turn_limit=None)

    with pytest.raises(rules.CannotSkip, match=r"^This game has no time limit"):
        match.act(actions.Skip(FRIEND, idle=10_000))


def test_a_player_is_skipped_only_once_the_time_limit_has_passed() -> None:
    match = table()  # Alice on turn, 60 seconds

    with pytest.raises(rules.CannotSkip, match=r"^The player on turn has 1 more second to play\.$"):
        match.act(actions.Skip(FRIEND, idle=59.5))
    with pytest.raises(rules.CannotSkip, match=r"^The player on turn has 45 more seconds"):
        match.act(actions.Skip(FRIEND, idle=15))
    skipped = match.act(actions.Skip(FRIEND, idle=60))

    assert skipped.log[-1] == rules.Skipped(HOST, FRIEND, 0, "aces")
    assert skipped.on_turn == GUEST


def test_an_idle_hosts_guest_can_be_skipped_but_not_by_the_host_nor_a_computer() -> None:
    match = turn(table(), HOST)  # Ann's turn, at Alice's screen

    with pytest.raises(rules.CannotSkip, match=r"^You cannot skip your own turn\.$"):
        match.act(actions.Skip(HOST, idle=600))
    skipped = match.act(actions.Skip(FRIEND, idle=600))
    assert skipped.on_turn == FRIEND

    at_the_computer = turn(skipped, FRIEND)
    with pytest.raises(rules.CannotSkip, match=r"^A computer player never keeps"):
        at_the_computer.act(actions.Skip(HOST, idle=600))


def test_in_the_draw_a_skip_takes_out_everyone_still_to_throw_but_your_own() -> None:
    match = table(roll_for_first=True, dice=throws((3,) * 5))
    match = match.act(actions.ThrowForFirst(FRIEND), throws((5,) * 5))

    match = match.act(actions.Skip(FRIEND, idle=61))  # Alice and Ann never threw

    assert [e for e in match.log if isinstance(e, rules.Skipped)] == [
        rules.Skipped(HOST, FRIEND),
        rules.Skipped(GUEST, FRIEND),
    ]
    assert (match.phase, match.on_turn) == (MatchPhase.PLAYING, FRIEND)


def test_a_hint_needs_the_turn_and_dice_on_the_table() -> None:
    match = table()

    with pytest.raises(rules.NotRolledYet, match=r"^Roll first"):
        match.verify_hint(HOST)
    rolled = match.act(actions.Roll(HOST), throws(PLAIN))
    assert rolled.can_hint(HOST) and not rolled.can_hint(FRIEND)


def test_an_action_refused_changes_nothing_and_can_says_so_first() -> None:
    match = table()
    late = actions.Score(FRIEND, "chance")

    assert not match.can(late)
    with pytest.raises(rules.OutOfTurn):
        match.act(late)
    assert match == table()


def test_the_seating_and_the_time_limit_replay_with_the_log() -> None:
    match = table(roll_for_first=True, dice=throws((3,) * 5))
    match = match.act(actions.ThrowForFirst(HOST), throws((6,) * 5, (1,) * 5))
    match = match.act(actions.ThrowForFirst(FRIEND), throws((2,) * 5))
    match = turn(match, HOST)
    match = match.act(actions.Skip(FRIEND, idle=61))  # Ann idle

    replayed = Match.replay(match.log)

    assert replayed == match
    assert (replayed.players, replayed.turn_limit) == (TABLE, 60)


def test_a_seat_is_played_by_a_person_at_the_table_or_by_the_computer() -> None:
    with pytest.raises(ValueError, match="played by a person"):
        Match.start(rules.CLASSIC, 2, players=(1, 0))  # each plays the other: nobody plays
    with pytest.raises(ValueError, match="played by a person"):
        Match.start(rules.CLASSIC, 2, players=(0, 5))
