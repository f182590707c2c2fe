"""Whether a player's page of a game is open: each check is written down (at most every few
seconds), and a page silent for about half a minute counts as closed; without Redis the record
is kept in files every worker of the machine reads."""

from __future__ import annotations

import pytest
from django.core.cache import caches

from games.play import live
from yahtzee_site.presence_cache import PresenceFileCache


@pytest.fixture(autouse=True)
def _nothing_seen() -> None:
    caches["presence"].clear()


def test_a_page_that_checked_a_moment_ago_is_open() -> None:
    live.saw_page(game_id=7, user_id=3, now=1000.0)

    assert live.page_open(game_id=7, user_id=3, now=1001.0)
    assert not live.page_open(game_id=7, user_id=4, now=1001.0)  # another player's
    assert not live.page_open(game_id=8, user_id=3, now=1001.0)  # another game


def test_a_page_silent_past_the_window_is_closed() -> None:
    live.saw_page(game_id=7, user_id=3, now=1000.0)

    assert live.page_open(game_id=7, user_id=3, now=1000.0 + live.PAGE_OPEN_FOR)
    assert not live.page_open(game_id=7, user_id=3, now=1000.0 + live.PAGE_OPEN_FOR + 10)


def test_checks_every_second_keep_the_page_open_though_few_are_written() -> None:
    for second in range(120):
        live.saw_page(game_id=7, user_id=3, now=1000.0 + second)
        assert live.page_open(game_id=7, user_id=3, now=1000.0 + second + 0.5)

    assert caches["presence"].get("page-seen:7:3") == 1110.0  # written every 10 s only


def test_the_file_cache_is_shared_by_the_workers_of_a_machine(tmp_path) -> None:
    one, another = PresenceFileCache(str(tmp_path), {}), PresenceFileCache(str(tmp_path), {})

    one.set("page-seen:7:3", 1000.0, timeout=40)

    assert another.get("page-seen:7:3") == 1000.0
