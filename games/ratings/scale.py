"""The rating itself, pure: openskill's Plackett-Luce model (Weng-Lin), one belief per account
and kind, updated by the order in which a game's players finished, and the figure shown for it.

A belief is ``mu`` (the skill we think the player has) and ``sigma`` (how unsure we are of it);
everyone starts at 25 ± 8.33, shown as 1,500. The figure shown is ``mu`` on a scale of
``POINTS_PER_MU`` points each, so that a difference of 200 says what it says in chess: the
stronger of two settled players wins about three games in four.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from enum import StrEnum
from typing import Final

from openskill.models import PlackettLuce

MODEL: Final = PlackettLuce()
"""openskill's defaults: mu 25, sigma 25/3, beta 25/6, tau 25/300."""
START_MU: Final = MODEL.mu
START_SIGMA: Final = MODEL.sigma
SHOWN_AT_START: Final = 1500
POINTS_PER_MU: Final = 25
PROVISIONAL_SIGMA: Final = 6.0
"""Above this the rating is marked provisional ("?"): about five games from the start."""


@dataclass(frozen=True)
class Belief:
    mu: float = START_MU
    sigma: float = START_SIGMA

    @property
    def shown(self) -> int:
        return shown(self.mu)

    @property
    def provisional(self) -> bool:
        return self.sigma > PROVISIONAL_SIGMA


def shown(mu: float) -> int:
    """The figure shown for ``mu``: 1,500 at the start, ``POINTS_PER_MU`` a point of mu."""
    return round(SHOWN_AT_START + POINTS_PER_MU * (mu - START_MU))


@dataclass(frozen=True)
class Entrant:
    """One player of a rated game as the update sees them: their belief before it, where they
    finished (1 best; equal places share), how much the game counts for them (``weight``, 1:
    fully), and whether they are a computer (``fixed``: its belief is the scale's anchor,
    never moved)."""

    belief: Belief
    place: int
    weight: float = 1.0
    fixed: bool = False


def rate(entrants: Sequence[Entrant]) -> list[Belief]:
    """Every entrant's belief after the game: openskill's Plackett-Luce update by finishing
    order, each change scaled by the entrant's ``weight``; a fixed entrant's stays as it was."""
    if len(entrants) < 2:
        raise ValueError("A rated game needs at least two players.")
    teams = [[MODEL.rating(mu=e.belief.mu, sigma=e.belief.sigma)] for e in entrants]
    updated = MODEL.rate(teams, ranks=[float(e.place) for e in entrants])
    after = []
    for entrant, (new,) in zip(entrants, updated, strict=True):
        old = entrant.belief
        if entrant.fixed:
            after.append(old)
            continue
        w = entrant.weight
        after.append(
            Belief(old.mu + w * (new.mu - old.mu), old.sigma + w * (new.sigma - old.sigma))
        )
    return after


def weight(meetings: int) -> float:
    """How much a game counts when its accounts have met ``meetings`` times already in rated
    games lately (``services.MEETINGS_WINDOW``): fully the first time, half the second, a
    third the third... so that two accounts trading wins cannot farm a rating."""
    if meetings < 0:
        raise ValueError("Meetings cannot be negative.")
    return 1 / (1 + meetings)


# --- Places ----------------------------------------------------------------------------------


@dataclass(frozen=True)
class Finish:
    """One seat at the end of a game, as the places are drawn from it."""

    total: int
    out: bool = False
    """Resigned, or skipped out (``SKIPPED_OUT`` turns skipped): behind everyone still in."""
    left: bool = False
    """Ended the game for everyone before it finished (the host's end): the loser."""


SKIPPED_OUT: Final = 3
"""Turns skipped (an idle player's) after which a player counts as gone: a last place."""


def places(finishes: Sequence[Finish]) -> list[int]:
    """Each seat's place: a game abandoned by a player (``left``) is lost by them and shared
    by the rest; otherwise the players still in by total (equal totals share), then those who
    resigned or were skipped out, sharing the last place."""
    if any(f.left for f in finishes):
        return [2 if f.left else 1 for f in finishes]
    inside = [f.total for f in finishes if not f.out]
    last = len(inside) + 1
    return [last if f.out else 1 + sum(1 for other in inside if other > f.total) for f in finishes]


# --- Leagues ---------------------------------------------------------------------------------


class League(StrEnum):
    MASTER = "Master"
    DIAMOND = "Diamond"
    GOLD = "Gold"
    SILVER = "Silver"
    BRONZE = "Bronze"


LEAGUES: Final = ((League.MASTER, 5), (League.DIAMOND, 15), (League.GOLD, 35),
                  (League.SILVER, 65), (League.BRONZE, 100))  # fmt: skip
"""Each league and the percentile it reaches down to: the top 5% are Masters, the next 10%
Diamond, the next 20% Gold, the next 30% Silver, the rest Bronze."""


def league(rank: int, players: int) -> League:
    """The league of the ``rank``-th (1: the best) of a season's ``players``."""
    if not 1 <= rank <= players:
        raise ValueError(f"Rank {rank} is not among {players} players.")
    ahead = 100 * (rank - 1) / players  # the share of the table ahead of this player
    return next(name for name, reach in LEAGUES if ahead < reach)
