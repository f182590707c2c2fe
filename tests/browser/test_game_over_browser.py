"""The game-over page in a browser: the log of the last moves carries no numbers of its own (a
list's 8 down to 1 read as the game's move numbers)."""

from __future__ import annotations

import pytest
from playwright.sync_api import Page, expect

from tests.browser.conftest import BrowserProblems, log_in, make_player
from tests.review.test_replay_views import play_known_game

pytestmark = pytest.mark.browser


def test_the_last_moves_are_listed_newest_first_without_numbers(
    page: Page, site: str, problems: BrowserProblems, strategy_ready
) -> None:
    queen = make_player("queen_login", "Dice Queen")
    game = play_known_game(queen)
    log_in(page, site, "queen_login")

    page.goto(f"{site}/play/{game.pk}/")

    expect(page.get_by_role("heading", name="Game over")).to_be_visible()
    log = page.get_by_role("list", name="Latest moves, newest first")
    lines = log.get_by_role("listitem")
    expect(lines).to_have_count(8)
    expect(lines.first).to_have_text("0 in YAHTZEE")  # the last box of the game
    expect(lines.nth(1)).to_have_text("Roll 1: 1, 2, 3, 4, 6")
    markers = log.evaluate("ol => [...ol.children].map(li => getComputedStyle(li).listStyleType)")
    assert markers == ["none"] * 8
    problems.assert_none()
