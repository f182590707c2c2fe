"""Each served application leaves the garbage collector set for a long-lived worker: the loaded
site frozen out of every collection, the young generation collected less often, and between
requests rather than during them (``yahtzee_site.collector``)."""

from __future__ import annotations

import gc
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.served import ENTRY_POINTS, run_served
from yahtzee_site import collector

PROBE = (
    "import gc; "
    "print(*gc.get_threshold(), gc.get_freeze_count()); "
    # An answer sent after many young objects were made: they are collected then.
    "from django.core.signals import request_finished; gc.disable(); "
    "kept = [[] for _ in range(15_000)]; before = gc.get_count()[0]; "
    "request_finished.send(sender=None); print(before, gc.get_count()[0])"
)


@pytest.mark.parametrize("entry", ENTRY_POINTS)
def test_the_loaded_site_is_frozen_and_young_objects_collected_less_often(
    entry: str, tmp_path: Path
) -> None:
    settings_line, answer_line = run_served(entry, PROBE, tmp_path).splitlines()
    *threshold, frozen = map(int, settings_line.split())
    young_before, young_after = map(int, answer_line.split())

    # The collector's own trigger is a safety net for a request that allocates without end.
    assert threshold == [100_000, 20, 20]
    # The app registry, URL patterns and templates: tens of thousands of objects, not a few.
    assert frozen > 20_000
    assert young_before >= 15_000
    assert young_after < 100  # collected once the answer went


@pytest.fixture
def quiet_collector() -> Iterator[None]:
    """The collector's automatic runs off while a test counts allocations; its state restored."""
    enabled = gc.isenabled()
    gc.disable()
    gc.collect()
    yield
    if enabled:
        gc.enable()


def _allocate(count: int) -> list[list[int]]:
    return [[] for _ in range(count)]


def test_between_requests_leaves_young_objects_below_the_threshold(
    quiet_collector: None,
) -> None:
    kept = _allocate(collector.YOUNG_THRESHOLD // 2)

    assert collector.between_requests() is None
    assert gc.get_count()[0] >= len(kept)


def test_between_requests_collects_the_young_generation_past_the_threshold(
    quiet_collector: None,
) -> None:
    kept = _allocate(collector.YOUNG_THRESHOLD + 1_000)

    assert collector.between_requests() == 0
    assert gc.get_count()[0] < 100
    assert len(kept) == collector.YOUNG_THRESHOLD + 1_000


def test_between_requests_collects_older_generations_in_their_turn(
    quiet_collector: None,
) -> None:
    young, older = collector.OLDER_THRESHOLDS
    collected = []
    for _ in range((young + 1) * (older + 1)):
        kept = _allocate(collector.YOUNG_THRESHOLD + 1_000)
        collected.append(collector.between_requests())
        del kept

    # Python's own rule: every young-th collection is of the middle generation, and every
    # older-th of those is a full one.
    assert collected[:young] == [0] * young
    assert collected[young] == 1
    assert collected.count(1) == older
    assert collected[-1] == 2
    assert collected.count(2) == 1
