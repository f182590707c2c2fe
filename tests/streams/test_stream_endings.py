"""When a game's stream ends: the game over for its page, the session over (log-out, a password
changed), cut by the server; and what an idle one costs: a comment now and then, no query
(``tests/streams/`` has the shared parts)."""

from __future__ import annotations

import asyncio
from importlib import import_module
from typing import Any

import pytest
import redis
from asgiref.sync import sync_to_async
from django.conf import settings as site_settings
from django.contrib.auth import logout
from django.db.backends.utils import CursorWrapper
from django.test import RequestFactory

from accounts.models import User
from games import rules
from games.models import Game
from games.play import broadcast, listening, stream
from games.tables import services
from tests.factories import roll_now, score_now
from tests.streams.reader import async_client_for, open_stream, run, stream_url

pytestmark = pytest.mark.django_db(transaction=True)


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


def test_news_published_while_the_redis_listener_was_away_still_reaches_the_stream(
    settings: Any, alice: User, bob: User, online: Game
) -> None:
    from tests.streams.conftest import TEST_REDIS_URL, _redis_answers

    if not _redis_answers():
        pytest.skip(f"no Redis answers at {TEST_REDIS_URL}")
    settings.LIVE_REDIS_URL = TEST_REDIS_URL
    bobs = async_client_for(bob)
    server = redis.Redis.from_url(TEST_REDIS_URL)

    async def scenario() -> None:
        reader = await open_stream(bobs, stream_url(online, since=online.version))
        listener = listening.listener(stream.resync)
        assert listener is not None

        def roll_while_the_listener_is_cut_off() -> None:
            # Its connection killed: the roll's news is published to nobody in this process.
            ours = [c for c in server.client_list() if c["name"] == listening.LISTENER_NAME]
            assert ours, "the listener is not connected"
            for client in ours:
                server.client_kill_filter(_id=client["id"])
            listener.subscribed.clear()
            roll_now(online, alice, 1, 2, 3, 4, 6)

        await sync_to_async(roll_while_the_listener_is_cut_off)()
        event = await reader.expect("message")  # told by the resync once it is back
        await reader.close()
        assert event.id == str(online.version + 1)

    run(scenario)
