"""Leaving a match: a player resigns, an idle player is skipped, the host ends it for everyone."""

from __future__ import annotations

import math
from dataclasses import replace
from typing import TYPE_CHECKING

from games.rules.boxes import Box
from games.rules.errors import (
    CannotSkip,
    NotHost,
)
from games.rules.events import Ended, Resigned, Skipped
from games.rules.phases import MatchPhase, SeatState
from games.rules.scoring import Slot
from games.rules.turn import Sheet, _can

if TYPE_CHECKING:
    from games.rules.match import Match


# --- The skip rule ----------------------------------------------------------------------------


def skipped_box(sheet: Sheet) -> Slot:
    """Where a skipped turn enters its zero: the open box that could have scored least.

    **Skipping an idle player.** When the player on turn has not acted within the time the host
    chose, any other player may skip them. A skipped turn scores a zero in the skipped player's
    open box with the lowest top score: Aces (5), Twos (10), Threes (15), Fours (20), Fives and
    Full House (25), Sixes, 3 and 4 of a Kind, Small Straight and Chance (30), Large Straight
    (40), YAHTZEE (50); in Yatzy, the best of each of its boxes (``Box.best``: Small straight
    15, Large straight 20 …). In Triple Yahtzee the top score counts double in the second column and
    triple in the third. On a tie, the leftmost column, then the box higher on the card. Any
    dice on the table are put aside unscored. The skipped player keeps their seat and plays
    their next turn as usual.

    Why this rule: the game still ends after every box is filled, nobody chooses for the absent
    player, no dice are rolled for them, and it costs them as little as a zero can — yet waiting
    never pays, since they could always have entered that zero themselves.
    """
    open_slots = [
        (column, box)
        for column, card in enumerate(sheet.cards)
        for box in sheet.kind.boxes
        if box not in card
    ]
    if not open_slots:
        raise ValueError("A full sheet has no box left to skip into.")

    def most_it_could_score(slot: tuple[int, Box]) -> tuple[int, int, int]:
        column, box = slot
        return box.best * sheet.kind.multipliers[column], column, sheet.kind.position(box)

    return min(open_slots, key=most_it_could_score)


def _with_zero(sheet: Sheet, slot: Slot) -> Sheet:
    column, box = slot
    cards = tuple({**c, box: 0} if i == column else dict(c) for i, c in enumerate(sheet.cards))
    return replace(sheet, cards=cards)


def verify_resign(match: Match, seat: int) -> None:
    match._verify_playing(seat)


def can_resign(match: Match, seat: int) -> bool:
    return _can(lambda: match.verify_resign(seat))


def resign(match: Match, seat: int) -> tuple[Match, Resigned]:
    """Leave the match: the seat is passed over from now on and out of the standings. The
    last seat to leave ends the match as abandoned."""
    match.verify_resign(seat)
    event = Resigned(seat)
    states = tuple(SeatState.RESIGNED if s == seat else st for s, st in enumerate(match.states))
    new = match._logged(event, states=states)
    if match.phase is MatchPhase.ROLLING_FOR_FIRST:
        contenders = tuple(s for s in match.contenders if s != seat)
        return replace(new, contenders=contenders)._settle_first(), event
    if match.undo is not None and seat != match.undo.current:
        # Another player leaving does not close the scorer's undo, and taking the scoring
        # back must not bring the leaver back.
        new = replace(new, undo=replace(match.undo, states=states))
    else:
        new = replace(new, undo=None)
    return (new._pass_turn() if seat == match.current else new), event


def verify_skip(match: Match, seat: int, *, by: int, idle: float | None = None) -> None:
    """Raise unless ``by`` may skip ``seat`` now. ``idle`` is how long the game has gone
    without a move: a request made now says it, and the turn limit is checked; a skip read
    back from a log was due when it was made (``None``)."""
    match._verify_playing(by)
    match._verify_seat(seat)
    if match.player_of(seat) == by:
        raise CannotSkip("You cannot skip your own turn.")
    if match.player_of(seat) is None:
        raise CannotSkip("A computer player never keeps the game waiting.")
    if idle is not None:
        if match.turn_limit is None:
            raise CannotSkip("This game has no time limit: nobody can be skipped.")
        if idle < match.turn_limit:
            wait = math.ceil(match.turn_limit - idle)
            raise CannotSkip(
                f"The player on turn has {wait} more second{'s' if wait != 1 else ''} to play."
            )
    if match.states[seat] is SeatState.RESIGNED:
        raise CannotSkip("That player has resigned: their turns are passed over already.")
    if match.phase is MatchPhase.ROLLING_FOR_FIRST:
        if seat not in match.contenders or match.first_rolls[seat] is not None:
            raise CannotSkip("Only a player who still has to roll for first can be skipped.")
    elif seat != match.current:
        raise CannotSkip("Only the player on turn can be skipped.")


def can_skip(match: Match, seat: int, *, by: int, idle: float | None = None) -> bool:
    return _can(lambda: match.verify_skip(seat, by=by, idle=idle))


def skip(match: Match, seat: int, *, by: int, idle: float | None = None) -> tuple[Match, Skipped]:
    """Seat ``by`` skips idle ``seat``: while rolling for first it drops out of the draw;
    in play its turn scores as ``skipped_box`` says."""
    match.verify_skip(seat, by=by, idle=idle)
    if match.phase is MatchPhase.ROLLING_FOR_FIRST:
        event = Skipped(seat, by)
        contenders = tuple(s for s in match.contenders if s != seat)
        return match._logged(event, contenders=contenders)._settle_first(), event
    column, box = skipped_box(match.sheets[seat])
    event = Skipped(seat, by, column, box)
    sheets = match._replace_sheet(seat, _with_zero(match.sheets[seat], (column, box)))
    return match._logged(event, sheets=sheets, undo=None)._pass_turn(), event


def verify_end(match: Match, by: int) -> None:
    match._verify_playing(by)
    if by != match.host:
        raise NotHost("Only the host can end the game for everyone.")


def can_end(match: Match, by: int) -> bool:
    return _can(lambda: match.verify_end(by))


def end(match: Match, by: int) -> tuple[Match, Ended]:
    """The host ends the match for everyone: abandoned, no score for anyone."""
    match.verify_end(by)
    event = Ended(by)
    return match._logged(event, phase=MatchPhase.ABANDONED, undo=None), event
