"""The boss key in a real Chromium: Home, the backquote key or the corner button swap the game
for a fake spreadsheet and back, the game exactly as it was, and no key reaches the game meanwhile.

With ``SCREENSHOT_DIR`` set, the phone test also saves the spreadsheet at 360x740 and 1280x900.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Page, Request, Route, ViewportSize, expect

from games.models import Move
from tests.browser.conftest import BrowserProblems, post, settle, sign_up, start_game

# Marked here too (not only by the folder's conftest), so `-m "not browser"` selects them.
pytestmark = pytest.mark.browser

PHONE: ViewportSize = {"width": 360, "height": 740}
DESKTOP: ViewportSize = {"width": 1280, "height": 900}
SHEET_TITLE = "Q3 budget.xlsx — Spreadsheet"
GAME_PATHS = ("/roll/", "/hold/", "/score/")

GAME_STATE = """() => ({
  faces: [...document.querySelectorAll('input.die-toggle')].map((d) => d.dataset.face),
  held: [...document.querySelectorAll('input.die-toggle')].map((d) => d.checked),
  heldLabels: document.querySelectorAll('label.die.is-held').length,
  rollsLeft: document.querySelector('.rolls-left').textContent.trim(),
  version: document.getElementById('game-version').value,
  focused: document.activeElement ? document.activeElement.id : null,
  scrollY: Math.round(window.scrollY),
})"""


# --- Steps ---------------------------------------------------------------------------------


def game_with_two_dice_held(page: Page, site: str, username: str) -> int:
    """Sign up, start a game, roll once and hold dice 1 and 3 (by tapping them)."""
    sign_up(page, site, username, username.title())
    game_id = start_game(page, site)
    post(page, "/roll/", page.locator("[data-roll]").click)
    for index in (0, 2):
        post(page, "/hold/", page.locator(f"label[for=die-{index}]").click)
    expect(page.locator("label.die.is-held")).to_have_count(2)
    return game_id


def game_state(page: Page) -> dict[str, Any]:
    state: dict[str, Any] = page.evaluate(GAME_STATE)
    return state


def expect_sheet(page: Page) -> None:
    expect(page.locator("#page")).to_be_hidden()
    sheet = page.get_by_role("region", name="Q3 budget.xlsx")
    expect(sheet).to_be_visible()
    expect(sheet.locator("thead th")).to_have_text(list("ABCDEFGH"))
    expect(sheet.locator(".boss-total-row")).to_contain_text("267,295")
    expect(page).to_have_title(SHEET_TITLE)
    expect(page.locator("#boss-back")).to_be_visible()
    expect(page.locator("#boss-back")).to_have_attribute("aria-pressed", "true")


def expect_game_as_it_was(page: Page, before: dict[str, Any], title: str) -> None:
    expect(page.locator("#boss-sheet")).to_be_hidden()
    expect(page.locator("#page")).to_be_visible()
    expect(page.locator("[data-roll]")).to_be_visible()
    expect(page).to_have_title(title)
    expect(page.locator("#boss-key")).to_have_attribute("aria-pressed", "false")
    assert game_state(page) == before


def expect_keys_do_nothing(page: Page, game_id: int) -> None:
    """While the sheet shows, the game's keys (and Escape) neither act nor reveal the game."""
    sent: list[str] = []

    def record(request: Request) -> None:
        sent.append(request.url)

    moves = Move.objects.filter(game_id=game_id).count()
    page.on("request", record)
    try:
        for key in ("r", "1", "a", "m", "Space", "?", "Escape"):
            page.keyboard.press(key)
        page.wait_for_timeout(300)  # long enough for a request htmx would have sent at once
    finally:
        page.remove_listener("request", record)
    assert [url for url in sent if any(path in url for path in GAME_PATHS)] == []
    assert Move.objects.filter(game_id=game_id).count() == moves
    expect_sheet(page)
    expect(page.locator("#keys-help")).not_to_be_visible()


def no_sideways_scroll(page: Page) -> bool:
    width: int = page.evaluate("() => document.documentElement.scrollWidth")
    return width <= PHONE["width"]


# --- Tests ---------------------------------------------------------------------------------


def test_home_hides_the_game_and_brings_it_back_as_it_was(
    page: Page, site: str, problems: BrowserProblems
) -> None:
    game_id = game_with_two_dice_held(page, site, "bossy")
    page.locator("#die-2").focus()
    title = page.title()
    before = game_state(page)
    assert before["focused"] == "die-2"
    assert before["held"] == [True, False, True, False, False]

    page.keyboard.press("Home")
    expect_sheet(page)
    icon = page.locator('link[rel~="icon"]').get_attribute("href") or ""
    assert icon.startswith("data:image/svg+xml"), icon
    expect_keys_do_nothing(page, game_id)

    page.keyboard.press("Home")
    expect_game_as_it_was(page, before, title)
    assert (page.locator('link[rel~="icon"]').get_attribute("href") or "").endswith("favicon.svg")

    # The game's keys work again at once.
    post(page, "/hold/", lambda: page.keyboard.press("2"))
    expect(page.locator("label.die.is-held")).to_have_count(3)
    problems.assert_none()


