"""Quick play in two browsers: one click each, and the one who waited is taken to the game,
pushed by its stream the moment the other's click seats them, or by its own check every second
where no stream can be had; the page says who you wait as, and Cancel."""

from __future__ import annotations

import re
import time
from collections.abc import Callable

import pytest
from playwright.sync_api import BrowserContext, Page, expect

from tests.browser.conftest import BrowserProblems, log_in, make_player

pytestmark = pytest.mark.browser

FOLLOWS_WITHIN_MS = 5000  # the page checks every second; generous for a loaded machine
PUSHED_WITHIN_S = 0.6
"""The stream takes the page to the game well inside the check's second: the second click's
request (the pairing, the game begun) and the push, with room for a loaded machine."""
GAME = re.compile(r"/play/\d+/$")


def test_two_clicks_seat_two_accounts_and_the_waiting_page_follows_to_the_game(
    new_context: Callable[..., BrowserContext], site: str, problems: BrowserProblems
) -> None:
    make_player("alice", "Alice")
    make_player("bob", "Bob")
    first: Page = problems.watch(new_context()).new_page()
    second: Page = problems.watch(new_context()).new_page()
    log_in(first, site, "alice")
    log_in(second, site, "bob")

    first.get_by_role("button", name="Quick play Classic Yahtzee").click()
    expect(first.get_by_role("heading", level=1)).to_have_text("Quick play: Classic Yahtzee")
    expect(first.locator("#quick-status")).to_contain_text("Waiting for an opponent as 1500")
    expect(first.locator("#quick-status")).to_contain_text(re.compile(r"[1-9] s so far"))

    second.get_by_role("button", name="Quick play Classic Yahtzee").click()
    expect(second).to_have_url(re.compile(r"/play/\d+/$"))

    expect(first).to_have_url(second.url, timeout=FOLLOWS_WITHIN_MS)
    problems.assert_none()


def two_waiting(
    new_context: Callable[..., BrowserContext], site: str, problems: BrowserProblems
) -> tuple[Page, Page]:
    """Alice waiting at Classic; Bob logged in, one click from matching her."""
    make_player("alice", "Alice")
    make_player("bob", "Bob")
    first: Page = problems.watch(new_context()).new_page()
    second: Page = problems.watch(new_context()).new_page()
    log_in(first, site, "alice")
    log_in(second, site, "bob")
    return first, second


def seconds_to_follow(first: Page, second: Page) -> float:
    """From Bob's click to Alice's page leaving for the game (its address changed); printed
    beside the time Bob's own page took to get there (its click's request: the pairing)."""
    arrived: dict[str, float] = {}
    second.on(
        "framenavigated",
        lambda frame: GAME.search(frame.url) and arrived.setdefault("bob", time.monotonic()),
    )
    clicked = time.monotonic()
    second.get_by_role("button", name="Quick play Classic Yahtzee").click()
    first.wait_for_url(GAME, wait_until="commit", timeout=FOLLOWS_WITHIN_MS)
    followed = time.monotonic() - clicked
    expect(second).to_have_url(GAME)
    expect(first).to_have_url(second.url)
    own = (arrived.get("bob", clicked) - clicked) * 1000
    print(f"\n  Bob's own page at the game {own:.0f} ms after his click", end="; ")
    return followed


def test_the_stream_takes_the_waiting_page_to_the_game_at_once(
    new_context: Callable[..., BrowserContext], site: str, problems: BrowserProblems
) -> None:
    first, second = two_waiting(new_context, site, problems)
    first.get_by_role("button", name="Quick play Classic Yahtzee").click()
    first.wait_for_function("() => window.yahtzeeQuick && window.yahtzeeQuick.streaming")
    # Its check every second answers nothing from now on: only the stream can move the page.
    first.route(re.compile(r".*/play/quick/check/.*"), lambda route: route.fulfill(status=204))

    followed = seconds_to_follow(first, second)

    print(f"quick play, pushed by the stream: followed {followed * 1000:.0f} ms after the click")
    assert followed < PUSHED_WITHIN_S
    problems.assert_none()


def test_with_the_stream_refused_the_pages_check_takes_it_to_the_game(
    new_context: Callable[..., BrowserContext], site: str, problems: BrowserProblems
) -> None:
    first, second = two_waiting(new_context, site, problems)
    problems.allow(r"503")  # the refused stream
    first.route(
        re.compile(r".*/play/quick/stream/.*"),
        lambda route: route.fulfill(status=503, content_type="text/plain", body="No streams."),
    )
    first.get_by_role("button", name="Quick play Classic Yahtzee").click()
    expect(first.locator("#quick-status")).to_contain_text(re.compile(r"[1-9] s so far"))
    assert not first.evaluate("() => window.yahtzeeQuick.streaming")

    followed = seconds_to_follow(first, second)

    print(f"quick play, stream refused, by the check: followed {followed * 1000:.0f} ms")
    problems.assert_none()


def test_cancel_leaves_the_wait(context: BrowserContext, site: str) -> None:
    make_player("carol", "Carol")
    page = context.new_page()
    log_in(page, site, "carol")

    page.get_by_role("button", name="Quick play Triple Yahtzee").click()
    expect(page.locator("#quick-status")).to_contain_text("Waiting for an opponent")
    page.get_by_role("button", name="Cancel").click()

    expect(page.get_by_text("You stopped waiting for an opponent.")).to_be_visible()
