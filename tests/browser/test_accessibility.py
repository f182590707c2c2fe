"""Accessibility: axe-core audits every page and game state in each theme; keyboard-only play.

``test_visitor_pages_pass_axe`` and ``test_player_pages_pass_axe[theme]`` run axe-core (vendored
in ``vendor/``, see its README) on each page a visitor, then a logged-in player in each of the
three themes, can reach, and fail on any violation of impact "serious" or "critical" (colour
contrast to WCAG AA included). The message lists every such violation with the nodes it found, so
one run shows all that is wrong. Each page must also fit a 360 px phone without sideways scrolling.

``test_a_whole_game_by_keyboard_alone`` starts and plays a Classic game with the keyboard only and
checks that what has the focus shows it.

With ``SCREENSHOT_DIR`` set, every audited page is also saved there at 360x740 and 1280x900:

    SCREENSHOT_DIR=/tmp/a11y-shots .venv/bin/python -m pytest tests/browser/test_accessibility.py
"""

from __future__ import annotations

import base64
import os
import re
from dataclasses import dataclass, field
from datetime import timedelta
from pathlib import Path
from typing import Any

import pytest
from django.utils import timezone
from playwright.sync_api import Page, expect

from accounts.models import User
from games import rules
from games.models import Game, GameStatus, MoveAction
from games.play import actions as play
from games.tables import services
from tests.browser.conftest import (
    PASSWORD,
    BrowserProblems,
    log_in,
    make_player,
    post,
    settle,
)
from tests.factories import ScriptedDice, cards_of, finished_game

# Marked here too (not only by the folder's conftest), so `-m "not browser"` selects them.
pytestmark = pytest.mark.browser

AXE_PATH = Path(__file__).resolve().parent / "vendor" / "axe.min.js"
THEMES = ["classic", "dark", "light"]
# Each theme is shown with another dice style, so every style is seen once on the table.
DICE_STYLES = {"classic": "ivory", "dark": "black", "light": "red"}
BLOCKING = ("serious", "critical")
PHONE = {"width": 360, "height": 740}
DESKTOP = {"width": 1280, "height": 900}

# The site's CSP (script-src 'self' 'nonce-…') refuses an inline <script>, which is what
# page.add_script_tag(content=... or path=...) inserts. page.evaluate() is not subject to the
# page's CSP: Playwright runs it through the DevTools protocol. So the library's source is
# evaluated that way, into the page's own world, and the pages are audited under their real CSP
# (no bypass_csp, which would also hide a CSP-related breakage from the audit).
AXE_SOURCE = AXE_PATH.read_text(encoding="utf-8")

# Every violation, and the colour-contrast checks axe could not decide: text over a gradient (the
# dice tray's felt), over an image, or too short to call text (a chart's "100"). Those are then
# measured from the pixels behind the text (see ``pixel_contrasts``); non-text symbols (an arrow)
# are left out.
AXE_RUN = """async () => {
  const results = await axe.run(document, {resultTypes: ['violations', 'incomplete']});
  const brief = (v) => ({
    id: v.id,
    impact: v.impact,
    help: v.help,
    nodes: v.nodes.map((n) => ({
      target: n.target.join(' '),
      summary: n.failureSummary,
      why: (n.any[0] && n.any[0].data && n.any[0].data.messageKey) || '',
    })),
  });
  return {
    violations: results.violations.map(brief),
    undecided: results.incomplete.filter((v) => v.id === 'color-contrast').map(brief),
  };
}"""

# Text over a gradient or an image is measured from a screenshot taken with the text made
# transparent: what shows through its box is what lies behind it. First each text's colour (read
# before any is hidden) and the contrast it needs (3:1 for large text, 4.5:1 otherwise).
TEXT_COLOURS = """(selectors) => selectors.map((selector) => {
  const el = document.querySelector(selector);
  if (!el || !el.getClientRects().length) return null;
  const style = getComputedStyle(el);
  const size = parseFloat(style.fontSize);
  const bold = Number(style.fontWeight) >= 700;
  return {
    selector,
    color: el instanceof SVGElement ? style.fill : style.color,
    needed: size >= 24 || (bold && size >= 18.66) ? 3 : 4.5,
  };
})"""

