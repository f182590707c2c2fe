"""The markup stamp in every game tag: a release that changes how the game partial is drawn
changes every tag, so no page revalidates the old HTML with a 304."""

from __future__ import annotations

import sys
from collections.abc import Iterator
from pathlib import Path

import pytest
from django.template import engines
from django.urls import reverse

from games.play import live
from games.tables import services
from tests.factories import HTMX

ROOT = Path(live.__file__).resolve().parents[2]
CARD_ROWS = ROOT / "templates" / "jinja2" / "games" / "play" / "card_row.html"
"""The card's rows, drawn by the Jinja2 backend: a template the test client does not record."""


@pytest.fixture
def fresh_stamp() -> Iterator[None]:
    """The stamp worked out anew (it is kept once per process), and forgotten again after."""
    live._markup_stamp.cache_clear()
    yield
    live._markup_stamp.cache_clear()


def _tag() -> str:
    return live.etag(game_id=1, version=0, user_id=1, csrf_secret="s")


def _stamp_with_changed(monkeypatch: pytest.MonkeyPatch, changed: Path) -> str:
    """The stamp of a release that differs from this code in the file ``changed`` only."""
    read = Path.read_bytes

    def released(path: Path) -> bytes:
        return read(path) + (b"\n# drawn differently\n" if path.resolve() == changed else b"")

    with monkeypatch.context() as patched:
        patched.setattr(Path, "read_bytes", released)
        live._markup_stamp.cache_clear()
        stamp = _tag()
    live._markup_stamp.cache_clear()
    return stamp


def test_a_release_that_changes_only_the_card_drawing_changes_every_tag(
    fresh_stamp, monkeypatch
) -> None:
    assert _stamp_with_changed(monkeypatch, CARD_ROWS) != _tag()


def test_the_stamp_is_the_same_for_the_same_code(fresh_stamp) -> None:
    # Every node and worker of one release must make the same tags, or checks across them fail.
    first = _tag()
    live._markup_stamp.cache_clear()

    assert _tag() == first


def _drawn_from(response) -> set[Path]:
    """The templates a response was rendered with (the Jinja2 backend's, which the test client
    does not record, as those it has loaded), and every module of ours loaded by then."""
    templates = {Path(t.origin.name).resolve() for t in response.templates if t.origin.name}
    loaded = engines["jinja2"].env.cache or {}
    templates |= {Path(t.filename).resolve() for t in loaded.values() if t.filename}
    ours = [ROOT / top for top in ("accounts", "games", "yahtzee_site")]
    modules = {
        Path(module.__file__).resolve()
        for module in list(sys.modules.values())
        if getattr(module, "__file__", None)
        and any(Path(module.__file__).resolve().is_relative_to(top) for top in ours)
        and "migrations" not in Path(module.__file__).parts
    }
    return templates | modules


@pytest.mark.parametrize("room", [False, True], ids=["game", "waiting room"])
def test_the_stamp_covers_everything_the_tagged_partial_is_drawn_from(
    room, player, alice_client, fresh_stamp, monkeypatch
) -> None:
    game = services.open_game(owner=player, invites=1 if room else 0)

    response = alice_client.get(reverse("games:play", kwargs={"game_id": game.pk}), headers=HTMX)

    assert response.status_code == 200 and "ETag" in response
    drawn_from = _drawn_from(response)
    if not room:
        assert CARD_ROWS in drawn_from
    assert any(path.name == ("waiting.html" if room else "game.html") for path in drawn_from)
    stamp = _tag()
    unstamped = {
        path.relative_to(ROOT).as_posix()
        for path in drawn_from
        if _stamp_with_changed(monkeypatch, path) == stamp
    }
    assert unstamped == set()
