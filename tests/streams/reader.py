"""Reading a game's stream in a test: opened through Django's async client, read event by event,
the scenario run in an event loop of its own (its synchronous parts back in the test's thread)."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Awaitable, Callable
from dataclasses import dataclass
from typing import Any

from asgiref.sync import async_to_sync
from django.test import AsyncClient
from django.urls import reverse

from accounts.models import User
from games.models import Game


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
