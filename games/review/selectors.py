"""A seat's play read back from the game's log, as the analysis grades it."""

from __future__ import annotations

from collections.abc import Sequence

from games import rules, store, strategy
from games.models import Game, Seat
from games.moves import ReplayMismatch

Log = Sequence[rules.MatchEvent]
"""A whole game's events, as ``store.replay`` plays them again."""


class NoRecord(Exception):
    """A seat whose play cannot be replayed for analysis; the message says why."""


def game_log(game: Game) -> Log:
    """``game``'s whole log, replayed through the rules (``store.replay``): read once, it gives
    every seat's record (``game_record(seat, log)``)."""
    try:
        return store.replay(game).log
    except ReplayMismatch as broken:
        raise NoRecord(f"This game's log does not replay ({broken}): it has no analysis.") from None


def game_record(seat: Seat, log: Log | None = None) -> strategy.GameRecord:
    """One seat's play as the rules read it from the game's replayed log (``game_log``, read
    here when not given: ``rules.played_turns``), for the analysis to grade."""
    if log is None:
        log = game_log(seat.game)
    try:
        played = rules.played_turns(log, seat.position)
    except rules.NoHistory as skipped:
        raise NoRecord(str(skipped)) from None
    turns = tuple(strategy.TurnRecord(t.rolls, t.holds, t.box, t.column) for t in played)
    return strategy.GameRecord(turns, kind=rules.KINDS[seat.game.kind])
