"""Accuracy in a browser: the player's page states the trend of their last 20 games and draws
the accuracy chart (theirs, and a visitor's view of it); a game against the computer shows its
accuracy at game over once the page has asked for it. Screenshots with ``SCREENSHOT_DIR``."""

from __future__ import annotations

import os
import re
from collections.abc import Callable
from pathlib import Path

import pytest
from playwright.sync_api import BrowserContext, Page, expect

from games import rules
from games.models import Grading, Seat
from games.tables import services
from tests.browser.conftest import BrowserProblems, log_in, make_player
from tests.factories import finished_game, play_out

pytestmark = pytest.mark.browser

PHONE = {"width": 390, "height": 844}
DESKTOP = {"width": 1280, "height": 900}


def shoot(page: Page, name: str) -> None:
    """A full-page screenshot in ``SCREENSHOT_DIR``, when set."""
    if folder := os.environ.get("SCREENSHOT_DIR"):
        Path(folder).mkdir(parents=True, exist_ok=True)
        page.screenshot(
            path=str(Path(folder) / f"{name}.png"), full_page=True, animations="disabled"
        )


def graded_games(user, accuracies: list[float]) -> None:
    for number, accuracy in enumerate(accuracies):
        seat = finished_game(user, 190 + number % 60).seat
        Seat.objects.filter(pk=seat.pk).update(accuracy=accuracy, grading=Grading.EXACT)


def test_the_players_page_shows_the_accuracy_trend_and_chart(
    page: Page,
    new_context: Callable[..., BrowserContext],
    site: str,
    problems: BrowserProblems,
) -> None:
    alice = make_player("alice_login", "Alice")
    # The 20 games before the last 20 average 87.2; the last 20 average 91.4.
    graded_games(alice, [84.0, 90.4] * 10 + [89.9, 92.9] * 10)
    log_in(page, site, "alice_login")
    url = f"{site}/players/{alice.public_id}/"

    for size, name in ((DESKTOP, "desktop"), (PHONE, "phone")):
        page.set_viewport_size(size)
        page.goto(url)
        expect(page.locator("[data-accuracy-trend]")).to_have_text(
            "Your last 20 games: 91.4, up from 87.2."
        )
        chart = page.locator("svg[data-accuracy-chart]")
        expect(chart).to_be_visible()
        expect(chart.locator("circle.chart-dot")).to_have_count(40)
        box = chart.bounding_box()
        assert box is not None and box["width"] > 0.8 * min(size["width"], 700) - 60
        assert page.evaluate("() => document.documentElement.scrollWidth") <= size["width"]
        shoot(page, f"accuracy-player-page-{name}")

    visitor = problems.watch(new_context()).new_page()
    visitor.goto(url)
    expect(visitor.locator("[data-accuracy-trend]")).to_have_text(
        "Their last 20 games: 91.4, up from 87.2."
    )
    expect(visitor.locator("svg[data-accuracy-chart] polyline")).to_have_attribute(
        "points", re.compile(r"^(\S+ ){39}\S+$")
    )
    problems.assert_none()


def _computers_last_turn(match: rules.Match) -> bool:
    return match.on_turn == 1 and match.sheets[1].boxes_filled == rules.CLASSIC.rounds - 1


def test_game_over_against_the_computer_shows_the_accuracy_once_worked_out(
    page: Page, site: str, problems: BrowserProblems, strategy_ready
) -> None:
    alice = make_player("alice_login", "Alice")
    game = services.start_game(owner=alice, computers=["perfect"])
    play_out(game, alice, bot="beginner", seed=21, until=_computers_last_turn)
    log_in(page, site, "alice_login")

    page.goto(f"{site}/play/{game.pk}/")  # the page plays the computer's last turn

    expect(page.get_by_role("heading", name="Game over")).to_be_visible()
    line = page.locator("#game-accuracy")
    expect(line).to_contain_text("An estimate: Triple, or a game of several.")
    mine = Seat.objects.get(game=game, position=0)
    assert mine.grading == Grading.ESTIMATE and mine.accuracy is not None
    expect(line).to_have_text(
        re.compile(rf"^\s*Accuracy {mine.accuracy:.1f}% · see the analysis An estimate: .*\.\s*$")
    )
    shoot(page, "accuracy-game-over-desktop")
    page.set_viewport_size(PHONE)
    shoot(page, "accuracy-game-over-phone")
    line.get_by_role("link", name="see the analysis").click()
    expect(page.locator("[data-accuracy]")).to_have_text(f"{mine.accuracy:.1f}%")
    shoot(page, "accuracy-analysis-phone")
    page.goto(f"{site}/play/")
    expect(page.locator("table.results abbr").first).to_have_text(f"≈{mine.accuracy:.1f}%")
    shoot(page, "accuracy-dashboard-phone")
    page.set_viewport_size(DESKTOP)
    page.goto(f"{site}/help/#accuracy")
    shoot(page, "accuracy-help-desktop")
    problems.assert_none()