# Hide (or show again) the text of these elements and of everything in them.
SET_TEXT_HIDDEN = """({selectors, hidden}) => {
  for (const selector of selectors) {
    const inside = document.querySelectorAll(selector + ' *');
    for (const each of [...document.querySelectorAll(selector), ...inside]) {
      const property = each instanceof SVGElement ? 'fill' : 'color';
      if (hidden) each.style.setProperty(property, 'transparent');
      else each.style.removeProperty(property);
      if (!each.getAttribute('style')) each.removeAttribute('style');
    }
  }
}"""

# Scroll the first into view; where each text's own box is in the viewport now, and whether
# something else (the dice tray pinned over a phone's score card) covers it there.
TEXT_BOXES = """({first, selectors}) => {
  document.querySelector(first).scrollIntoView({block: 'center', inline: 'nearest'});
  return selectors.map((selector) => {
    const el = document.querySelector(selector);
    const range = document.createRange();
    range.selectNodeContents(el);
    const box = range.getBoundingClientRect();
    const points = [[0.5, 0.5], [0.05, 0.1], [0.95, 0.1], [0.05, 0.9], [0.95, 0.9]];
    const covered = points.some(([fx, fy]) => {
      const top = document.elementFromPoint(box.x + fx * box.width, box.y + fy * box.height);
      return !top || !(el.contains(top) || top.contains(el));
    });
    return {x: box.x, y: box.y, width: box.width, height: box.height, covered};
  });
}"""

LUMINANCE = """const luminance = ([r, g, b]) => {
    const f = (c) => (c /= 255) <= 0.04045 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
    return 0.2126 * f(r) + 0.7152 * f(g) + 0.0722 * f(b);
  };
  const ratio = (a, b) => (Math.max(a, b) + 0.05) / (Math.min(a, b) + 0.05);
  const rgb = (css) => css.match(/[\\d.]+/g).slice(0, 3).map(Number);"""

# For each text whose box the screenshot holds: the worst contrast between its colour and any
# pixel behind it.
WORST_CONTRASTS = (
    """async ({png, texts}) => {
  """
    + LUMINANCE
    + """
  const image = new Image();
  image.src = 'data:image/png;base64,' + png;
  await image.decode();
  const canvas = document.createElement('canvas');
  canvas.width = image.width;
  canvas.height = image.height;
  const context = canvas.getContext('2d', {willReadFrequently: true});
  context.drawImage(image, 0, 0);
  return texts.map(({box, color}) => {
    const x = Math.floor(box.x), y = Math.floor(box.y);
    const width = Math.min(Math.ceil(box.x + box.width), image.width) - x;
    const height = Math.min(Math.ceil(box.y + box.height), image.height) - y;
    const pixels = context.getImageData(x, y, width, height).data;
    const text = luminance(rgb(color));
    let worst = Infinity;
    for (let i = 0; i < pixels.length; i += 4) {
      worst = Math.min(worst, ratio(text, luminance([pixels[i], pixels[i + 1], pixels[i + 2]])));
    }
    return worst;
  });
}"""
)

