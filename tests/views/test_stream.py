"""A game's stream of changes (``/play/<id>/stream/``): who may open it, what it says and when it
ends, through Django's async client, fed by this process's broadcast and, when a Redis answers at
``TEST_REDIS_URL``, by Redis pub/sub."""

from __future__ import annotations

import asyncio
import os
from collections.abc import AsyncIterator, Awaitable, Callable
from dataclasses import dataclass
from importlib import import_module
from typing import Any

import pytest
import redis
from asgiref.sync import async_to_sync, sync_to_async
from django.conf import settings as site_settings
from django.contrib.auth import logout
from django.db.backends.utils import CursorWrapper
from django.test import AsyncClient, Client, RequestFactory
from django.urls import reverse

from accounts.models import User
from games import rules
from games.models import Game
from games.play import actions as play
from games.play import broadcast, stream
from games.tables import services
from tests.factories import make_user, roll_now, score_now

pytestmark = pytest.mark.django_db(transaction=True)

TEST_REDIS_URL = os.environ.get("TEST_REDIS_URL", "redis://127.0.0.1:6379/7")


def _redis_answers() -> bool:
    try:
        return bool(redis.Redis.from_url(TEST_REDIS_URL, socket_connect_timeout=1).ping())
    except redis.RedisError:
        return False


@pytest.fixture(params=["in-process", "redis"])
def transport(request: pytest.FixtureRequest, settings: Any) -> str:
    """Each test twice: changes told in this process, and through Redis pub/sub."""
    if request.param == "redis":
        if not _redis_answers():
            pytest.skip(f"no Redis answers at {TEST_REDIS_URL}")
        settings.LIVE_REDIS_URL = TEST_REDIS_URL
    else:
        settings.LIVE_REDIS_URL = ""
    return str(request.param)


@pytest.fixture
def alice() -> User:
    return make_user("alice", display_name="Alice")


@pytest.fixture
def bob() -> User:
    return make_user("bob", display_name="Bob")


@pytest.fixture
def online(alice: User, bob: User) -> Game:
    """Alice and Bob at one table, each on their own device; Alice plays first."""
    game = services.open_game(owner=alice, invites=1, kind="classic", roll_for_first=False)
    services.join_game(token=game.invitations.get().token, user=bob)
    services.begin_game(game_id=game.pk, user=alice)
    game.refresh_from_db()
    return game


def stream_url(game: Game, since: int | None = None) -> str:
    url = reverse("games:stream", kwargs={"game_id": game.pk})
    return url if since is None else f"{url}?since={since}"


def async_client_for(user: User) -> AsyncClient:
    client = AsyncClient()
    client.force_login(user)
    return client


@dataclass
class Event:
    kind: str
    id: str
    data: str


class Reader:
    """The events of one open stream, each waited for at most ``timeout`` seconds."""

    def __init__(self, response: Any) -> None:
        self.response = response
        self.chunks: AsyncIterator[bytes] = aiter(response.streaming_content)
        self.buffer = ""

    async def next(self, timeout: float = 5.0) -> Event | None:
        """The next event (comments and ``retry`` skipped); ``None`` when the stream ended."""
        while True:
            while "\n\n" in self.buffer:
                block, self.buffer = self.buffer.split("\n\n", 1)
                fields: dict[str, str] = {}
                for line in block.split("\n"):
                    if line and not line.startswith(":"):
                        name, _, value = line.partition(": ")
                        fields[name] = value
                if "data" in fields:
                    return Event(
                        fields.get("event", "message"), fields.get("id", ""), fields["data"]
                    )
            try:
                chunk = await asyncio.wait_for(anext(self.chunks), timeout)
            except StopAsyncIteration:
                return None
            self.buffer += chunk.decode()

    async def changes(self, count: int) -> list[Event]:
        return [await self.expect("message") for _ in range(count)]

    async def expect(self, kind: str) -> Event:
        event = await self.next()
        assert event is not None, f"the stream ended before a {kind!r} event"
        assert event.kind == kind, f"expected a {kind!r} event, got {event}"
        return event

    async def quiet(self, seconds: float) -> bool:
        """Whether no event comes in ``seconds`` (the stream still open)."""
        try:
            event = await self.next(timeout=seconds)
        except TimeoutError:
            return True
        raise AssertionError(f"expected no event, got {event}")

    async def close(self) -> None:
        await self.chunks.aclose()  # type: ignore[attr-defined]


def run(scenario: Callable[[], Awaitable[None]]) -> None:
    async_to_sync(scenario)()


async def open_stream(client: AsyncClient, url: str, **headers: str) -> Reader:
    response = await client.get(url, headers=headers)
    assert response.status_code == 200, response.content
    assert response["Content-Type"] == "text/event-stream"
    assert response["X-Accel-Buffering"] == "no"
    reader = Reader(response)
    await reader.expect("ready")
    return reader


# --- Who may open it --------------------------------------------------------------------------


