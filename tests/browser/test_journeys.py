"""Whole journeys through the site in a real Chromium: sign up, play, resume, keys, no JavaScript.

The dice are real (the server's ``secrets`` source), so the tests never depend on what is
rolled: each round scores the first box that offers a button, which always ends the game in
13 rounds, and round 1 deliberately scores a zero to go through the confirmation.
"""

from __future__ import annotations

import re
from typing import Literal

import pytest
from playwright.sync_api import Locator, Page, expect

from games import rules
from games.models import Game, GameStatus, Move, MoveAction, Seat
from tests.browser.conftest import (
    BrowserProblems,
    assert_assets_loaded,
    confirm_email,
    log_in,
    make_player,
    post,
    settle,
    sign_up,
    start_game,
)
from tests.factories import cards_of, match_of, sheet_of

# Marked here too (not only by the folder's conftest), so `-m "not browser"` selects them.
pytestmark = pytest.mark.browser

RollHow = Literal["click", "r", "space"]
HoldHow = Literal["click", "key"]
ScoreHow = Literal["click", "key"]


# --- Reading the game page -------------------------------------------------------------------


def die(page: Page, index: int) -> Locator:
    return page.locator(f"#die-{index}")


def die_label(page: Page, index: int) -> Locator:
    return page.locator(f"label[for=die-{index}]")


def faces(page: Page) -> list[str]:
    return [die(page, i).get_attribute("data-face") or "" for i in range(rules.DICE_COUNT)]


def held(page: Page) -> list[bool]:
    return [die(page, i).is_checked() for i in range(rules.DICE_COUNT)]


def rolls_left(page: Page) -> int:
    text = page.locator(".rolls-left").inner_text()
    match = re.fullmatch(r"(\d) left", text.strip())
    assert match, text
    return int(match.group(1))


def score_row(page: Page, key: str) -> Locator:
    """The score-card row of the box with keyboard letter ``key`` (a-m, in card order)."""
    return page.locator("tr.score-row").nth(ord(key) - ord("a"))


def card_snapshot(page: Page) -> list[str]:
    """What each row of the card shows: a filled score, a score button, or nothing."""
    return [
        " ".join(row.split())
        for row in page.locator("tr.score-row td.score-cell").all_inner_texts()
    ]


def expect_round(page: Page, number: int) -> None:
    if number > 13:
        expect(page.locator(".game-round")).to_have_text("Finished")
    else:
        expect(page.locator(".game-round")).to_have_text(
            re.compile(rf"^\s*Round\s+{number}\s+of\s+13\s*$")
        )


def version(page: Page) -> int:
    return int(page.locator("#game-version").input_value())


# --- Acting on the game page -----------------------------------------------------------------


def roll(page: Page, how: RollHow) -> None:
    """Roll the dice that are not held, and check the held ones kept their faces."""
    left = rolls_left(page)
    before, kept = faces(page), held(page)
    actions = {
        "click": lambda: page.locator("[data-roll]").click(),
        "r": lambda: page.keyboard.press("r"),
        "space": lambda: page.keyboard.press(" "),
    }
    response = post(page, "/roll/", actions[how])
    assert response.status == 200, response.status
    expect(page.locator(".rolls-left")).to_have_text(f"{left - 1} left")
    after = faces(page)
    assert all(face in "123456" and face for face in after), after
    for index in range(rules.DICE_COUNT):
        if kept[index]:
            assert after[index] == before[index], (index, before, after)
            expect(die(page, index)).to_be_checked()
    if left - 1 == 0:
        expect(page.locator("[data-roll]")).to_be_disabled()
        expect(page.locator("fieldset.dice")).to_have_attribute("disabled", "")
        expect(die(page, 0)).to_be_disabled()


