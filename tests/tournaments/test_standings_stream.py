"""A tournament's standings pushed by its stream (``/tournaments/t/<token>/stream/``): one
``standings`` event per reading, the contract's fields, read once per tick for every stream of
the tournament in the process, open to anyone with the link, capped per address when
anonymous, ended once the tournament is over (``tests/streams/`` has the shared parts)."""

from __future__ import annotations

import asyncio
import json
import time
from collections.abc import Iterator
from typing import Any

import pytest
from asgiref.sync import sync_to_async
from django.test import AsyncClient
from django.urls import reverse

from accounts.models import User
from games.models import Game
from games.play import broadcast
from games.play import stream as game_stream
from games.tournaments import grading, selectors, services, stream
from games.tournaments.models import Entry, Tournament
from tests.factories import sheet_of
from tests.streams.conftest import transport  # noqa: F401  (the fixture, in-process and Redis)
from tests.streams.reader import Event, Reader, async_client_for, open_stream, run
from tests.tournaments.tournament_support import score_a_turn, started_with

pytestmark = pytest.mark.django_db(transaction=True)


def stream_url(tournament: Tournament, since: int | None = None) -> str:
    url = reverse("tournaments:stream", kwargs={"token": tournament.token})
    return url if since is None else f"{url}?since={since}"


def version_of(tournament: Tournament) -> int:
    tournament.refresh_from_db()
    return selectors.board(tournament).version


@pytest.fixture
def running(make_user: Any) -> Iterator[tuple[Tournament, User, Game]]:
    alice = make_user("alice", display_name="Alice")
    tournament = started_with(alice)
    game = services.play(user=alice, token=tournament.token)
    yield tournament, alice, game


@pytest.fixture
def reads(monkeypatch: pytest.MonkeyPatch) -> Iterator[list[float]]:
    """Each reading of the standings from the database (``selectors.board``), when."""
    done: list[float] = []
    read = selectors.board

    def counted(*args: Any, **kwargs: Any) -> selectors.Board:
        done.append(time.monotonic())
        return read(*args, **kwargs)

    assert stream.readings.settle()  # nothing left over from another test's tournament
    monkeypatch.setattr(selectors, "board", counted)
    yield done
    stream.readings.settle()


def contract(event: Event) -> dict[str, Any]:
    """The event's data, checked against the contract: ``event: standings``, ``id`` the
    version, data exactly {version: int, read_at: float, html: str}."""
    assert event.kind == "standings"
    data = json.loads(event.data)
    assert set(data) == {"version", "read_at", "html"}
    assert isinstance(data["version"], int) and event.id == str(data["version"])
    assert isinstance(data["read_at"], float) and isinstance(data["html"], str)
    return data


# --- The push ---------------------------------------------------------------------------------


@pytest.mark.usefixtures("transport")
def test_a_score_sends_the_standings_to_an_anonymous_page(
    running: tuple[Tournament, User, Game], monkeypatch: pytest.MonkeyPatch
) -> None:
    # The score's own news, not its grade's (which tells the tournament too: tested apart).
    monkeypatch.setattr(grading, "grade_so_far", lambda game_id: False)
    tournament, alice, game = running
    since = version_of(tournament)
    watcher = AsyncClient()  # nobody logged in: the link is enough

    async def scenario() -> None:
        reader = await open_stream(watcher, stream_url(tournament, since))
        before = time.time()
        await sync_to_async(score_a_turn)(alice, game)
        scored = await sync_to_async(version_of)(tournament)
        pushed = contract(await reader.expect("standings"))
        while pushed["version"] < scored:  # a read may land between the rolls and the score
            newer = contract(await reader.expect("standings"))
            assert newer["version"] > pushed["version"]
            pushed = newer
        await reader.close()

        total = (await sync_to_async(sheet_of)(game)).grand_total
        assert pushed["version"] == scored > since
        assert before <= pushed["read_at"] <= time.time()
        assert 'data-line="Alice"' in pushed["html"]
        assert f'<td class="num score">{total}</td>' in pushed["html"]

    run(scenario)
    assert broadcast.hub.count() == 0


def test_news_in_quick_succession_is_read_once(
    running: tuple[Tournament, User, Game], reads: list[float]
) -> None:
    tournament, _, _ = running

    async def scenario() -> None:
        reader = await open_stream(AsyncClient(), stream_url(tournament))
        contract(await reader.expect("standings"))  # read at the opening: nothing was here
        assert len(reads) == 1
        assert await asyncio.to_thread(stream.readings.settle)  # that read is done
        for _ in range(20):  # within a tick of it: all folded into the next, a tick after it
            broadcast.publish(broadcast.standings_news(tournament.pk))
        await asyncio.sleep(1.5)
        await reader.close()
        assert len(reads) == 2
        assert reads[1] - reads[0] >= 0.45  # no sooner than a tick after the last

    run(scenario)