# What the focused element shows: its outline and box-shadow, and the colours painted just
# outside its ring on each side. A die's checkbox is hidden; its label (the die) shows the ring.
FOCUS_RING = (
    """() => {
  const el = document.activeElement;
  if (!el || el === document.body || el === document.documentElement) return null;
  window.a11ySeen = window.a11ySeen || new WeakSet();
  const again = window.a11ySeen.has(el);
  window.a11ySeen.add(el);
  const ring = el.matches('.die-toggle') && el.labels.length ? el.labels[0] : el;
  const style = getComputedStyle(ring);
  """
    + LUMINANCE
    + """
  const opaque = (css) => {
    const channels = css.match(/[\\d.]+/g);
    return channels.length < 4 || Number(channels[3]) >= 0.99;
  };
  const width = style.outlineStyle === 'none' ? 0 : parseFloat(style.outlineWidth);
  const out = Math.max(0, parseFloat(style.outlineOffset) || 0) + width + 2;
  const r = ring.getBoundingClientRect();
  const sides = [[r.left - out, r.top + r.height / 2], [r.right + out, r.top + r.height / 2],
                 [r.left + r.width / 2, r.top - out], [r.left + r.width / 2, r.bottom + out]];
  const around = [];
  for (const [x, y] of sides) {
    if (x < 0 || y < 0 || x >= innerWidth || y >= innerHeight) continue;
    const under = document.elementsFromPoint(x, y).find((e) => e !== ring && !ring.contains(e) &&
      opaque(getComputedStyle(e).backgroundColor));
    around.push(under ? getComputedStyle(under).backgroundColor : 'rgb(255, 255, 255)');
  }
  // A ring may touch something dark on one side (a table's heading row, the current tab beside
  // it): it must contrast on three sides of four, or on every side measured when fewer.
  const contrast = (color) => {
    const each = around.map((bg) => ratio(luminance(rgb(color)), luminance(rgb(bg))));
    each.sort((a, b) => a - b);
    return each.length >= 3 ? each[1] : each.length ? each[0] : 0;
  };
  let shadow = 0;
  for (const m of style.boxShadow.matchAll(/(rgba?\\([^)]*\\)) 0px 0px 0px ([\\d.]+)px/g)) {
    if (Number(m[2]) >= 2) shadow = Math.max(shadow, contrast(m[1]));
  }
  // Something pinned (the phone's dice tray) may cover the focused element (WCAG 2.4.11).
  const hit = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
  const covered = hit && !(ring.contains(hit) || hit.contains(ring))
    ? hit.tagName.toLowerCase() + ' in ' + (hit.closest('[class]:not(svg *)') || hit).className
    : '';
  const text = el.getAttribute('aria-label') || el.textContent || el.value || el.tagName;
  const label = (el.id ? '#' + el.id + ' ' : '') + text;
  return {
    again,
    name: label.trim().replace(/\\s+/g, ' ').slice(0, 60),
    visible: el.matches(':focus-visible'),
    covered,
    outline: width >= 2 ? contrast(style.outlineColor) : 0,
    shadow,
  };
}"""
)


# Tab goes on from the last element focused, even once it is blurred: focusing (then removing)
# a mark at the start of the page makes the next Tab go to its first focusable element.
START_AT_THE_TOP = """() => {
  window.a11ySeen = new WeakSet();
  const mark = document.createElement('span');
  mark.tabIndex = -1;
  document.body.prepend(mark);
  mark.focus({preventScroll: true});
  mark.remove();
}"""


def pixel_contrasts(page: Page, selectors: list[str]) -> dict[str, tuple[float, float]]:
    """For each text: (the worst contrast with any pixel behind it, the contrast it needs).

    All the texts are hidden at once; one screenshot serves every text in the viewport, and the
    page scrolls on to the next text left until all are measured.
    """
    texts = [text for text in page.evaluate(TEXT_COLOURS, selectors) if text]
    if not texts:
        return {}
    wanted = [text["selector"] for text in texts]
    viewport = page.viewport_size or DESKTOP
    measured: dict[str, tuple[float, float]] = {}
    page.evaluate(SET_TEXT_HIDDEN, {"selectors": wanted, "hidden": True})
    try:
        while texts:
            boxes = page.evaluate(
                TEXT_BOXES,
                {"first": texts[0]["selector"], "selectors": [t["selector"] for t in texts]},
            )
            inside = [
                {**text, "box": box}
                for text, box in zip(texts, boxes, strict=True)
                if (text is texts[0] or not box["covered"])
                and box["width"] >= 1
                and box["height"] >= 1
                and box["x"] >= 0
                and box["y"] >= 0
                and box["x"] + box["width"] <= viewport["width"]
                and box["y"] + box["height"] <= viewport["height"]
            ]
            if inside:
                png = base64.b64encode(page.screenshot(animations="disabled")).decode()
                worst = page.evaluate(WORST_CONTRASTS, {"png": png, "texts": inside})
                for text, contrast in zip(inside, worst, strict=True):
                    measured[text["selector"]] = (contrast, text["needed"])
            done = {text["selector"] for text in inside} | {texts[0]["selector"]}
            texts = [text for text in texts if text["selector"] not in done]
    finally:
        page.evaluate(SET_TEXT_HIDDEN, {"selectors": wanted, "hidden": False})
    return measured


