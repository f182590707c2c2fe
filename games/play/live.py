"""The cheap "has this game changed?" check that a waiting player's page makes every second.

A game's ``version`` rises with every change. After a change commits, ``publish`` puts the new
version in the shared cache (Redis, when ``REDIS_URL`` is set); ``revalidation`` reads it from
there, or from the database when the cache is only per process (the local-memory default), where
a worker could otherwise miss another worker's change, together with the viewer's credential
stamp (``accounts.credentials``), so a session Django would refuse is never answered from the
version alone. ``etag`` turns the version, the viewer and what else the game partial depends on
into a tag a browser can revalidate with.
"""

from __future__ import annotations

import hashlib
import hmac
import time
from functools import cache
from pathlib import Path
from typing import NamedTuple

from django.conf import settings
from django.core.cache import cache as shared_cache
from django.core.cache import caches
from django.db import connection, transaction
from django.db.models import Field, Model

from accounts import credentials
from accounts.models import User
from games.models import Game, GameStatus
from games.play import broadcast


def _key(game_id: int) -> str:
    return f"game-version:{game_id}"


PAGE_OPEN_FOR = 30
"""Seconds after its last update check that a player's page of a game still counts as open
(a page checks about every second; a hidden tab or a sleeping laptop less often, or never)."""
SEEN_EVERY = 10
"""A page's check is written down at most this often: most checks only read it."""


def _seen_key(game_id: int, user_id: int) -> str:
    return f"page-seen:{game_id}:{user_id}"


_UNREAD = object()


def saw_page(
    *, game_id: int, user_id: int, now: float | None = None, last: object = _UNREAD
) -> None:
    """``user_id``'s page of the game has just checked for news (or been drawn, or acted).

    Kept in the ``presence`` cache, shared by every worker: no query, one cache read (none when
    the update check read it already: ``last``), and a write only when the last one is
    ``SEEN_EVERY`` seconds old.
    """
    now = time.time() if now is None else now
    seen, key = caches["presence"], _seen_key(game_id, user_id)
    if last is _UNREAD:
        last = seen.get(key)
    if not isinstance(last, float | int) or now - last >= SEEN_EVERY:
        seen.set(key, now, timeout=PAGE_OPEN_FOR + SEEN_EVERY)


def saw_pages(pages: list[tuple[int, int]], now: float | None = None) -> None:
    """Each (game, account) in ``pages`` has a page of the game open now (a stream of it: see
    ``games.play.stream``), marked in one write for them all."""
    now = time.time() if now is None else now
    marks = {_seen_key(game_id, user_id): now for game_id, user_id in pages}
    caches["presence"].set_many(marks, timeout=PAGE_OPEN_FOR + SEEN_EVERY)


def page_open(*, game_id: int, user_id: int, now: float | None = None) -> bool:
    """Whether a page of the game that ``user_id`` opened has checked in the last
    ``PAGE_OPEN_FOR`` seconds (allowing for the writes skipped in between)."""
    now = time.time() if now is None else now
    last = caches["presence"].get(_seen_key(game_id, user_id))
    return isinstance(last, float | int) and now - last < PAGE_OPEN_FOR + SEEN_EVERY


def publish(game: Game, *, rolled: bool = False) -> None:
    """Once the transaction that changed ``game`` commits, make its new version known: to the
    update check (the shared cache), then to every open stream of the game (``broadcast``).
    ``rolled``: the change was a roll, which the other players' pages show rolling."""
    key, version = _key(game.pk), game.version
    over = game.status in (GameStatus.FINISHED, GameStatus.ABANDONED)
    rematch = game.rematch_id is not None
    in_cache = settings.GAME_VERSIONS_IN_CACHE

    def tell() -> None:
        news = broadcast.change(
            game_id=game.pk, version=version, over=over, rematch=rematch, rolled=rolled
        )
        # Where the streams' Redis is the cache's own, the version for the update check and
        # the news for the streams go in one round trip (a move paid two: ``make bench``).
        made = shared_cache.make_and_validate_key(key) if in_cache else ""
        if in_cache and broadcast.publish_and_set(news, key=made, number=version):
            return
        if in_cache:
            shared_cache.set(key, version, timeout=None)
        broadcast.publish(news)

    transaction.on_commit(tell)


class Revalidation(NamedTuple):
    """What the update check needs beside the session: the game's version, and the viewer's
    credential stamp (their session auth hash, or "" for an account that may not log in)."""

    version: int
    credentials: str
    seen: object = _UNREAD
    """When the viewer's page last checked (``saw_page``), where it was read in the same round
    trip: where the presence cache is the shared cache itself (Redis)."""


def revalidation(*, game_id: int, user_id: int) -> Revalidation | None:
    """The game's version and the viewer's credential stamp, read together: one cache round
    trip where the cache is shared, else one query. ``None`` for no such game or account.

    A stamp or version missing from the shared cache is read from the database (one query for
    both) and put back only if still missing: a newer one published meanwhile is never
    overwritten with what was read before it.
    """
    shared = settings.GAME_VERSIONS_IN_CACHE
    version_key, stamp_key = _key(game_id), credentials.key(user_id)
    # Where the presence cache is the shared cache itself (Redis), the page's last check is
    # read in the same round trip.
    presence = settings.CACHES.get("presence") == settings.CACHES["default"]
    keys = [version_key, stamp_key, *([_seen_key(game_id, user_id)] if presence else [])]
    found = shared_cache.get_many(keys) if shared else {}
    if version_key in found and stamp_key in found:
        seen = found.get(keys[-1]) if presence else _UNREAD
        return Revalidation(int(found[version_key]), str(found[stamp_key]), seen)
    stored = _stored(game_id=game_id, user_id=user_id)
    if stored is not None and shared:
        if version_key not in found:
            shared_cache.add(version_key, stored.version, timeout=None)
        if stamp_key not in found:
            shared_cache.add(stamp_key, stored.credentials, timeout=credentials.TTL)
    return stored


def _stored(*, game_id: int, user_id: int) -> Revalidation | None:
    with connection.cursor() as cursor:
        cursor.execute(_stored_sql(connection.vendor), [game_id, user_id])
        row = cursor.fetchone()
    if row is None or row[2] is None:
        return None
    password, is_active, version = row
    viewer = User.from_db(connection.alias, _CREDENTIALS, (user_id, password, bool(is_active)))
    return Revalidation(int(version), credentials.stamp(viewer))


_CREDENTIALS = ["id", "password", "is_active"]


@cache
def _stored_sql(vendor: str) -> str:
    """The account's credentials and the game's version in one statement, built once per
    process: the ORM took three times as long compiling it as SQLite answering it (0.6 ms)."""
    quote = connection.ops.quote_name

    def column(model: type[Model], name: str) -> str:
        field = model._meta.get_field(name)
        assert isinstance(field, Field) and field.column is not None, f"{name} is no column"
        return f"{quote(model._meta.db_table)}.{quote(field.column)}"

    version = (
        f"SELECT {column(Game, 'version')} FROM {quote(Game._meta.db_table)}"
        f" WHERE {column(Game, 'id')} = %s"
    )
    return (
        f"SELECT {column(User, 'password')}, {column(User, 'is_active')}, ({version})"
        f" FROM {quote(User._meta.db_table)} WHERE {column(User, 'id')} = %s"
    )


_ROOT = Path(settings.BASE_DIR)
# Where the game partial is drawn from: the apps' and the site's code (views, presenters, the
# card's values, template tags, the user's options), the project's templates (Django's and
# Jinja2's) and static files, and the pinned requirements (Django's own tags and escaping).
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
