"""Playing together in the browser: guests at one screen take their turns on the host's device;
a stranger joins an open seat from the lobby with one click."""

from __future__ import annotations

import re
from collections.abc import Callable

import pytest
from playwright.sync_api import BrowserContext, Page, expect

from tests.browser.conftest import BrowserProblems, log_in, make_player, post

pytestmark = pytest.mark.browser


def play_a_turn(page: Page) -> None:
    post(page, "/roll/", page.locator("[data-roll]").click)
    post(page, "/score/", page.locator("button.score-option:not(.is-zero)").first.click)


def test_guests_at_one_screen_take_their_turns_in_order(
    page: Page, site: str, problems: BrowserProblems
) -> None:
    make_player("host", "Host")
    log_in(page, site, "host")
    page.get_by_text("Play with others at this screen").click()
    page.get_by_label("Player 2", exact=True).fill("Ann")
    page.get_by_label("Player 3", exact=True).fill("Ben")
    page.get_by_role("button", name="Start a game of Classic Yahtzee").click()
    expect(page).to_have_title(re.compile(r"^Your turn! — Round 1 of 13"))

    play_a_turn(page)
    expect(page).to_have_title(re.compile(r"^Ann's turn — Round 1 of 13"))
    expect(page.locator(".game-title")).to_contain_text("Ann's turn")
    play_a_turn(page)
    expect(page).to_have_title(re.compile(r"^Ben's turn — Round 1 of 13"))
    play_a_turn(page)
    expect(page).to_have_title(re.compile(r"^Your turn! — Round 2 of 13"))
    expect(page.locator(".move-log")).to_contain_text("Ben:")
    # Every card side by side, redrawn by each score: the player on turn first, a total each.
    board = page.locator(".scoreboard-table")
    expect(board.locator("thead th")).to_have_text(["Box", "Host (on turn)", "Ann", "Ben"])
    expect(board.locator("tr.scoreboard-total td")).to_have_count(3)
    totals = [page.locator(".player-total").nth(i).inner_text() for i in range(3)]
    expect(board.locator("tr.scoreboard-total td")).to_have_text(totals)


def test_a_stranger_joins_from_the_lobby_with_one_click(
    new_context: Callable[..., BrowserContext], site: str, problems: BrowserProblems
) -> None:
    make_player("opener", "Opener")
    make_player("joiner", "Joiner")
    host = problems.watch(new_context()).new_page()
    guest = problems.watch(new_context()).new_page()
    log_in(host, site, "opener")
    log_in(guest, site, "joiner")
    host.get_by_text("Play online").click()
    host.get_by_label("Seats open to anyone (lobby)").select_option("1")
    host.get_by_role("button", name="Start a game of Classic Yahtzee").click()
    expect(host.get_by_role("heading", level=1)).to_have_text(
        "Classic Yahtzee: waiting for players"
    )

    guest.goto(f"{site}/play/lobby/")
    guest.get_by_role("button", name="Join Opener's game of Classic Yahtzee").click()

    expect(guest.get_by_role("heading", level=1)).to_have_text(
        "Classic Yahtzee: waiting for players"
    )
    expect(host.locator(".waiting-players")).to_contain_text("Joiner", timeout=5000)
    guest.goto(f"{site}/play/lobby/")
    expect(guest.locator(".empty")).to_contain_text("No game is waiting for players just now.")
