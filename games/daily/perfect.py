"""Perfect play on shared dice: the perfect bot plays a game through the rules, on the same
positional dice every player gets (a day's challenge, a tournament: ``play_stream``).
Deterministic given the key and the stream, so it is computed once and kept
(``services.challenge``; a tournament's ``perfect_total``)."""

from __future__ import annotations

import random
from dataclasses import dataclass
from datetime import date
from typing import Any

from games import rules, strategy
from games.daily.dice import day_stream, stream_source
from games.rules import actions


@dataclass(frozen=True)
class PerfectGame:
    total: int
    turns: list[dict[str, Any]]
    """Each turn: the dice after each roll, the dice held before each re-roll, the box and
    its points (as the JSON column keeps them)."""


def play_day(key: bytes, day: date, advisor: strategy.Advisor) -> PerfectGame:
    """The perfect bot's Classic solo game on ``day``'s dice under ``key``."""
    return play_stream(key, day_stream(day), rules.CLASSIC, advisor)


def play_stream(
    key: bytes, stream: str, kind: rules.GameKind, advisor: strategy.Advisor
) -> PerfectGame:
    """The perfect bot's solo game of ``kind`` on ``stream``'s dice under ``key``: each roll
    throws the faces of the positions a player's same roll would throw (``stream_source``).
    Exact for Classic and Yatzy; on a Triple card the advisor's stated heuristic
    (``games.strategy``)."""
    bot = strategy.make_bot("perfect", advisor, random.Random(0))  # the perfect bot never draws
    match = rules.Match.start(kind, 1, players=(None,))
    turns: list[dict[str, Any]] = []
    rolls: list[list[int]] = []
    holds: list[list[bool]] = []
    while not match.is_over:
        decided = bot.decide(match.sheets[0], match.turn)
        action: rules.Action
        if isinstance(decided, strategy.RollDice):
            action = actions.Roll(None, decided.held if match.turn.has_rolled else None)
            if match.turn.has_rolled:
                holds.append(list(decided.held))
            match = match.act(action, stream_source(key, stream, match, action))
            assert match.turn.dice is not None
            rolls.append(list(match.turn.dice))
            continue
        action = actions.Score(None, decided.box, decided.column)
        match = match.act(action)
        scored = match.log[-1]
        assert isinstance(scored, rules.Scored)
        box, points = str(scored.box), scored.points
        turns.append({"rolls": rolls, "holds": holds, "box": box, "points": points})
        rolls, holds = [], []
    return PerfectGame(total=match.sheets[0].grand_total, turns=turns)
