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
    """One seat's play as the game's log (``game_log``, read here when not given) replays it
    through the rules: each turn's dice after every roll, the dice held for each re-roll, the
    box. A box taken back (undo) re-opens its turn; a skipped turn cannot be graded, so such a
    game has no record."""
    if log is None:
        log = game_log(seat.game)
    turns: list[strategy.TurnRecord] = []
    rolls: list[rules.Dice] = []
    holds: list[rules.Held] = []
    last_closed: tuple[list[rules.Dice], list[rules.Held]] | None = None
    for event in log:
        if isinstance(event, rules.Started | rules.Ended) or event.seat != seat.position:
            continue
        match event:
            case rules.Rolled(dice=dice, held=held):
                if rolls:
                    holds.append(held)
                rolls.append(dice)
            case rules.Scored(box=box, column=column):
                turns.append(strategy.TurnRecord(tuple(rolls), tuple(holds), box, column))
                last_closed, rolls, holds = (rolls, holds), [], []
            case rules.Undone() if last_closed is not None:
                turns.pop()
                (rolls, holds), last_closed = last_closed, None
            case rules.Skipped(box=box) if box is not None:
                raise NoRecord("A skipped turn cannot be graded: this game has no analysis.")
    return strategy.GameRecord(tuple(turns), kind=rules.KINDS[seat.game.kind])