def toggle_hold(page: Page, index: int, how: HoldHow, game_id: int) -> None:
    """Hold (or release) one die by clicking it or with its number key; check it was saved."""
    was = die(page, index).is_checked()
    before = version(page)
    if how == "click":
        response = post(page, "/hold/", lambda: die_label(page, index).click())
    else:
        response = post(page, "/hold/", lambda: page.keyboard.press(str(index + 1)))
    assert response.status == 200, response.status
    expect(die(page, index)).to_be_checked(checked=not was)
    label, tag = die_label(page, index), die_label(page, index).locator(".die-held-tag")
    if was:
        expect(label).not_to_have_class(re.compile(r"\bis-held\b"))
        expect(tag).to_be_hidden()
    else:
        expect(label).to_have_class(re.compile(r"\bis-held\b"))
        expect(tag).to_be_visible()
        expect(tag).to_have_text(re.compile("held", re.IGNORECASE))
    # The answer moved the form's version on, so the next action is not taken for stale.
    expect(page.locator("#game-version")).to_have_value(str(before + 1))
    assert match_of(game_id).turn.held[index] is (not was)


def score_first_box(page: Page, how: ScoreHow, round_number: int) -> int:
    """Score the first box that offers a button (confirming a zero); the points it took."""
    button = page.locator("button.score-option").first
    key = button.get_attribute("data-box-key") or ""
    points = int(button.inner_text())
    assert re.fullmatch(r"[a-m]", key), key
    if how == "click":
        post(page, "/score/", button.click)
    else:
        post(page, "/score/", lambda: page.keyboard.press(key))
    if points == 0:
        confirm = page.locator(".confirm-zero")
        expect(confirm).to_be_visible()
        label = rules.Box.by_letter(key).label
        expect(confirm.locator(".confirm-title")).to_have_text(f"Score 0 in {label}?")
        expect_round(page, round_number)  # nothing scored yet
        post(page, "/score/", page.get_by_role("button", name="Yes, score 0").click)
    expect(page.locator(".confirm-zero")).to_have_count(0)
    expect(score_row(page, key).locator(".filled")).to_have_text(str(points))
    expect_round(page, round_number + 1)
    return points


# --- Journey 1: sign up and play a whole game ---------------------------------------------------


