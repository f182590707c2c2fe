"""Every open stream of a game hears of its changes the moment they commit (``games.play.stream``).

A change is a small message: a game's new version (with whether the game is over and whether
the change was a roll), a game's watch link withdrawn, an account's news (its credential stamp
changed, one of its sessions logged out, it was seated in a quick-play game), or a tournament's
news (its standings changed: each process that has streams of it reads them once and hands the
same ``Pushed`` event to all of them, ``games.play.coalescing``). ``publish`` sends it to Redis
pub/sub when ``REDIS_URL`` is set, so every process on every node hears it; without Redis it
goes straight to this process's ``hub`` (one node, one process: ``make run``). One thread per
process listens to Redis and hands each message to the hub (``games.play.listening``); the hub
wakes the streams it concerns, in whatever event loop each one runs, so an idle stream costs
neither a thread nor a query.
"""

from __future__ import annotations

import asyncio
import json
import logging
import threading
from collections.abc import Callable
from dataclasses import dataclass, field
from functools import cache
from typing import Any
from urllib.parse import urlsplit

import redis
from django.conf import settings
from django.utils.crypto import salted_hmac

log = logging.getLogger(__name__)

Message = dict[str, Any]


# --- One open stream's inbox -----------------------------------------------------------------


@dataclass(frozen=True)
class Pushed:
    """An event read and rendered once for every stream of one tournament in this process: they
    are all sent these same bytes."""

    version: int
    event: bytes
    final: bool
    """Nothing more will change: the stream ends once it has sent this."""


@dataclass(eq=False)
class Inbox:
    """What has happened to one stream's game and account since the stream last looked (an
    account's alone for a stream of no game: ``game_id`` 0).

    Messages are folded as they come (the newest version, whether any was a roll, why the stream
    must end), so a stream that falls behind holds one state, never a queue.
    """

    game_id: int
    account_id: int
    loop: asyncio.AbstractEventLoop
    version: int = 0
    rolled: bool = False
    over: bool = False
    rematch: bool = False
    stamp: str | None = None
    sessions_ended: set[str] = field(default_factory=set)
    seated: int | None = None
    """The quick-play game the account was seated in last (``games.quickplay.stream``)."""
    withdrawn: set[str] = field(default_factory=set)
    """The marks of the game's watch links withdrawn since (``games.watching.stream``)."""
    tournament_id: int = 0
    """The tournament whose standings the stream follows (``games.tournaments.stream``)."""
    address: str = ""
    """The client address of an anonymous stream (a watcher's, a tournament's standings'): counted
    against a cap per address."""
    pushed: Pushed | None = None
    """The newest standings of ``tournament_id`` (an older one is dropped, never queued)."""
    cut: bool = False
    woken: asyncio.Event = field(default_factory=asyncio.Event)

    def note(self, message: Message) -> None:
        """Fold ``message`` in (in the inbox's own loop) and wake the stream."""
        if "withdrawn" in message:
            self.withdrawn.add(str(message["withdrawn"]))
        elif "pushed" in message:
            pushed = message["pushed"]
            if self.pushed is None or pushed.version > self.pushed.version:
                self.pushed = pushed
        elif "game" in message:
            version = int(message["version"])
            if version > self.version:
                self.version = version
                self.over, self.rematch = bool(message["over"]), bool(message["rematch"])
            self.rolled = self.rolled or bool(message.get("rolled"))
        elif "stamp" in message:
            self.stamp = str(message["stamp"])
        elif "session_ended" in message:
            self.sessions_ended.add(str(message["session_ended"]))
        elif "seated" in message:
            self.seated = int(message["seated"])
        self.woken.set()

    def take_rolled(self) -> bool:
        rolled, self.rolled = self.rolled, False
        return rolled