def test_two_streams_are_sent_the_same_bytes_of_one_read(
    running: tuple[Tournament, User, Game], reads: list[float]
) -> None:
    tournament, alice, game = running
    alices = async_client_for(alice)

    async def scenario() -> None:
        one = await open_stream(AsyncClient(), stream_url(tournament))
        two = await open_stream(alices, stream_url(tournament))
        await one.expect("standings")
        await two.expect("standings")
        assert len(reads) == 1  # the second stream's opening read nothing of its own
        await asyncio.sleep(0.6)
        await sync_to_async(score_a_turn)(alice, game)
        mine, theirs = await one.next(), await two.next()
        assert mine == theirs and mine is not None
        contract(mine)
        await one.close()
        await two.close()

    run(scenario)
    # Opening (one), the score's news and its grade's news: never a read per stream.
    assert 2 <= len(reads) <= 3


def test_a_page_that_falls_behind_gets_only_the_newest_standings() -> None:
    loop = asyncio.new_event_loop()
    try:
        inbox = broadcast.Inbox(game_id=0, account_id=0, loop=loop, tournament_id=7)
        for version in (3, 5, 4):
            inbox.note(broadcast.pushed(7, broadcast.Pushed(version, b"v%d" % version, False)))
    finally:
        loop.close()
    assert inbox.pushed is not None and inbox.pushed.event == b"v5"


def test_a_grade_so_far_sends_the_standings(running: tuple[Tournament, User, Game]) -> None:
    tournament, alice, game = running
    score_a_turn(alice, game)  # graded at once (tasks run at once in tests)
    Entry.objects.filter(game=game).update(accuracy=None, graded_turns=0)  # as before its task
    since = version_of(tournament)

    async def scenario() -> None:
        reader = await open_stream(AsyncClient(), stream_url(tournament, since))
        await sync_to_async(grading.grade_so_far)(game.pk)
        pushed = contract(await reader.expect("standings"))
        await reader.close()
        assert pushed["version"] == since + 1  # one more turn graded
        assert "<small>(1 turn)</small>" in pushed["html"]

    run(scenario)


# --- Who may follow it ------------------------------------------------------------------------


def test_anonymous_streams_are_capped_per_address(
    settings: Any, running: tuple[Tournament, User, Game]
) -> None:
    settings.ANONYMOUS_STREAMS_PER_ADDRESS = 2
    tournament, alice, _ = running
    alices = async_client_for(alice)

    async def scenario() -> None:
        held: list[Reader] = [
            await open_stream(AsyncClient(), stream_url(tournament)) for _ in range(2)
        ]
        refused = await AsyncClient().get(stream_url(tournament))
        logged_in = await open_stream(alices, stream_url(tournament))
        for reader in [*held, logged_in]:
            await reader.close()
        assert refused.status_code == 429

    run(scenario)
    assert broadcast.hub.count() == 0


def test_no_such_tournament_is_404() -> None:
    async def scenario() -> None:
        response = await AsyncClient().get(
            reverse("tournaments:stream", kwargs={"token": "no-such-link"})
        )
        assert response.status_code == 404

    run(scenario)
    assert broadcast.hub.count() == 0


def test_under_wsgi_the_page_is_told_to_ask_instead(
    client: Any, running: tuple[Tournament, User, Game]
) -> None:
    response = client.get(stream_url(running[0]))
    assert response.status_code == 503


# --- When it ends -----------------------------------------------------------------------------


def test_the_stream_ends_with_the_final_standings(running: tuple[Tournament, User, Game]) -> None:
    tournament, _, _ = running
    since = version_of(tournament)
    host = tournament.host

    async def scenario() -> None:
        reader = await open_stream(AsyncClient(), stream_url(tournament, since))
        await sync_to_async(services.end)(user=host, token=tournament.token)
        # The end, then perfect play's total (each news): read once or twice, as they come.
        final = contract(await reader.expect("standings"))
        end = await reader.next()
        if end is not None and end.kind == "standings":
            final, end = contract(end), await reader.next()
        assert end is not None and end.kind == "end" and end.data == "over"
        assert await reader.next() is None
        assert "Final standings" in final["html"] and "working it out" not in final["html"]

    run(scenario)
    assert broadcast.hub.count() == 0


def test_a_stream_of_an_ended_tournament_sends_its_standings_and_ends(
    running: tuple[Tournament, User, Game],
) -> None:
    tournament, _, _ = running
    services.end(user=tournament.host, token=tournament.token)

    async def scenario() -> None:
        reader = await open_stream(AsyncClient(), stream_url(tournament))
        contract(await reader.expect("standings"))
        await reader.expect("end")

    run(scenario)


def test_the_stream_ends_after_its_lifetime(
    monkeypatch: pytest.MonkeyPatch, running: tuple[Tournament, User, Game]
) -> None:
    monkeypatch.setattr(game_stream, "LIFETIME", 0.3)
    tournament = running[0]

    async def scenario() -> None:
        reader = await open_stream(AsyncClient(), stream_url(tournament, version_of_now))
        assert await reader.next(timeout=2.0) is None  # ended: the page reconnects

    version_of_now = version_of(tournament)
    run(scenario)
    assert broadcast.hub.count() == 0