def test_sign_up_and_play_a_whole_game(page: Page, site: str, problems: BrowserProblems) -> None:
    page.goto(f"{site}/")
    assert_assets_loaded(page)
    sign_up(page, site, "carol", "Carol", confirm=False)
    assert_assets_loaded(page, first_page=False)
    expect(page.locator(".message-success")).to_contain_text("Welcome, Carol!")
    # Trial games wait for the address: the games page says so and offers the link again.
    expect(page.locator("[data-confirm-email]")).to_be_visible()
    expect(page.get_by_role("button", name="Start a game of Classic Yahtzee")).to_have_count(0)
    confirm_email(page, site, "carol@example.com")
    page.get_by_role("link", name="Play", exact=True).click()
    game_id = start_game(page, site)
    assert_assets_loaded(page, first_page=False)
    expect(page.locator("button.score-option")).to_have_count(0)  # nothing to score unrolled
    expect(page.locator("fieldset.dice")).to_have_attribute("disabled", "")
    expect(die(page, 0)).to_be_disabled()

    # Round 1: roll, hold, and refuse a zero twice (Escape, then Cancel) before confirming it.
    roll(page, "click")
    toggle_hold(page, 0, "click", game_id)
    toggle_hold(page, 3, "key", game_id)
    toggle_hold(page, 3, "key", game_id)  # released again
    roll(page, "r")
    zero = page.locator("button.score-option.is-zero").first  # a YAHTZEE or Lg. Straight at least
    key = zero.get_attribute("data-box-key") or ""
    row = score_row(page, key)
    state = (faces(page), held(page), rolls_left(page), card_snapshot(page))

    post(page, "/score/", lambda: page.keyboard.press(key))
    expect(page.locator(".confirm-zero")).to_be_visible()
    with page.expect_response(lambda r: r.request.method == "GET" and f"/play/{game_id}/" in r.url):
        page.keyboard.press("Escape")
    settle(page)
    expect(page.locator(".confirm-zero")).to_have_count(0)
    assert (faces(page), held(page), rolls_left(page), card_snapshot(page)) == state

    post(page, "/score/", row.locator("button.score-option").click)
    expect(page.locator(".confirm-zero")).to_be_visible()
    with page.expect_response(lambda r: r.request.method == "GET" and f"/play/{game_id}/" in r.url):
        page.get_by_role("link", name="Cancel").click()
    settle(page)
    expect(page.locator(".confirm-zero")).to_have_count(0)
    assert (faces(page), held(page), rolls_left(page), card_snapshot(page)) == state
    assert not Move.objects.filter(game_id=game_id, action=MoveAction.SCORE).exists()
    assert cards_of(game_id) == [{}]

    post(page, "/score/", row.locator("button.score-option").click)
    expect(page.locator(".confirm-zero")).to_be_visible()
    post(page, "/score/", page.get_by_role("button", name="Yes, score 0").click)
    expect(row.locator(".filled")).to_have_text("0")
    expect_round(page, 2)
    scored = [0]

    # Rounds 2-13: every way to roll, hold and score, taking the first box on offer.
    roll_ways: list[RollHow] = ["click", "r", "space"]
    for round_number in range(2, 14):
        roll(page, roll_ways[round_number % 3])
        toggle_hold(page, round_number % 5, "click", game_id)
        toggle_hold(page, (round_number + 2) % 5, "key", game_id)
        if round_number % 4 == 0:
            toggle_hold(page, (round_number + 2) % 5, "key", game_id)  # changed my mind
        roll(page, "r" if round_number % 2 else "click")
        if round_number % 3 == 0:
            roll(page, "click")  # the third roll: then only scoring is left
        how: ScoreHow = "key" if round_number % 2 else "click"
        scored.append(score_first_box(page, how, round_number))

    over = page.locator(".game-over")
    expect(over.get_by_role("heading", name="Game over")).to_be_visible()
    final = int(over.locator(".final-score strong").inner_text())
    assert int(page.locator(".grand-total").inner_text()) == final
    expect(page.locator(".game-score")).to_match_aria_snapshot(f"- paragraph: Total score {final}")
    expect(page.locator("button.score-option")).to_have_count(0)

    game = Game.objects.get(pk=game_id)
    seat = Seat.objects.get(game=game)
    assert game.status == GameStatus.FINISHED
    sheet = sheet_of(game)
    (card,) = sheet.cards
    assert sorted(card) == sorted(rules.CATEGORIES)
    upper = sum(card[box] for box in rules.UPPER)
    computed = (
        sum(card.values())
        + (rules.UPPER_BONUS if upper >= rules.UPPER_BONUS_THRESHOLD else 0)
        + rules.YAHTZEE_BONUS * sheet.yahtzee_bonuses
    )
    assert seat.grand_total == computed == final
    assert sum(scored) == sum(card.values())
    assert Move.objects.filter(game=game, action=MoveAction.SCORE).count() == 13

    # The page kept its log all game, adding each move as it came: it shows the latest eight,
    # exactly what the log reads from the database when the page is loaded again.
    shown = page.locator(".move-log li:visible").all_inner_texts()
    assert len(shown) == 8 and shown[0].endswith(f"in {rules.Box(seat_last_box(game)).label}")
    page.reload()
    assert page.locator(".move-log li").all_inner_texts() == shown

    page.get_by_role("link", name="My games").first.click()
    finished = page.locator("table.results tbody tr").first
    expect(finished.locator("td.num").first).to_have_text(str(final))
    seat.refresh_from_db()  # graded by the last move: a Classic game played alone
    assert seat.accuracy is not None
    expect(finished.locator("td.num").nth(1)).to_have_text(f"{seat.accuracy:.1f}%")
    problems.assert_none()


def seat_last_box(game: Game) -> str:
    last = Move.objects.filter(game=game, action=MoveAction.SCORE).order_by("-seq").first()
    assert last is not None and last.box
    return last.box


