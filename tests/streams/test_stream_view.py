"""A game's stream of changes (``/play/<id>/stream/``): who may open it and what it says, through
Django's async client, fed by this process's broadcast and, when a Redis answers, by Redis pub/sub
(``tests/streams/``)."""

from __future__ import annotations

import pytest
from asgiref.sync import sync_to_async
from django.test import AsyncClient, Client

from accounts.models import User
from games.models import Game
from games.play import actions as play
from games.play import broadcast
from tests.factories import make_user, roll_now, score_now
from tests.streams.reader import async_client_for, open_stream, run, stream_url

pytestmark = pytest.mark.django_db(transaction=True)


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
