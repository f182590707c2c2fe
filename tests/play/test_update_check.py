"""The update check a waiting player's page makes: an unchanged game answers 304 Not Modified,
nearly for free; a changed one, the game partial with a new tag."""

from __future__ import annotations

import pytest
from django.contrib.auth import HASH_SESSION_KEY
from django.test import Client
from django.urls import reverse

from accounts import credentials
from games.models import Game, Invitation
from games.play import live
from games.tables import services
from tests.factories import HTMX, PASSWORD, client_for, make_user, roll_now


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
    settings, alice_client, game, django_assert_num_queries
) -> None:
    # As without REDIS_URL (whatever the suite runs with): sessions and versions in the database.
    settings.SESSION_ENGINE = "django.contrib.sessions.backends.db"
    settings.GAME_VERSIONS_IN_CACHE = False
    etag = fetch(alice_client, game)["ETag"]

    with django_assert_num_queries(2):  # the session; the game's version with the credentials
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
    cache.set(credentials.key(player.pk), credentials.stamp(player))

    found = live.revalidation(game_id=game.pk, user_id=player.pk)

    assert found is not None and found.version == (41 if in_cache else 0)


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


# --- A session Django's authentication would refuse gets no 304 --------------------------------
# After a password change elsewhere, an account made inactive or deleted, the check refuses the
# old session as Django would (the auth hash in the session, is_active), in both set-ups: versions
# and credentials read from the database, or from the cache every worker shares (Redis, or the
# local-memory cache standing in for it when the suite runs without REDIS_URL).

SET_UPS = {
    "database": {"GAME_VERSIONS_IN_CACHE": False},
    "shared cache": {
        "GAME_VERSIONS_IN_CACHE": True,
        "SESSION_ENGINE": "django.contrib.sessions.backends.cached_db",
    },
}


@pytest.fixture(params=list(SET_UPS))
def set_up(request, settings) -> str:
    for name, value in SET_UPS[request.param].items():
        setattr(settings, name, value)
    return request.param


def _checked_once(client: Client, game: Game) -> str:
    """The tag of the game's partial, revalidated once (so any cache the check fills is full)."""
    etag = fetch(client, game)["ETag"]
    assert fetch(client, game, etag).status_code == 304
    return etag


def test_a_password_changed_in_another_session_ends_the_old_sessions_304s(
    set_up, player, game, django_capture_on_commit_callbacks
) -> None:
    old_session, other_session = client_for(player), client_for(player)
    etag = _checked_once(old_session, game)
    others_etag = _checked_once(other_session, game)

    with django_capture_on_commit_callbacks(execute=True):
        changed = other_session.post(
            reverse("accounts:password_change"),
            {
                "old_password": PASSWORD,
                "new_password1": "n3w-secret-dice",
                "new_password2": "n3w-secret-dice",
            },
        )
    assert changed.status_code == 302

    refused = fetch(old_session, game, etag)
    assert refused.status_code == 302  # the full view's answer: log in again
    assert refused["Location"].startswith(reverse("accounts:login"))
    # The session that changed it stays logged in, and its checks stay cheap.
    assert fetch(other_session, game, others_etag).status_code == 304


def test_an_account_made_inactive_gets_no_304(
    set_up, player, game, django_capture_on_commit_callbacks
) -> None:
    session = client_for(player)
    etag = _checked_once(session, game)

    with django_capture_on_commit_callbacks(execute=True):
        player.is_active = False
        player.save()

    refused = fetch(session, game, etag)
    assert refused.status_code == 302
    assert refused["Location"].startswith(reverse("accounts:login"))


def test_a_deleted_account_gets_no_304_for_a_game_it_sat_in(
    set_up, player, django_capture_on_commit_callbacks
) -> None:
    game = services.open_game(owner=player, invites=1)
    bob = make_user("bob")
    services.join_game(token=Invitation.objects.get().token, user=bob)
    session = client_for(bob)
    etag = _checked_once(session, game)

    with django_capture_on_commit_callbacks(execute=True):
        bob.delete()  # his seat is kept, emptied: the game's version does not move

    assert fetch(session, game, etag).status_code == 302


