"""Quick play's stream (``/play/quick/stream/``): a waiting page told the moment its account is
seated, through this process's broadcast and, when a Redis answers, Redis pub/sub; who may open
one, and when it ends (``tests/streams/`` has the shared parts)."""

from __future__ import annotations

import json
from importlib import import_module

import pytest
from asgiref.sync import sync_to_async
from django.conf import settings as site_settings
from django.contrib.auth import logout
from django.test import AsyncClient, Client, RequestFactory
from django.urls import reverse

from accounts.models import User
from games.models import Game
from games.play import broadcast
from games.quickplay import services
from tests.quickplay.support import at, rated
from tests.streams.reader import Event, async_client_for, open_stream, run

pytestmark = pytest.mark.django_db(transaction=True)

STREAM = reverse("games:quick_stream")


@pytest.fixture
def alice() -> User:
    return rated("alice", 1620)


@pytest.fixture
def bob() -> User:
    return rated("bob", 1600)


def game_of(user: User) -> Game:
    return Game.objects.get(seats__user=user)


def assert_sent_to(event: Event, game: Game) -> None:
    url = reverse("games:play", kwargs={"game_id": game.pk})
    assert json.loads(event.data) == {"game": game.pk, "url": url}


# --- The push ---------------------------------------------------------------------------------


def test_a_waiting_page_is_sent_to_the_game_when_a_match_arrives(
    transport: str, alice: User, bob: User
) -> None:
    services.join(user=alice, kind="classic")
    alices = async_client_for(alice)

    async def scenario() -> None:
        reader = await open_stream(alices, STREAM)
        await sync_to_async(services.join)(user=bob, kind="classic")
        seated = await reader.expect("seated")
        assert await reader.next() is None  # its one event said: the stream is done

        assert_sent_to(seated, await sync_to_async(game_of)(alice))

    run(scenario)
    assert broadcast.hub.count() == 0


def test_a_stream_opened_after_the_pairing_is_sent_to_the_game_at_once(
    transport: str, alice: User, bob: User
) -> None:
    services.join(user=alice, kind="classic")
    services.join(user=bob, kind="classic")  # between the page's load and its stream's opening
    alices = async_client_for(alice)

    async def scenario() -> None:
        reader = await open_stream(alices, STREAM)
        seated = await reader.expect("seated")
        assert await reader.next() is None

        assert_sent_to(seated, await sync_to_async(game_of)(alice))

    run(scenario)


def test_another_accounts_pairing_is_never_sent_to_a_waiting_page(
    transport: str, alice: User, bob: User
) -> None:
    carol = rated("carol", 2400)  # far from them: she waits on
    services.join(user=carol, kind="classic")
    services.join(user=alice, kind="classic")
    carols, alices = async_client_for(carol), async_client_for(alice)

    async def scenario() -> None:
        on_carols = await open_stream(carols, STREAM)
        on_alices = await open_stream(alices, STREAM)
        await sync_to_async(services.join)(user=bob, kind="classic")
        await on_alices.expect("seated")
        assert await on_carols.quiet(0.5)
        await on_carols.close()

    run(scenario)
    assert broadcast.hub.count() == 0


def test_the_computer_taken_in_one_tab_takes_the_others_to_the_game(alice: User) -> None:
    services.join(user=alice, kind="classic", now=at(0))
    other_tab = async_client_for(alice)

    async def scenario() -> None:
        reader = await open_stream(other_tab, STREAM)
        game = await sync_to_async(services.play_computer)(user=alice, now=at(31))
        assert_sent_to(await reader.expect("seated"), game)

    run(scenario)


# --- Who may open it, and when it ends -----------------------------------------------------------


def test_a_logged_out_visitor_is_refused() -> None:
    async def scenario() -> None:
        response = await AsyncClient().get(STREAM)
        assert response.status_code == 403
        assert response.content == b"Log in to wait for a game."

    run(scenario)
    assert broadcast.hub.count() == 0


def test_an_account_not_waiting_is_refused_so_its_page_just_asks(alice: User) -> None:
    alices = async_client_for(alice)

    async def scenario() -> None:
        response = await alices.get(STREAM)
        assert response.status_code == 404
        assert response.content == b"You are not waiting for a game."

    run(scenario)
    assert broadcast.hub.count() == 0 and broadcast.hub.streams_of(alice.pk) == 0


def test_a_wsgi_server_refuses_the_stream_so_the_page_asks_instead(alice: User) -> None:
    services.join(user=alice, kind="classic")
    client = Client()
    client.force_login(alice)

    response = client.get(STREAM)

    assert response.status_code == 503 and b"ASGI" in response.content


def test_logging_out_ends_the_stream(transport: str, alice: User) -> None:
    services.join(user=alice, kind="classic")
    alices = async_client_for(alice)

    async def scenario() -> None:
        reader = await open_stream(alices, STREAM)

        def log_out() -> None:
            request = RequestFactory().post("/accounts/logout/")
            engine = import_module(site_settings.SESSION_ENGINE)
            request.session = engine.SessionStore(
                alices.cookies[site_settings.SESSION_COOKIE_NAME].value
            )
            request.user = alice
            logout(request)

        await sync_to_async(log_out)()
        end = await reader.expect("end")
        assert await reader.next() is None
        assert end.data == "session"

    run(scenario)
    assert broadcast.hub.count() == 0


def test_a_password_changed_ends_the_stream(alice: User) -> None:
    services.join(user=alice, kind="classic")
    alices = async_client_for(alice)

    async def scenario() -> None:
        reader = await open_stream(alices, STREAM)

        def change_password() -> None:
            alice.set_password("another-long-password-77")
            alice.save()

        await sync_to_async(change_password)()
        assert (await reader.expect("end")).data == "session"

    run(scenario)


def test_a_stream_cut_by_the_server_simply_ends(alice: User) -> None:
    services.join(user=alice, kind="classic")
    alices = async_client_for(alice)

    async def scenario() -> None:
        reader = await open_stream(alices, STREAM)
        assert broadcast.hub.cut_all() == 1
        assert await reader.next() is None  # no "end": the browser reconnects by itself

    run(scenario)
