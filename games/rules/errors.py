"""Errors a player can cause: each says, in words for the player, why the move is refused."""

from __future__ import annotations


class IllegalMove(ValueError):
    """A move the rules do not allow; the message is written for the player."""


class UnknownBox(IllegalMove):
    pass


class BoxFilled(IllegalMove):
    pass


class NoRollsLeft(IllegalMove):
    pass


class NotRolledYet(IllegalMove):
    pass


class JokerForbids(IllegalMove):
    pass


class InvalidHold(IllegalMove):
    pass


class ScorecardComplete(IllegalMove):
    pass


class UnknownSeat(IllegalMove):
    pass


class OutOfTurn(IllegalMove):
    """Another seat is to act now (or who goes first is being rolled for, or already decided)."""


class SeatResigned(IllegalMove):
    pass


class MatchOver(IllegalMove):
    pass


class NothingToUndo(IllegalMove):
    pass


class CannotSkip(IllegalMove):
    pass


class NotHost(IllegalMove):
    pass