def test_a_session_without_its_auth_hash_gets_no_304(set_up, player, game) -> None:
    session = client_for(player)
    etag = _checked_once(session, game)
    stored = session.session
    del stored[HASH_SESSION_KEY]
    stored.save()

    assert fetch(session, game, etag).status_code == 302


def test_the_credentials_are_published_once_the_save_commits(
    settings, player, django_capture_on_commit_callbacks
) -> None:
    from django.core.cache import cache

    settings.GAME_VERSIONS_IN_CACHE = True
    key = credentials.key(player.pk)
    with django_capture_on_commit_callbacks(execute=False) as pending:
        player.set_password("n3w-secret-dice")
        player.save()
    assert cache.get(key) is None  # not before the commit

    for callback in pending:
        callback()

    assert cache.get(key) == player.get_session_auth_hash()


def test_a_save_that_leaves_the_credentials_alone_publishes_nothing(
    settings, player, django_capture_on_commit_callbacks
) -> None:
    # An old copy of the account saving another field must not publish its old credentials.
    from django.core.cache import cache

    settings.GAME_VERSIONS_IN_CACHE = True
    with django_capture_on_commit_callbacks(execute=True):
        player.save(update_fields=["last_login"])

    assert cache.get(credentials.key(player.pk)) is None


def test_with_a_shared_cache_a_304_reads_it_twice_and_the_database_never(
    settings, player, game, django_assert_num_queries, monkeypatch
) -> None:
    # The session, then the game's version and the account's credentials in one read.
    from django.core.cache import caches

    settings.SESSION_ENGINE = "django.contrib.sessions.backends.cached_db"
    settings.GAME_VERSIONS_IN_CACHE = True
    session = client_for(player)
    etag = _checked_once(session, game)
    reads = _cache_calls(monkeypatch, caches["default"])

    with django_assert_num_queries(0):
        response = fetch(session, game, etag)

    assert response.status_code == 304
    assert reads == ["get", "get_many"]


def test_a_lost_credential_stamp_costs_one_query_and_is_kept_again(
    settings, player, game, django_assert_num_queries
) -> None:
    from django.core.cache import cache

    settings.SESSION_ENGINE = "django.contrib.sessions.backends.cached_db"
    settings.GAME_VERSIONS_IN_CACHE = True
    session = client_for(player)
    etag = _checked_once(session, game)
    cache.delete(credentials.key(player.pk))  # evicted, or Redis restarted

    with django_assert_num_queries(1):  # the account's credentials, with the game's version
        assert fetch(session, game, etag).status_code == 304
    with django_assert_num_queries(0):
        assert fetch(session, game, etag).status_code == 304


def test_where_the_presence_cache_is_the_shared_cache_a_304_reads_it_once(
    settings, player, game, django_assert_num_queries, monkeypatch
) -> None:
    # With Redis the pages' presence (for the turn mail) lives in the shared cache itself: the
    # update check reads it with the game's version, not in a round trip of its own.
    from django.core.cache import caches

    settings.CACHES = {**settings.CACHES, "presence": settings.CACHES["default"]}
    settings.SESSION_ENGINE = "django.contrib.sessions.backends.cached_db"
    settings.GAME_VERSIONS_IN_CACHE = True
    session = client_for(player)
    etag = _checked_once(session, game)
    fetch(session, game, etag)  # the page's check is written down (at most every 10 s)
    reads = _cache_calls(monkeypatch, caches["default"], caches["presence"])

    with django_assert_num_queries(0):
        response = fetch(session, game, etag)

    assert response.status_code == 304
    assert reads == ["get", "get_many"]
    assert live.page_open(game_id=game.pk, user_id=player.pk)


def _cache_calls(monkeypatch, *watched) -> list[str]:
    """The calls made to the ``watched`` caches from now on, by method name, in order (a call a
    cache makes inside another, as the local-memory cache's get_many calls its get, counted
    once)."""
    calls: list[str] = []
    inside: list[str] = []
    for cache_ in watched:
        for method in ("get", "get_many", "has_key", "add", "set", "set_many", "delete", "touch"):
            real = getattr(cache_, method)

            def counted(*args, _real=real, _method=method, **kwargs):
                if not inside:
                    calls.append(_method)
                inside.append(_method)
                try:
                    return _real(*args, **kwargs)
                finally:
                    inside.pop()

            monkeypatch.setattr(cache_, method, counted)
    return calls
