"""The turn of the seat on turn, as a match plays it: holding dice, rolling, and filling a box
(which passes the turn on, or ends the match). Bound as the ``Match``'s methods."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace
from typing import TYPE_CHECKING

from games.rules.dice import DiceSource
from games.rules.events import HeldDice, Rolled, Scored
from games.rules.turn import _can
from games.rules.turn import hold as hold_dice
from games.rules.turn import roll as roll_dice
from games.rules.turn import score as score_box
from games.rules.turn import verify_hold as verify_turn_hold
from games.rules.turn import verify_roll as verify_turn_roll
from games.rules.turn import verify_score as verify_turn_score

if TYPE_CHECKING:
    from games.rules.match import Match


def verify_hold(match: Match, seat: int, held: Sequence[bool]) -> None:
    match._verify_on_turn(seat)
    verify_turn_hold(match.turn, held)


def can_hold(match: Match, seat: int, held: Sequence[bool]) -> bool:
    return _can(lambda: match.verify_hold(seat, held))


def hold(match: Match, seat: int, held: Sequence[bool]) -> tuple[Match, HeldDice]:
    match.verify_hold(seat, held)
    turn = hold_dice(match.turn, held)
    event = HeldDice(seat, turn.held)
    return match._logged(event, turn=turn), event


def verify_roll(match: Match, seat: int) -> None:
    match._verify_on_turn(seat)
    verify_turn_roll(match.turn)


def can_roll(match: Match, seat: int) -> bool:
    return _can(lambda: match.verify_roll(seat))


def roll(match: Match, seat: int, source: DiceSource) -> tuple[Match, Rolled]:
    """Throw the dice the seat on turn does not hold; it ends any chance to undo."""
    match.verify_roll(seat)
    turn, record = roll_dice(match.turn, source)
    event = Rolled(seat, record.dice, record.held, record.roll_number)
    return match._logged(event, turn=turn, undo=None), event


def verify_score(match: Match, seat: int, box: str, column: int = 0) -> int:
    """Raise with a reason if ``seat`` cannot fill ``box`` now; else return its points."""
    match._verify_on_turn(seat)
    return verify_turn_score(match.sheets[seat], match.turn, box, column)


def can_score(match: Match, seat: int, box: str, column: int = 0) -> bool:
    return _can(lambda: match.verify_score(seat, box, column))


def score(match: Match, seat: int, box: str, column: int = 0) -> tuple[Match, Scored]:
    """Fill ``box`` with the dice on the table and pass the turn on.

    Until anyone rolls next (or skips a turn), the scorer may take the box back. The last box
    of the last seat finishes the match and is final: the result is entered at once.
    """
    match.verify_score(seat, box, column)
    sheet, s = score_box(match.sheets[seat], match.turn, box, column)
    event = Scored(seat, s.column, s.box, s.points, s.dice, s.yahtzee_bonus, s.joker, s.upper_bonus)
    new = match._logged(event, sheets=match._replace_sheet(seat, sheet))._pass_turn()
    # The undo is this match as it was: its own undo the roll before this scoring closed.
    return replace(new, undo=None if new.is_over else match), event
