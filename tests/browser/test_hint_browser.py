"""A hint in the browser: Shift+H asks, the panel says the best move in words, and one tap holds
the dice it names, in one request."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import Page, expect

from games.play import actions as play
from tests.browser.conftest import BrowserProblems, log_in, make_player, post, start_game
from tests.factories import ScriptedDice, match_of

pytestmark = pytest.mark.browser


def test_a_hint_by_key_and_its_hold_applied_with_one_tap(
    page: Page, site: str, problems: BrowserProblems, strategy_ready, monkeypatch
) -> None:
    make_player("hinter", "Hinter")
    log_in(page, site, "hinter")
    game_id = start_game(page, site)
    real_roll = play.roll_dice

    def scripted(**kwargs):  # the first throw: three 4s, a 1 and a 2
        kwargs["dice_source"] = ScriptedDice(4, 1, 4, 2, 4)
        return real_roll(**kwargs)

    monkeypatch.setattr(play, "roll_dice", scripted)
    post(page, "/roll/", page.locator("[data-roll]").click)

    post(page, "/hint/", lambda: page.keyboard.press("Shift+H"))

    panel = page.locator("#hint")
    expect(panel.locator(".hint-sentence")).to_have_text(re.compile(r"^Hold the three 4s: expect "))
    with page.expect_response(lambda r: "/hold/" in r.url) as held:
        panel.get_by_role("button", name="Hold the three 4s").click()
    assert held.value.status == 200
    expect(page.locator("input.die-toggle:checked")).to_have_count(3)
    assert match_of(game_id).turn.held == (True, False, True, False, True)
    # A screen reader hears every die the hint held, not only the last one it touched.
    dice = page.get_by_role("group", name="Tap a die to hold it").get_by_role("checkbox")
    said = ["Die 1 shows four, held", "Die 2 shows one", "Die 3 shows four, held",
            "Die 4 shows two", "Die 5 shows four, held"]  # fmt: skip
    for die, name in zip(dice.all(), said, strict=True):
        expect(die).to_have_accessible_name(name)
        expect(die).to_be_checked(checked=name.endswith("held"))
