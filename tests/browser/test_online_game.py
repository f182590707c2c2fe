"""Two accounts play online in two browsers: an invitation link, the waiting room following
by itself, the host's start, a move out of turn refused, the waiting player's page following
each roll and score without a reload, a reload in the middle, and the turn passing."""

from __future__ import annotations

import re
from collections.abc import Callable
from html import unescape
from typing import Any

import pytest
from playwright.sync_api import BrowserContext, Page, expect

from games.play import actions
from tests.browser.conftest import BrowserProblems, log_in, make_player, post, settle

pytestmark = pytest.mark.browser

FOLLOWS_WITHIN_MS = 5000  # polled every second; generous for a loaded CI machine


def test_two_accounts_play_online_and_the_waiting_page_follows_by_itself(
    new_context: Callable[..., BrowserContext],
    site: str,
    problems: BrowserProblems,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # The live server runs in this process: Alice's throw for first is five 6s, Bob's five 1s.
    real_throw = actions.throw_for_first

    def scripted_throw(**kwargs: Any) -> Any:
        face = 6 if kwargs["user"].username == "alice" else 1
        return real_throw(**kwargs, dice_source=lambda n: (face,) * n)

    monkeypatch.setattr(actions, "throw_for_first", scripted_throw)
    make_player("alice", "Alice")
    make_player("bob", "Bob")
    host: Page = problems.watch(new_context()).new_page()
    friend: Page = problems.watch(new_context()).new_page()
    log_in(host, site, "alice")
    log_in(friend, site, "bob")

    # The host offers a seat to a friend and passes on the link.
    host.get_by_text("Play online").click()
    host.get_by_label("Friends to invite by link").select_option("1")
    host.get_by_label("Roll for first").check()
    host.get_by_role("button", name="Start a game of Classic Yahtzee").click()
    expect(host.get_by_role("heading", level=1)).to_have_text(
        "Classic Yahtzee: waiting for players"
    )
    link = host.locator(".invite-url").input_value()
    game_url = host.url

    friend.goto(link)
    expect(friend.get_by_role("heading", level=1)).to_have_text(
        "Join Alice's game of Classic Yahtzee"
    )
    friend.get_by_role("button", name="Take the seat").click()
    expect(friend).to_have_url(game_url)

    # The host's waiting room shows Bob by itself, and the host starts.
    expect(host.locator(".waiting-players")).to_contain_text("Bob", timeout=FOLLOWS_WITHIN_MS)
    host.get_by_role("button", name="Start the game").click()

    # Both roll for first, each on their own device; each sees the other's dice.
    expect(host).to_have_title(re.compile(r"^Roll for first"))
    host.get_by_role("button", name="Roll for first").click()
    expect(host.locator(".first-draw")).to_contain_text("Waiting for the others to roll.")
    expect(friend).to_have_title(re.compile(r"^Roll for first"), timeout=FOLLOWS_WITHIN_MS)
    expect(friend.locator(".first-draw")).to_contain_text("6, 6, 6, 6, 6 = 30")
    friend.get_by_role("button", name="Roll for first").click()
    expect(host).to_have_title(
        re.compile(r"^Your turn! — Round 1 of 13"), timeout=FOLLOWS_WITHIN_MS
    )

    # Bob's page leaves the waiting room by itself; it is Alice's turn, Bob cannot roll.
    expect(friend).to_have_title(
        re.compile(r"^Alice's turn — Round 1 of 13"), timeout=FOLLOWS_WITHIN_MS
    )
    expect(friend.locator("[data-roll]")).to_be_disabled()
    problems.allow(r"status of 409 \(Conflict\)")  # the move out of turn, below
    out_of_turn = friend.evaluate(
        """async () => {
          const form = document.querySelector('[data-game-form]');
          const answer = await fetch(form.action, {method: 'POST', body: new FormData(form),
                                                   headers: {'HX-Request': 'true'}});
          return [answer.status, await answer.text()];
        }"""
    )
    assert out_of_turn[0] == 409 and "It is not your turn. Alice's turn" in unescape(out_of_turn[1])

    # Alice rolls: Bob sees the roll without reloading.
    post(host, "/roll/", host.locator("[data-roll]").click)
    rolled = host.locator("#turn-news").inner_text()
    expect(friend.locator("#turn-news")).to_have_text(rolled, timeout=FOLLOWS_WITHIN_MS)

    # Bob reloads in the middle and sees the same state at once.
    friend.reload()
    expect(friend.locator("#turn-news")).to_have_text(rolled)

    # Alice scores; the turn passes to Bob, whose page says so by itself.
    option = host.locator("button.score-option:not(.is-zero)").first  # no zero to confirm
    label = option.get_attribute("data-box-label")
    post(host, "/score/", option.click)
    # She takes it back (nothing new seen yet) and scores it again.
    post(host, "/undo/", host.get_by_role("button", name=re.compile(r"^Undo: ")).click)
    expect(host.locator(".move-log")).to_contain_text("Took back")
    post(host, "/score/", host.locator("button.score-option:not(.is-zero)").first.click)
    expect(friend).to_have_title(
        re.compile(r"^Your turn! — Round 1 of 13"), timeout=FOLLOWS_WITHIN_MS
    )
    expect(friend.locator(".move-log")).to_contain_text("Alice: ")
    expect(friend.locator(".move-log")).to_contain_text(str(label))
    expect(friend.locator("[data-roll]")).to_be_enabled()
    post(friend, "/roll/", friend.locator("[data-roll]").click)
    settle(friend)
    expect(host).to_have_title(re.compile(r"^Bob's turn"), timeout=FOLLOWS_WITHIN_MS)
    expect(host.locator("#turn-news")).to_have_text(
        friend.locator("#turn-news").inner_text(), timeout=FOLLOWS_WITHIN_MS
    )
