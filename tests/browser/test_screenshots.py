"""Every page fits a 360 px phone without sideways scrolling; screenshots on request.

``test_pages_fit_a_phone_without_scrolling_sideways`` always runs. ``test_screenshots`` runs
only with ``SCREENSHOT_DIR`` set, and saves each page at 360x740 and 1280x900 there:

    SCREENSHOT_DIR=screenshots .venv/bin/python -m pytest tests/browser -k screenshots
"""

from __future__ import annotations

import os
import re
from collections.abc import Callable
from pathlib import Path

import pytest
from playwright.sync_api import Page, expect

from games import rules
from games.models import Game
from tests.browser.conftest import (
    BrowserProblems,
    log_in,
    make_player,
    post,
    settle,
    start_game,
)
from tests.factories import put_match, put_sheet

# Marked here too (not only by the folder's conftest), so `-m "not browser"` selects them.
pytestmark = pytest.mark.browser

PHONE = {"width": 360, "height": 740}
SMALL_PHONE = {"width": 360, "height": 640}
DESKTOP = {"width": 1280, "height": 900}

# Twelve boxes filled, so one more roll ends the game: the upper bonus and a YAHTZEE included.
ALMOST_FULL = {
    "aces": 3,
    "twos": 6,
    "threes": 9,
    "fours": 12,
    "fives": 15,
    "sixes": 18,
    "three_of_a_kind": 21,
    "four_of_a_kind": 22,
    "full_house": 25,
    "small_straight": 30,
    "large_straight": 40,
    "yahtzee": 50,
}

Visit = Callable[[Page, str], None]


def assert_no_sideways_scroll(page: Page, name: str) -> None:
    width = page.viewport_size["width"] if page.viewport_size else 0
    assert width == PHONE["width"]
    scroll_width = page.evaluate("() => document.documentElement.scrollWidth")
    assert scroll_width <= PHONE["width"], f"{name}: the page is {scroll_width} px wide at 360 px"


def tour(page: Page, site: str, visit: Visit) -> None:
    """Walk through every page and state of a game, calling ``visit`` at each."""
    page.goto(f"{site}/")
    visit(page, "home")
    page.goto(f"{site}/accounts/signup/")
    visit(page, "signup")
    page.goto(f"{site}/accounts/login/")
    visit(page, "login")

    make_player("ivan_the_very_long_username", "Ivan Alexandrovich Longname")
    log_in(page, site, "ivan_the_very_long_username")
    visit(page, "dashboard-empty")
    game_id = start_game(page, site)
    visit(page, "game-unrolled")

    post(page, "/roll/", page.locator("[data-roll]").click)
    for key in ("1", "3"):
        post(page, "/hold/", lambda key=key: page.keyboard.press(key))
    expect(page.locator("label.die.is-held")).to_have_count(2)
    visit(page, "game-mid-turn")
    post(page, "/roll/", page.locator("[data-roll]").click)
    expect(page.locator(".rolls-left")).to_have_text("1 left")
    visit(page, "game-second-roll")

    zero = page.locator("button.score-option.is-zero").first  # round 1 always has one
    post(page, "/score/", zero.click)
    expect(page.locator(".confirm-zero")).to_be_visible()
    visit(page, "game-confirm-zero")
    with page.expect_response(lambda r: r.request.method == "GET" and "/play/" in r.url):
        page.keyboard.press("Escape")
    settle(page)
    expect(page.locator(".confirm-zero")).to_have_count(0)

    page.keyboard.press("?")
    expect(page.locator("dialog#keys-help")).to_be_visible()
    visit(page, "game-keys-help")
    page.keyboard.press("Escape")
    expect(page.locator("dialog#keys-help")).to_be_hidden()

    page.get_by_role("link", name="My games").click()
    visit(page, "dashboard-in-progress")

    # Jump to the last round through the database, then finish the game in the browser.
    game = Game.objects.get(pk=game_id)
    put_sheet(game, [dict(ALMOST_FULL)])
    put_match(game, turn=rules.Turn())  # no dice on the table: the last round's first roll
    assert game.round == 13
    page.goto(f"{site}/play/{game_id}/")
    post(page, "/roll/", page.locator("[data-roll]").click)
    chance = page.locator('button.score-option[data-box-key="m"]')
    points = int(chance.inner_text())
    post(page, "/score/", chance.click)
    expect(page.get_by_role("heading", name="Game over")).to_be_visible()
    final = sum(ALMOST_FULL.values()) + rules.UPPER_BONUS + points
    expect(page.locator(".final-score strong")).to_have_text(str(final))
    visit(page, "game-over")

    page.get_by_role("link", name="My games").first.click()
    expect(page.locator("table.results td.num").first).to_have_text(str(final))
    visit(page, "dashboard-finished")

    # Three at one screen: the players' strip and table, and every card side by side.
    page.get_by_text("Play with others at this screen").click()
    for slot, name in enumerate(("Ann", "Bartholomew")):
        page.get_by_label(f"Player {slot + 2}", exact=True).fill(name)
    page.get_by_role("button", name="Start a game of Classic Yahtzee").click()
    expect(page.locator(".player-chip")).to_have_count(3)
    post(page, "/roll/", page.locator("[data-roll]").click)
    # Chance: never a zero to confirm, so the turn passes to Ann.
    post(page, "/score/", page.locator('button.score-option[data-box-key="m"]').click)
    expect(page.locator(".player-chip.is-on-turn")).to_contain_text("Ann")
    visit(page, "game-hot-seat")


def test_pages_fit_a_phone_without_scrolling_sideways(
    page: Page, site: str, problems: BrowserProblems
) -> None:
    page.set_viewport_size(PHONE)
    tour(page, site, assert_no_sideways_scroll)
    problems.assert_none()


def test_screenshots(page: Page, site: str, problems: BrowserProblems) -> None:
    directory = os.environ.get("SCREENSHOT_DIR", "").strip()
    if not directory:
        pytest.skip("set SCREENSHOT_DIR to a directory to save screenshots of the pages")
    folder = Path(directory)
    folder.mkdir(parents=True, exist_ok=True)
    saved: list[Path] = []

    def shoot(page: Page, name: str) -> None:
        # The whole page at a phone's and a desktop's size, and what a small phone shows at once.
        for size, full_page in ((PHONE, True), (DESKTOP, True), (SMALL_PHONE, False)):
            page.set_viewport_size(size)
            page.evaluate("() => new Promise(requestAnimationFrame)")
            if size is PHONE:
                assert_no_sideways_scroll(page, name)
            if not full_page:
                page.evaluate("() => window.scrollTo(0, 0)")
            view = "" if full_page else "-screen"
            path = folder / f"{name}-{size['width']}x{size['height']}{view}.png"
            page.screenshot(path=str(path), full_page=full_page, animations="disabled")
            saved.append(path)
        page.set_viewport_size(PHONE)

    page.set_viewport_size(PHONE)
    tour(page, site, shoot)
    assert all(path.stat().st_size > 0 for path in saved)
    names = {re.sub(r"-\d+x\d+(-screen)?\.png$", "", path.name) for path in saved}
    assert {"home", "dashboard-in-progress", "game-mid-turn", "game-over", "game-hot-seat"} <= names
    problems.assert_none()