@dataclass
class Audit:
    """Runs axe on each page it is shown, and remembers what it found there."""

    page: Page
    label: str
    found: list[str] = field(default_factory=list)
    pages: list[str] = field(default_factory=list)
    shots: Path | None = None

    def __post_init__(self) -> None:
        directory = os.environ.get("SCREENSHOT_DIR", "").strip()
        if directory:
            self.shots = Path(directory)
            self.shots.mkdir(parents=True, exist_ok=True)

    def __call__(self, name: str, *, tab: bool = False) -> None:
        """Audit the page as it is now, on a desktop and on a phone (the layouts differ: the
        dice tray is pinned to the bottom of a phone); with ``tab``, also Tab through it there
        checking the focus. Then the screenshots, when asked for."""
        page = self.page
        settle(page)
        self.pages.append(name)
        if not page.evaluate("() => typeof window.axe === 'object'"):
            page.evaluate(AXE_SOURCE)
        for size in (DESKTOP, PHONE):
            page.set_viewport_size(size)
            where = f"{name} @{size['width']}"
            self._axe(where)
            if tab:
                self.tab_through(where)
            if size is PHONE:
                width = page.evaluate("() => document.documentElement.scrollWidth")
                if width > PHONE["width"]:
                    self.found.append(f"[{self.label}] {where}: {width} px wide, scrolls sideways")
        if self.shots:
            for size in (PHONE, DESKTOP):
                page.set_viewport_size(size)
                page.evaluate(
                    "() => { window.scrollTo(0, 0); return new Promise(requestAnimationFrame); }"
                )
                path = self.shots / f"{self.label}-{name}-{size['width']}x{size['height']}.png"
                page.screenshot(path=str(path), full_page=True, animations="disabled")
        page.set_viewport_size(DESKTOP)

    def _axe(self, where: str) -> None:
        page = self.page
        page.evaluate("() => new Promise(requestAnimationFrame)")
        results = page.evaluate(AXE_RUN)
        for violation in results["violations"]:
            if violation["impact"] in BLOCKING:
                self._report(where, violation, violation["nodes"])
        undecided = [
            node["target"]
            for unsure in results["undecided"]
            for node in unsure["nodes"]
            if node["why"] != "nonBmp"  # a symbol (an arrow), not text
        ]
        measured = pixel_contrasts(page, undecided) if undecided else {}
        for unsure in results["undecided"]:
            failing = []
            for node in unsure["nodes"]:
                worst, needed = measured.get(node["target"], (99.0, 0.0))
                if worst < needed:
                    node["summary"] = (
                        f"measured from the pixels behind the text ({node['why']}): "
                        f"contrast down to {worst:.2f}, {needed}:1 needed"
                    )
                    failing.append(node)
            if failing:
                self._report(where, unsure, failing)

    def _report(self, name: str, violation: dict[str, Any], nodes: list[dict[str, str]]) -> None:
        lines = [
            f"[{self.label}] {name}: {violation['id']} ({violation['impact']}) {violation['help']}"
        ]
        for node in nodes:
            lines.append(f"    {node['target']}: {' '.join(node['summary'].split())}")
        self.found.append("\n".join(lines))

    def tab_through(self, name: str, limit: int = 80) -> list[str]:
        """Tab from the top of the page to its end: each stop must show a focus ring (WCAG 2.4.7)
        that contrasts 3:1 with what is around it (1.4.11), by its outline or a solid box-shadow.
        The names of the stops, in order."""
        page = self.page
        page.evaluate(START_AT_THE_TOP)
        stops: list[str] = []
        for _ in range(limit):
            page.keyboard.press("Tab")
            ring = page.evaluate(FOCUS_RING)
            if ring is None:
                if stops:
                    break
                continue
            if ring["again"]:
                break
            stops.append(ring["name"])
            if ring["covered"]:
                self.found.append(
                    f"[{self.label}] {name}: {ring['name']!r} has the focus but is hidden "
                    f"under {ring['covered']}"
                )
            elif not ring["visible"] or max(ring["outline"], ring["shadow"]) < 3:
                self.found.append(
                    f"[{self.label}] {name}: focus ring too faint on {ring['name']!r}: "
                    f":focus-visible {ring['visible']}, outline contrast {ring['outline']:.2f}, "
                    f"box-shadow contrast {ring['shadow']:.2f} (3:1 needed)"
                )
        page.evaluate("() => document.activeElement.blur()")
        return stops

    def assert_clean(self) -> None:
        problems = "\n".join(self.found)
        assert not self.found, (
            f"{len(self.found)} accessibility problem(s) on {len(self.pages)} pages:\n{problems}"
        )