# --- Journey 2: leave and come back -------------------------------------------------------------


def test_a_game_resumes_exactly_after_reload_and_from_the_dashboard(
    page: Page, site: str, problems: BrowserProblems
) -> None:
    make_player("dave", "Dave")
    log_in(page, site, "dave")
    game_id = start_game(page, site)
    roll(page, "click")
    toggle_hold(page, 1, "click", game_id)
    toggle_hold(page, 4, "key", game_id)

    def table_state() -> tuple[object, ...]:
        return (
            faces(page),
            held(page),
            [die_label(page, i).get_attribute("class") for i in range(rules.DICE_COUNT)],
            rolls_left(page),
            card_snapshot(page),
            page.locator(".game-round").inner_text(),
            page.locator(".grand-total").inner_text(),
        )

    before = table_state()
    assert before[1] == [False, True, False, False, True]
    page.reload()
    assert table_state() == before
    expect(die_label(page, 1).locator(".die-held-tag")).to_be_visible()

    page.get_by_role("link", name="My games").click()
    expect(page).to_have_url(f"{site}/play/")
    resume = page.get_by_role("link", name=re.compile("Resume Classic Yahtzee"))
    expect(resume).to_contain_text("0 of 13 boxes filled")
    resume.click()
    expect(page).to_have_url(f"{site}/play/{game_id}/")
    assert table_state() == before

    # The held dice still count: the next roll keeps them.
    roll(page, "r")
    points = score_first_box(page, "click", 1)
    page.reload()
    expect(score_row(page, "a").locator(".filled")).to_have_text(str(points))
    expect(page.locator("button.score-option")).to_have_count(0)
    expect_round(page, 2)
    expect(page.locator(".rolls-left")).to_have_text("3 left")
    problems.assert_none()


# --- Journey 3: an impatient double click ---------------------------------------------------------


def test_double_clicking_roll_rolls_once(page: Page, site: str, problems: BrowserProblems) -> None:
    make_player("erin", "Erin")
    log_in(page, site, "erin")
    game_id = start_game(page, site)
    rolls_sent: list[str] = []
    page.on(
        "request",
        lambda r: rolls_sent.append(r.url) if r.method == "POST" and "/roll/" in r.url else None,
    )

    with page.expect_response(lambda r: "/roll/" in r.url):
        page.locator("[data-roll]").dblclick()
    expect(page.locator(".rolls-left")).to_have_text("2 left")
    settle(page)  # a second, queued request would be in flight by now
    assert len(rolls_sent) == 1
    assert Move.objects.filter(game_id=game_id, action=MoveAction.ROLL).count() == 1
    assert match_of(game_id).turn.rolls_used == 1
    expect(page.locator(".alert")).to_have_count(0)

    # Faster than any hand: two clicks in the same task, before any answer can arrive.
    with page.expect_response(lambda r: "/roll/" in r.url):
        page.evaluate(
            "() => { const b = document.querySelector('[data-roll]'); b.click(); b.click(); }"
        )
    expect(page.locator(".rolls-left")).to_have_text("1 left")
    settle(page)
    assert len(rolls_sent) == 2
    assert Move.objects.filter(game_id=game_id, action=MoveAction.ROLL).count() == 2
    problems.assert_none()
    expect(page.locator(".alert")).to_have_count(0)
    problems.assert_none()


# --- Journey 4: the keyboard help ---------------------------------------------------------------


