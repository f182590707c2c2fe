"""What a player can ask of a game that cannot be done; each message is written for them.

``views.ERROR_STATUS`` maps each to its status (with ``rules.IllegalMove`` for moves the rules
refuse): 404 for a game that is not theirs to see, 409 for one that has moved on or is not
theirs to move.
"""

from __future__ import annotations


class GameError(Exception):
    """A request that cannot be carried out; the message is written for the player."""


class GameNotFound(GameError):
    """No such game, or not one the caller sits at: the two look the same from outside."""


class StaleGame(GameError):
    """The request was made against an older state of the game (a double click, a stale tab)."""


class NotYourTurn(GameError):
    pass


class GameNotInProgress(GameError):
    pass
