"""Playing together in the bench: the pure parts (reading an ETag's version, matching a move to
the poll that showed it, the figures, the targets) and the section the report makes of them."""

from __future__ import annotations

import pytest

from bench import follow, load, report
from bench.client import Sample
from bench.follow import Move, Poll
from bench.http_scenario import Outcome, follow_games
from bench.load import FRONT, ROLL6, SCORE6, WAIT_CHECK


def test_reads_the_version_of_an_etag_as_the_page_does() -> None:
    assert follow.version_from_etag('"g12v7-0123456789abcdef0123"') == 7
    assert follow.version_from_etag('W/"g12v31-0123456789abcdef0123"') == 31
    assert follow.version_from_etag("") is None


def test_a_move_is_shown_by_the_first_poll_after_it_with_its_version() -> None:
    move = Move(game=1, version=5, acked=10.0, server_seconds=0.01)
    polls = [
        Poll(1, 9.9, 5),  # before the ack: an earlier answer, not this move's
        Poll(1, 10.2, None),  # a 304 that left before the move
        Poll(2, 10.4, 9),  # another game
        Poll(1, 11.2, 5),
        Poll(1, 12.2, 6),
    ]

    assert follow.delays([move], polls) == [pytest.approx(1.2)]


def test_a_poll_answered_between_the_post_and_its_ack_shows_the_move_at_once() -> None:
    """B's page saw the move commit before A had read its own answer: no delay, not missed."""
    move = Move(game=1, version=5, acked=10.0, server_seconds=0.01, sent=9.97)
    polls = [Poll(1, 9.96, 4, 0.01), Poll(1, 9.99, 5, 0.02), Poll(1, 10.99, None, 0.01)]

    assert follow.delays([move], polls) == [0.0]
    assert follow.waits([move], polls) == [0.0]
    assert follow.follow_figures([move], polls).met()


def test_a_later_version_shows_the_move_too_and_a_move_never_shown_is_none() -> None:
    moves = [Move(1, 5, 10.0, 0.01), Move(1, 6, 10.5, 0.01), Move(1, 8, 11.0, 0.01)]
    polls = [Poll(1, 11.4, 7)]

    assert follow.delays(moves, polls) == [
        pytest.approx(1.4),
        pytest.approx(0.9),
        None,
    ]


def test_the_follow_figures_and_their_target() -> None:
    moves = [Move(1, v, 10.0 + v, 0.02) for v in range(1, 5)]
    shown_after = (0.2, 0.4, 0.6, 0.8)
    polls = [
        Poll(1, 10.0 + v + d, v, seconds=0.01 * v)
        for v, d in zip(range(1, 5), shown_after, strict=True)
    ]

    got = follow.follow_figures(moves, polls)

    assert got.moves == 4 and got.missed == 0
    assert got.mean_ms == pytest.approx(500)
    assert got.p95_ms == pytest.approx(800) and got.max_ms == pytest.approx(800)
    assert got.server_mean_ms == pytest.approx(20)
    assert got.slowest_poll_ms == pytest.approx(40)
    assert got.delays_ms == pytest.approx((200, 400, 600, 800))
    assert got.met()


def test_the_follow_target_is_missed_by_a_move_never_shown_or_one_the_page_asked_late() -> None:
    moves = [Move(1, 1, 10.0, 0.02), Move(1, 2, 20.0, 0.02)]

    never = follow.follow_figures(moves, [Poll(1, 10.5, 1, 0.01)])
    late = follow.follow_figures(moves, [Poll(1, 10.5, 1, 0.01), Poll(1, 21.5, 2, 0.05)])

    assert never.missed == 1 and not never.met()
    assert late.missed == 0 and late.max_wait_ms == pytest.approx(1450) and not late.met()


def test_a_slow_answer_to_a_check_asked_in_time_still_meets_the_target() -> None:
    """The page asked within the second; its answer took 150 ms on a busy machine."""
    moves = [Move(1, 1, 10.0, 0.02)]

    got = follow.follow_figures(moves, [Poll(1, 10.2, 0, 0.01), Poll(1, 11.13, 1, 0.15)])

    assert got.max_ms == pytest.approx(1130)
    assert got.max_wait_ms == pytest.approx(980)
    assert got.met()