class Hub:
    """The open streams of this process, by game, by account, by tournament and by address (an
    anonymous stream's)."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._by_game: dict[int, set[Inbox]] = {}
        self._by_account: dict[int, set[Inbox]] = {}
        self._by_tournament: dict[int, set[Inbox]] = {}
        self._by_address: dict[str, set[Inbox]] = {}
        self._latest: dict[int, Pushed] = {}
        """The newest standings read of each tournament with a stream here: kept while it has
        one (every news of it since was read), so a new stream is sent them without a read."""
        self._tournament_news: Callable[[int], None] | None = None

    def open(self, *, game_id: int = 0, tournament_id: int = 0, address: str = "") -> Inbox:
        """An inbox for a stream of the game starting now, in the running event loop: it hears
        of the game's changes from now on (of no game's with ``game_id`` 0), of its account's
        once ``for_account`` says whose. A tournament's inbox holds at once the newest
        standings this process has of it (``None``: none yet, and a read is due)."""
        inbox = Inbox(
            game_id=game_id,
            account_id=0,
            loop=asyncio.get_running_loop(),
            tournament_id=tournament_id,
            address=address,
        )
        with self._lock:
            if game_id:
                self._by_game.setdefault(game_id, set()).add(inbox)
            if tournament_id:
                self._by_tournament.setdefault(tournament_id, set()).add(inbox)
                inbox.pushed = self._latest.get(tournament_id)
            if address:
                self._by_address.setdefault(address, set()).add(inbox)
        return inbox

    def hear_tournament_news(self, read: Callable[[int], None]) -> None:
        """Have ``read(tournament_id)`` called (from any thread) for each news of a tournament
        with a stream here; news of one with none is dropped unread."""
        self._tournament_news = read

    def for_account(self, inbox: Inbox, account_id: int) -> None:
        with self._lock:
            inbox.account_id = account_id
            self._by_account.setdefault(account_id, set()).add(inbox)

    def for_address(self, inbox: Inbox, address: str) -> None:
        """Count ``inbox`` against a watcher's client ``address`` (``streams_from``)."""
        with self._lock:
            inbox.address = address
            self._by_address.setdefault(address, set()).add(inbox)

    def close(self, inbox: Inbox) -> None:
        with self._lock:
            indexes: tuple[tuple[dict[Any, set[Inbox]], object], ...] = (
                (self._by_game, inbox.game_id),
                (self._by_account, inbox.account_id),
                (self._by_tournament, inbox.tournament_id),
                (self._by_address, inbox.address),
            )
            for index, key in indexes:
                found = index.get(key)
                if found is not None:
                    found.discard(inbox)
                    if not found:
                        del index[key]
            if inbox.tournament_id and inbox.tournament_id not in self._by_tournament:
                # Nobody here follows it now: news of it is no longer read, so what was read
                # last may grow stale and is dropped.
                self._latest.pop(inbox.tournament_id, None)

    def deliver(self, message: Message) -> int:
        """Hand ``message`` to the inboxes it concerns, from any thread; how many."""
        read: Callable[[int], None] | None = None
        with self._lock:
            if "game" in message:
                inboxes = list(self._by_game.get(int(message["game"]), ()))
            elif "tournament" in message:
                tournament_id = int(message["tournament"])
                inboxes = list(self._by_tournament.get(tournament_id, ()))
                if "pushed" not in message:  # news: its standings are read once for them all
                    read = self._tournament_news if inboxes else None
                    inboxes = []
                elif inboxes:
                    latest = self._latest.get(tournament_id)
                    if latest is None or message["pushed"].version > latest.version:
                        self._latest[tournament_id] = message["pushed"]
            else:
                inboxes = list(self._by_account.get(int(message.get("account", 0)), ()))
        if read is not None:
            read(tournament_id)
        # One wake-up per event loop, not per stream: waking a loop from another thread is a
        # system call, and ten thousand streams of one game are in one or two loops.
        by_loop: dict[asyncio.AbstractEventLoop, list[Inbox]] = {}
        for inbox in inboxes:
            by_loop.setdefault(inbox.loop, []).append(inbox)
        for loop, group in by_loop.items():
            try:
                loop.call_soon_threadsafe(_note_all, group, message)
            except RuntimeError:  # the loop has closed: its streams are gone
                for inbox in group:
                    self.close(inbox)
        return len(inboxes)

    def streams_of(self, account_id: int) -> int:
        """How many streams ``account_id`` has open in this process."""
        with self._lock:
            return len(self._by_account.get(account_id, ()))

    def streams_from(self, address: str) -> int:
        """How many anonymous streams the client ``address`` has open in this process."""
        with self._lock:
            return len(self._by_address.get(address, ()))

    def tournaments(self) -> list[int]:
        with self._lock:
            return list(self._by_tournament)

    def games(self) -> list[int]:
        with self._lock:
            return list(self._by_game)

    def watching(self) -> list[tuple[int, int]]:
        """Each (game, account) with a stream open here (a watcher's, of no account, is no
        player's page: the turn mail still goes to the players)."""
        with self._lock:
            return list(
                {
                    (i.game_id, i.account_id)
                    for s in self._by_game.values()
                    for i in s
                    if i.account_id
                }
            )

    def count(self) -> int:
        return len(self._all())

    def _all(self) -> set[Inbox]:
        with self._lock:
            indexes: tuple[dict[Any, set[Inbox]], ...] = (
                self._by_game,
                self._by_account,
                self._by_tournament,
                self._by_address,
            )
            return {i for index in indexes for s in index.values() for i in s}

    def cut_all(self) -> int:
        """End every open stream at once, as a node's restart would (the tests' and bench's
        lever); each stream's page reconnects and catches up from the version it last saw."""
        inboxes = self._all()
        for inbox in inboxes:
            try:
                inbox.loop.call_soon_threadsafe(_cut, inbox)
            except RuntimeError:
                self.close(inbox)
        return len(inboxes)


