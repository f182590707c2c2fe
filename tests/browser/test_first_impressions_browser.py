"""The first-impressions fixes, as a player sees them: the card and dice on a small phone, the
keys where there are keys, the title following the game, celebrations, colours that read."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from playwright.sync_api import BrowserContext, Page, expect

from games import rules
from games.models import Game
from tests.browser.conftest import BrowserProblems, log_in, make_player, post, start_game
from tests.factories import make_user, put_sheet

pytestmark = pytest.mark.browser

SMALL = {"width": 360, "height": 640}
PHONE = {"width": 360, "height": 740}

# Late in a game: the upper section full; the straights and Chance still open.
LATE = {"aces": 3, "twos": 6, "threes": 9, "fours": 12, "fives": 15, "sixes": 18,
        "three_of_a_kind": 21, "four_of_a_kind": 0, "full_house": 25, "yahtzee": 0}  # fmt: skip


def late_game(page: Page, site: str, username: str) -> int:
    make_player(username, username.title())
    log_in(page, site, username)
    game_id = start_game(page, site)
    game = Game.objects.get(pk=game_id)
    put_sheet(game, [dict(LATE)])
    assert game.round == len(LATE) + 1
    page.goto(f"{site}/play/{game_id}/")
    post(page, "/roll/", page.locator("[data-roll]").click)
    return game_id


def box(locator: Any) -> dict[str, float]:
    found: dict[str, float] = locator.bounding_box()
    assert found, "not laid out"
    return found


@pytest.mark.parametrize("size", [SMALL, PHONE], ids=["360x640", "360x740"])
def test_every_open_box_shows_above_the_dice_without_scrolling(
    page: Page, site: str, problems: BrowserProblems, size: dict[str, int]
) -> None:
    page.set_viewport_size(size)
    late_game(page, site, f"late{size['height']}")
    page.evaluate("() => window.scrollTo(0, 0)")

    tray = box(page.locator(".tray"))
    assert tray["height"] <= 150, f"the tray takes {tray['height']} px"
    for die in page.locator("label.die").all():
        shown = box(die)
        assert shown["y"] >= tray["y"] and shown["y"] + shown["height"] <= size["height"]
    options = page.locator("button.score-option").all()
    assert len(options) == 3  # small straight, large straight and chance
    for option in options:
        shown = box(option)
        assert shown["y"] >= 0 and shown["y"] + shown["height"] <= tray["y"], shown
    problems.assert_none()


def test_the_round_never_wraps_and_the_keys_close_button_is_on_screen(
    page: Page, site: str, problems: BrowserProblems
) -> None:
    page.set_viewport_size(SMALL)
    make_player("kip", "Kip")
    log_in(page, site, "kip")
    start_game(page, site)

    round_line = box(page.locator(".game-round"))
    assert round_line["height"] < 30, "'Round 1 of 13' broke over two lines"
    page.keyboard.press("?")
    close = page.locator("dialog#keys-help").get_by_role("button", name="Close")
    expect(close).to_be_in_viewport()
    close.click()
    expect(page.locator("dialog#keys-help")).to_be_hidden()
    problems.assert_none()


def test_a_touch_phone_shows_no_keys_button(
    new_context: Callable[..., BrowserContext], site: str, problems: BrowserProblems
) -> None:
    phone = problems.watch(new_context(has_touch=True, is_mobile=True))
    page = phone.new_page()
    page.set_viewport_size(PHONE)
    make_player("tap", "Tap")
    log_in(page, site, "tap")
    start_game(page, site)

    expect(page.locator(".keys-button")).to_be_hidden()
    problems.assert_none()


def test_a_desktop_keeps_the_keys_button(page: Page, site: str, problems: BrowserProblems):
    make_player("desk", "Desk")
    log_in(page, site, "desk")
    start_game(page, site)

    expect(page.locator(".keys-button")).to_be_visible()
    problems.assert_none()


def test_the_tab_title_follows_the_game(page: Page, site: str, problems: BrowserProblems) -> None:
    make_player("tab", "Tab")
    log_in(page, site, "tab")
    start_game(page, site)
    expect(page).to_have_title("Round 1 of 13 — Classic Yahtzee — Yahtzee")

    post(page, "/roll/", page.locator("[data-roll]").click)
    post(page, "/score/", page.locator('button.score-option[data-box-key="m"]').click)

    expect(page).to_have_title("Round 2 of 13 — Classic Yahtzee — Yahtzee")
    problems.assert_none()


def test_a_yahtzee_pops_up_then_goes(
    page: Page, site: str, problems: BrowserProblems, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(rules, "system_dice", lambda n: (6,) * n)
    make_player("lucky", "Lucky")
    log_in(page, site, "lucky")
    start_game(page, site)
    post(page, "/roll/", page.locator("[data-roll]").click)

    post(page, "/score/", page.locator('button.score-option[data-box-key="l"]').click)

    news = page.locator(".celebration-yahtzee")
    expect(news).to_be_visible()
    expect(news).to_have_text("YAHTZEE!")
    expect(news).to_be_hidden(timeout=5_000)  # the animation ends hidden
    expect(page.locator("#announcer")).to_contain_text("YAHTZEE!")
    problems.assert_none()


def test_with_less_motion_the_yahtzee_stays_as_a_banner(
    new_context: Callable[..., BrowserContext],
    site: str,
    problems: BrowserProblems,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(rules, "system_dice", lambda n: (6,) * n)
    page = problems.watch(new_context(reduced_motion="reduce")).new_page()
    make_player("calm", "Calm")
    log_in(page, site, "calm")
    start_game(page, site)
    post(page, "/roll/", page.locator("[data-roll]").click)

    post(page, "/score/", page.locator('button.score-option[data-box-key="l"]').click)
    page.wait_for_timeout(3_500)  # longer than the animation would last

    news = page.locator(".celebration-yahtzee")
    expect(news).to_be_visible()
    assert (
        page.evaluate("() => getComputedStyle(document.querySelector('.celebrations')).position")
        == "static"
    )
    problems.assert_none()


def contrast(first: str, second: str) -> float:
    def luminance(rgb: str) -> float:
        channels = [int(c) / 255 for c in rgb[rgb.index("(") + 1 : rgb.index(")")].split(",")[:3]]
        r, g, b = (c / 12.92 if c <= 0.03928 else ((c + 0.055) / 1.055) ** 2.4 for c in channels)
        return 0.2126 * r + 0.7152 * g + 0.0722 * b

    light, dark = sorted((luminance(first), luminance(second)), reverse=True)
    return (light + 0.05) / (dark + 0.05)


@pytest.mark.parametrize("dice", ["red", "black"])
def test_coloured_dice_stand_out_from_a_maroon_table(
    page: Page, site: str, problems: BrowserProblems, dice: str
) -> None:
    make_user(f"maroon{dice}", dice_style=dice, felt_color="#6b1d2a")
    log_in(page, site, f"maroon{dice}")
    start_game(page, site)
    post(page, "/roll/", page.locator("[data-roll]").click)

    rim = page.evaluate("() => getComputedStyle(document.querySelector('.die-body')).stroke")
    felt = page.evaluate("() => getComputedStyle(document.querySelector('.tray')).backgroundColor")
    assert contrast(rim, felt) >= 3, (rim, felt)  # WCAG's 3:1 for the edge of a control
    problems.assert_none()


def test_the_boss_button_follows_the_theme_and_covers_nothing(
    page: Page, site: str, problems: BrowserProblems
) -> None:
    make_user("boss", theme="light")
    page.set_viewport_size(PHONE)
    log_in(page, site, "boss")
    start_game(page, site)

    button = page.locator("#boss-key")
    assert (
        page.evaluate("() => getComputedStyle(document.getElementById('boss-key')).position")
        == "static"
    )
    header = page.evaluate(
        "() => getComputedStyle(document.querySelector('.site-header')).backgroundColor"
    )
    assert page.evaluate(
        "() => getComputedStyle(document.getElementById('boss-key')).backgroundColor"
    ) in (
        "rgba(0, 0, 0, 0)",
        header,
    )
    assert page.locator(".site-header").locator("#boss-key").count() == 1
    expect(button).to_be_visible()
    problems.assert_none()
