"""Triple Yahtzee in a real browser: the keyboard picks the box, then the column."""

from __future__ import annotations

import pytest
from playwright.sync_api import Page, expect

from games.models import Seat
from tests.browser.conftest import BrowserProblems, post, settle, sign_up
from tests.factories import cards_of

pytestmark = pytest.mark.browser


def test_a_letter_then_a_digit_scores_in_that_column(
    page: Page, site: str, problems: BrowserProblems
) -> None:
    page.set_viewport_size({"width": 360, "height": 740})
    sign_up(page, site, "tess", "Tess")
    page.get_by_role("button", name="Start a game of Triple Yahtzee").click()
    expect(page.locator(".game-round")).to_contain_text("of 39")
    assert page.evaluate("document.documentElement.scrollWidth") <= 360

    post(page, "/roll/", lambda: page.keyboard.press("r"))
    page.keyboard.press("m")  # Chance is open in all three columns: choose one
    expect(page.locator('tr[data-row="m"]')).to_have_class("score-row is-choosing")
    expect(page.locator("#announcer")).to_contain_text("Choose the column for Chance")
    page.keyboard.press("Escape")
    expect(page.locator('tr[data-row="m"]')).to_have_class("score-row")
    page.keyboard.press("m")
    post(page, "/score/", lambda: page.keyboard.press("3"))
    settle(page)

    cards = cards_of(Seat.objects.get(user__username="tess").game_id)
    assert cards[0] == {} and cards[1] == {} and list(cards[2]) == ["chance"]
    expect(page.locator(".game-round")).to_contain_text("Round 2 of 39")
    assert page.evaluate("document.documentElement.scrollWidth") <= 360
    problems.assert_none()