# --- Data: finished games for the high scores and the statistics ----------------------------

CARD = {
    "aces": 3,
    "twos": 6,
    "threes": 9,
    "fours": 12,
    "fives": 15,
    "sixes": 18,
    "three_of_a_kind": 21,
    "four_of_a_kind": 0,
    "full_house": 25,
    "small_straight": 30,
    "large_straight": 0,
    "yahtzee": 0,
    "chance": 22,
}


def record_score(user: User, total: int, *, days_ago: float, computer: bool = False) -> None:
    """A finished Classic game straight into the database."""
    finished_game(
        user,
        total,
        when=timezone.now() - timedelta(days=days_ago),
        computer=computer,
        cards=[dict(CARD)],
        upper_bonuses=1 if total > 200 else 0,
        yahtzees=1 if total > 250 else 0,
    )


def some_scores(player: User | None = None) -> User:
    """Other players' games, and a dozen of ``player``'s; the other player, for their page."""
    ada = make_player("ada", "Ada Lovelace")
    bert = make_player("bert", "Bert")
    for days, total in enumerate((287, 231, 198, 176, 240, 155, 264)):
        record_score(ada, total, days_ago=days * 3 + 1)
    record_score(bert, 212, days_ago=2)
    record_score(bert, 301, days_ago=40, computer=True)
    if player is not None:
        for days, total in enumerate((143, 188, 205, 172, 226, 251, 194, 168, 233, 209, 181, 245)):
            record_score(player, total, days_ago=60 - days * 5)
    return ada


# --- Games in given states, through the real services -----------------------------------------


def roll_now(game_id: int, user: User, *dice: int) -> None:
    game = Game.objects.get(pk=game_id)
    play.roll_dice(
        game_id=game_id, user=user, version=game.version, dice_source=ScriptedDice(*dice)
    )


def score_now(game_id: int, user: User, box: str, column: int = 0) -> None:
    game = Game.objects.get(pk=game_id)
    play.score_box(game_id=game_id, user=user, version=game.version, box=box, column=column)


def joker_game(user: User) -> int:
    """A Classic game with YAHTZEE scored and a second five of a kind rolled: the Joker rule."""
    game_id = services.start_game(owner=user).pk
    roll_now(game_id, user, 6, 6, 6, 6, 6)
    score_now(game_id, user, "yahtzee")
    roll_now(game_id, user, 3, 3, 3, 3, 3)
    return game_id


# Three of a kind in each upper box: with the Joker's 15 Threes, 69 and the upper bonus.
UPPER_DICE = {
    "aces": (1, 1, 1, 2, 3),
    "twos": (2, 2, 2, 1, 3),
    "threes": (3, 3, 3, 1, 2),
    "fours": (4, 4, 4, 1, 2),
    "fives": (5, 5, 5, 1, 2),
    "sixes": (6, 6, 6, 1, 2),
}


def finish_joker_game(game_id: int, user: User) -> None:
    """Score the Joker's five 3s in Threes (and the Yahtzee bonus), then fill the other boxes:
    the upper bonus, a Small Straight and some zeros."""
    score_now(game_id, user, "threes")
    card = cards_of(game_id)[0]
    for box in [b for b in rules.CATEGORIES if b not in card]:
        roll_now(game_id, user, *UPPER_DICE.get(box, (2, 3, 4, 5, 5)))
        score_now(game_id, user, box)


