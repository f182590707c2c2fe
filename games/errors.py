"""What a player can ask of a game that cannot be done; each message is written for them, and
``ERROR_STATUS`` is the one map from each to the status every view answers it with.

The rules' own refusals (``rules.IllegalMove`` and its kinds) come from the ``Match``; these
are the requests' own troubles: no such game, a stale page, malformed input.
"""

from __future__ import annotations

from games.rules.errors import IllegalMove, MatchOver, NoHelpHere, NotHost, OutOfTurn


class GameError(Exception):
    """A request that cannot be carried out; the message is written for the player."""


class GameNotFound(GameError):
    """No such game, or not one the caller sits at: the two look the same from outside."""


class StaleGame(GameError):
    """The request was made against an older state of the game (a double click, a stale tab)."""


class GameNotInProgress(GameError):
    """The game has not begun, or is over, for what was asked."""


class ChallengeClosed(GameError):
    """A move in a game of a day's challenge once that day is over: the game no longer counts,
    and the day's dice are everyone's to see (``games.daily.clock``). It may still be
    abandoned."""


class TournamentOver(GameError):
    """A move in a tournament's game once the tournament has ended: the game no longer counts,
    and the tournament's dice are everyone's to see (``games.tournaments.closing``). It may
    still be abandoned."""


class TournamentSealed(GameError):
    """A tournament game's dice asked for (its replay, analysis, shared card) while the
    tournament runs: every entrant throws the same faces, so none is shown before its end."""


class NotTheHost(GameError):
    """Something only a host may do (a tournament's: start it, end it; a game's: let others
    watch it), asked by another."""


class NotWatchable(GameError):
    """A watch link asked of a game nobody else plays in: only an online game of several
    players has one (a tournament's game is watched from its tournament's page)."""


class NotRegistered(GameError):
    """Something only a registered account may do (host a tournament), asked by a trial one."""


class BadInput(GameError):
    """A request whose form data is malformed (not something the page itself would send)."""


ERROR_STATUS: dict[type[Exception], int] = {
    # Most specific first: the first kind the error is answers.
    NotHost: 403,  # only the host may do that
    OutOfTurn: 409,  # not now: another player is to act
    MatchOver: 409,
    NoHelpHere: 409,  # the request is fine; this game gives no such help
    StaleGame: 409,
    GameNotInProgress: 409,
    ChallengeClosed: 409,  # the day's challenge is over: the game no longer counts
    TournamentOver: 409,  # the tournament has ended: the game no longer counts
    TournamentSealed: 409,  # its dice are shown once the tournament is over
    NotTheHost: 403,  # only the tournament's (or the game's) host may do that
    NotWatchable: 409,  # the request is fine; this game has no watch link to give
    NotRegistered: 403,  # a trial account may play, not host
    BadInput: 400,
    IllegalMove: 400,  # a move the rules refuse
    GameError: 409,  # an invitation that cannot be used, a seat taken meanwhile
}


def status_for(error: Exception) -> int:
    """The status a view answers ``error`` with (409 for any other refusal, such as a licence's:
    the request is fine, the state of things does not allow it)."""
    return next((status for kind, status in ERROR_STATUS.items() if isinstance(error, kind)), 409)
