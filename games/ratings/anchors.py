"""The scale's anchor: the computer players, rated by playing each other.

A game of several is each player's own card on their own dice (nobody's choice touches
another's), so a game of the three computers is three solitaire games side by side, placed by
total. ``simulate`` plays ``games`` of them on seeded dice and rates them from the start, as
accounts are rated, with openskill's drift (``tau``) off so that the beliefs settle; the
figures it settles on (``COMPUTERS``) are then fixed: a computer's rating never moves, so a
rated game against one moves the account's alone, and "1,850" says how an account compares
with them. ``manage.py rate_computers`` runs it again.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Final

from openskill.models import PlackettLuce

from games.ratings.scale import START_MU, START_SIGMA, Belief
from games.rules import CLASSIC, GameKind
from games.strategy import BOT_NAMES, Advisor, make_bot
from games.strategy.simulate import play_game, seeded_dice

ANCHOR_GAMES: Final = 3000
ANCHOR_SEED: Final = 2026
ANCHOR_SIGMA: Final = 1.0
"""How sure the scale is of a computer's rating when an account meets it (it never moves)."""

COMPUTERS: Final[dict[str, dict[str, float]]] = {
    "classic": {
        "perfect": 28.844671808039994,
        "good": 26.756491895244327,
        "beginner": 18.77766593282453,
    },
    "triple": {
        "perfect": 32.1325576052367,
        "good": 31.72832972013091,
        "beginner": 14.954029874716829,
    },
    "yatzy": {
        "perfect": 31.97777520837951,
        "good": 29.289130625685385,
        "beginner": 14.672508581322159,
    },
}
"""Each computer's ``mu`` per kind: ``simulate(ANCHOR_GAMES, seed=ANCHOR_SEED, kind=...)``, run
on 6 December 2026 (``manage.py rate_computers --kind KIND`` prints them again; 33 s for
Classic, 3 minutes for Triple, 71 s for Yatzy). Shown: Classic 1,596 / 1,544 / 1,344, Triple
1,678 / 1,668 / 1,249, Yatzy 1,674 / 1,607 / 1,242 (Perfect / Good / Beginner). Luck keeps
them close: the perfect player wins barely more often than the good one, as in every dice
game."""


def anchor(kind: str, bot: str) -> Belief:
    """A computer player's fixed belief at ``kind`` (``ValueError`` for no such computer)."""
    try:
        return Belief(COMPUTERS[kind][bot], ANCHOR_SIGMA)
    except KeyError:
        raise ValueError(f"No computer called {bot!r} plays {kind!r}.") from None


def simulate(
    games: int,
    *,
    seed: int,
    advisor: Advisor,
    kind: GameKind = CLASSIC,
    progress: Callable[[int], None] | None = None,
) -> dict[str, Belief]:
    """Each computer's belief after ``games`` games of all three, rated from the start (seeded:
    the same arguments give the same figures)."""
    model = PlackettLuce(tau=0.0)
    rng = random.Random(seed)
    bots = {name: make_bot(name, advisor, random.Random(rng.random())) for name in BOT_NAMES}
    beliefs = {name: model.rating(mu=START_MU, sigma=START_SIGMA) for name in BOT_NAMES}
    for played in range(games):
        totals = {}
        for name, bot in bots.items():
            sheet, _ = play_game(bot, seeded_dice(random.Random(rng.random())), kind)
            totals[name] = sheet.grand_total
        places = [1 + sum(1 for t in totals.values() if t > totals[n]) for n in BOT_NAMES]
        rated = model.rate([[beliefs[n]] for n in BOT_NAMES], ranks=[float(p) for p in places])
        beliefs = {n: team[0] for n, team in zip(BOT_NAMES, rated, strict=True)}
        if progress is not None:
            progress(played + 1)
    return {n: Belief(b.mu, b.sigma) for n, b in beliefs.items()}
