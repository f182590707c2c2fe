"""The rating pages in a browser: the season's table, a player's ratings with their chart, and
the help's section fit a phone without sideways scrolling, break no content policy, and are
saved as screenshots with ``SCREENSHOT_DIR`` set."""

from __future__ import annotations

import os
from datetime import timedelta
from pathlib import Path

import pytest
from django.utils import timezone
from playwright.sync_api import Page, expect

from tests.browser.conftest import BrowserProblems, log_in, make_player
from tests.browser.test_screenshots import DESKTOP, PHONE, assert_no_sideways_scroll
from tests.ratings.support import long_ago, rated_change, seasoned

pytestmark = pytest.mark.browser


def test_the_rating_pages_fit_a_phone(page: Page, site: str, problems: BrowserProblems) -> None:
    amy = make_player("amy", "Amy Longname-Smithers")
    amy.date_joined = long_ago()
    amy.save()
    start = timezone.now() - timedelta(hours=30)
    rating = 1500
    for i in range(24):
        after = rating + (31 if i % 3 else -17) - i // 4
        accuracy = None if i % 5 == 4 else 84.0 + (i * 7) % 13
        rated_change(amy, rating, after, accuracy=accuracy, when=start + timedelta(hours=i),
                     sigma=max(2.5, 8.0 - i / 3))  # fmt: skip
        rating = after
    seasoned(amy, rating, games=24)
    for i in range(60):
        other = make_player(f"p{i}", f"Player {i}")
        other.date_joined = long_ago()
        other.save()
        seasoned(other, 1380 + 7 * i, games=1 + i % 9)
    folder = Path(os.environ.get("SCREENSHOT_DIR", "").strip() or "/nonexistent")
    shots = folder.is_dir()

    log_in(page, site, "amy")
    pages = {
        "ratings": "/ratings/",
        "ratings-page-2": "/ratings/?page=2",
        "ratings-all-time": "/ratings/all-time/",
        "player-ratings": f"/players/{amy.public_id}/",
        "help-ratings": "/help/#ratings",
    }
    for name, path in pages.items():
        page.set_viewport_size(PHONE)
        page.goto(f"{site}{path}")
        expect(page.locator("h1")).to_be_visible()
        for size in (DESKTOP, PHONE) if shots else ():
            page.set_viewport_size(size)
            page.screenshot(path=str(folder / f"{name}-{size['width']}.png"), full_page=True)
        assert_no_sideways_scroll(page, name)
    if shots:
        page.set_viewport_size(DESKTOP)
        page.goto(f"{site}/help/#ratings")
        page.locator("#ratings").screenshot(path=str(folder / "help-ratings-section.png"))
    problems.assert_none()
