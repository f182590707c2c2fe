"""The coach in the browser: a costly hold leaves a calm note beside the card, "Show" opens the
position's best choices with the dice as they were, and the best choice next says nothing (the
note goes)."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from playwright.sync_api import Page, expect

from accounts.models import User
from games import advice, rules, store
from tests.browser.conftest import BrowserProblems, log_in, make_player, post, start_game
from tests.factories import ScriptedDice, match_of

pytestmark = pytest.mark.browser

SHOTS = os.environ.get("COACH_SCREENSHOTS", "")
"""A folder to save screenshots of the note in (phone and desktop), when set."""


def hold(page: Page, *indexes: int) -> None:
    for index in indexes:
        post(page, "/hold/", lambda i=index: page.locator(f"label[for='die-{i}']").click())


def test_a_costly_hold_is_noted_shown_and_the_best_choice_next_says_nothing(
    page: Page, site: str, problems: BrowserProblems, strategy_ready, monkeypatch
) -> None:
    player = make_player("coachee", "Coachee")
    User.objects.filter(pk=player.pk).update(coach=True)
    # The first throw 5 5 6 2 1; the two dice thrown again come up 5 5; then one die, a 5.
    monkeypatch.setattr(rules, "system_dice", ScriptedDice(5, 5, 6, 2, 1, 5, 5, 5))
    page.set_viewport_size({"width": 390, "height": 844})
    log_in(page, site, "coachee")
    game_id = start_game(page, site)

    post(page, "/roll/", page.locator("[data-roll]").click)
    expect(page.locator("#coach-note")).to_have_count(0)  # a first roll decides nothing
    hold(page, 0, 1, 2)  # 5 5 6: the two 5s alone were better
    post(page, "/roll/", page.locator("[data-roll]").click)

    note = page.get_by_role("status").filter(has_text="was worth")
    expect(note.locator(".coach-sentence")).to_have_text(
        "Holding 5 5 was worth 2.0 more expected points than 5 5 6."
    )
    best = note.locator(".coach-best li")
    expect(best.first).to_be_hidden()  # folded until asked
    if SHOTS:
        page.screenshot(path=str(Path(SHOTS) / "coach-phone-closed.png"))
    note.locator("summary").click()
    expect(best).to_have_count(3)
    expect(best.first).to_be_visible()
    expect(best.first).to_contain_text("Hold the two 5s")
    expect(best.first).to_contain_text("expect 253.0")
    expect(note.locator(".coach-best li.is-yours")).to_contain_text("Hold 5, 5 and 6")
    expect(note.get_by_role("img", name="Dice 5, 5, 6, 2, 1; you held 5, 5 and 6")).to_be_visible()
    if SHOTS:
        note.scroll_into_view_if_needed()
        page.screenshot(path=str(Path(SHOTS) / "coach-phone-open.png"))
        page.set_viewport_size({"width": 1280, "height": 900})
        page.screenshot(path=str(Path(SHOTS) / "coach-desktop-open.png"), full_page=True)

    # Now 5 5 6 5 5 with a roll left: holding the four 5s is the best (the advisor says so).
    table = store.load(game_id=game_id, user=player)
    match = table.match()
    assert match.turn.dice == (5, 5, 6, 5, 5)
    ranked = advice.advisor().options(match.sheets[0], match.turn)
    assert ranked[0].description == "Hold the four 5s"
    hold(page, 2, 3, 4)  # release the 6, hold the new 5s
    post(page, "/roll/", page.locator("[data-roll]").click)

    expect(page.locator(".rolls-left")).to_have_text("0 left")
    expect(page.locator("#coach-note")).to_have_count(0)
    assert match_of(game_id).turn.dice == (5, 5, 5, 5, 5)  # the hold went through
    problems.assert_none()