# --- The audits -----------------------------------------------------------------------------


def test_visitor_pages_pass_axe(page: Page, site: str, problems: BrowserProblems) -> None:
    ada = some_scores()
    audit = Audit(page, "visitor")
    page.goto(f"{site}/")
    audit("home", tab=True)
    for name, path in [
        ("signup", "/accounts/signup/"),
        ("login", "/accounts/login/"),
        ("password-reset", "/accounts/password/reset/"),
        ("high-scores", "/scores/"),
        ("player", f"/players/{ada.public_id}/"),
        ("help", "/help/"),
    ]:
        page.goto(site + path)
        audit(name)

    # Forms with their errors shown.
    page.goto(f"{site}/accounts/login/")
    page.fill("#id_username", "nobody")
    page.fill("#id_password", "wrong password")
    page.keyboard.press("Enter")
    expect(page.locator(".error-summary")).to_be_visible()
    audit("login-error", tab=True)
    page.goto(f"{site}/accounts/signup/")
    page.fill("#id_username", "ada")
    page.fill("#id_display_name", "Ada")
    page.fill("#id_email", "ada@example.com")
    page.fill("#id_password1", "short")
    page.fill("#id_password2", "other")
    page.keyboard.press("Enter")
    expect(page.locator(".error-summary")).to_be_visible()
    audit("signup-error")

    audit.assert_clean()
    problems.assert_none()


