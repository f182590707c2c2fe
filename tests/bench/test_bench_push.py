"""The streams' figures in the bench (issue 23): the watcher counts, what a held stream costs,
the goals, and the lines and section the report makes of them."""

from __future__ import annotations

from bench import push
from bench.follow import FollowFigures


def held(**changes: int) -> push.Held:
    figures = {
        "requested": 10_000, "opened": 10_000, "failed": 0, "rss_before_kb": 80_000,
        "rss_after_kb": 460_000, "alive_after_load": 10_000,
    } | changes  # fmt: skip
    return push.Held(open_seconds=60.0, **figures)


def follow(p95_ms: float, missed: int = 0) -> FollowFigures:
    return FollowFigures(moves=6, missed=missed, mean_ms=15.0, p95_ms=p95_ms, max_ms=p95_ms,
                         server_mean_ms=5.0, server_p95_ms=8.0)  # fmt: skip


def test_the_watcher_counts_are_one_a_hundred_and_the_streams_held_last() -> None:
    assert push.watcher_counts(10_000) == [1, 100, 10_000]
    assert push.watcher_counts(30) == [1, 30]
    assert push.watcher_counts(1) == [1]


def test_a_held_streams_memory_is_the_workers_growth_over_the_streams_opened() -> None:
    assert held().per_stream_kb == 38.0
    assert held(opened=5_000).per_stream_kb == 76.0


def test_ten_thousand_streams_all_still_open_after_the_load_meet_the_goal() -> None:
    assert held().goal_met()
    assert not held(alive_after_load=9_999).goal_met()  # one lost during the load
    assert not held(failed=1, opened=9_999, alive_after_load=9_999).goal_met()
    assert held(requested=500, opened=500, alive_after_load=500).met()
    assert not held(requested=500, opened=500, alive_after_load=500).goal_met()  # too few


def test_the_move_to_the_other_page_by_stream_has_a_goal_of_150_ms_at_p95() -> None:
    def outcome(figures: FollowFigures) -> push.StreamOutcome:
        return push.StreamOutcome(mode="test", follow=figures, held=None, watchers=())

    assert outcome(follow(150.0)).follow_met()
    assert not outcome(follow(151.0)).follow_met()
    assert not outcome(follow(20.0, missed=1)).follow_met()


def test_the_report_says_every_figure() -> None:
    cost = push.WatcherCost(watchers=100, opened=100, moves=3, move_ms=20.5, heard_p50_ms=26.9,
                            heard_all_ms=38.7, missing=0, cpu_ms_per_move=3.3)  # fmt: skip
    outcome = push.StreamOutcome(mode="test", follow=follow(55.0), held=held(), watchers=(cost,))

    lines = "\n".join(push.summary_lines(outcome))
    section = push.section(outcome)

    assert "p95 55 ms" in lines and "goal p95 <= 150 ms: met" in lines
    assert "10,000 of 10,000 opened" in lines and "38.0 KB a stream" in lines
    assert "with 100 watcher(s)" in lines and "by all 38.7 ms" in lines
    assert section["held"]["per_stream_kb"] == 38.0 and section["held"]["met"] is True
    assert section["move_to_other_page"]["met"] is True
    assert section["watchers"][0]["cpu_ms_per_move"] == 3.3
