"""A watcher's stream (``/watch/.../stream/``): opened by the link alone (no account), it tells
each move as a player's stream does, ends when the game is over or its watch link is
withdrawn, marks no player's page open, and one client address holds only so many."""

from __future__ import annotations

from typing import Any

import pytest
from asgiref.sync import sync_to_async
from django.test import AsyncClient, Client, TestCase
from django.urls import reverse

from accounts.models import User
from games.play import broadcast
from games.watching import services
from tests.factories import make_user, roll_now, score_now
from tests.streams.reader import Reader, open_stream, run
from tests.tournaments.tournament_support import play_out
from tests.watching.watching_support import link_url, online, tournament_game, watch_stream_url

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture
def alice() -> User:
    return make_user("alice", display_name="Alice")


def on_commit(work: Any, *args: Any) -> Any:
    """Run ``work`` with what its commit starts run at once (the news to the streams)."""
    with TestCase.captureOnCommitCallbacks(execute=True):
        return work(*args)


def test_a_logged_out_watcher_hears_each_move(transport: str, alice: User) -> None:
    tournament, game = tournament_game(alice)
    start = game.version
    url = watch_stream_url(tournament, game) + f"?since={start}"

    async def scenario() -> None:
        reader = await open_stream(AsyncClient(), url)
        await sync_to_async(roll_now)(game, alice, 1, 2, 3, 4, 6)
        rolled = await reader.expect("message")
        await sync_to_async(score_now)(game, alice, "chance")
        scored = await reader.expect("message")
        await reader.close()

        assert rolled.id == str(start + 1) and '"rolled": true' in rolled.data
        assert scored.id == str(start + 2) and '"rolled": false' in scored.data

    run(scenario)
    assert broadcast.hub.count() == 0


def test_a_watchers_stream_is_no_players_page(alice: User) -> None:
    tournament, game = tournament_game(alice)

    async def scenario() -> None:
        reader = await open_stream(AsyncClient(), watch_stream_url(tournament, game))
        assert broadcast.hub.count() == 1
        assert broadcast.hub.watching() == []  # the turn mail's presence keeper marks nothing
        await reader.close()

    run(scenario)


def test_the_stream_ends_when_the_tournament_game_is_over(alice: User) -> None:
    tournament, game = tournament_game(alice)
    url = watch_stream_url(tournament, game) + f"?since={game.version}"

    async def scenario() -> None:
        reader = await open_stream(AsyncClient(), url)
        await sync_to_async(play_out)(alice, game, "perfect", 25)  # 13 rounds: roll + score
        await sync_to_async(play_out)(alice, game)
        while (event := await reader.next()) is not None and event.kind == "message":
            pass
        assert event is not None and event.kind == "end" and event.data == "over"

    run(scenario)


def test_a_withdrawn_link_ends_its_streams(transport: str, alice: User) -> None:
    bob = make_user("bob")
    game = online(alice, bob)
    services.allow_watching(game_id=game.pk, user=alice)
    url = link_url(game) + f"stream/?since={game.version}"

    async def scenario() -> None:
        reader = await open_stream(AsyncClient(), url)
        await sync_to_async(on_commit)(lambda: services.stop_watching(game_id=game.pk, user=alice))
        ended = await reader.expect("end")
        assert ended.data == "withdrawn"
        again = await AsyncClient().get(url)
        assert again.status_code == 404

    run(scenario)
    assert broadcast.hub.count() == 0


def test_the_wrong_link_opens_no_stream(alice: User) -> None:
    _, game = tournament_game(alice)
    other, _ = tournament_game(make_user("carol"))

    async def scenario() -> None:
        for url in (
            reverse("watching:tournament_stream", args=["nope", game.pk]),
            watch_stream_url(other, game),
            reverse("watching:game_stream", args=["x" * 43]),
        ):
            answer = await AsyncClient().get(url)
            assert answer.status_code == 404, url
        assert broadcast.hub.count() == 0

    run(scenario)


def test_one_address_holds_only_so_many_then_its_pages_ask(settings: Any, alice: User) -> None:
    settings.ANONYMOUS_STREAMS_PER_ADDRESS = 2
    settings.TRUSTED_PROXY_COUNT = 1  # a proxy in front says who asks (accounts.client_ip)
    tournament, game = tournament_game(alice)
    url = watch_stream_url(tournament, game) + f"?since={game.version}"

    async def scenario() -> None:
        here = {"X-Forwarded-For": "203.0.113.5"}
        first = await open_stream(AsyncClient(), url, **here)
        second = await open_stream(AsyncClient(), url, **here)
        refused = await AsyncClient().get(url, headers=here)
        # Another address (another household) still has its own.
        other = await AsyncClient().get(url, headers={"X-Forwarded-For": "198.51.100.7"})
        assert other.status_code == 200
        elsewhere = Reader(other)
        await elsewhere.expect("ready")
        await elsewhere.close()
        for reader in (first, second):
            await reader.close()

        assert refused.status_code == 429
        assert b"Too many games watched" in refused.content

    run(scenario)
    assert broadcast.hub.count() == 0


def test_a_wsgi_server_refuses_the_stream_so_the_page_asks(alice: User) -> None:
    tournament, game = tournament_game(alice)

    answer = Client().get(watch_stream_url(tournament, game))

    assert answer.status_code == 503


def test_a_game_already_over_ends_its_stream_at_once(alice: User) -> None:
    tournament, game = tournament_game(alice)
    play_out(alice, game)
    game.refresh_from_db()

    async def scenario() -> None:
        reader = await open_stream(AsyncClient(), watch_stream_url(tournament, game))
        caught_up = await reader.expect("message")
        ended = await reader.expect("end")
        assert caught_up.id == str(game.version) and ended.data == "over"

    run(scenario)
