"""Your turn, by e-mail, in a real browser: Alice scores in a game played at an hour a turn, Bob
(no page of the game open) gets one mail, even when she takes the box back and scores again;
its unsubscribe link works in a browser that never logged in."""

from __future__ import annotations

import re
import time
from collections.abc import Callable
from typing import Any

import pytest
from django.core import mail
from django.core.cache import caches
from playwright.sync_api import BrowserContext, Page, expect

from accounts.models import User
from games.play import live
from games.tables import services
from tests.browser.conftest import BrowserProblems, log_in, make_player, post

pytestmark = pytest.mark.browser


def mails_to(address: str) -> list[Any]:
    return [m for m in getattr(mail, "outbox", []) if address in m.to]


def wait_for_mail(address: str, seconds: float = 10) -> list[Any]:
    """The mail sent to ``address`` (after the commit, in the live server's thread)."""
    deadline = time.monotonic() + seconds
    while not mails_to(address) and time.monotonic() < deadline:
        time.sleep(0.05)
    return mails_to(address)


def test_a_turn_mail_is_sent_once_and_unsubscribes_without_logging_in(
    new_context: Callable[..., BrowserContext],
    site: str,
    problems: BrowserProblems,
    settings: Any,
) -> None:
    settings.SITE_URL = site
    caches["presence"].clear()
    alice, bob = make_player("alice", "Alice"), make_player("bob", "Bob")
    game = services.open_game(owner=alice, invites=1, turn_limit=3600)
    services.join_game(token=game.invitations.get().token, user=bob)
    live.saw_page(game_id=game.pk, user_id=alice.pk)  # she starts it from its waiting room
    services.begin_game(game_id=game.pk, user=alice)
    host: Page = problems.watch(new_context()).new_page()
    log_in(host, site, "alice")
    host.goto(f"{site}/play/{game.pk}/")

    # Alice rolls and scores, takes it back, and scores again: the turn passes to Bob twice.
    post(host, "/roll/", host.locator("[data-roll]").click)
    post(host, "/score/", host.locator("button.score-option:not(.is-zero)").first.click)
    post(host, "/undo/", host.get_by_role("button", name=re.compile(r"^Undo: ")).click)
    post(host, "/score/", host.locator("button.score-option:not(.is-zero)").first.click)

    sent = wait_for_mail("bob@example.com")
    time.sleep(1)  # a second mail, were there one, would have been sent by now
    assert len(mails_to("bob@example.com")) == 1
    assert re.fullmatch(rf"Alice scored \d+ in .+ — your turn in game #{game.pk}", sent[0].subject)
    assert mails_to("alice@example.com") == []  # her page was open: no mail for her turns
    link = sent[0].extra_headers["List-Unsubscribe"].strip("<>")
    assert link.startswith(site) and link in sent[0].body

    # Bob opens the link in a browser that never logged in: asked first, then done.
    reader: Page = problems.watch(new_context()).new_page()
    reader.goto(link)
    expect(reader.get_by_role("heading", level=1)).to_have_text("Stop the “your turn” e-mails?")
    assert User.objects.get(pk=bob.pk).turn_mail
    reader.get_by_role("button", name="Unsubscribe").click()
    expect(reader.get_by_role("heading", level=1)).to_have_text("You are unsubscribed")
    assert not User.objects.get(pk=bob.pk).turn_mail
    problems.assert_none()