def test_a_logged_out_visitor_is_refused(online: Game) -> None:
    async def scenario() -> None:
        response = await AsyncClient().get(stream_url(online))
        assert response.status_code == 403
        assert response.content == b"Log in to follow this game."

    run(scenario)


def test_a_player_not_seated_in_the_game_is_told_there_is_no_such_game(online: Game) -> None:
    stranger = async_client_for(make_user("carol"))

    async def scenario() -> None:
        response = await stranger.get(stream_url(online))
        assert response.status_code == 404
        assert response.content == b"There is no such game."
        assert broadcast.hub.count() == 0  # the inbox opened while asking was closed again

    run(scenario)


def test_a_wsgi_server_refuses_streams_so_the_page_asks_instead(alice: User, online: Game) -> None:
    client = Client()
    client.force_login(alice)

    response = client.get(stream_url(online))

    assert response.status_code == 503
    assert b"ASGI" in response.content


# --- What it says -----------------------------------------------------------------------------


def test_each_change_is_an_event_whose_id_is_the_new_version(
    transport: str, alice: User, bob: User, online: Game
) -> None:
    start = online.version

    bobs = async_client_for(bob)

    async def scenario() -> None:
        reader = await open_stream(bobs, stream_url(online, since=start))
        await sync_to_async(roll_now)(online, alice, 1, 2, 3, 4, 6)
        rolled = await reader.expect("message")
        await sync_to_async(score_now)(online, alice, "chance")
        scored = await reader.expect("message")
        await reader.close()

        assert (
            rolled.id == str(start + 1)
            and rolled.data == f'{{"version": {start + 1}, "rolled": true}}'
        )
        assert scored.id == str(start + 2) and '"rolled": false' in scored.data

    run(scenario)
    assert broadcast.hub.count() == 0


def test_a_stream_opened_behind_the_game_catches_up_at_once(
    transport: str, alice: User, bob: User, online: Game
) -> None:
    seen = online.version
    roll_now(online, alice, 1, 2, 3, 4, 6)
    online.refresh_from_db()
    play.set_held(
        game_id=online.pk,
        user=alice,
        version=online.version,
        held=[True, False, False, False, False],
    )
    online.refresh_from_db()

    bobs = async_client_for(bob)

    async def scenario() -> None:
        client = bobs
        behind = await open_stream(client, stream_url(online), **{"Last-Event-ID": str(seen)})
        caught_up = await behind.expect("message")
        await behind.close()
        # The stream of a page that is up to date stays quiet.
        current = await open_stream(client, stream_url(online, since=online.version))
        assert await current.quiet(0.3)
        await current.close()

        assert caught_up.id == str(online.version) == str(seen + 2)

    run(scenario)


def test_last_event_id_wins_over_the_pages_own_version(
    alice: User, bob: User, online: Game
) -> None:
    roll_now(online, alice, 1, 2, 3, 4, 6)
    online.refresh_from_db()

    bobs = async_client_for(bob)

    async def scenario() -> None:
        url = stream_url(online, since=online.version)  # the page loaded before the roll...
        reader = await open_stream(bobs, url, **{"Last-Event-ID": "0"})
        event = await reader.expect("message")  # ...but its stream last saw version 0
        await reader.close()
        assert event.id == str(online.version)

    run(scenario)


# --- When it ends -----------------------------------------------------------------------------


def play_to_the_end(game: Game, alice: User, bob: User) -> None:
    for box in rules.CATEGORIES:
        for user in (alice, bob):
            roll_now(game, user, 2, 3, 4, 5, 6)
            score_now(game, user, box.value)


def test_at_the_games_end_the_stream_waits_for_the_rematch_then_ends(
    transport: str, alice: User, bob: User, online: Game
) -> None:
    play_to_the_end(online, alice, bob)
    online.refresh_from_db()

    bobs = async_client_for(bob)

    async def scenario() -> None:
        reader = await open_stream(bobs, stream_url(online, since=0))
        final = await reader.expect("message")
        assert final.id == str(online.version)
        await sync_to_async(services.rematch)(game_id=online.pk, user=alice)
        offered = await reader.expect("message")
        end = await reader.expect("end")
        assert await reader.next() is None

        assert int(offered.id) == online.version + 1
        assert end.data == "over"

    run(scenario)
    assert broadcast.hub.count() == 0


def test_the_last_score_ends_the_stream_of_a_game_nobody_else_plays(alice: User) -> None:
    solo = services.start_game(owner=alice)
    for box in rules.CATEGORIES[:-1]:
        roll_now(solo, alice, 1, 1, 2, 3, 5)
        score_now(solo, alice, box.value)
    roll_now(solo, alice, 1, 1, 2, 3, 5)
    alices = async_client_for(alice)

    async def scenario() -> None:
        reader = await open_stream(alices, stream_url(solo, since=0))
        await reader.expect("message")
        await sync_to_async(score_now)(solo, alice, rules.CATEGORIES[-1].value)
        last = await reader.expect("message")
        end = await reader.expect("end")
        assert await reader.next() is None
        assert end.data == "over" and int(last.id) > 0

    run(scenario)


