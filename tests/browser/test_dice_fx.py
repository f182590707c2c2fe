"""Dice effects in a real browser: the thrown dice tumble, held ones stay put, and the rattle.

Which dice tumbled is recorded by a MutationObserver installed before the roll, because the
``is-rolling`` class (on the die's face, not its label, whose classes are game state) lives
only as long as the animation, under half a second.
"""

from __future__ import annotations

from collections.abc import Callable

import pytest
from playwright.sync_api import BrowserContext, Page, expect

from accounts.models import User
from tests.browser.conftest import BrowserProblems, post, sign_up, start_game

# Marked here too (not only by the folder's conftest), so `-m "not browser"` selects them.
pytestmark = pytest.mark.browser

RECORD_TUMBLES = """() => {
  window.tumbled = [];
  window.animations = [];
  new MutationObserver((changes) => {
    for (const change of changes) {
      const face = change.target;
      if (!face.matches('label.die > .die-face.is-rolling')) continue;
      const label = face.closest('label');
      if (!window.tumbled.includes(label.htmlFor)) {
        window.tumbled.push(label.htmlFor);
        window.animations.push(getComputedStyle(face).animationName);
      }
    }
  }).observe(document.body, {subtree: true, attributes: true, attributeFilter: ['class']});
}"""


def tumbled(page: Page) -> list[str]:
    return sorted(page.evaluate("() => window.tumbled"))


def new_game(page: Page, site: str, username: str) -> int:
    sign_up(page, site, username, username.title())
    return start_game(page, site)


def roll(page: Page) -> None:
    post(page, "/roll/", lambda: page.keyboard.press("r"))


def hold(page: Page, index: int) -> None:
    post(page, "/hold/", lambda: page.locator(f"label[for=die-{index}]").click())


def set_options(page: Page, username: str, **options: bool) -> None:
    User.objects.filter(username=username).update(**options)
    page.reload()


def test_only_the_dice_not_held_tumble(page: Page, site: str, problems: BrowserProblems) -> None:
    new_game(page, site, "tumbler")
    page.evaluate(RECORD_TUMBLES)
    roll(page)
    assert tumbled(page) == ["die-0", "die-1", "die-2", "die-3", "die-4"]  # the first throw

    hold(page, 1)
    hold(page, 3)
    page.evaluate(RECORD_TUMBLES)
    roll(page)

    assert tumbled(page) == ["die-0", "die-2", "die-4"]
    assert page.evaluate("() => window.animations") == ["die-tumble"] * 3
    expect(page.locator("label.die.is-held")).to_have_count(2)
    expect(page.locator("label.is-held .die-held-tag")).to_have_count(2)
    # The class goes once the tumble ends, ready for the next roll.
    expect(page.locator(".die-face.is-rolling")).to_have_count(0)
    problems.assert_none()


def test_no_tumble_under_reduced_motion(
    new_context: Callable[..., BrowserContext], site: str, problems: BrowserProblems
) -> None:
    page = problems.watch(new_context(reduced_motion="reduce")).new_page()
    new_game(page, site, "stillness")
    page.evaluate(RECORD_TUMBLES)
    roll(page)
    assert tumbled(page) == []
    # The stylesheet agrees, should the class come from elsewhere.
    face_animation = page.evaluate(
        """() => {
          const face = document.querySelector('label.die > .die-face');
          face.classList.add('is-rolling');
          return getComputedStyle(face).animationName;
        }"""
    )
    assert face_animation == "none"
    problems.assert_none()


def test_no_tumble_with_the_animation_option_off(
    page: Page, site: str, problems: BrowserProblems
) -> None:
    new_game(page, site, "calm")
    set_options(page, "calm", animation=False)
    expect(page.locator("#page")).to_have_attribute("data-animation", "off")
    page.evaluate(RECORD_TUMBLES)
    roll(page)
    assert tumbled(page) == []
    problems.assert_none()


def test_the_rattle_plays_only_with_sound_on(
    page: Page, site: str, problems: BrowserProblems
) -> None:
    new_game(page, site, "rattler")
    roll(page)  # sound is off by default
    assert page.evaluate("() => window.yahtzeeDiceFx.sounds") == 0

    set_options(page, "rattler", sound=True)
    expect(page.locator("#page")).to_have_attribute("data-sound", "on")
    roll(page)  # the key press is the gesture that lets the page make sound
    assert page.evaluate("() => window.yahtzeeDiceFx.sounds") == 1
    roll(page)
    assert page.evaluate("() => window.yahtzeeDiceFx.sounds") == 2
    problems.assert_none()
