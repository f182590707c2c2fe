"""The replay in a browser: a top-ten game watched logged out from the high scores to its end
with the arrow keys, and a shared link that works logged out until its player withdraws it."""

from __future__ import annotations

import re
from collections.abc import Callable

import pytest
from playwright.sync_api import BrowserContext, Page, expect

from tests.browser.conftest import BrowserProblems, log_in, make_player, settle
from tests.factories import finished_game, make_user
from tests.review.test_replay_views import play_known_game

pytestmark = pytest.mark.browser

STEPS = 15  # the known game: two decisions in its first turn, one in each of the twelve others


def test_a_top_ten_game_is_replayed_to_its_end_with_the_best_choice_at_each_step(
    page: Page, site: str, problems: BrowserProblems, strategy_ready
) -> None:
    queen = make_player("queen_login", "Dice Queen")
    game = play_known_game(queen)
    total = game.seats.get().grand_total

    page.goto(f"{site}/scores/")
    page.get_by_role("link", name=re.compile(rf"^{total}\b.*watch the game$")).click()
    page.wait_for_load_state("load")  # the arrow keys' script listens once the page has loaded

    expect(page.get_by_role("heading", level=1)).to_have_text(
        f"Dice Queen's Classic Yahtzee: {total}"
    )
    expect(page.locator(".replay-position")).to_have_text(f"Step 1 of {STEPS}")
    expect(page.locator(".replay-choice")).to_contain_text("Hold the two 6s")
    for number in range(2, STEPS + 1):
        with page.expect_response(lambda r, n=number: r.url.endswith(f"?step={n}")):
            page.keyboard.press("ArrowRight")
        settle(page)
        expect(page.locator(".replay-position")).to_have_text(f"Step {number} of {STEPS}")
        expect(page).to_have_url(re.compile(rf"\?step={number}$"))
        if number == 2:
            expect(page.locator(".replay-choice")).to_contain_text("Score 30 in Chance")
            expect(page.locator(".replay-best")).to_contain_text("Score 50 in YAHTZEE")
            expect(page.locator(".replay-cost")).to_have_text(re.compile(r"^−\d+\.\d expected"))
        elif number < STEPS:
            expect(page.locator(".replay-best")).to_have_text(re.compile(r"\S"))
    expect(page.locator("#replay-step-title")).to_have_text(f"The end: {total} points")
    page.keyboard.press("ArrowRight")  # nothing after the end
    expect(page.locator(".replay-position")).to_have_text(f"Step {STEPS} of {STEPS}")

    with page.expect_response(lambda r: r.url.endswith(f"?step={STEPS - 1}")):
        page.keyboard.press("ArrowLeft")
    settle(page)
    expect(page.locator(".replay-position")).to_have_text(f"Step {STEPS - 1} of {STEPS}")
    page.locator("#replay-previous").focus()  # by Tab and Enter, as without the arrow keys
    with page.expect_response(lambda r: r.url.endswith(f"?step={STEPS - 2}")):
        page.keyboard.press("Enter")
    settle(page)
    expect(page.locator(".replay-position")).to_have_text(f"Step {STEPS - 2} of {STEPS}")
    expect(page.locator("#replay-previous")).to_be_focused()  # the focus stays on the button
    page.go_back()  # the steps are in the history, each a link of its own
    # htmx restores a step without a navigation Playwright waits for: one back at a time.
    expect(page.locator(".replay-position")).to_have_text(f"Step {STEPS - 1} of {STEPS}")
    page.go_back()
    expect(page.locator("#replay-step-title")).to_have_text(f"The end: {total} points")
    problems.assert_none()


