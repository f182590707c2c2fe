"""A tournament from end to end, as people do it (issue 38's "Done means"): a host opens a
private tournament through the form and reads its link; two accounts open the link, join, and
once the host has started it play at once, each in their own browser; a logged-out visitor
holding the link sees the standings change as one of them scores (pushed, not asked for, the
page not reloaded), follows that player's Watch link and sees their next moves come live; the
games end (the turns between through the site's door, as the same moves would be; the last in
the browser), the tournament ends by itself, and the visitor's page turns to the final
standings, with each player's accuracy and perfect play's total, each score linking to its
replay. Screenshots of the tournament's page, running and over, on a desktop and a phone, are
kept for a person to look at."""

from __future__ import annotations

import re
import tempfile
from collections import Counter
from collections.abc import Callable
from pathlib import Path

import pytest
from playwright.sync_api import BrowserContext, Locator, Page, expect

from games import rules
from games.daily.results import tenths
from games.models import Game, GameStatus, Seat
from games.tournaments import clock
from games.tournaments.models import Entry, Tournament
from tests.browser.conftest import BrowserProblems, log_in, make_player, post, settle
from tests.factories import match_of, play_out
from tests.tournaments.tournament_support import registered

pytestmark = pytest.mark.browser

PUSHED_WITHIN_MS = 3000  # pushed at once; room for a loaded machine, less than the 5 s poll
SHOTS = Path(tempfile.gettempdir()) / "yahtzee-tournament-shots"
PHONE = {"width": 390, "height": 844}
DESKTOP = {"width": 1280, "height": 900}
UPPER = [rules.Box.ACES, rules.Box.TWOS, rules.Box.THREES, rules.Box.FOURS, rules.Box.FIVES,
         rules.Box.SIXES]  # fmt: skip


def game_of(page: Page) -> Game:
    found = re.search(r"/play/(\d+)/$", page.url)
    assert found, page.url
    return Game.objects.get(pk=int(found.group(1)))


def roll(page: Page, game: Game) -> tuple[int, ...]:
    """Press Roll; the dice thrown, as the game keeps them."""
    post(page, "/roll/", page.locator("[data-roll]").click)
    dice = match_of(game).turn.dice
    assert dice is not None
    return tuple(dice)


def upper_choice(dice: tuple[int, ...], game: Game) -> tuple[rules.Box, int]:
    """The open upper box these dice score most in, and its points (some face shows, and only
    Chance and one upper box are filled when this is asked)."""
    filled = match_of(game).sheets[0].cards[0]
    counts = Counter(dice)
    open_faces = [face for face in counts if UPPER[face - 1].value not in filled]
    face = max(open_faces, key=lambda f: f * counts[f])
    return UPPER[face - 1], face * counts[face]


def score(page: Page, box: rules.Box, points: int) -> None:
    """Press the card's button that scores ``points`` in ``box``, as a player reads it."""
    button = page.get_by_role("button", name=f"Score {points} in {box.label}")
    post(page, "/score/", button.click)
    settle(page)


def line(page: Page, name: str) -> Locator:
    return page.locator(f'[data-tournament-standings] tr[data-line="{name}"]')


def shoot(page: Page, name: str) -> None:
    """Screenshots of ``page`` as it is, on a desktop and on a phone; nothing wider than the
    phone's screen."""
    SHOTS.mkdir(exist_ok=True)
    page.set_viewport_size(DESKTOP)
    page.screenshot(path=str(SHOTS / f"{name}-desktop.png"), full_page=True)
    page.set_viewport_size(PHONE)
    page.screenshot(path=str(SHOTS / f"{name}-phone.png"), full_page=True)
    width = page.evaluate("() => document.documentElement.scrollWidth")
    assert width <= PHONE["width"], f"{name}: the phone's page is {width} px wide"
    page.set_viewport_size(DESKTOP)