def test_a_password_changed_ends_the_stream(
    transport: str, alice: User, bob: User, online: Game
) -> None:
    bobs = async_client_for(bob)

    async def scenario() -> None:
        reader = await open_stream(bobs, stream_url(online, since=online.version))

        def change_password() -> None:
            bob.set_password("another-long-password-77")
            bob.save()

        await sync_to_async(change_password)()
        end = await reader.expect("end")
        assert await reader.next() is None
        assert end.data == "session"

    run(scenario)


def test_a_save_of_other_fields_leaves_the_stream_open(
    alice: User, bob: User, online: Game
) -> None:
    bobs = async_client_for(bob)

    async def scenario() -> None:
        reader = await open_stream(bobs, stream_url(online, since=online.version))

        def change_options() -> None:
            bob.theme = "dark"
            bob.save(update_fields=["theme"])
            roll_now(online, alice, 1, 2, 3, 4, 6)

        await sync_to_async(change_options)()
        event = await reader.expect("message")  # the roll, not an end
        await reader.close()
        assert event.id == str(online.version + 1)

    run(scenario)


def test_logging_out_ends_that_sessions_streams_only(
    transport: str, alice: User, bob: User, online: Game
) -> None:
    laptop, phone = async_client_for(bob), async_client_for(bob)

    async def scenario() -> None:
        on_laptop = await open_stream(laptop, stream_url(online, since=online.version))
        on_phone = await open_stream(phone, stream_url(online, since=online.version))

        def log_out_the_laptop() -> None:
            request = RequestFactory().post("/accounts/logout/")
            engine = import_module(site_settings.SESSION_ENGINE)
            request.session = engine.SessionStore(
                laptop.cookies[site_settings.SESSION_COOKIE_NAME].value
            )
            request.user = bob
            logout(request)
            roll_now(online, alice, 1, 2, 3, 4, 6)

        await sync_to_async(log_out_the_laptop)()
        end = await on_laptop.expect("end")
        rolled = await on_phone.expect("message")
        await on_phone.close()

        assert end.data == "session"
        assert rolled.id == str(online.version + 1)

    run(scenario)


def test_a_stream_cut_by_the_server_simply_ends(alice: User, bob: User, online: Game) -> None:
    bobs = async_client_for(bob)

    async def scenario() -> None:
        reader = await open_stream(bobs, stream_url(online, since=online.version))
        assert broadcast.hub.cut_all() == 1
        assert await reader.next() is None  # no "end": the browser reconnects by itself

    run(scenario)


def test_an_idle_stream_sends_a_comment_now_and_then(
    monkeypatch: pytest.MonkeyPatch, alice: User, bob: User, online: Game
) -> None:
    monkeypatch.setattr(stream, "HEARTBEAT", 0.05)

    bobs = async_client_for(bob)

    async def scenario() -> None:
        response = await bobs.get(stream_url(online, since=online.version))
        chunks = aiter(response.streaming_content)
        seen = b""
        while seen.count(b": still here") < 2:
            seen += await asyncio.wait_for(anext(chunks), 2)
        await chunks.aclose()  # type: ignore[attr-defined]
        assert seen.startswith(b"retry: ")

    run(scenario)


def test_an_account_holds_only_so_many_streams_then_its_pages_ask_instead(
    settings: Any, alice: User, bob: User, online: Game
) -> None:
    settings.LIVE_STREAMS_PER_ACCOUNT = 2
    tabs = [async_client_for(bob) for _ in range(3)]
    alices = async_client_for(alice)

    async def scenario() -> None:
        first = await open_stream(tabs[0], stream_url(online, since=online.version))
        second = await open_stream(tabs[1], stream_url(online, since=online.version))
        refused = await tabs[2].get(stream_url(online, since=online.version))
        others = await open_stream(alices, stream_url(online, since=online.version))
        for reader in (first, second, others):
            await reader.close()

        assert refused.status_code == 429
        assert refused.content == b"Too many pages of games open: this page asks instead."

    run(scenario)


def test_an_idle_stream_runs_no_query(
    monkeypatch: pytest.MonkeyPatch, alice: User, bob: User, online: Game
) -> None:
    monkeypatch.setattr(stream, "HEARTBEAT", 0.05)
    bobs = async_client_for(bob)
    ran: list[str] = []

    async def scenario() -> None:
        response = await bobs.get(stream_url(online, since=online.version))
        chunks = aiter(response.streaming_content)
        seen = await asyncio.wait_for(anext(chunks), 2)  # open: its few queries are behind it
        with monkeypatch.context() as watching:
            real = CursorWrapper.execute
            watching.setattr(
                CursorWrapper,
                "execute",
                lambda self, sql, *a, **k: ran.append(sql) or real(self, sql, *a, **k),
            )
            while seen.count(b": still here") < 5:  # a quarter of a second idle, in any thread
                seen += await asyncio.wait_for(anext(chunks), 2)
        await chunks.aclose()  # type: ignore[attr-defined]

    run(scenario)
    assert ran == []
