"""Rated play from end to end, as two people do it: each presses Quick play, both land in the
same rated game; they play it (the first turn and the last in their browsers, the turns between
through the site's door, as the same moves would be); then each one's player page shows the new
rating and its change, and the season's table lists them both."""

from __future__ import annotations

import re
from collections.abc import Callable
from datetime import timedelta

import pytest
from django.utils import timezone
from playwright.sync_api import BrowserContext, Page, expect

from accounts.models import User
from games.models import Game
from tests.browser.conftest import BrowserProblems, log_in, make_player, post, settle
from tests.factories import match_of, play_out

pytestmark = pytest.mark.browser

FOLLOWS_WITHIN_MS = 5000


def on_turn(pages: list[Page]) -> Page:
    """The page whose title says it is its player's turn."""
    for _ in range(50):
        for page in pages:
            if page.title().startswith("Your turn!"):
                return page
        pages[0].wait_for_timeout(100)
    raise AssertionError([page.title() for page in pages])


def play_a_turn(page: Page) -> None:
    post(page, "/roll/", page.locator("[data-roll]").click)
    settle(page)
    post(page, "/score/", page.locator("button.score-option").first.click)
    settle(page)
    confirm = page.locator(".confirm-zero button[name=confirmed]")
    if confirm.count():
        post(page, "/score/", confirm.click)


def test_quick_play_rates_both_players_and_the_season_table_lists_them(
    new_context: Callable[..., BrowserContext], site: str, problems: BrowserProblems
) -> None:
    alice, bob = make_player("alice", "Alice"), make_player("bob", "Bob")
    # Accounts made today enter no table: these two signed up last week.
    User.objects.filter(pk__in=[alice.pk, bob.pk]).update(
        date_joined=timezone.now() - timedelta(days=7)
    )
    first: Page = problems.watch(new_context()).new_page()
    second: Page = problems.watch(new_context()).new_page()
    log_in(first, site, "alice")
    log_in(second, site, "bob")

    # One click each: both land in the same game, marked rated.
    first.get_by_role("button", name="Quick play Classic Yahtzee").click()
    expect(first.locator("#quick-status")).to_contain_text("Waiting for an opponent as 1500")
    second.get_by_role("button", name="Quick play Classic Yahtzee").click()
    expect(second).to_have_url(re.compile(r"/play/\d+/$"))
    expect(first).to_have_url(second.url, timeout=FOLLOWS_WITHIN_MS)
    game = Game.objects.get(pk=int(second.url.rstrip("/").rsplit("/", 1)[1]))
    assert game.rated and {s.user_id for s in game.seats.all()} == {alice.pk, bob.pk}
    for page in (first, second):
        expect(page.locator(".game-round")).to_contain_text("Rated")

    # The first turn in the browser of whoever is on turn; the rest but the last scoring
    # through the door; the last scoring in the browser again.
    play_a_turn(on_turn([first, second]))

    def last_scoring_due(match) -> bool:
        return match.round == 13 and match.on_turn == match.order[-1]

    play_out(game, alice, until=last_scoring_due)
    for page in (first, second):
        page.reload()
    play_a_turn(on_turn([first, second]))
    for page in (first, second):
        expect(page.locator(".game-round")).to_contain_text("Finished", timeout=FOLLOWS_WITHIN_MS)

    totals = {
        seat.user_id: sheet.grand_total
        for seat, sheet in zip(game.seats.order_by("position"), match_of(game).sheets, strict=True)
    }
    if totals[alice.pk] == totals[bob.pk]:
        expected = {alice.pk: ("1,500", "±0"), bob.pk: ("1,500", "±0")}
    else:
        winner = max(totals, key=totals.__getitem__)
        expected = {pk: ("1,566", "+66") if pk == winner else ("1,434", "−66") for pk in totals}

    # Each player's own page: the new rating and its change.
    for page, user in ((first, alice), (second, bob)):
        page.goto(f"{site}/players/me/")
        rating, change = expected[user.pk]
        classic = page.locator('[data-rating-kind="classic"]')
        expect(classic.locator("[data-rating]")).to_contain_text(rating)
        expect(classic.locator("[data-rating-change]")).to_have_text(change)

    # The season's table lists them both, the winner first.
    first.goto(f"{site}/ratings/")
    rows = first.locator("table.rating-table tbody tr")
    expect(rows).to_have_count(2)
    names = [rows.nth(i).locator("td").nth(1).inner_text() for i in range(2)]
    ratings = [rows.nth(i).locator("td.rating").inner_text() for i in range(2)]
    by_name = {"Alice": alice.pk, "Bob": bob.pk}
    for name, shown in zip(names, ratings, strict=True):
        assert shown.startswith(expected[by_name[name.split()[0]]][0]), (name, shown)
    assert names[0].split()[0] == (
        "Alice" if expected[alice.pk][0] >= expected[bob.pk][0] else "Bob"
    )
    problems.assert_none()
