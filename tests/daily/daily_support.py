"""Playing a challenge game to its end through the one door, as a bot or a hasty player."""

from __future__ import annotations

import random
from datetime import UTC, date, datetime, time

from accounts.models import User
from games import advice, rules, store, strategy
from games.play import actions as play


def hasty(sheet: rules.Sheet, turn: rules.Turn) -> strategy.Action:
    """Rolls once, then scores the first open box the rules allow."""
    if turn.dice is None:
        return strategy.RollDice(rules.NO_HOLD)
    box = next(iter(rules.column_scores(turn.dice, sheet.cards[0], sheet.kind)))
    return strategy.ScoreBox(0, rules.Box(box))


def perfect(sheet: rules.Sheet, turn: rules.Turn) -> strategy.Action:
    return strategy.make_bot("perfect", advice.advisor(), random.Random(0)).decide(sheet, turn)


def noon(day: date) -> datetime:
    """Midday of ``day`` (the tests' site time zone is UTC): a clock inside ``day``."""
    return datetime.combine(day, time(12), tzinfo=UTC)


def play_out(user: User, game_id: int, decide=perfect, now=None) -> store.SeatedGame:
    """Play ``user``'s game to its end, each move through ``games.play.actions`` (at ``now``:
    the clock, unless given)."""
    while True:
        table = store.load(game_id=game_id, user=user)
        match = table.match()
        if match.is_over:
            return table
        decided = decide(match.sheets[0], match.turn)
        version = table.game.version
        if isinstance(decided, strategy.RollDice):
            held = decided.held if match.turn.has_rolled else None
            play.roll_dice(game_id=game_id, user=user, version=version, held=held, now=now)
        else:
            play.score_box(
                game_id=game_id,
                user=user,
                version=version,
                box=decided.box.value,
                column=0,
                now=now,
            )
