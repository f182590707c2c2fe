"""The rating's arithmetic, pure: openskill's Plackett-Luce update checked against the model's
equations worked here independently (Weng & Lin 2011, Algorithm 4, as openskill states it),
places, the weight of games between the same accounts again, leagues."""

from __future__ import annotations

import math

import pytest
from openskill.models import PlackettLuce

from games.ratings import scale
from games.ratings.scale import Belief, Entrant, Finish

BETA = 25 / 6
TAU = 25 / 300


def by_hand(players: list[tuple[float, float]], ranks: list[int]) -> list[tuple[float, float]]:
    """Plackett-Luce, one player a team: the update as the equations give it (the drift tau
    added to each sigma first, as openskill does)."""
    sigmas2 = [s * s + TAU * TAU for _, s in players]
    c = math.sqrt(sum(s2 + BETA * BETA for s2 in sigmas2))
    strength = [math.exp(mu / c) for mu, _ in players]
    # C_q: the strengths of those who finished no better than q; A_q: how many share q's place.
    below = [
        sum(strength[s] for s in range(len(players)) if ranks[s] >= ranks[q])
        for q in range(len(players))
    ]
    sharing = [ranks.count(ranks[q]) for q in range(len(players))]
    out = []
    for i, (mu, _) in enumerate(players):
        omega = delta = 0.0
        for q in range(len(players)):
            if ranks[q] > ranks[i]:
                continue
            p = strength[i] / below[q]
            delta += p * (1 - p) / sharing[q]
            omega += ((1 - p) if q == i else -p) / sharing[q]
        gamma = math.sqrt(sigmas2[i]) / c
        new_mu = mu + sigmas2[i] / c * omega
        new_sigma = math.sqrt(sigmas2[i]) * math.sqrt(
            max(1 - gamma * sigmas2[i] / c**2 * delta, 0.0001)
        )
        out.append((new_mu, new_sigma))
    return out


def test_two_new_players_by_hand() -> None:
    # Worked out: c = sqrt(2 (8.333^2 + 0.0833^2) + 2 (4.1667^2)) = 13.1767; each wins with
    # p = 1/2, so the winner gains sigma^2 / c * 1/2 = 2.6354 and the loser loses as much.
    after = scale.rate([Entrant(Belief(), 1), Entrant(Belief(), 2)])

    assert after[0].mu == pytest.approx(27.63539, abs=1e-5)
    assert after[1].mu == pytest.approx(22.36461, abs=1e-5)
    assert after[0].sigma == pytest.approx(after[1].sigma) == pytest.approx(8.06590, abs=1e-5)
    assert [after[0].shown, after[1].shown] == [1566, 1434]


@pytest.mark.parametrize(
    ("players", "ranks"),
    [
        ([(25.0, 25 / 3), (25.0, 25 / 3)], [2, 1]),
        ([(30.0, 4.0), (22.0, 7.5)], [2, 1]),  # an upset: the weaker player wins
        ([(27.0, 6.0), (25.0, 8.3), (21.0, 3.0), (33.0, 2.0)], [1, 2, 3, 4]),
        ([(27.0, 6.0), (25.0, 8.3), (21.0, 3.0), (33.0, 2.0)], [4, 1, 2, 3]),
        ([(27.0, 6.0), (25.0, 8.3), (21.0, 3.0), (33.0, 2.0)], [1, 2, 2, 4]),  # a tie
        ([(25.0, 25 / 3)] * 4, [1, 1, 1, 1]),  # everyone equal
    ],
)
def test_games_of_two_and_four_agree_with_the_equations_and_openskill(
    players: list[tuple[float, float]], ranks: list[int]
) -> None:
    ours = scale.rate(
        [Entrant(Belief(mu, s), place) for (mu, s), place in zip(players, ranks, strict=True)]
    )
    model = PlackettLuce()
    theirs = model.rate([[model.rating(mu=mu, sigma=s)] for mu, s in players], ranks=ranks)

    for mine, (mu, sigma), (team,) in zip(ours, by_hand(players, ranks), theirs, strict=True):
        assert mine.mu == pytest.approx(mu, abs=1e-9) == pytest.approx(team.mu, abs=1e-9)
        assert mine.sigma == pytest.approx(sigma, abs=1e-9) == pytest.approx(team.sigma, abs=1e-9)


