"""An account's stream slots (``LIVE_STREAMS_PER_ACCOUNT`` in one process) are always given back:
a resume id that is no number, a failure once the slot was taken, a stream never sent
(``tests/streams/`` has the shared parts)."""

from __future__ import annotations

import gc
from importlib import import_module
from typing import Any

import pytest
from asgiref.sync import sync_to_async
from django.conf import settings as site_settings
from django.http import StreamingHttpResponse
from django.test import AsyncClient, AsyncRequestFactory

from accounts.models import User
from games.models import Game
from games.play import broadcast, stream
from tests.streams.reader import Reader, open_stream, run, stream_url

pytestmark = pytest.mark.django_db(transaction=True)


def forgiving_client_for(user: User) -> AsyncClient:
    """A page's client that gets the 500 a browser would, where the test client would raise."""
    client = AsyncClient(raise_request_exception=False)
    client.force_login(user)
    return client


async def hang_up(response: Any) -> None:
    """The page reads the stream's first event and goes: the server closes the answer."""
    reader = Reader(response)
    await reader.expect("ready")
    await reader.close()
    await sync_to_async(response.close)()


@pytest.mark.parametrize(
    "resume",
    [{"Last-Event-ID": "²"}, {"Last-Event-ID": "-1"}, {"Last-Event-ID": "9" * 30}],
    ids=["superscript", "negative", "too-long"],
)
def test_a_resume_id_that_is_no_number_resumes_from_the_start(
    resume: dict[str, str], bob: User, online: Game
) -> None:
    bobs = forgiving_client_for(bob)

    async def scenario() -> None:
        reader = await open_stream(bobs, stream_url(online), **resume)
        caught_up = await reader.expect("message")  # as from version 0: the game's version
        await reader.close()
        assert caught_up.id == str(online.version)

    run(scenario)


def test_a_since_that_is_no_number_is_ignored(bob: User, online: Game) -> None:
    bobs = forgiving_client_for(bob)

    async def scenario() -> None:
        url = f"{stream_url(online)}?since=%C2%B2"  # "²", which str.isdigit() accepts
        reader = await open_stream(bobs, url)
        caught_up = await reader.expect("message")
        await reader.close()
        assert caught_up.id == str(online.version)

    run(scenario)


def test_bad_resume_ids_never_use_up_the_accounts_streams(
    settings: Any, bob: User, online: Game
) -> None:
    settings.LIVE_STREAMS_PER_ACCOUNT = 2
    bobs = forgiving_client_for(bob)

    async def scenario() -> None:
        statuses = []
        for _ in range(60):
            response = await bobs.get(stream_url(online), headers={"Last-Event-ID": "²"})
            statuses.append(response.status_code)
            if response.status_code == 200:
                await hang_up(response)
        after = await bobs.get(stream_url(online, since=online.version))
        if after.status_code == 200:
            await hang_up(after)

        assert statuses == [200] * 60
        assert after.status_code == 200, after.content

    run(scenario)
    assert broadcast.hub.streams_of(bob.pk) == 0


def test_a_failure_once_the_slot_is_taken_gives_it_back(
    monkeypatch: pytest.MonkeyPatch, bob: User, online: Game
) -> None:
    def fails() -> None:
        raise RuntimeError("a bug after the stream was counted")

    monkeypatch.setattr(stream, "_keep_presence", fails)
    bobs = forgiving_client_for(bob)

    async def scenario() -> None:
        response = await bobs.get(stream_url(online, since=online.version))
        assert response.status_code == 500

    run(scenario)
    assert broadcast.hub.streams_of(bob.pk) == 0
    assert broadcast.hub.count() == 0


def test_a_stream_dropped_unsent_and_unclosed_gives_its_slot_back(bob: User, online: Game) -> None:
    """As when a middleware fails on the way out, or the page goes before the answer is sent:
    nobody sends the stream, nobody closes it."""
    laptop = forgiving_client_for(bob)
    request = AsyncRequestFactory().get(stream_url(online, since=online.version))
    engine = import_module(site_settings.SESSION_ENGINE)
    request.session = engine.SessionStore(laptop.cookies[site_settings.SESSION_COOKIE_NAME].value)
    held: list[int] = []

    async def scenario() -> None:
        response = await stream.stream(request, online.pk)
        assert isinstance(response, StreamingHttpResponse)
        held.append(broadcast.hub.streams_of(bob.pk))
        del response

    run(scenario)
    gc.collect()  # whatever cycle may hold a dropped answer
    assert held == [1]
    assert broadcast.hub.streams_of(bob.pk) == 0
    assert broadcast.hub.count() == 0