def test_follow_figures_need_a_move() -> None:
    with pytest.raises(ValueError, match="no moves"):
        follow.follow_figures([], [])


def test_a_longer_run_follows_more_games_within_bounds() -> None:
    assert follow_games(2) == 1
    assert follow_games(30) == 6
    assert follow_games(600) == 10


def test_the_playing_together_targets_are_the_performance_issue_ratios() -> None:
    def limits(**kwargs: object) -> dict[tuple[str, str], float]:
        return {(t.kind, t.what): t.limit for t in load.targets(**kwargs)}  # type: ignore[arg-type]

    sqlite = limits(vendor="sqlite", shared_cache=False)
    postgres = limits(vendor="postgresql", shared_cache=True)

    assert (sqlite[(ROLL6, "ratio")], sqlite[(SCORE6, "ratio")]) == (0.95, 0.85)
    assert (postgres[(ROLL6, "ratio")], postgres[(SCORE6, "ratio")]) == (0.75, 0.65)
    assert sqlite[(WAIT_CHECK, "ratio")] == postgres[(WAIT_CHECK, "ratio")] == 2.0
    assert sqlite[(WAIT_CHECK, "queries")] == 2
    assert postgres[(WAIT_CHECK, "queries")] == 1


def test_the_waiting_check_expects_a_304() -> None:
    samples = [
        Sample(FRONT, 200, 0.02),
        Sample(WAIT_CHECK, 304, 0.01),
        Sample(WAIT_CHECK, 200, 0.01),
    ]

    got = load.figures(samples, clients=2)

    assert got[WAIT_CHECK].errors == 1
    assert got[WAIT_CHECK].ratio == pytest.approx(2.0)


def test_the_report_section_puts_the_figures_next_to_the_front_page() -> None:
    samples = [Sample(FRONT, 200, 0.020)] + [
        Sample(kind, status, seconds)
        for kind, status, seconds in ((WAIT_CHECK, 304, 0.005), (ROLL6, 200, 0.025))
    ]
    numbers = load.figures(samples, clients=2)
    targets = load.targets(vendor="sqlite", shared_cache=False)
    values = {(WAIT_CHECK, "ratio"): 4.0, (WAIT_CHECK, "queries"): 2, (ROLL6, "ratio"): 0.96}
    checked = [
        (t, values[(t.kind, t.what)], t.met(values[(t.kind, t.what)]))
        for t in targets
        if (t.kind, t.what) in values
    ]
    outcome = Outcome(
        seconds=1,
        clients=2,
        workers=2,
        figures=numbers,
        queries={WAIT_CHECK: [2, 2], ROLL6: [9]},
        targets=checked,
        shared_cache=False,
        load_average=(0.0, 0.0),
        follow=follow.follow_figures([Move(1, 1, 1.0, 0.01)], [Poll(1, 1.5, 1)]),
        one_worker=follow.OneWorker(requests=400, seconds=2.0, errors=0, mean_ms=4, p95_ms=6),
    )

    section = report.playing_together(outcome)

    assert section["front_per_worker_per_second"] == 50.0
    assert section["update_check_per_worker_per_second"] == 200.0
    assert section[WAIT_CHECK]["ratio_to_front"] == 4.0 and section[WAIT_CHECK]["queries"] == 2
    assert section[ROLL6]["ratio_to_front"] == 0.8
    assert section[SCORE6]["ratio_to_front"] is None  # not measured here
    assert section["one_worker"]["requests_per_second"] == 200.0
    assert section["move_to_other_page"]["mean_ms"] == 500.0
    assert section["move_to_other_page"]["met"] is True
    assert {t["key"] for t in section["targets"]} == {WAIT_CHECK, ROLL6}
    assert all(t["met"] for t in section["targets"])
