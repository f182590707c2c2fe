"""The daily challenge in the browser: two accounts play the day's dice with different holds and
see the same faces where they re-rolled the same positions; a second tab's start is refused
with its reason; the board ranks them by accuracy, score beside it."""

from __future__ import annotations

import re
from datetime import timedelta

import pytest
from django.utils import timezone
from playwright.sync_api import BrowserContext, Page, expect

from accounts.models import User
from games.daily import clock, services
from games.daily.models import DailyAttempt
from games.models import Game
from tests.browser.conftest import BrowserProblems, log_in, make_player, post
from tests.daily.daily_support import hasty, noon, play_out

pytestmark = pytest.mark.browser


def faces(page: Page) -> list[int]:
    return page.locator("input.die-toggle").evaluate_all("els => els.map(e => +e.dataset.face)")


def start_challenge(page: Page, site: str) -> int:
    page.goto(f"{site}/daily/")
    page.get_by_role("button", name="Play today's challenge").click()
    expect(page).to_have_url(re.compile(rf"^{re.escape(site)}/play/\d+/$"))
    return int(page.url.rstrip("/").rsplit("/", 1)[1])


def roll_holding(page: Page, held: list[int]) -> list[int]:
    """Hold the dice at ``held`` (0..4), roll the others; the faces after the roll."""
    for index in held:
        post(page, "/hold/", page.locator(f"label[for=die-{index}]").click)
    post(page, "/roll/", page.locator("[data-roll]").click)
    return faces(page)


def test_two_players_share_the_days_dice_and_its_board(
    context: BrowserContext, site: str, problems: BrowserProblems, strategy_ready
) -> None:
    for player in (make_player("ann", "Ann"), make_player("bob", "Bob")):
        player.date_joined = timezone.now() - timedelta(days=30)  # ranked: made before the day
        player.save()
    ann, ann_second_tab = context.new_page(), context.new_page()
    bob = problems.watch(context.browser.new_context()).new_page()  # type: ignore[union-attr]
    log_in(ann, site, "ann")
    log_in(bob, site, "bob")
    ann_second_tab.goto(f"{site}/daily/")  # open before Ann starts: its button still shows

    ann_game = start_challenge(ann, site)
    bob_game = start_challenge(bob, site)
    expect(ann.locator("[data-hint]")).to_have_count(0)
    expect(ann.get_by_text("Daily challenge: no hints.")).to_be_visible()
    ann.set_viewport_size({"width": 360, "height": 740})  # the challenge's game fits a phone
    expect(ann.get_by_role("heading", level=1)).to_contain_text("Daily challenge")
    assert ann.evaluate("() => document.documentElement.scrollWidth") <= 360

    ann_first = roll_holding(ann, [])
    bob_first = roll_holding(bob, [])
    assert ann_first == bob_first and all(1 <= f <= 6 for f in ann_first)
    ann_second = roll_holding(ann, [0])  # Ann re-rolls dice 2 to 5
    bob_second = roll_holding(bob, [0, 1, 3])  # Bob re-rolls dice 3 and 5
    assert ann_second[2] == bob_second[2] and ann_second[4] == bob_second[4]
    assert bob_second[1] == bob_first[1] and bob_second[3] == bob_first[3]

    # A second tab cannot start a second attempt: it is told why (409), and nothing changes.
    problems.allow(r"status of 409 \(Conflict\)")
    ann_second_tab.get_by_role("button", name="Play today's challenge").click()
    expect(ann_second_tab.locator("[data-daily-message]")).to_contain_text(
        "You have played today's challenge already"
    )
    assert Game.objects.filter(owner__username="ann").count() == 1

    # The rest of each game through the same door, each its own way; then the board.
    play_out(User.objects.get(username="ann"), ann_game)
    play_out(User.objects.get(username="bob"), bob_game, hasty)
    bob.goto(f"{site}/daily/")
    rows = bob.locator("[data-daily-board] tbody tr")
    totals = dict(DailyAttempt.objects.values_list("display_name", "grand_total"))
    assert totals["Ann"] > totals["Bob"]
    expect(rows).to_have_count(2)
    expect(rows.nth(0)).to_contain_text(re.compile(rf"1\s*Ann\s*\d+\.\d%\s*{totals['Ann']}"))
    expect(rows.nth(1)).to_contain_text(re.compile(rf"2\s*Bob.*\d+\.\d%\s*{totals['Bob']}"))
    expect(bob.locator("[data-daily-result]")).to_contain_text(f"Your score {totals['Bob']}")
    expect(bob.locator(".daily-perfect")).to_contain_text(
        "For reference: the perfect-play computer, on the same dice, scored"
    )

    # Yesterday's board (somebody played it), on a phone: it fits without scrolling sideways.
    yesterday = clock.today() - timedelta(days=1)
    services.start_challenge(user=make_player("cy", "Cy"), now=noon(yesterday))
    bob.set_viewport_size({"width": 360, "height": 740})
    bob.get_by_role("link", name="Yesterday's board").click()
    expect(bob.get_by_role("heading", level=1)).to_contain_text("Daily challenge of")
    bob.get_by_text("Perfect play's game on this day's dice").click()  # open it
    expect(bob.locator(".daily-perfect-game tbody tr")).to_have_count(13)
    assert bob.evaluate("() => document.documentElement.scrollWidth") <= 360
    problems.assert_none()
