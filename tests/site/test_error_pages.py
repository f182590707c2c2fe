"""Error pages in the site's look: header, a way back, the player's theme — never Django's bare
"Not Found"."""

from __future__ import annotations

import pytest
from django.test import Client, RequestFactory
from django.urls import reverse

from games.tables import services
from tests.factories import page_text
from yahtzee_site import views as site_views


def test_a_game_that_does_not_exist_answers_the_sites_404(alice_client: Client) -> None:
    response = alice_client.get("/play/99999/")

    assert response.status_code == 404
    text = page_text(response)
    assert "There is nothing here" in text
    assert "Back to my games" in text
    assert 'aria-label="Main"' in response.text  # the site's header and its menu


def test_another_players_game_looks_exactly_like_a_missing_one(
    make_user, client_for, player
) -> None:
    game = services.start_game(owner=make_user("bob"))

    response = client_for(player).get(reverse("games:play", kwargs={"game_id": game.pk}))

    assert response.status_code == 404
    assert "each game can be seen only by its players" in page_text(response)


def test_a_visitor_is_sent_back_to_the_front_page(client: Client, db: None) -> None:
    response = client.get("/no-such-page/")

    assert response.status_code == 404
    assert 'href="/">Back to the front page</a>' in response.text


def test_the_error_page_wears_the_players_theme(make_user, client_for) -> None:
    night_owl = make_user("owl", theme="dark")

    response = client_for(night_owl).get("/play/99999/")

    assert "theme-dark" in response.text


def test_a_form_from_an_expired_page_gets_the_sites_403(player) -> None:
    strict = Client(enforce_csrf_checks=True)
    strict.force_login(player)

    response = strict.post(reverse("games:new"), {"kind": "classic"})

    assert response.status_code == 403
    assert "This page has expired" in page_text(response)


def test_a_request_for_another_host_gets_the_sites_400(db: None) -> None:
    response = Client(raise_request_exception=False).get("/", headers={"Host": "evil.example"})

    assert response.status_code == 400
    assert "That request made no sense to us" in page_text(response)


def test_a_server_error_gets_the_sites_500_with_the_header(player) -> None:
    request = RequestFactory().get("/")
    request.user = player

    response = site_views.server_error(request)

    assert response.status_code == 500
    assert "Something went wrong on our side" in page_text(response.content.decode())
    assert 'aria-label="Main"' in response.content.decode()


def test_a_500_whose_page_cannot_render_falls_back_to_a_bare_one(
    monkeypatch: pytest.MonkeyPatch, db: None
) -> None:
    def broken(*args: object, **kwargs: object) -> None:
        raise RuntimeError("the database is down")

    monkeypatch.setattr(site_views, "render", broken)

    response = site_views.server_error(RequestFactory().get("/"))

    assert response.status_code == 500
    assert b"Something went wrong on our side" in response.content


# --- A body too large for the form parser, sent where no page is ----------------------------


def _with_csrf_cookie() -> Client:
    """A browser that has been here before: the CSRF cookie set, so a check reads the form."""
    client = Client(enforce_csrf_checks=True)
    client.get("/accounts/login/")
    assert "csrftoken" in client.cookies
    return client


@pytest.mark.parametrize(
    ("body", "what"),
    [
        ({f"f{i}": "x" for i in range(1500)}, "1,500 fields"),
        ({"a": "x" * 3_000_000}, "3 MB"),
    ],
)
def test_a_huge_post_to_no_page_is_answered_not_found(db: None, body, what) -> None:
    # Django's own 404 handler checked the CSRF token first, reading the body: a 500.
    response = _with_csrf_cookie().post("/nothing-here/", body)

    assert response.status_code == 404, what
    assert "There is nothing here" in page_text(response)


def test_a_huge_post_to_a_page_is_a_bad_request(db: None) -> None:
    response = _with_csrf_cookie().post("/accounts/login/", {f"f{i}": "x" for i in range(1500)})

    assert response.status_code == 400
    assert "That request made no sense to us" in page_text(response)