@pytest.mark.parametrize("theme", THEMES)
def test_player_pages_pass_axe(
    page: Page, site: str, problems: BrowserProblems, theme: str, strategy_ready: Any
) -> None:
    problems.allow(r"status of 400")  # the serial with a typo is answered 400, rightly
    user = make_player(f"{theme}_player", f"{theme.title()} Player")
    some_scores(user)
    log_in(page, site, user.username)
    User.objects.filter(pk=user.pk).update(theme=theme, dice_style=DICE_STYLES[theme])
    page.reload()
    expect(page.locator("#page")).to_have_class(re.compile(rf"\btheme-{theme}\b"))
    audit = Audit(page, theme)

    # The game pages first, while the trial has games left to start.
    game_id = services.start_game(owner=user).pk
    page.goto(f"{site}/play/{game_id}/")
    audit("game-unrolled")
    post(page, "/roll/", lambda: page.keyboard.press("r"))
    for key in ("1", "3"):
        post(page, "/hold/", lambda key=key: page.keyboard.press(key))
    expect(page.locator("label.die.is-held")).to_have_count(2)
    audit("game-mid-turn", tab=True)
    for _ in range(2):  # no roll left: the Roll button and the dice are disabled
        post(page, "/roll/", lambda: page.keyboard.press("r"))
    expect(page.locator("[data-roll]")).to_be_disabled()
    zero = page.locator("button.score-option.is-zero").first  # round 1 always has one
    post(page, "/score/", lambda: page.keyboard.press(zero.get_attribute("data-box-key") or ""))
    expect(page.locator(".confirm-zero")).to_be_visible()
    audit("game-confirm-zero", tab=True)
    with page.expect_response(lambda r: r.request.method == "GET" and "/play/" in r.url):
        page.keyboard.press("Escape")
    settle(page)
    page.keyboard.press("?")
    expect(page.locator("dialog#keys-help")).to_be_visible()
    audit("game-keys-help")
    page.keyboard.press("Escape")
    expect(page.locator("dialog#keys-help")).to_be_hidden()

    joker_id = joker_game(user)
    page.goto(f"{site}/play/{joker_id}/")
    expect(page.locator(".tray-note")).to_contain_text("Joker!")
    audit("game-joker", tab=True)
    finish_joker_game(joker_id, user)
    page.reload()
    expect(page.get_by_role("heading", name="Game over")).to_be_visible()
    expect(page.locator(".bonus-earned")).to_have_text("35")
    audit("game-over", tab=True)

    page.goto(f"{site}/play/{joker_id}/analysis/0/")
    expect(page.get_by_role("heading", name="Every decision")).to_be_visible()
    audit("analysis")
    page.goto(f"{site}/play/{joker_id}/replay/0/?step=2")
    expect(page.locator(".replay-position")).to_contain_text("Step 2 of")
    audit("replay", tab=True)

    # Playing together: a game with a guest and a computer, a hint, the waiting room, the lobby
    # and an invitation.
    several = services.start_game(owner=user, guests=["Ann"], computers=["good"]).pk
    roll_now(several, user, 4, 4, 4, 1, 2)
    page.goto(f"{site}/play/{several}/")
    post(page, "/hint/", lambda: page.keyboard.press("Shift+H"))
    expect(page.locator(".hint-sentence")).to_be_visible()
    audit("game-several-hint", tab=True)
    room = services.open_game(owner=user, guests=["Ann"], invites=1, open_seats=1)
    page.goto(f"{site}/play/{room.pk}/")
    audit("waiting-room", tab=True)
    host = make_player(f"{theme}_host", f"{theme.title()} Host")
    theirs = services.open_game(owner=host, open_seats=1)
    page.goto(f"{site}/play/lobby/")
    audit("lobby")
    page.goto(f"{site}/play/join/{theirs.invitations.get().token}/")
    audit("join")

    triple_id = services.start_game(owner=user, kind="triple").pk
    roll_now(triple_id, user, 4, 4, 4, 2, 6)
    page.goto(f"{site}/play/{triple_id}/")
    page.keyboard.press("m")  # Chance is open in three columns: the row waits for a column
    expect(page.locator('tr[data-row="m"]')).to_have_class(re.compile(r"\bis-choosing\b"))
    audit("triple-choosing")

    # The coach: a costly box leaves its note beside the card, "Show" opened.
    User.objects.filter(pk=user.pk).update(coach=True, trial_games_used=0)
    coached_id = services.start_game(owner=user).pk
    roll_now(coached_id, user, 3, 3, 3, 3, 3)
    page.goto(f"{site}/play/{coached_id}/")
    post(page, "/score/", lambda: page.keyboard.press("c"))  # Threes, with YAHTZEE open
    page.reload()  # the note stays (and the scoring's celebration has gone)
    page.locator("#coach-note summary").click()
    expect(page.locator(".coach-best li").first).to_be_visible()
    audit("game-coach-note", tab=True)

    for name, path in [
        ("dashboard", "/play/"),
        ("options", "/accounts/options/"),
        ("high-scores", "/scores/"),
    ]:
        page.goto(site + path)
        audit(name, tab=True)
    for name, path in [
        ("home", "/"),
        ("stats", "/players/me/"),
        ("help", "/help/"),
        ("account", "/accounts/"),
        ("serial", "/accounts/serial/"),
    ]:
        page.goto(site + path)
        audit(name)

    page.get_by_label("Serial number").fill("YTZ2-AAAA-BBBB-CCCC")
    page.get_by_role("button", name="Register").click()
    expect(page.locator(".error-summary")).to_be_visible()
    audit("serial-error", tab=True)

    audit.assert_clean()
    problems.assert_none()


# --- Keyboard only ---------------------------------------------------------------------------


def tab_to(page: Page, test: str, limit: int = 80) -> dict[str, Any]:
    """Press Tab until the focused element ``el`` passes ``test`` (JavaScript); its focus ring."""
    page.evaluate("() => { window.a11ySeen = new WeakSet(); }")
    for _ in range(limit):
        page.keyboard.press("Tab")
        if page.evaluate(
            f"() => {{ const el = document.activeElement; return !!el && ({test}); }}"
        ):
            ring = page.evaluate(FOCUS_RING)
            assert ring is not None
            return ring
    raise AssertionError(f"Tab never reached an element where {test}")


def assert_focus_shows(ring: dict[str, Any]) -> None:
    assert not ring["covered"], f"{ring['name']!r} has the focus under {ring['covered']}"
    assert ring["visible"], f"{ring['name']!r} has the focus but does not match :focus-visible"
    assert max(ring["outline"], ring["shadow"]) >= 3, (
        f"the focus ring of {ring['name']!r} is too faint: outline contrast "
        f"{ring['outline']:.2f}, box-shadow contrast {ring['shadow']:.2f} (3:1 needed)"
    )