def test_the_button_and_the_backquote_key_do_the_same(
    page: Page, site: str, problems: BrowserProblems
) -> None:
    game_id = game_with_two_dice_held(page, site, "quinn")
    title = page.title()
    button = page.get_by_role("button", name="Boss key: hide the game")
    back = page.get_by_role("button", name="Boss key: back to the game")
    expect(button).to_be_visible()
    expect(button).to_have_attribute("title", "Hide the game (Home or ` key)")

    page.locator("#die-0").focus()
    before = game_state(page)
    button.click()
    expect_sheet(page)
    expect(back).to_be_visible()  # on the sheet, to come back with
    expect_keys_do_nothing(page, game_id)
    back.click()
    expect_game_as_it_was(page, before, title)  # focus back on die 1, not on the button

    page.keyboard.press("`")
    expect_sheet(page)
    expect_keys_do_nothing(page, game_id)
    page.keyboard.press("`")
    expect_game_as_it_was(page, before, title)

    # Mixed: out with the button, back with Home.
    button.click()
    expect_sheet(page)
    page.keyboard.press("Home")
    expect_game_as_it_was(page, before, title)
    problems.assert_none()


def test_an_answer_arriving_while_the_sheet_shows_lands_hidden(
    page: Page, site: str, problems: BrowserProblems
) -> None:
    game_with_two_dice_held(page, site, "ruth")
    title = page.title()
    waiting: list[Route] = []
    page.route("**/roll/", lambda route: waiting.append(route))  # held until we let it go
    page.locator("[data-roll]").click()
    page.keyboard.press("Home")
    expect_sheet(page)
    assert len(waiting) == 1
    with page.expect_response(lambda r: "/roll/" in r.url):
        waiting[0].continue_()
    settle(page)
    expect_sheet(page)
    expect(page.locator("#page .rolls-left")).to_have_text("1 left")  # swapped in, unseen

    page.keyboard.press("Home")
    expect(page.locator("#page")).to_be_visible()
    expect(page).to_have_title(title)
    expect(page.locator(".rolls-left")).to_have_text("1 left")
    expect(page.locator("label.die.is-held")).to_have_count(2)
    problems.assert_none()


def test_the_keys_help_comes_back_open(page: Page, site: str, problems: BrowserProblems) -> None:
    game_with_two_dice_held(page, site, "kim")
    page.keyboard.press("?")
    expect(page.locator("#keys-help")).to_be_visible()

    page.keyboard.press("Home")
    expect_sheet(page)
    back = page.get_by_role("button", name="Boss key: back to the game")
    back.click()  # not made inert by the modal dialog
    expect(page.locator("#keys-help")).to_be_visible()
    page.keyboard.press("Escape")
    expect(page.locator("#keys-help")).to_be_hidden()
    problems.assert_none()


def test_home_in_a_text_field_stays_a_caret_key(
    page: Page, site: str, problems: BrowserProblems
) -> None:
    page.goto(f"{site}/accounts/login/")
    expect(page.get_by_role("button", name="Boss key: hide the game")).to_be_visible()
    field = page.locator("#id_username")
    field.fill("ada")
    field.press("Home")
    field.press("`")
    expect(page.locator("#page")).to_be_visible()
    expect(field).to_have_value("`ada")

    # Anywhere else on any page, the key works.
    page.locator("h1").click()
    page.keyboard.press("Home")
    expect_sheet(page)
    page.keyboard.press("Home")
    expect(page.locator("#page")).to_be_visible()
    problems.assert_none()


def test_without_javascript_neither_button_nor_sheet_shows(
    no_js_page: Page, site: str, problems: BrowserProblems
) -> None:
    no_js_page.goto(f"{site}/")
    expect(no_js_page.locator("#page")).to_be_visible()
    expect(no_js_page.locator("#boss-key")).to_be_hidden()  # it could do nothing
    expect(no_js_page.locator("#boss-sheet")).to_be_hidden()
    problems.assert_none()


def test_on_a_phone_the_button_sits_in_the_header_and_covers_nothing(
    page: Page, site: str, problems: BrowserProblems
) -> None:
    page.set_viewport_size(PHONE)
    game_with_two_dice_held(page, site, "pip")
    button = page.locator("#boss-key")
    header = page.locator(".site-header")
    assert (
        page.evaluate("() => getComputedStyle(document.getElementById('boss-key')).position")
        == "static"
    )
    inside = header.bounding_box()
    placed = button.bounding_box()
    assert inside and placed
    assert (
        inside["y"] <= placed["y"]
        and placed["y"] + placed["height"] <= inside["y"] + inside["height"]
    )
    assert no_sideways_scroll(page)

    # The scroll position comes back too.
    page.evaluate("() => window.scrollTo(0, 200)")
    shoot(page, "boss-button-on-the-game")
    before = game_state(page)
    assert before["scrollY"] == 200
    title = page.title()
    page.keyboard.press("Home")
    expect_sheet(page)
    assert no_sideways_scroll(page)
    shoot(page, "boss-sheet")
    page.locator("#boss-back").click()
    expect_game_as_it_was(page, before, title)
    problems.assert_none()


def shoot(page: Page, name: str) -> None:
    """Save the page at the phone's and the desktop's size, if SCREENSHOT_DIR is set."""
    directory = os.environ.get("SCREENSHOT_DIR", "").strip()
    if not directory:
        return
    folder = Path(directory)
    folder.mkdir(parents=True, exist_ok=True)
    scroll_y = page.evaluate("() => window.scrollY")
    for size in (PHONE, DESKTOP):
        page.set_viewport_size(size)
        page.evaluate("() => new Promise(requestAnimationFrame)")
        page.screenshot(path=str(folder / f"{name}-{size['width']}x{size['height']}.png"))
    page.set_viewport_size(PHONE)
    page.evaluate(f"() => window.scrollTo(0, {scroll_y})")
