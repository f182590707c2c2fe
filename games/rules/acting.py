"""Actions as values (``games.rules.actions``): what a person asks, played for the seat they act
for; the door every request goes through."""

from __future__ import annotations

from typing import TYPE_CHECKING

from games.rules import actions
from games.rules.actions import Action, Player
from games.rules.dice import DiceSource
from games.rules.errors import (
    CannotSkip,
    NoHelpHere,
    NothingToUndo,
    NotRolledYet,
    OutOfTurn,
    ZeroToConfirm,
)
from games.rules.events import Hinted
from games.rules.phases import MatchPhase
from games.rules.turn import _can

if TYPE_CHECKING:
    from games.rules.match import Match


def verify(match: Match, action: Action) -> None:
    """Raise with a reason unless ``action`` can be played now (dice aside)."""
    match action:
        case actions.Hold(by=by, held=held):
            match.verify_hold(match.seat_for(by), held)
        case actions.Roll(by=by, held=held):
            seat = match.seat_for(by)
            if held is not None and match.turn.has_rolled:
                match.verify_hold(seat, held)
            match.verify_roll(seat)
        case actions.Score(by=by, box=box, column=column, ask_before_zero=ask):
            points = match.verify_score(match.seat_for(by), box, column)
            if ask and points == 0:
                raise ZeroToConfirm(box, column)
        case actions.Undo(by=by):
            match.verify_undo(_undoing(match, by))
        case actions.Resign(by=by):
            match.verify_resign(by)
        case actions.Skip(by=by, idle=idle):
            for seat in _keeping_waiting(match, by):
                match.verify_skip(seat, by=by, idle=idle)
        case actions.End(by=by):
            match.verify_end(by)
        case actions.ThrowForFirst(by=by):
            _throwing_for(match, by)
        case actions.Hint(by=by):
            match.verify_hint(by)


def can(match: Match, action: Action) -> bool:
    return _can(lambda: match.verify(action))


def act(match: Match, action: Action, dice: DiceSource | None = None) -> Match:
    """The match after ``action``, its events appended to the log. ``dice`` throws what a
    roll or a throw for first needs; in the draw for first, computer players throw at once
    after any action (again after each tie they are in). Each step verifies itself, as
    ``verify`` would, before the match changes."""
    new: Match
    match action:
        case actions.Hold(by=by, held=held):
            new, _ = match.hold(match.seat_for(by), held)
        case actions.Roll(by=by, held=held):
            seat, new = match.seat_for(by), match
            if held is not None and match.turn.has_rolled:
                new, _ = new.hold(seat, held)
            new, _ = new.roll(seat, _needed(dice))
        case actions.Score(by=by, box=box, column=column, ask_before_zero=ask):
            if ask and match.verify_score(match.seat_for(by), box, column) == 0:
                raise ZeroToConfirm(box, column)
            new, _ = match.score(match.seat_for(by), box, column)
        case actions.Undo(by=by):
            new, _ = match.undo_scoring(_undoing(match, by))
        case actions.Resign(by=by):
            new, _ = match.resign(by)
        case actions.Skip(by=by, idle=idle):
            new = match
            for seat in _keeping_waiting(match, by):
                new, _ = new.skip(seat, by=by, idle=idle)
        case actions.End(by=by):
            new, _ = match.end(by)
        case actions.ThrowForFirst(by=by):
            new = match
            for seat in _throwing_for(match, by):
                new, _ = new.roll_for_first(seat, _needed(dice))
        case actions.Hint(by=by):
            new, _ = hint(match, by)
    return new._computers_throw(dice)


def verify_hint(match: Match, by: Player) -> None:
    """Raise unless ``by`` may ask for a hint now: on turn, with dice on the table, in a match
    that gives help (no challenge)."""
    if match.challenge:
        raise NoHelpHere(
            "No hints in the daily challenge or a tournament: everyone plays the same dice on "
            "their own."
        )
    match._verify_on_turn(match.seat_for(by))
    if not match.turn.has_rolled:
        raise NotRolledYet("Roll first: a hint weighs the dice on the table.")


def can_hint(match: Match, by: Player) -> bool:
    return _can(lambda: match.verify_hint(by))


def hint(match: Match, by: Player) -> tuple[Match, Hinted]:
    """The seat ``by`` acts for is shown the best moves: logged, the match otherwise as it was."""
    match.verify_hint(by)
    event = Hinted(match.seat_for(by))
    return match._logged(event), event


def can_coach(match: Match, seat: int) -> bool:
    """Whether the coach may grade ``seat``'s decisions: a person's own seat (not a guest's or
    the computer's), in a match that gives help (no challenge)."""
    return not match.challenge and 0 <= seat < match.seats and match.player_of(seat) == seat


def _undoing(match: Match, by: Player) -> int:
    """The seat whose scoring ``by`` would take back."""
    if match.undo is None or match.undo.current is None:
        raise NothingToUndo("There is no scoring to take back: the dice have moved on.")
    seat = match.undo.current
    if match.player_of(seat) != by:
        raise NothingToUndo("Only the player who has just scored can take it back.")
    return seat


def _keeping_waiting(match: Match, by: int) -> tuple[int, ...]:
    """Whom ``by`` would skip: the seat on turn, or in the draw every seat still to throw
    that ``by`` does not play."""
    match._verify_playing(by)
    if match.phase is MatchPhase.PLAYING:
        assert match.current is not None
        return (match.current,)
    pending = [s for s in match.contenders if match.first_rolls[s] is None]
    waiting = tuple(s for s in pending if match.player_of(s) != by)
    if not waiting:
        raise CannotSkip("You cannot skip your own turn.")
    return waiting


def _throwing_for(match: Match, by: Player) -> tuple[int, ...]:
    """The seats ``by`` throws for first for: every contender they play still to throw."""
    if by is not None:
        match._verify_seat(by)
    if match.phase is not MatchPhase.ROLLING_FOR_FIRST:
        if match.is_over:
            match._verify_seat(0)  # says how it ended
        raise OutOfTurn("Who goes first is already decided.")
    seats = tuple(
        s for s in match.contenders if match.player_of(s) == by and match.can_roll_for_first(s)
    )
    if not seats:
        raise OutOfTurn("You have rolled for first: the others roll now.")
    return seats


def _computers_throw(match: Match, dice: DiceSource | None) -> Match:
    match = match
    while waiting := [
        s for s in match.contenders if match.player_of(s) is None and match.can_roll_for_first(s)
    ]:
        match, _ = match.roll_for_first(waiting[0], _needed(dice))
    return match


def _needed(dice: DiceSource | None) -> DiceSource:
    if dice is None:
        raise ValueError("This action throws dice: pass a dice source.")
    return dice
