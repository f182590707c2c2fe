"""Yatzy in a real browser (issue 39): a game alone with a hint, and one against the computer,
each to its end (the first turn and the last in the browser, the turns between through the
site's door, as the same moves would be). The card speaks the Nordic box names and fits a
390 px phone; with ``SCREENSHOT_DIR`` set, each game in progress is saved there at 390x844 and
1280x900:

    SCREENSHOT_DIR=screenshots .venv/bin/python -m pytest tests/browser/test_yatzy_journey.py
"""

from __future__ import annotations

import os
import re
from pathlib import Path

import pytest
from playwright.sync_api import Page, expect

from games import rules
from games.models import Game, Seat
from tests.browser.conftest import BrowserProblems, log_in, make_player, post, settle
from tests.factories import match_of, play_out

pytestmark = pytest.mark.browser

PHONE = {"width": 390, "height": 844}
DESKTOP = {"width": 1280, "height": 900}
NORDIC_NAMES = (
    "Ones",
    "Twos",
    "Threes",
    "Fours",
    "Fives",
    "Sixes",
    "One pair",
    "Two pairs",
    "Three of a kind",
    "Four of a kind",
    "Small straight",
    "Large straight",
    "Full house",
    "Chance",
    "Yatzy",
)


def start_yatzy(page: Page, site: str) -> Game:
    page.get_by_role("button", name="Start a game of Yatzy").click()
    expect(page).to_have_url(re.compile(rf"^{re.escape(site)}/play/\d+/$"))
    expect(page.locator(".game-round")).to_contain_text("Round 1 of 15")
    return Game.objects.get(pk=int(page.url.rstrip("/").rsplit("/", 1)[1]))


def the_last_round(match: rules.Match) -> bool:
    """Every card one box short, the first player on turn before rolling."""
    return match.round == rules.YATZY.rounds and match.on_turn == match.order[0]


def score_a_turn(page: Page) -> None:
    post(page, "/roll/", page.locator("[data-roll]").click)
    settle(page)
    post(page, "/score/", page.locator("button.score-option").first.click)
    settle(page)
    confirm = page.locator(".confirm-zero button[name=confirmed]")
    if confirm.count():
        post(page, "/score/", confirm.click)
        settle(page)


def fits(page: Page, width: int) -> None:
    assert page.evaluate("document.documentElement.scrollWidth") <= width


def shoot(page: Page, name: str) -> None:
    """Save the page at a phone's width and a desktop's, when ``SCREENSHOT_DIR`` asks."""
    folder = os.environ.get("SCREENSHOT_DIR")
    for size, label in ((PHONE, "phone"), (DESKTOP, "desktop")):
        page.set_viewport_size(size)
        settle(page)
        fits(page, size["width"])
        if folder:
            Path(folder).mkdir(parents=True, exist_ok=True)
            page.screenshot(path=f"{folder}/{name}-{label}.png", full_page=True)


def test_a_yatzy_game_alone_with_a_hint_to_the_end(
    page: Page, site: str, problems: BrowserProblems, strategy_ready
) -> None:
    page.set_viewport_size(PHONE)
    make_player("sigrid", "Sigrid")
    log_in(page, site, "sigrid")
    game = start_yatzy(page, site)

    card = page.locator(".scorecard-wrap")
    expect(card.locator("th.box-name")).to_have_count(15)
    names = card.locator("th.box-name").evaluate_all("els => els.map(e => e.firstChild.data)")
    assert names == list(NORDIC_NAMES)
    expect(card).to_contain_text("50 at 63 or more")
    expect(card).not_to_contain_text("Yahtzee bonus")
    fits(page, PHONE["width"])

    post(page, "/roll/", page.locator("[data-roll]").click)
    settle(page)
    post(page, "/hint/", lambda: page.keyboard.press("Shift+H"))
    sentence = page.locator("#hint .hint-sentence")
    expect(sentence).to_have_text(re.compile(r"^(Hold|Score|Roll) .*: expect "))
    expect(page.locator("#hint")).not_to_contain_text("An estimate")
    post(page, "/score/", page.locator("button.score-option").first.click)
    settle(page)

    play_out(game, game.owner, bot="good", seed=11, until=the_last_round)
    page.reload()
    expect(page.locator(".game-round")).to_contain_text("Round 15 of 15")
    shoot(page, "yatzy-alone")
    page.set_viewport_size(PHONE)
    score_a_turn(page)

    expect(page.locator(".game-round")).to_contain_text("Finished")
    total = match_of(game).sheets[0].grand_total
    expect(page.locator(".grand-total")).to_have_text(str(total))
    cards = match_of(game).sheets[0].cards
    assert set(cards[0]) == set(rules.YATZY.boxes)
    assert Seat.objects.get(game=game).hints == 1
    problems.assert_none()


def test_a_yatzy_game_against_the_computer_to_the_end(
    page: Page, site: str, problems: BrowserProblems, strategy_ready
) -> None:
    page.set_viewport_size(DESKTOP)
    make_player("lars", "Lars")
    log_in(page, site, "lars")
    page.get_by_text("Play against the computer").click()
    page.get_by_label("Computer player 1").select_option("perfect")
    game = start_yatzy(page, site)

    score_a_turn(page)
    expect(page).to_have_title(re.compile(r"^Your turn! — Round 2 of 15"), timeout=20_000)
    computers = match_of(game).sheets[1].cards[0]
    assert len(computers) == 1 and set(computers) <= set(rules.YATZY.boxes)

    play_out(game, game.owner, bot="good", seed=12, until=the_last_round)
    page.reload()
    expect(page).to_have_title(re.compile(r"^Your turn! — Round 15 of 15"))
    shoot(page, "yatzy-computer")
    score_a_turn(page)

    expect(page.locator(".game-round")).to_contain_text("Finished", timeout=20_000)
    sheets = match_of(game).sheets
    assert all(set(sheet.cards[0]) == set(rules.YATZY.boxes) for sheet in sheets)
    expect(page.locator(".scoreboard")).not_to_contain_text("Yahtzee bonus")
    problems.assert_none()