def test_a_hosted_tournament_is_joined_played_watched_and_ends_with_its_replays(
    new_context: Callable[..., BrowserContext], site: str, problems: BrowserProblems
) -> None:
    registered("hostess")
    alice, bob = make_player("alice", "Alice"), make_player("bob", "Bob")
    host: Page = problems.watch(new_context()).new_page()
    first: Page = problems.watch(new_context()).new_page()
    second: Page = problems.watch(new_context()).new_page()
    visitor: Page = problems.watch(new_context()).new_page()

    # 1. The host opens a private tournament through the form, to start when they press start.
    log_in(host, site, "hostess")
    host.goto(f"{site}/tournaments/new/")
    host.get_by_label("Name", exact=True).fill("Tuesday dice at Hostess's")
    host.get_by_role("radio", name="Classic Yahtzee").check()
    host.get_by_role("radio", name="When I press start on its page").check()
    expect(host.get_by_role("checkbox", name=re.compile("List it"))).not_to_be_checked()
    host.get_by_role("button", name="Open the tournament").click()
    expect(host).to_have_url(re.compile(rf"^{re.escape(site)}/tournaments/t/[\w-]+/$"))
    tournament = Tournament.objects.get(name="Tuesday dice at Hostess's")
    assert not tournament.listed and tournament.kind == "classic"
    assert tournament.starts_at is None and tournament.ends_at is None
    expect(host.get_by_role("heading", level=1)).to_have_text("Tuesday dice at Hostess's")
    expect(host.locator(".lead-small")).to_contain_text("Private: only those with its link")
    link = host.locator("[data-tournament-link]").inner_text()
    assert link == f"{site}/tournaments/t/{tournament.token}/"
    expect(host.locator("[data-tournament-standings]")).to_contain_text("Nobody has joined yet")
    host.evaluate("() => { window.notReloaded = true; }")

    # 2. Two accounts open the link and join; the host starts it; both play at once.
    for page, username in ((first, "alice"), (second, "bob")):
        log_in(page, site, username)
        page.goto(link)
        expect(page.get_by_role("heading", name="Open to join")).to_be_visible()
        page.get_by_role("button", name="Join").click()
        expect(page.locator("[data-tournament-joined]")).to_contain_text("You have joined")
    # The host's page, open all along, was sent each join.
    expect(line(host, "Alice")).to_contain_text("not begun")
    expect(line(host, "Bob")).to_contain_text("not begun")
    assert host.evaluate("() => window.notReloaded") is True
    host.get_by_role("button", name="Start").click()
    expect(host.get_by_role("heading", name="Running")).to_be_visible()
    for page in (first, second):
        # Their pages, drawn before the start, were pushed it: each draws itself again with
        # the Play button (no reload by hand).
        page.get_by_role("button", name="Play your game").click(timeout=5000)
        expect(page).to_have_url(re.compile(r"/play/\d+/$"))
        expect(page.locator(".game-round")).to_have_text(re.compile(r"Round\s+1\s+of\s+13"))
    alices, bobs = game_of(first), game_of(second)
    assert alices.tournament_id == bobs.tournament_id == tournament.pk
    # At once: both roll, then both score their Chance.
    alice_dice, bob_dice = roll(first, alices), roll(second, bobs)
    assert alice_dice == bob_dice  # the tournament's dice: the same faces for everyone
    score(first, rules.Box.CHANCE, sum(alice_dice))
    score(second, rules.Box.CHANCE, sum(bob_dice))
    for game in (alices, bobs):
        assert match_of(game).sheets[0].cards[0] == {"chance": sum(alice_dice)}

    # 3. A logged-out visitor opens the link: the standings, then Alice's score pushed to them.
    asked: list[str] = []
    visitor.on("request", lambda r: asked.append(r.url) if r.url.split("?")[0] == link else None)
    visitor.goto(link)
    expect(visitor.get_by_role("heading", name="Standings so far")).to_be_visible()
    for name in ("Alice", "Bob"):
        expect(line(visitor, name).locator("td.score")).to_have_text(str(sum(alice_dice)))
        expect(line(visitor, name).locator("td").nth(1)).to_have_text("12")
    nav = visitor.get_by_role("navigation", name="Main")
    expect(nav.get_by_role("link", name="Log in")).to_be_visible()  # nobody logged in
    expect(visitor.locator("#main")).not_to_contain_text("to join")  # it has started
    visitor.wait_for_function("() => window.yahtzeeStandings && window.yahtzeeStandings.streaming")
    visitor.evaluate("() => { window.notReloaded = true; }")
    assert asked == [link]  # the page itself, once
    shoot(visitor, "running")

    dice = roll(first, alices)
    box, points = upper_choice(dice, alices)
    score(first, box, points)
    alice_total = sum(alice_dice) + points
    assert match_of(alices).sheets[0].grand_total == alice_total
    alice_line = line(visitor, "Alice")
    expect(alice_line.locator("td").nth(1)).to_have_text("11", timeout=PUSHED_WITHIN_MS)
    expect(alice_line.locator("td.score")).to_have_text(str(alice_total))
    expect(line(visitor, "Bob").locator("td").nth(1)).to_have_text("12")
    # The leader's line first, with Alice's accuracy so far over her two graded turns.
    expect(visitor.locator("[data-tournament-standings] tbody tr").first).to_have_attribute(
        "data-line", "Alice"
    )
    graded = Entry.objects.get(tournament=tournament, user=alice)
    assert graded.graded_turns == 2 and graded.accuracy is not None
    expect(alice_line.locator("td.so-far")).to_have_text(
        f"{tenths(graded.accuracy) / 10:.1f}% (2 turns)"
    )
    assert visitor.evaluate("() => window.notReloaded") is True  # the same page, followed
    assert visitor.evaluate("() => window.yahtzeeStandings.events") >= 1  # pushed...
    assert asked == [link]  # ...and not asked for: no reload, no poll

    # The visitor follows Alice's Watch link and sees her next move come live.
    visitor.get_by_role("link", name="Watch Alice's game").click()
    expect(visitor).to_have_url(f"{site}/watch/t/{tournament.token}/{alices.pk}/")
    expect(visitor.locator(".game-round")).to_have_text(re.compile(r"Round\s+3\s+of\s+13"))
    expect(visitor.locator("#move-log")).to_contain_text(f"{points} in {box.label}")
    visitor.wait_for_function("() => window.yahtzeeLive && window.yahtzeeLive.streaming")
    visitor.evaluate("() => { window.notReloaded = true; }")
    dice = roll(first, alices)
    expect(visitor.locator("#turn-news")).to_contain_text(
        ", ".join(map(str, dice)), timeout=PUSHED_WITHIN_MS
    )
    box, points = upper_choice(dice, alices)
    score(first, box, points)
    expect(visitor.locator("#move-log li").first).to_contain_text(
        f"{points} in {box.label}", timeout=PUSHED_WITHIN_MS
    )
    expect(visitor.locator(".game-round")).to_have_text(re.compile(r"Round\s+4\s+of\s+13"))
    assert visitor.evaluate("() => window.notReloaded") is True
    assert visitor.evaluate("() => window.yahtzeeLive.polls") == 0
    assert visitor.locator("#game-table form, #game-table button.score-option").count() == 0

    # 4. Bob's game through the door to its end; Alice's to her last turn, then that in her
    # browser: the last game over ends the tournament by itself.
    play_out(bobs, bob)
    play_out(alices, alice, until=lambda match: match.round == 13)
    tournament.refresh_from_db()
    assert tournament.ended_at is None  # Alice is still playing
    visitor.goto(link)
    visitor.wait_for_function("() => window.yahtzeeStandings && window.yahtzeeStandings.streaming")
    visitor.evaluate("() => { window.notReloaded = true; }")
    expect(line(visitor, "Bob").locator("td").nth(1)).to_have_text("0")
    expect(line(visitor, "Alice").locator("td").nth(1)).to_have_text("1")
    first.reload()
    expect(first.locator(".game-round")).to_have_text(re.compile(r"Round\s+13\s+of\s+13"))
    roll(first, alices)
    post(first, "/score/", first.locator("button.score-option").first.click)
    confirm = first.locator(".confirm-zero button[name=confirmed]")
    if confirm.count():
        post(first, "/score/", confirm.click)
    expect(first.locator(".game-round")).to_contain_text("Finished", timeout=PUSHED_WITHIN_MS)

    tournament.refresh_from_db()
    assert tournament.ended_at is not None and tournament.perfect_total is not None
    expect(visitor.get_by_role("heading", name="Final standings")).to_be_visible(
        timeout=PUSHED_WITHIN_MS
    )
    # The state above them turns too: over, with nothing left to press.
    expect(visitor.get_by_role("heading", name="Over")).to_be_visible()
    ended = clock.shown(tournament.ended_at)
    expect(visitor.locator("[data-tournament-ended]")).to_contain_text(f"It ended on {ended}.")
    expect(visitor.get_by_role("heading", name="Running")).to_have_count(0)
    perfect = visitor.locator("[data-tournament-perfect]")
    expect(perfect).to_contain_text("Perfect play (computer)")
    expect(perfect.locator("td.score")).to_have_text(str(tournament.perfect_total))
    for name, game in (("Alice", alices), ("Bob", bobs)):
        seat = Seat.objects.get(game=game, position=0)
        assert Game.objects.get(pk=game.pk).status == GameStatus.FINISHED
        assert seat.accuracy is not None and seat.grand_total is not None
        row = line(visitor, name)
        expect(row.locator("td.accuracy")).to_have_text(f"{tenths(seat.accuracy) / 10:.1f}%")
        expect(row.locator("td.score")).to_have_text(str(seat.grand_total))
        expect(row.get_by_role("link", name=str(seat.grand_total))).to_have_attribute(
            "href", f"/tournaments/t/{tournament.token}/replay/{game.pk}/"
        )
    assert visitor.evaluate("() => window.notReloaded") is True
    shoot(visitor, "over")

    # Each finished score opens its replay, for the visitor holding the link.
    for name, game in (("Alice", alices), ("Bob", bobs)):
        visitor.goto(link)
        total = Seat.objects.get(game=game, position=0).grand_total
        line(visitor, name).get_by_role("link", name=str(total)).click()
        expect(visitor.get_by_role("heading", level=1)).to_have_text(
            f"{name}'s Classic Yahtzee: {total}"
        )
        expect(visitor.locator("[data-tournament-sealed]")).to_have_count(0)
    problems.assert_none()
