"""Quick play in two browsers: one click each, and the one who waited is taken to the game by
the waiting page's own check, with no reload; the page says who you wait as, and Cancel."""

from __future__ import annotations

import re
from collections.abc import Callable

import pytest
from playwright.sync_api import BrowserContext, Page, expect

from tests.browser.conftest import BrowserProblems, log_in, make_player

pytestmark = pytest.mark.browser

FOLLOWS_WITHIN_MS = 5000  # the page checks every second; generous for a loaded machine


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


def test_cancel_leaves_the_wait(context: BrowserContext, site: str) -> None:
    make_player("carol", "Carol")
    page = context.new_page()
    log_in(page, site, "carol")

    page.get_by_role("button", name="Quick play Triple Yahtzee").click()
    expect(page.locator("#quick-status")).to_contain_text("Waiting for an opponent")
    page.get_by_role("button", name="Cancel").click()

    expect(page.get_by_text("You stopped waiting for an opponent.")).to_be_visible()