def test_a_shared_game_works_logged_out_and_stops_when_withdrawn(
    page: Page,
    new_context: Callable[..., BrowserContext],
    site: str,
    problems: BrowserProblems,
    strategy_ready,
) -> None:
    queen = make_player("queen_login", "Dice Queen")
    game = play_known_game(queen)
    for i in range(10):  # ten better games: this one is in no top ten, only its link shows it
        finished_game(make_user(f"better{i}"), 400 + i)
    visitor = problems.watch(new_context()).new_page()
    replay = f"{site}/play/{game.pk}/replay/0/"
    problems.allow(r"status of 404")  # the pages this test expects to be gone
    refused = visitor.goto(replay)
    assert refused is not None and refused.status == 404

    log_in(page, site, "queen_login")
    page.goto(replay)
    page.get_by_role("button", name="Share this game").click()
    link = page.locator("#share-link").input_value()
    assert re.fullmatch(rf"{re.escape(site)}/shared/[\w-]{{40,}}/", link), link

    opened = visitor.goto(link)
    assert opened is not None and opened.status == 200
    expect(visitor.get_by_role("heading", level=1)).to_contain_text("Dice Queen's Classic Yahtzee")
    expect(visitor.get_by_role("link", name="Log in")).to_be_visible()  # logged out indeed
    image = visitor.locator('meta[property="og:image"]').get_attribute("content")
    assert image is not None
    card = visitor.request.get(image)
    assert card.status == 200 and card.headers["content-type"] == "image/png"
    with visitor.expect_response(lambda r: r.url.endswith("?step=2")):
        visitor.keyboard.press("ArrowRight")
    settle(visitor)
    expect(visitor.locator(".replay-best")).to_contain_text("Score 50 in YAHTZEE")
    assert "queen_login" not in visitor.content()
    visitor.set_viewport_size({"width": 360, "height": 740})  # a phone: nothing scrolls sideways
    assert visitor.evaluate("() => document.documentElement.scrollWidth") <= 360

    page.get_by_role("button", name="Withdraw the link").click()
    expect(page.get_by_role("button", name="Share this game")).to_be_visible()

    gone = visitor.goto(link)
    assert gone is not None and gone.status == 404
    problems.assert_none()


def test_on_a_phone_the_steps_fit_their_lines_the_targets_are_big_and_the_colours_are_named(
    page: Page,
    site: str,
    problems: BrowserProblems,
    strategy_ready,
) -> None:
    queen = make_player("queen_login", "Dice Queen")
    game = play_known_game(queen)
    phone = page
    phone.set_viewport_size({"width": 390, "height": 844})

    phone.goto(f"{site}/play/{game.pk}/replay/0/?step=2")

    nav = phone.get_by_role("navigation", name="Steps")
    previous, following = (
        nav.get_by_role("link", name="Previous"),
        nav.get_by_role("link", name="Next"),
    )
    position = nav.locator(".replay-position")
    expect(position).to_have_text(f"Step 2 of {STEPS}")
    line = phone.evaluate(
        "() => parseFloat(getComputedStyle(document.querySelector('.replay-position')).lineHeight)"
    )
    assert box_of(position)["height"] < 1.5 * line  # "Step 2 of 15" on one line
    nav_box = box_of(nav)
    for button in (previous, following):
        found = box_of(button)
        assert found["width"] >= 44 and 44 <= found["height"] < 1.5 * 44  # one line, a thumb's size
        assert (
            found["y"] >= nav_box["y"]
            and found["y"] + found["height"] <= nav_box["y"] + nav_box["height"]
        )
    assert nav_box["height"] < 1.5 * 44  # the three side by side, on one row

    # The rolls before the decision, each roll's dice.
    expect(phone.locator(".replay-roll")).to_have_text(
        re.compile(r"^Roll 1: 6, 6, 1, 2, 3;\s+kept 6 and 6$")
    )

    turns = phone.get_by_role("navigation", name="Turns")
    expect(turns.locator("#replay-legend")).to_be_visible()
    expect(turns.locator("#replay-legend")).to_have_text(
        re.compile(
            r"every decision of the turn was the best\s+✗ a decision of the turn cost points"
        )
    )
    links = turns.get_by_role("link")
    expect(links.first).to_have_accessible_name("Turn 1: a decision cost points")
    for link in links.all():
        found = box_of(link)
        assert found["width"] >= 44 and found["height"] >= 44, (link.inner_text(), found)
    assert phone.evaluate("() => document.documentElement.scrollWidth") <= 390
    problems.assert_none()


def box_of(locator) -> dict[str, float]:
    found = locator.bounding_box()
    assert found is not None
    return found
