"""Who goes first: every contender throws five dice once; the highest total starts, and those
tied for it throw again among themselves (``RULES.md``)."""

from __future__ import annotations

from dataclasses import replace
from typing import TYPE_CHECKING

from games.rules.dice import DICE_COUNT, DiceSource, validate_dice
from games.rules.errors import (
    OutOfTurn,
)
from games.rules.events import FirstRoll
from games.rules.phases import MatchPhase
from games.rules.turn import _can

if TYPE_CHECKING:
    from games.rules.match import Match


def verify_roll_for_first(match: Match, seat: int) -> None:
    match._verify_playing(seat)
    if match.phase is not MatchPhase.ROLLING_FOR_FIRST:
        raise OutOfTurn("Who goes first is already decided.")
    if seat not in match.contenders:
        raise OutOfTurn("Only the players tied for the highest total roll again.")
    if match.first_rolls[seat] is not None:
        raise OutOfTurn("You have rolled for first: the others roll now.")


def can_roll_for_first(match: Match, seat: int) -> bool:
    return _can(lambda: match.verify_roll_for_first(seat))


def roll_for_first(match: Match, seat: int, source: DiceSource) -> tuple[Match, FirstRoll]:
    """Throw ``seat``'s five dice for first; when every contender has thrown, the highest
    total goes first and a tie sends the tied players to throw again."""
    match.verify_roll_for_first(seat)
    dice = validate_dice(source(DICE_COUNT))
    event = FirstRoll(seat, dice)
    rolls = tuple(dice if s == seat else d for s, d in enumerate(match.first_rolls))
    return match._logged(event, first_rolls=rolls)._settle_first(), event


def _settle_first(match: Match) -> Match:
    """Decide who goes first once the draw allows it, or start a round among the tied."""
    tied = match.contenders
    if len(tied) > 1:
        thrown = [(s, match.first_rolls[s]) for s in tied]
        totals = {s: sum(dice) for s, dice in thrown if dice is not None}
        if len(totals) < len(tied):
            return match
        tied = tuple(s for s in tied if totals[s] == max(totals.values()))
        if len(tied) > 1:
            return replace(match, contenders=tied, first_rolls=(None,) * match.seats)
    # One contender left: by the dice, or because the others left the draw.
    (first,) = tied
    return replace(match, phase=MatchPhase.PLAYING, first=first, current=first, contenders=())