def score_by_key(page: Page) -> None:
    """Score the first box on offer with its letter key; a zero is confirmed with Enter."""
    key = page.locator("button.score-option").first.get_attribute("data-box-key") or ""
    filled = page.locator("tr.score-row .filled").count()
    post(page, "/score/", lambda: page.keyboard.press(key))
    if page.locator(".confirm-zero").count():
        # The confirmation takes the focus (autofocus), so Enter answers it.
        yes = page.evaluate(FOCUS_RING)
        assert yes is not None and yes["name"] == "Yes, score 0", yes
        assert_focus_shows(yes)
        post(page, "/score/", lambda: page.keyboard.press("Enter"))
    expect(page.locator("tr.score-row .filled")).to_have_count(filled + 1)


def test_a_whole_game_by_keyboard_alone(page: Page, site: str, problems: BrowserProblems) -> None:
    """Log in, start and play a whole Classic game without the mouse, seeing where the focus is."""
    make_player("kim", "Kim")
    page.goto(f"{site}/accounts/login/")
    assert_focus_shows(tab_to(page, "el.id === 'id_username'"))
    page.keyboard.type("kim")
    page.keyboard.press("Tab")
    page.keyboard.type(PASSWORD)
    page.keyboard.press("Enter")
    expect(page).to_have_url(f"{site}/play/")

    start = tab_to(page, "el.textContent.trim() === 'Start a game of Classic Yahtzee'")
    assert_focus_shows(start)
    page.keyboard.press("Enter")
    expect(page).to_have_url(re.compile(rf"^{re.escape(site)}/play/\d+/$"))
    game_id = int(page.url.rstrip("/").rsplit("/", 1)[1])

    # Round 1 the long way: Tab to a die and hold it with Space, Tab on to Roll and press Enter,
    # then choose a box that scores zero and confirm it with Enter.
    post(page, "/roll/", lambda: page.keyboard.press("r"))
    die = tab_to(page, "el.id === 'die-0'")
    assert_focus_shows(die)  # drawn around the die (the label), white on the felt
    post(page, "/hold/", lambda: page.keyboard.press(" "))
    expect(page.locator("#die-0")).to_be_checked()
    roll_button = tab_to(page, "el.matches('[data-roll]')")
    assert_focus_shows(roll_button)
    post(page, "/roll/", lambda: page.keyboard.press("Enter"))
    expect(page.locator(".rolls-left")).to_have_text("1 left")
    expect(page.locator("#die-0")).to_be_checked()
    zero = page.locator("button.score-option.is-zero").first.get_attribute("data-box-key") or ""
    post(page, "/score/", lambda: page.keyboard.press(zero))
    expect(page.locator(".confirm-zero")).to_be_visible()
    yes = page.evaluate(FOCUS_RING)
    assert yes is not None and yes["name"] == "Yes, score 0", yes
    assert_focus_shows(yes)
    post(page, "/score/", lambda: page.keyboard.press("Enter"))
    expect(page.locator(".game-round")).to_have_text(re.compile(r"Round\s+2\s+of\s+13"))

    # Rounds 2-13 with the game's keys: roll, hold a die by its number, roll, score by letter.
    for round_number in range(2, 14):
        post(page, "/roll/", lambda: page.keyboard.press("r"))
        post(page, "/hold/", lambda: page.keyboard.press("2"))
        post(page, "/roll/", lambda: page.keyboard.press("r"))
        score_by_key(page)
        if round_number < 13:
            expect(page.locator(".game-round")).to_have_text(
                re.compile(rf"Round\s+{round_number + 1}\s+of\s+13")
            )

    expect(page.get_by_role("heading", name="Game over")).to_be_visible()
    assert_focus_shows(tab_to(page, "el.textContent.trim() === 'Play again'"))
    game = Game.objects.get(pk=game_id)
    assert game.status == GameStatus.FINISHED
    assert game.moves.filter(action=MoveAction.SCORE).count() == 13
    problems.assert_none()
