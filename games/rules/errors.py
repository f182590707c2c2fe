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


class NoHelpHere(IllegalMove):
    """Help the match does not give: a hint or the coach in a challenge, where everyone plays
    the same dice on their own."""


class ZeroToConfirm(IllegalMove):
    """A scoring that would enter a zero, asked with the player's "ask before a zero" on: the
    player is asked first (the door answers with the question, changing nothing)."""

    def __init__(self, box: str, column: int) -> None:
        from games.rules.boxes import Box

        self.box, self.column = Box(box), column
        super().__init__(f"Score 0 in {self.box.label}?")


class TableRefused(IllegalMove, ValueError):
    """A table the rules do not seat: too many players, or a challenge not played alone."""