def _note_all(inboxes: list[Inbox], message: Message) -> None:
    for inbox in inboxes:
        inbox.note(message)


def _cut(inbox: Inbox) -> None:
    inbox.cut = True
    inbox.woken.set()


hub = Hub()


# --- Publishing ----------------------------------------------------------------------------------


def publish(message: Message) -> None:
    """Send ``message`` to every stream it concerns, on every node (Redis) or in this process.

    Called once the change has committed. A Redis that does not answer loses the message for the
    streams (logged): they catch up at the next change, their listener's reconnection, or their
    page's reconnection, and the pages behind them fall back to asking.
    """
    url = redis_url()
    if not url:
        hub.deliver(message)
        return
    try:
        _client(url).publish(channel(), _encoded(message))
    except redis.RedisError as exc:
        log.warning("A change could not be published to the streams: %s", exc)


def publish_and_set(message: Message, *, key: str, number: int) -> bool:
    """``publish``, and the shared cache's ``key`` set to ``number`` (no expiry), in one round
    trip: a pipeline on the streams' Redis, when that is the shared cache's own
    (``beside_cache``). ``key`` as the cache makes it (``make_and_validate_key``); a whole
    number is stored as itself, as django-redis stores one (its ``incr`` relies on it).
    ``False`` (nothing done) when the streams' Redis is another, or did not answer: the
    caller then sets the key through the cache and publishes apart."""
    if not beside_cache():
        return False
    pipe = _client(redis_url()).pipeline(transaction=False)
    pipe.set(key, number)
    pipe.publish(channel(), _encoded(message))
    try:
        pipe.execute()
    except redis.RedisError as exc:
        log.warning("A change could not be published with its version: %s", exc)
        return False
    return True


def beside_cache() -> bool:
    """Whether the streams' Redis is the shared cache's own (the Redis cache there)."""
    cache = settings.CACHES.get("default", {})
    url = redis_url()
    return bool(url) and cache.get("LOCATION") == url and "Redis" in str(cache.get("BACKEND"))


def change(*, game_id: int, version: int, over: bool, rematch: bool, rolled: bool) -> Message:
    """The message that tells the streams of a game of its new ``version``."""
    return {"game": game_id, "version": version, "over": over, "rematch": rematch, "rolled": rolled}


def withdrawn(*, game_id: int, mark: str) -> Message:
    """The message that ends the streams of a game watched by the link ``mark`` names (its
    owner has withdrawn it): routed by the game, folded apart from its versions."""
    return {"game": game_id, "withdrawn": mark}


def seated(*, account_id: int, game_id: int) -> Message:
    """The message that tells an account's quick-play streams it was seated in ``game_id``."""
    return {"account": account_id, "seated": game_id}


def standings_news(tournament_id: int) -> Message:
    """The message that tells the processes following a tournament that its standings changed
    (each reads them again: ``games.tournaments.stream``)."""
    return {"tournament": tournament_id}


def pushed(tournament_id: int, standings: Pushed) -> Message:
    """The standings read in this process, for its streams of the tournament (never published:
    ``hub.deliver`` alone)."""
    return {"tournament": tournament_id, "pushed": standings}


def _encoded(message: Message) -> str:
    return json.dumps(message, separators=(",", ":"))


def redis_url() -> str:
    return str(getattr(settings, "LIVE_REDIS_URL", "") or "")


@cache
def _client(url: str) -> redis.Redis:
    return redis.Redis.from_url(url, socket_timeout=2, socket_connect_timeout=2)


def channel() -> str:
    """The site's channel: Redis pub/sub has no databases, so the database number and a mark of
    the secret key keep two sites (or two test runs) on one Redis apart."""
    database = urlsplit(redis_url()).path.strip("/") or "0"
    return f"yahtzee:live:{database}:{_secret_mark(settings.SECRET_KEY)}"


@cache
def _secret_mark(secret: str) -> str:
    return salted_hmac("games.play.broadcast", "", secret=secret, algorithm="sha256").hexdigest()[
        :10
    ]
