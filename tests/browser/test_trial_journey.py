"""The trial and the serial in a real browser: five games, refused a sixth, register, play on.

Each trial game is filled to its last box through the real services (a fast path: the same
``roll_dice``/``score_box`` a click calls), then finished by hand in the browser.
"""

from __future__ import annotations

import re
from io import StringIO

import pytest
from django.core.management import call_command
from playwright.sync_api import Page, expect

from accounts.models import User
from games import rules
from games.models import Game, GameStatus
from games.play import actions as play
from tests.browser.conftest import BrowserProblems, post, sign_up, start_game
from tests.factories import ScriptedDice

# Marked here too (not only by the folder's conftest), so `-m "not browser"` selects them.
pytestmark = pytest.mark.browser


def fill_all_but_chance(game_id: int, user: User) -> None:
    for box in rules.CATEGORIES[:-1]:
        game = Game.objects.get(pk=game_id)
        play.roll_dice(
            game_id=game_id,
            user=user,
            version=game.version,
            dice_source=ScriptedDice(1, 2, 3, 4, 6),
        )
        play.score_box(game_id=game_id, user=user, version=game.version + 1, box=box)


def finish_in_the_browser(page: Page, game_id: int) -> None:
    page.reload()
    expect(page.locator(".game-round")).to_have_text(re.compile(r"Round\s+13\s+of\s+13"))
    post(page, "/roll/", lambda: page.keyboard.press("r"))
    post(page, "/score/", lambda: page.keyboard.press("m"))  # M: Chance, never a zero
    expect(page.locator(".game-over")).to_contain_text("Game over")
    assert Game.objects.get(pk=game_id).status == GameStatus.FINISHED


def test_five_trial_games_then_a_serial(page: Page, site: str, problems: BrowserProblems) -> None:
    problems.allow(r"status of 400")  # the typo is answered 400, rightly
    sign_up(page, site, "trina", "Trina")
    user = User.objects.get(username="trina")
    expect(page.locator("[data-licence]")).to_contain_text("Trial: 5 of 5 games left")
    expect(
        page.get_by_role("heading", name="Welcome! Play the trial, or enter a serial")
    ).to_be_visible()

    game_id = start_game(page, site)
    for played in range(1, 6):
        fill_all_but_chance(game_id, user)
        finish_in_the_browser(page, game_id)
        if played < 5:
            page.get_by_role("button", name="Play again").click()
            expect(page).to_have_url(re.compile(r"/play/\d+/$"))
            game_id = int(page.url.rstrip("/").rsplit("/", 1)[1])
            page.goto(f"{site}/play/")
            expect(page.locator("[data-licence]")).to_contain_text(
                f"Trial: {5 - played - 1} of 5 games left"
            )
            page.goto(f"{site}/play/{game_id}/")

    # The sixth is refused: "Play again" leads to the serial page, not an error.
    page.get_by_role("button", name="Play again").click()
    expect(page).to_have_url(f"{site}/accounts/serial/")
    expect(page.locator(".trial-over")).to_contain_text(
        "Your five trial games are used. Enter a serial number to keep playing."
    )
    assert Game.objects.filter(owner=user).count() == 5
    page.goto(f"{site}/play/")
    expect(page.get_by_role("button", name="Start a game of Classic Yahtzee")).to_have_count(0)
    expect(page.locator(".results tbody tr")).to_have_count(5)  # the games stay visible

    out = StringIO()
    call_command("mint_serials", count=1, batch="browser", stdout=out, stderr=StringIO())
    serial = out.getvalue().splitlines()[1].split(",")[1]
    typo = ("1" if serial[0] != "1" else "2") + serial[1:]

    page.get_by_role("link", name="Enter a serial number").click()
    page.get_by_label("Serial number").fill(typo)
    page.get_by_role("button", name="Register").click()
    expect(page.locator(".error-summary")).to_contain_text("This serial has a typo")

    page.get_by_label("Serial number").fill(f"  {serial.lower().replace('-', ' ')} ")
    page.get_by_role("button", name="Register").click()
    expect(page).to_have_url(f"{site}/play/")
    expect(page.locator("[data-licence]")).to_have_text("Registered")

    start_game(page, site)  # and play on
    post(page, "/roll/", lambda: page.keyboard.press("r"))
    expect(page.locator("button.score-option").first).to_be_visible()
    page.goto(f"{site}/accounts/")
    expect(page.locator(".licence")).to_contain_text(serial[-4:])
    problems.assert_none()