def test_a_tie_moves_two_equal_players_not_at_all() -> None:
    after = scale.rate([Entrant(Belief(), 1), Entrant(Belief(), 1)])

    assert after[0].mu == pytest.approx(25.0) == pytest.approx(after[1].mu)
    assert after[0].sigma < scale.START_SIGMA  # yet we know a little more of them


def test_tied_players_move_alike_and_the_winner_gains_most() -> None:
    after = scale.rate([Entrant(Belief(), p) for p in (1, 2, 2, 4)])

    assert after[1].mu == pytest.approx(after[2].mu)
    assert after[0].mu > after[1].mu > after[3].mu


def test_a_computer_is_an_anchor_and_never_moves() -> None:
    computer = Belief(28.8, 1.0)
    after = scale.rate([Entrant(Belief(), 2), Entrant(computer, 1, fixed=True)])

    assert after[1] == computer
    assert after[0].mu < 25


def test_a_game_that_counts_half_moves_half_as_far() -> None:
    full = scale.rate([Entrant(Belief(), 1), Entrant(Belief(), 2)])
    half = scale.rate([Entrant(Belief(), 1, weight=0.5), Entrant(Belief(), 2, weight=0.5)])

    assert half[0].mu - 25 == pytest.approx((full[0].mu - 25) / 2)
    assert scale.START_SIGMA - half[1].sigma == pytest.approx(
        (scale.START_SIGMA - full[1].sigma) / 2
    )


def test_a_game_needs_two_players() -> None:
    with pytest.raises(ValueError, match="at least two"):
        scale.rate([Entrant(Belief(), 1)])


def test_meeting_again_counts_less_each_time() -> None:
    assert [scale.weight(n) for n in range(4)] == [1, 1 / 2, 1 / 3, 1 / 4]
    with pytest.raises(ValueError):
        scale.weight(-1)


def test_the_figure_shown() -> None:
    assert scale.shown(25.0) == 1500
    assert scale.shown(33.0) == 1700
    assert scale.shown(17.0) == 1300
    assert Belief().provisional and not Belief(25.0, 5.9).provisional


# --- Places ----------------------------------------------------------------------------------


def test_places_by_total_with_ties_shared() -> None:
    assert scale.places([Finish(200), Finish(250), Finish(250), Finish(190)]) == [3, 1, 1, 4]


def test_resigned_or_skipped_out_finish_last_whatever_their_total() -> None:
    finishes = [Finish(200), Finish(300, out=True), Finish(150), Finish(280, out=True)]

    assert scale.places(finishes) == [1, 3, 2, 3]


def test_a_game_abandoned_is_lost_by_who_ended_it_and_shared_by_the_rest() -> None:
    finishes = [Finish(120, left=True), Finish(40), Finish(80, out=True)]

    assert scale.places(finishes) == [2, 1, 1]


# --- Leagues ---------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("rank", "league"),
    [(1, "Master"), (5, "Master"), (6, "Diamond"), (15, "Diamond"), (16, "Gold"), (35, "Gold"),
     (36, "Silver"), (65, "Silver"), (66, "Bronze"), (100, "Bronze")],
)  # fmt: skip
def test_leagues_by_percentile_of_a_hundred(rank: int, league: str) -> None:
    assert scale.league(rank, 100) == league


def test_the_only_player_is_a_master_and_ranks_outside_the_table_are_refused() -> None:
    assert scale.league(1, 1) == "Master"
    with pytest.raises(ValueError):
        scale.league(0, 10)
    with pytest.raises(ValueError):
        scale.league(11, 10)


def test_the_league_bounds_are_exact_in_a_large_table() -> None:
    # Of 10,000: the 500th is the last Master (4.99% ahead of them), the 501st the first Diamond.
    assert scale.league(500, 10_000) == "Master"
    assert scale.league(501, 10_000) == "Diamond"
    assert scale.league(1_500, 10_000) == "Diamond"
    assert scale.league(1_501, 10_000) == "Gold"


def test_a_sigma_of_six_is_settled() -> None:
    assert not Belief(25.0, scale.PROVISIONAL_SIGMA).provisional
    assert Belief(25.0, scale.PROVISIONAL_SIGMA + 0.01).provisional
