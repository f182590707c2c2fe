"""A seat's play read back from the game's log, as the analysis grades it."""

from __future__ import annotations

from games import rules, store, strategy
from games.models import Seat
from games.moves import ReplayMismatch


class NoRecord(Exception):
    """A seat whose play cannot be replayed for analysis; the message says why."""


def game_record(seat: Seat) -> strategy.GameRecord:
    """One seat's play as the game's log replays it through the rules (``store.replay``): each
    turn's dice after every roll, the dice held for each re-roll, the box. A box taken back
    (undo) re-opens its turn; a skipped turn cannot be graded, so such a game has no record."""
    try:
        log = store.replay(seat.game).log
    except ReplayMismatch as broken:
        raise NoRecord(f"This game's log does not replay ({broken}): it has no analysis.") from None
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
