"""The cheap "has this game changed?" check that a waiting player's page makes every second.

A game's ``version`` rises with every change. After a change commits, ``publish`` puts the new
version in the shared cache (Redis, when ``REDIS_URL`` is set); ``version`` reads it from there,
or from the database when the cache is only per process (the local-memory default), where a
worker could otherwise miss another worker's change. ``etag`` turns the version, the viewer and
what else the game partial depends on into a tag a browser can revalidate with.
"""

from __future__ import annotations

import hashlib
import hmac
from functools import cache
from pathlib import Path

from django.conf import settings
from django.core.cache import cache as shared_cache
from django.db import transaction

from games.models import Game


def _key(game_id: int) -> str:
    return f"game-version:{game_id}"


def publish(game: Game) -> None:
    """Once the transaction that changed ``game`` commits, make its new version known."""
    if settings.GAME_VERSIONS_IN_CACHE:
        key, version = _key(game.pk), game.version
        transaction.on_commit(lambda: shared_cache.set(key, version, timeout=None))


def version(game_id: int) -> int | None:
    """The game's current version (``None`` for no such game): one cache read or one query."""
    if settings.GAME_VERSIONS_IN_CACHE:
        found = shared_cache.get(_key(game_id))
        if found is not None:
            return int(found)
    found_rows = Game.objects.filter(pk=game_id).order_by().values_list("version", flat=True)
    stored = next(iter(found_rows), None)
    if stored is not None and settings.GAME_VERSIONS_IN_CACHE:
        shared_cache.add(_key(game_id), stored, timeout=None)
    return stored


_ROOT = Path(__file__).resolve().parent.parent
# Where the game partial is drawn from: the apps' and the site's code (views, presenters, the
# card drawn in Python, template tags, the user's options) and their templates, the project's
# templates and static files, and the pinned requirements (Django's own tags and escaping).
_MARKUP_FOLDERS = ("accounts", "games", "yahtzee_site", "templates", "static")
_MARKUP_FILES = ("requirements.txt",)


def markup_sources() -> list[Path]:
    """Every file the game partial could be drawn from, in a fixed order.

    Found by walking the folders rather than named, so a module or template added later is
    covered without editing a list. Caches, hidden files and migrations are left out: they
    differ between machines (a stamp must be the same on every node) or draw nothing.
    """
    found = [_ROOT / name for name in _MARKUP_FILES if (_ROOT / name).is_file()]
    for folder in _MARKUP_FOLDERS:
        for path in (_ROOT / folder).rglob("*"):
            parts = path.relative_to(_ROOT).parts
            if (
                path.is_file()
                and path.suffix != ".pyc"
                and not any(part.startswith(".") or part == "__pycache__" for part in parts)
                and "migrations" not in parts
            ):
                found.append(path)
    return sorted(found, key=lambda path: path.relative_to(_ROOT).as_posix())


@cache
def _markup_stamp() -> str:
    """Changes when the code that draws the game does, so a deploy never revalidates old HTML.

    Worked out once per process (a new release starts new workers): about half a megabyte read.
    """
    digest = hashlib.sha256()
    for source in markup_sources():
        content = source.read_bytes()
        # Each file's name and length too: moving or splitting a file changes the stamp as well.
        name = source.relative_to(_ROOT).as_posix()
        digest.update(f"{name}\0{len(content)}\0".encode())
        digest.update(content)
    return digest.hexdigest()[:12]


def etag(*, game_id: int, version: int, user_id: int | str, csrf_secret: str) -> str:
    """The entity tag of one viewer's game partial at one version.

    Keyed with ``SECRET_KEY``: only the server can make a tag, so a 304 answers only a viewer
    the game was shown to, and never tells a stranger whether someone else's game moved on.
    """
    text = f"{game_id}:{version}:{user_id}:{csrf_secret}:{_markup_stamp()}"
    mac = hmac.new(settings.SECRET_KEY.encode(), text.encode(), hashlib.sha256).hexdigest()
    return f'"g{game_id}v{version}-{mac[:20]}"'
