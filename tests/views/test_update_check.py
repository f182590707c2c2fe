"""The update check a waiting player's page makes: an unchanged game answers 304 Not Modified,
nearly for free; a changed one, the game partial with a new tag."""

from __future__ import annotations

import pytest
from django.test import Client
from django.urls import reverse

from games import live
from games.models import Game
from tests.factories import HTMX, roll_now


def game_url(game: Game) -> str:
    return reverse("games:play", kwargs={"game_id": game.pk})


def fetch(client: Client, game: Game, etag: str | None = None):
    headers = dict(HTMX)
    if etag:
        headers["If-None-Match"] = etag
    return client.get(game_url(game), headers=headers)


def test_the_game_partial_carries_a_tag_and_asks_to_be_revalidated(alice_client, game) -> None:
    response = fetch(alice_client, game)

    assert response.status_code == 200
    assert response["ETag"].startswith(f'"g{game.pk}v0-')
    assert response["Cache-Control"] == "private, no-cache"
    assert {"HX-Request", "Cookie"} <= {v.strip() for v in response["Vary"].split(",")}


def test_an_unchanged_game_answers_304_in_two_queries(
    alice_client, game, django_assert_num_queries
) -> None:
    etag = fetch(alice_client, game)["ETag"]

    with django_assert_num_queries(2):  # the session, the game's version
        response = fetch(alice_client, game, etag)

    assert response.status_code == 304
    assert response.content == b""
    assert response["ETag"] == etag
    assert response["Cache-Control"] == "private, no-cache"


def test_a_move_changes_the_tag_and_the_answer(alice_client, game, player) -> None:
    etag = fetch(alice_client, game)["ETag"]
    roll_now(game, player, 1, 2, 3, 4, 6)

    response = fetch(alice_client, game, etag)

    assert response.status_code == 200
    assert response["ETag"] != etag
    assert "Roll 1: 1, 2, 3, 4, 6" in response.text


def test_another_viewers_tag_is_no_use(alice_client, game, make_user, client_for) -> None:
    etag = fetch(alice_client, game)["ETag"]
    stranger = client_for(make_user("mallory"))

    response = fetch(stranger, game, etag)

    assert response.status_code == 404  # not seated: the same answer as for no tag at all


def test_a_tag_made_up_for_someone_elses_game_gives_nothing_away(client_for, make_user, game):
    stranger = client_for(make_user("mallory"))

    response = fetch(stranger, game, f'"g{game.pk}v0-00000000000000000000"')

    assert response.status_code == 404


def test_a_new_csrf_secret_changes_the_tag(alice_client, game) -> None:
    etag = fetch(alice_client, game)["ETag"]
    alice_client.cookies["csrftoken"] = "x" * 32

    assert fetch(alice_client, game, etag).status_code == 200


def test_a_full_page_is_never_answered_not_modified(alice_client, game) -> None:
    etag = fetch(alice_client, game)["ETag"]

    response = alice_client.get(game_url(game), headers={"If-None-Match": etag})

    assert response.status_code == 200
    assert "<html" in response.text


def test_a_visitor_with_a_tag_is_sent_to_log_in(client, game) -> None:
    response = client.get(game_url(game), headers={**HTMX, "If-None-Match": '"g1v0-x"'})

    assert response.status_code == 302


@pytest.mark.parametrize("in_cache", [False, True])
def test_the_version_comes_from_the_cache_only_where_workers_share_it(
    game, player, settings, in_cache
) -> None:
    settings.GAME_VERSIONS_IN_CACHE = in_cache
    from django.core.cache import cache

    cache.set(f"game-version:{game.pk}", 41)

    assert live.version(game.pk) == (41 if in_cache else 0)


def test_a_tag_weakened_by_compression_still_matches(alice_client, game) -> None:
    etag = fetch(alice_client, game)["ETag"]

    response = fetch(alice_client, game, f'"other", W/{etag}')

    assert response.status_code == 304


def test_with_shared_sessions_and_versions_an_unchanged_game_costs_no_query(
    settings, make_user, client_for, player, game, django_assert_num_queries
) -> None:
    # As with REDIS_URL set: sessions fronted by the cache, versions published to it.
    settings.SESSION_ENGINE = "django.contrib.sessions.backends.cached_db"
    settings.GAME_VERSIONS_IN_CACHE = True
    viewer = client_for(player)
    etag = fetch(viewer, game)["ETag"]
    fetch(viewer, game, etag)  # the first check reads the version into the cache

    with django_assert_num_queries(0):
        response = fetch(viewer, game, etag)

    assert response.status_code == 304


def test_a_move_publishes_the_new_version_once_it_commits(
    settings, game, player, django_capture_on_commit_callbacks
) -> None:
    from django.core.cache import cache

    settings.GAME_VERSIONS_IN_CACHE = True
    with django_capture_on_commit_callbacks(execute=False) as pending:
        roll_now(game, player, 1, 2, 3, 4, 6)
    assert cache.get(f"game-version:{game.pk}") is None  # not before the commit

    for callback in pending:
        callback()

    assert cache.get(f"game-version:{game.pk}") == 1
