"""Every open page of a game follows every change, whoever is on turn (issue 19, item 8), and
throws for first made at the same moment are both taken (item 9): two accounts, two browsers."""

from __future__ import annotations

import re
from collections.abc import Callable

import pytest
from playwright.sync_api import BrowserContext, Page, Route, expect

from games.models import Game
from games.tables import services
from tests.browser.conftest import BrowserProblems, log_in, make_player, post, settle
from tests.factories import ScriptedDice, match_of

pytestmark = pytest.mark.browser

FOLLOWS_WITHIN_MS = 5000  # pushed at once (polled every second without a stream); generous for CI


def online_game(*, roll_for_first: bool = False) -> Game:
    alice, bob = make_player("alice", "Alice"), make_player("bob", "Bob")
    game = services.open_game(owner=alice, invites=1, roll_for_first=roll_for_first)
    services.join_game(token=game.invitations.get().token, user=bob)
    services.begin_game(game_id=game.pk, user=alice)
    return game


def two_pages(new_context: Callable[..., BrowserContext], problems: BrowserProblems, site: str,
              game: Game) -> tuple[Page, Page]:  # fmt: skip
    alice = problems.watch(new_context()).new_page()
    bob = problems.watch(new_context()).new_page()
    log_in(alice, site, "alice")
    log_in(bob, site, "bob")
    alice.goto(f"{site}/play/{game.pk}/")
    bob.goto(f"{site}/play/{game.pk}/")
    return alice, bob


def test_an_undo_reaches_the_page_of_the_player_whose_turn_it_had_become(
    new_context: Callable[..., BrowserContext], site: str, problems: BrowserProblems
) -> None:
    game = online_game()
    alice, bob = two_pages(new_context, problems, site, game)

    post(alice, "/roll/", alice.locator("[data-roll]").click)
    option = alice.locator("button.score-option:not(.is-zero)").first  # no zero to confirm
    label = str(option.get_attribute("data-box-label"))
    post(alice, "/score/", option.click)
    expect(bob).to_have_title(re.compile(r"^Your turn! — Round 1 of 13"), timeout=FOLLOWS_WITHIN_MS)
    expect(bob.locator("[data-roll]")).to_be_enabled()

    # Alice takes her box back while Bob's page says it is his turn: his page follows.
    post(alice, "/undo/", alice.get_by_role("button", name=re.compile(r"^Undo: ")).click)

    expect(bob).to_have_title(re.compile(r"^Alice's turn — Round 1"), timeout=FOLLOWS_WITHIN_MS)
    expect(bob.locator("[data-roll]")).to_be_disabled()
    expect(bob.locator(".move-log")).to_contain_text("Alice: Took back", timeout=1000)
    expect(bob.locator(".move-log")).to_contain_text(label)

    # She scores again; Bob's turn comes back by itself, and his roll is taken.
    post(alice, "/score/", alice.locator("button.score-option:not(.is-zero)").first.click)
    expect(bob).to_have_title(re.compile(r"^Your turn!"), timeout=FOLLOWS_WITHIN_MS)
    response = post(bob, "/roll/", bob.locator("[data-roll]").click)
    assert response.status == 200
    settle(bob)


def test_a_resignation_reaches_the_page_of_the_player_on_turn(
    new_context: Callable[..., BrowserContext], site: str, problems: BrowserProblems
) -> None:
    game = online_game()
    alice, bob = two_pages(new_context, problems, site, game)
    expect(alice).to_have_title(re.compile(r"^Your turn!"))

    bob.goto(f"{site}/play/{game.pk}/abandon/")  # the page that offers to resign
    bob.get_by_role("button", name="Yes, resign").click()

    expect(alice.locator(".players")).to_contain_text("resigned", timeout=FOLLOWS_WITHIN_MS)


def test_two_players_throwing_for_first_at_once_both_throw(
    new_context: Callable[..., BrowserContext],
    site: str,
    problems: BrowserProblems,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from games import rules

    game = online_game(roll_for_first=True)
    monkeypatch.setattr(rules, "system_dice", ScriptedDice(*[6] * 5, *[1] * 5))
    alice, bob = two_pages(new_context, problems, site, game)
    expect(bob).to_have_title(re.compile(r"^Roll for first"))

    # Bob's page is still the one from before Alice's throw when he throws (it has not asked
    # for news: its checks are held back), as when two players click within the same second.
    def held_back(route: Route) -> None:
        route.abort() if route.request.method == "GET" else route.continue_()

    bob.route(f"{site}/play/{game.pk}/", held_back)
    problems.allow(r"net::ERR_FAILED")  # the news of Alice's throw, asked for and held back
    post(alice, "/first/", alice.get_by_role("button", name="Roll for first").click)
    response = post(bob, "/first/", bob.get_by_role("button", name="Roll for first").click)
    bob.unroute(f"{site}/play/{game.pk}/")

    assert response.status == 200
    match = match_of(game)
    assert match.first_rolls == ((6,) * 5, (1,) * 5)  # both throws were taken
    assert (match.contenders, match.first) == ((), 0)  # and Alice's 30 goes first
    expect(alice).to_have_title(
        re.compile(r"^Your turn! — Round 1 of 13"), timeout=FOLLOWS_WITHIN_MS
    )
    expect(bob).to_have_title(re.compile(r"^Alice's turn"), timeout=FOLLOWS_WITHIN_MS)
