"""htmx's GET of a game goes through Chromium's HTTP cache: an unchanged game is revalidated with
its ETag and answered 304, a changed one comes back whole. The check a waiting player's page
will make every second."""

from __future__ import annotations

from typing import Any

import pytest
from playwright.sync_api import Page

from games.play import views
from tests.browser.conftest import BrowserProblems, log_in, make_player, post, start_game

pytestmark = pytest.mark.browser

FETCH = """async (url) => {
  const answer = await fetch(url, {headers: {"HX-Request": "true"}});
  return {status: answer.status, body: (await answer.text()).length};
}"""


def test_chromium_revalidates_an_unchanged_game_and_refetches_a_changed_one(
    page: Page, site: str, problems: BrowserProblems, monkeypatch: pytest.MonkeyPatch
) -> None:
    make_player("waiter", "Waiter")
    log_in(page, site, "waiter")
    game_id = start_game(page, site)
    url = f"{site}/play/{game_id}/"
    # The live server runs in this process: watch what the server answered, since Chromium
    # hands a page a revalidated answer as a 200 from its cache.
    answered: list[int] = []
    real = views._not_modified

    def watched(request: Any, game_id: int) -> Any:
        response = real(request, game_id)
        answered.append(304 if response is not None else 200)
        return response

    monkeypatch.setattr(views, "_not_modified", watched)

    first = page.evaluate(FETCH, url)
    again = page.evaluate(FETCH, url)
    post(page, "/roll/", page.locator("[data-roll]").click)
    after_roll = page.evaluate(FETCH, url)

    assert first["status"] == again["status"] == after_roll["status"] == 200
    assert again["body"] == first["body"] > 1000  # the whole game, from Chromium's cache
    assert after_roll["body"] != first["body"]
    assert answered == [200, 304, 200]
