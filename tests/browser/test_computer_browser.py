"""Against the computer in the browser: chosen at a new game, its turn plays itself step by step
after yours (each step its own request), and the turn comes back."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import Page, expect

from games.models import Move, PlayerKind
from tests.browser.conftest import BrowserProblems, log_in, make_player, post

pytestmark = pytest.mark.browser


def test_a_computer_opponent_plays_its_turn_by_itself_step_by_step(
    page: Page, site: str, problems: BrowserProblems, strategy_ready
) -> None:
    make_player("solo", "Solo")
    log_in(page, site, "solo")
    page.get_by_text("Play against the computer").click()
    page.get_by_label("Computer player 1").select_option("perfect")
    page.get_by_role("button", name="Start a game of Classic Yahtzee").click()
    expect(page).to_have_title(re.compile(r"^Your turn! — Round 1 of 13"))
    expect(page.locator(".player-chip, .player-row").first).to_contain_text("Solo")

    post(page, "/roll/", page.locator("[data-roll]").click)
    post(page, "/score/", page.locator("button.score-option:not(.is-zero)").first.click)

    expect(page.locator(".computer-playing")).to_have_text("Computer (Perfect) is playing…")
    expect(page).to_have_title(re.compile(r"^Your turn! — Round 2 of 13"), timeout=20_000)
    steps = Move.objects.filter(seat__player_kind=PlayerKind.COMPUTER)
    assert steps.filter(action="score").count() == 1
    assert steps.filter(action="roll").count() >= 1  # one request per step, not one for all
    expect(page.locator(".move-log")).to_contain_text("Computer (Perfect):")