def test_question_mark_opens_and_closes_the_keys_help(
    page: Page, site: str, problems: BrowserProblems
) -> None:
    make_player("frank", "Frank")
    log_in(page, site, "frank")
    game_id = start_game(page, site)
    dialog = page.locator("dialog#keys-help")
    expect(dialog).to_be_hidden()

    page.keyboard.press("?")
    expect(dialog).to_have_attribute("open", "")
    expect(dialog.get_by_role("heading", name="Keyboard keys")).to_be_visible()
    page.keyboard.press("r")  # keys do nothing behind the open dialog
    page.keyboard.press("?")
    expect(dialog).not_to_have_attribute("open", re.compile(".*"))

    page.keyboard.press("?")
    expect(dialog).to_be_visible()
    page.keyboard.press("Escape")
    expect(dialog).to_be_hidden()

    page.get_by_role("button", name="Keyboard keys").click()
    expect(dialog).to_be_visible()
    dialog.get_by_role("button", name="Close").click()
    expect(dialog).to_be_hidden()

    assert not Move.objects.filter(game_id=game_id).exists()
    expect(page.locator(".rolls-left")).to_have_text("3 left")
    problems.assert_none()


# --- Journey 5: no JavaScript at all ------------------------------------------------------------


def test_the_game_works_without_javascript(
    no_js_page: Page, site: str, problems: BrowserProblems
) -> None:
    page = no_js_page
    sign_up(page, site, "grace", "Grace")
    game_id = start_game(page, site)

    page.get_by_role("button", name=re.compile(r"^Roll")).click()
    expect(page).to_have_url(f"{site}/play/{game_id}/")
    expect(page.locator(".rolls-left")).to_have_text("2 left")
    first = faces(page)
    assert all(first), first

    die_label(page, 0).click()
    die_label(page, 2).click()
    expect(die(page, 0)).to_be_checked()
    assert match_of(game_id).turn.held == (False,) * 5  # nothing sent yet
    page.get_by_role("button", name=re.compile(r"^Roll")).click()
    expect(page).to_have_url(f"{site}/play/{game_id}/")
    expect(page.locator(".rolls-left")).to_have_text("1 left")
    assert held(page) == [True, False, True, False, False]
    second = faces(page)
    assert (second[0], second[2]) == (first[0], first[2])
    assert match_of(game_id).turn.held == (True, False, True, False, False)

    button = page.locator("button.score-option").first
    points = int(button.inner_text())
    button.click()
    if points == 0:
        expect(page.locator(".confirm-title")).to_have_text("Score 0 in Aces?")
        page.get_by_role("button", name="Yes, score 0").click()
    expect(page).to_have_url(f"{site}/play/{game_id}/")
    expect(score_row(page, "a").locator(".filled")).to_have_text(str(points))
    expect_round(page, 2)
    expect(page.locator(".rolls-left")).to_have_text("3 left")
    assert cards_of(game_id) == [{"aces": points}]
    problems.assert_none()


# --- Regressions ------------------------------------------------------------------------------


def test_the_header_total_is_exposed_to_assistive_technology(
    page: Page, site: str, problems: BrowserProblems
) -> None:
    make_player("heidi", "Heidi")
    log_in(page, site, "heidi")
    start_game(page, site)
    # A paragraph cannot be named (aria-label on it is ignored): the words must be its text.
    expect(page.locator(".game-score")).to_match_aria_snapshot("- paragraph: Total score 0")
    problems.assert_none()


def test_a_roll_right_after_two_quick_holds_is_not_lost(
    page: Page, site: str, problems: BrowserProblems
) -> None:
    make_player("ivy", "Ivy")
    log_in(page, site, "ivy")
    game_id = start_game(page, site)
    roll(page, "click")
    kept = faces(page)[:2]
    # Tap die 1, tap die 2, tap Roll, all before the first hold is answered (any slow network);
    # pressing 1, 2, r on the keyboard does the same even on localhost.
    page.evaluate(
        """() => {
            document.querySelector('label[for=die-0]').click();
            document.querySelector('label[for=die-1]').click();
            document.querySelector('[data-roll]').click();
        }"""
    )
    expect(page.locator(".rolls-left")).to_have_text("1 left")
    settle(page)
    assert faces(page)[:2] == kept
    assert held(page) == [True, True, False, False, False]
    second = Move.objects.filter(game_id=game_id, action=MoveAction.ROLL).order_by("seq")[1]
    assert second.held == [True, True, False, False, False]
    expect(page.locator(".alert")).to_have_count(0)
    problems.assert_none()
