"""Playing a challenge game to its end through the one door, as a bot or a hasty player."""

from __future__ import annotations

import random
from datetime import UTC, date, datetime, time, timedelta

from django.test import TestCase
from django.utils import timezone

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


def veteran(make_user, display_name: str, **fields) -> User:
    """An account made long ago (two years), so ranked on the board of any day the tests play."""
    joined = timezone.now() - timedelta(days=730)
    return make_user(display_name=display_name, date_joined=joined, **fields)


def noon(day: date) -> datetime:
    """Midday of ``day`` (the tests' site time zone is UTC): a clock inside ``day``."""
    return datetime.combine(day, time(12), tzinfo=UTC)


def play_out(user: User, game_id: int, decide=perfect, now=None) -> store.SeatedGame:
    """Play ``user``'s game to its end, each move through ``games.play.actions`` (at ``now``:
    the clock, unless given), and what each move's commit starts run as it would (the last
    one's grading puts the attempt on the board)."""
    with TestCase.captureOnCommitCallbacks(execute=True):
        return _play_out(user, game_id, decide, now)


def _play_out(user: User, game_id: int, decide, now) -> store.SeatedGame:
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


def clairvoyant(day: date):
    """A scout's play: it has read all of ``day``'s faces (another account re-rolled everything
    and saw them), so at each turn's start it knows every roll its holds can make, and plays the
    holds and box whose final dice score best now plus perfect play's expectation after."""
    from itertools import product

    from games.daily.dice import face, site_key

    advisor, plans = advice.advisor(), {}
    holds = list(product((False, True), repeat=rules.DICE_COUNT))

    def faces(round: int, roll: int) -> tuple[int, ...]:
        return tuple(face(site_key(), day, round, roll, p) for p in range(rules.DICE_COUNT))

    def worth(sheet: rules.Sheet, dice: tuple[int, ...]) -> tuple[float, strategy.Action]:
        scored = rules.Turn(dice=dice, held=rules.NO_HOLD, rolls_used=rules.MAX_ROLLS)
        best = max(
            (o for o in advisor.options(sheet, scored) if isinstance(o.action, strategy.ScoreBox)),
            key=lambda o: o.expected,
        )
        return best.expected, best.action

    def plan(sheet: rules.Sheet, round: int) -> list[strategy.Action]:
        first, second, third = faces(round, 1), faces(round, 2), faces(round, 3)
        kept = {}

        def after(dice, held, thrown):
            return tuple(d if h else t for d, h, t in zip(dice, held, thrown, strict=True))

        def valued(dice):
            if dice not in kept:
                kept[dice] = worth(sheet, dice)
            return kept[dice]

        best = (valued(first)[0], [valued(first)[1]])
        for h2 in holds:
            two = after(first, h2, second)
            if valued(two)[0] > best[0]:
                best = (valued(two)[0], [strategy.RollDice(h2), valued(two)[1]])
            for h3 in holds:
                three = after(two, h3, third)
                if valued(three)[0] > best[0]:
                    best = (
                        valued(three)[0],
                        [strategy.RollDice(h2), strategy.RollDice(h3), valued(three)[1]],
                    )
        return best[1]

    def decide(sheet: rules.Sheet, turn: rules.Turn) -> strategy.Action:
        round = len(sheet.cards[0]) + 1 if sheet.cards else 1
        if turn.dice is None:
            plans[round] = plan(sheet, round)
            return strategy.RollDice(rules.NO_HOLD)
        return plans[round][turn.rolls_used - 1]

    return decide
