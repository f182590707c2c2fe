"""The computers' ratings: the simulation that anchors the scale is reproducible, and the
site's fixed figures are in the order of the computers' strength."""

from __future__ import annotations

import pytest

from games import advice
from games.ratings import anchors
from games.rules import CLASSIC, KINDS, PLAYABLE

pytestmark = pytest.mark.usefixtures("strategy_ready")


@pytest.mark.parametrize("kind", [CLASSIC, KINDS["triple"]], ids=["classic", "triple"])
def test_the_same_seed_rates_the_computers_the_same(kind) -> None:
    first = anchors.simulate(12, seed=7, advisor=advice.advisor(), kind=kind)
    again = anchors.simulate(12, seed=7, advisor=advice.advisor(), kind=kind)
    other = anchors.simulate(12, seed=8, advisor=advice.advisor(), kind=kind)

    assert first == again
    assert first != other
    assert set(first) == {"perfect", "good", "beginner"}


def test_more_games_spread_the_computers_by_strength() -> None:
    rated = anchors.simulate(150, seed=anchors.ANCHOR_SEED, advisor=advice.advisor())

    assert rated["perfect"].mu > rated["beginner"].mu + 4
    assert rated["good"].mu > rated["beginner"].mu + 4
    assert all(belief.sigma < 2.5 for belief in rated.values())


@pytest.mark.parametrize("kind", sorted(PLAYABLE))
def test_the_sites_anchors_rank_the_computers_by_strength(kind: str) -> None:
    perfect, good, beginner = (
        anchors.anchor(kind, bot).mu for bot in ("perfect", "good", "beginner")
    )

    assert perfect > good > beginner
    assert anchors.anchor(kind, "good").sigma == anchors.ANCHOR_SIGMA


def test_no_such_computer() -> None:
    with pytest.raises(ValueError, match="No computer called 'hal'"):
        anchors.anchor("classic", "hal")
