"""The trainer in the browser: a player's own costliest decision comes first; they choose a box,
then a hold (with the keys, as on the game page), see each verdict beside the best choice and
their running score, and go on; the same without JavaScript; and the page fits a phone."""

from __future__ import annotations

import os
import re
from pathlib import Path

import pytest
from playwright.sync_api import Page, expect

from accounts.models import User
from games import advice, strategy
from games.trainer import services
from games.trainer.models import TrainingPosition
from games.trainer.positions import Position
from tests.browser.conftest import BrowserProblems, log_in, make_player, post, settle
from tests.trainer.trainer_support import finished_game, one_roll_turns

pytestmark = pytest.mark.browser


def shown(page: Page) -> TrainingPosition:
    return TrainingPosition.objects.get(pk=page.locator("#trainer").get_attribute("data-position"))


def graded(row: TrainingPosition, action: strategy.Action) -> strategy.Decision:
    return services.grade(Position.from_json(row.position), action)


def tally(page: Page) -> tuple[str, str, str]:
    side = page.locator("[data-tally]")
    return (
        side.locator("[data-tally-tried]").inner_text(),
        side.locator("[data-tally-best]").inner_text(),
        side.locator("[data-tally-lost]").inner_text(),
    )


def snap(page: Page, name: str) -> None:
    folder = os.environ.get("SCREENSHOT_DIR")
    if folder:
        Path(folder).mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(Path(folder) / f"trainer-{name}.png"), full_page=True)


def test_a_player_trains_their_own_mistakes_a_box_then_a_hold(
    page: Page, site: str, problems: BrowserProblems, strategy_ready
) -> None:
    make_player("ann", "Ann")
    ann = User.objects.get(username="ann")
    finished_game(ann, one_roll_turns(("chance",)))  # five 6s thrown away in Chance
    log_in(page, site, "ann")

    page.get_by_role("navigation", name="Main").get_by_role("link", name="Train").click()
    expect(page).to_have_url(f"{site}/play/train/")
    expect(page.locator(".trainer-source")).to_contain_text("From your game of")
    first = shown(page)
    assert Position.from_json(first.position).dice == (6, 6, 6, 6, 6)
    snap(page, "question-desktop")

    # A box: the one the game should have taken.
    post(page, "/answer/", page.get_by_role("button", name="Score 50 in YAHTZEE (key L)").click)
    verdict = page.locator("[data-verdict]")
    expect(verdict).to_be_focused()
    expect(verdict.locator("[data-yours]")).to_contain_text("Score 50 in YAHTZEE expects")
    expect(verdict.locator("[data-best]")).to_have_count(0)  # the same: said once
    # Thrown away in the game a minute ago: right now is not learned yet.
    expect(page.locator("[data-schedule]")).to_contain_text("Right: it comes back in 3 days")
    expect(verdict).to_contain_text("In your game")
    expect(page).to_have_url(f"{site}/play/train/{first.pk}/")
    assert tally(page) == ("1", "1", "0.0")
    snap(page, "verdict-desktop")

    # The next one (N), answered with the keys: hold the first die alone (1), then roll (R).
    page.keyboard.press("n")
    expect(page).to_have_url(f"{site}/play/train/")
    settle(page)
    second = shown(page)
    assert second.pk != first.pk
    page.keyboard.press("1")
    expect(page.locator("#die-0")).to_be_checked()
    post(page, "/answer/", lambda: page.keyboard.press("r"))

    mine = graded(second, strategy.RollDice((True, False, False, False, False)))
    assert not mine.is_best
    expect(page.locator("[data-best]")).to_contain_text(
        f"{mine.best.description} expects {mine.best.expected:.1f}"
    )
    expect(page.locator("[data-yours]")).to_contain_text(mine.choice.description)
    expect(page.locator(".trainer-cost")).to_have_text(f"−{mine.loss:.1f} expected points")
    expect(page.locator("[data-schedule]")).to_have_text("Missed: it comes back tomorrow.")
    assert tally(page) == ("2", "1", f"{mine.loss:.1f}")

    # The verdict stays at its address: a reload shows it again, and the score with it.
    page.reload()
    expect(page.locator(".trainer-cost")).to_have_text(f"−{mine.loss:.1f} expected points")

    # A third position, on a phone: it fits, and a box is one tap.
    page.set_viewport_size({"width": 360, "height": 740})
    page.locator("[data-trainer-next]").click()
    settle(page)
    third = shown(page)
    assert third.pk not in (first.pk, second.pk)
    assert page.evaluate("() => document.documentElement.scrollWidth") <= 360
    snap(page, "question-phone")
    best = advice.advisor().options(
        Position.from_json(third.position).sheet, Position.from_json(third.position).turn
    )[0]
    if isinstance(best.action, strategy.ScoreBox):
        press = page.locator(f"button.score-option[value={best.action.box.value}]").click
    else:
        for index, held in enumerate(best.action.held):
            if held:
                page.locator(f"label[for=die-{index}]").click()
        press = page.locator("[data-roll]").click
    post(page, "/answer/", press)
    expect(page.locator("[data-verdict]")).to_contain_text("✓ The best choice")
    assert tally(page) == ("3", "2", f"{mine.loss:.1f}")
    assert page.evaluate("() => document.documentElement.scrollWidth") <= 360
    snap(page, "verdict-phone")
    problems.assert_none()


def test_the_trainer_works_without_javascript(no_js_page: Page, site: str, strategy_ready) -> None:
    page = no_js_page
    make_player("bob", "Bob")
    log_in(page, site, "bob")
    page.goto(f"{site}/play/train/")
    expect(page.locator(".trainer-source")).to_have_text(re.compile(r"^An instructive position"))
    first = shown(page)

    page.get_by_role("button", name=re.compile(r"^Score 20 in Fives")).click()

    expect(page).to_have_url(f"{site}/play/train/{first.pk}/")
    expect(page.locator("[data-verdict]")).to_contain_text("✓ The best choice")
    page.get_by_role("link", name="Next position").click()
    second = shown(page)
    assert second.pk != first.pk
    for index in (2, 3):  # 3 4 5 5 6: the two 5s, ticked by their labels
        page.locator(f"label[for=die-{index}]").click()
    page.locator("[data-roll]").click()

    expect(page).to_have_url(f"{site}/play/train/{second.pk}/")
    expect(page.locator("[data-verdict]")).to_contain_text("✓ The best choice")
    assert tally(page) == ("2", "2", "0.0")
