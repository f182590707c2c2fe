"""Watching (issue 38) in a real browser: a logged-out visitor holding a tournament's link sees
an entrant's moves come to the page as they are made, without reloading (the watcher's stream);
and the page reads well on a phone and on a desktop (screenshots kept for a look)."""

from __future__ import annotations

import re
import tempfile
from collections.abc import Callable
from pathlib import Path

import pytest
from playwright.sync_api import BrowserContext, expect

from games.tournaments import services
from tests.browser.conftest import BrowserProblems, make_player
from tests.factories import roll_now, score_now
from tests.tournaments.tournament_support import started_with

pytestmark = pytest.mark.browser

PUSHED_WITHIN_MS = 3000  # pushed at once; room for a loaded machine, less than 3 polls
SHOTS = Path(tempfile.gettempdir()) / "yahtzee-watching-shots"


def test_a_visitor_sees_an_entrants_moves_come_without_reloading(
    new_context: Callable[..., BrowserContext], site: str, problems: BrowserProblems
) -> None:
    alice = make_player("alice", "Alice")
    tournament = started_with(alice, listed=False)
    game = services.play(user=alice, token=tournament.token)
    roll_now(game, alice, 6, 6, 6, 2, 3)  # the tournament's own dice, whatever is asked
    sixes = score_now(game, alice, "sixes").match().sheets[0].cards[0]["sixes"]

    visitor = problems.watch(new_context()).new_page()
    visitor.goto(f"{site}/watch/t/{tournament.token}/{game.pk}/")
    expect(visitor.locator(".game-round")).to_have_text(re.compile(r"Round\s+2\s+of\s+13"))
    expect(visitor.locator("#move-log")).to_contain_text(f"{sixes} in Sixes")
    visitor.wait_for_function("() => window.yahtzeeLive && window.yahtzeeLive.streaming")
    visitor.evaluate("() => { window.notReloaded = true; }")

    rolled = roll_now(game, alice, 1, 2, 3, 4, 5).match().turn.dice
    assert rolled is not None
    shown = ", ".join(map(str, rolled))
    expect(visitor.locator("#turn-news")).to_contain_text(shown, timeout=PUSHED_WITHIN_MS)
    score_now(game, alice, "chance")
    expect(visitor.locator("#move-log li").first).to_contain_text(
        f"{sum(rolled)} in Chance", timeout=PUSHED_WITHIN_MS
    )
    expect(visitor.locator(".game-round")).to_have_text(re.compile(r"Round\s+3\s+of\s+13"))

    assert visitor.evaluate("() => window.notReloaded") is True  # the same page, followed
    assert visitor.evaluate("() => window.yahtzeeLive.polls") == 0  # pushed, not asked for
    assert visitor.locator("form").count() == 0

    # How it looks, kept for a person to see: a desktop, then a phone.
    SHOTS.mkdir(exist_ok=True)
    roll_now(game, alice, 4, 4, 4, 1, 2)
    expect(visitor.locator("#turn-news")).to_contain_text("Roll 1", timeout=PUSHED_WITHIN_MS)
    visitor.screenshot(path=str(SHOTS / "desktop.png"), full_page=True)
    visitor.set_viewport_size({"width": 390, "height": 844})
    visitor.screenshot(path=str(SHOTS / "phone.png"), full_page=True)
    width = visitor.evaluate("() => document.documentElement.scrollWidth")
    assert width <= 390  # nothing pushes the phone's page sideways
