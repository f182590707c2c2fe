"""The log of a match: one frozen event for each thing that happened, in order.

``Match.replay`` rebuilds a match from its log alone, so each event holds everything its action
took in (the dice a roll threw included) and what the rules made of it, to be checked on replay.
"""

from __future__ import annotations

from dataclasses import dataclass

from games.rules.dice import Dice, Held


@dataclass(frozen=True)
class Started:
    """How the match was set up; always the first event of a log. ``players``, ``turn_limit``
    and ``challenge`` are the ``Match``'s."""

    kind: str
    seats: int
    roll_for_first: bool = False
    host: int = 0
    players: tuple[int | None, ...] = ()
    turn_limit: int | None = None
    challenge: bool = False


@dataclass(frozen=True)
class FirstRoll:
    """A seat's five dice in the roll for first."""

    seat: int
    dice: Dice


@dataclass(frozen=True)
class Rolled:
    """A roll of the seat on turn: the dice after it and which were held through it."""

    seat: int
    dice: Dice
    held: Held
    roll_number: int


@dataclass(frozen=True)
class HeldDice:
    """The seat on turn chose which dice to hold before its next roll."""

    seat: int
    held: Held


@dataclass(frozen=True)
class Scored:
    """The seat on turn filled a box with its dice (the fields of ``rules.Scoring``)."""

    seat: int
    column: int
    box: str
    points: int
    dice: Dice
    yahtzee_bonus: int = 0
    joker: bool = False
    upper_bonus: int = 0


@dataclass(frozen=True)
class Undone:
    """The seat that had just scored took that box back (and the ``points`` it had made)."""

    seat: int
    column: int
    box: str
    points: int


@dataclass(frozen=True)
class Resigned:
    seat: int


@dataclass(frozen=True)
class Skipped:
    """Seat ``by`` skipped idle ``seat``: a zero in ``column``/``box``, or, while rolling for
    first, ``seat`` dropped out of the draw (no box)."""

    seat: int
    by: int
    column: int | None = None
    box: str | None = None


@dataclass(frozen=True)
class Ended:
    """The host ended the match for everyone: abandoned, no score for anyone."""

    by: int


@dataclass(frozen=True)
class Hinted:
    """The seat on turn was shown the best moves for its dice (a score played with hints is
    marked as such); the match itself is as it was."""

    seat: int


MatchEvent = (
    Started | FirstRoll | Rolled | HeldDice | Scored | Undone | Resigned | Skipped | Ended | Hinted
)
