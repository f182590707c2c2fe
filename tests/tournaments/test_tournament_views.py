"""The tournaments' pages: each refusal answers its status with its message on the page,
having changed nothing; the list shows the listed ones alone; the standings poll."""

from __future__ import annotations

import pytest
from django.template import engines
from django.test import Client
from django.urls import reverse

from games.tournaments import clock, selectors, services, stream
from games.tournaments.models import Entry, Tournament
from games.tournaments.views import standings_context
from tests.factories import HTMX, client_for, page_text
from tests.tournaments.tournament_support import opened, registered, started_with

pytestmark = pytest.mark.django_db


def url(name: str, tournament: Tournament) -> str:
    return reverse(f"tournaments:{name}", kwargs={"token": tournament.token})


def test_a_registered_host_opens_one_and_lands_on_its_page():
    host = registered("host")
    answer = client_for(host).post(
        reverse("tournaments:new"), {"name": "Friday", "kind": "triple", "cap": "50"}
    )

    tournament = Tournament.objects.get()
    assert answer.status_code == 302 and answer["Location"] == url("page", tournament)
    assert (tournament.kind, tournament.cap, tournament.listed) == ("triple", 50, False)
    page = client_for(host).get(url("page", tournament))
    assert "Private: only those with its link" in page_text(page)
    assert "It starts when its host presses start" in page_text(page)


def test_the_new_tournament_form_offers_yatzy_and_opens_one():
    host = registered("host")
    form = client_for(host).get(reverse("tournaments:new"))
    answer = client_for(host).post(
        reverse("tournaments:new"), {"name": "Midsommar", "kind": "yatzy", "cap": "20"}
    )

    tournament = Tournament.objects.get()
    assert 'name="kind" value="yatzy"' in form.text
    assert answer.status_code == 302 and tournament.kind == "yatzy"
    assert "Yatzy, hosted by" in page_text(client_for(host).get(url("page", tournament)))


def test_a_trial_account_is_told_it_cannot_host(make_user):
    client = client_for(make_user("trial"))
    assert "Only a registered account" in page_text(client.get(reverse("tournaments:new")))

    answer = client.post(reverse("tournaments:new"), {"name": "Mine", "cap": "10"})

    assert answer.status_code == 403
    assert "Only a registered account can host a tournament" in page_text(answer)
    assert not Tournament.objects.exists()


@pytest.mark.parametrize(
    ("form", "message"),
    [
        ({"name": "Big", "cap": "1001"}, "1 to 1,000 players"),
        ({"name": "Big", "cap": "٣"}, "1 to 1,000 players"),
        ({"name": "", "cap": "10"}, "a name of 1 to 60"),
        ({"name": "K", "cap": "10", "kind": "x"}, "Choose Classic, Triple or Yatzy"),
    ],
)
def test_a_bad_form_answers_400(form, message):
    answer = client_for(registered("host")).post(reverse("tournaments:new"), form)

    assert answer.status_code == 400
    assert message in page_text(answer)
    assert not Tournament.objects.exists()


def test_a_bad_token_is_404(make_user):
    client = client_for(make_user("alice"))
    assert client.get("/tournaments/t/no-such-token/").status_code == 404
    assert client.post("/tournaments/t/no-such-token/join/").status_code == 404
    assert client.post("/tournaments/t/no-such-token/end/").status_code == 404


def test_joining_twice_and_joining_a_full_one_are_409(make_user):
    tournament = opened(cap=1)
    alice = client_for(make_user("alice"))
    assert alice.post(url("join", tournament)).status_code == 302

    again = alice.post(url("join", tournament))
    full = client_for(make_user("bob")).post(url("join", tournament))

    assert again.status_code == 409 and "joined this tournament already" in page_text(again)
    assert full.status_code == 409 and "is full" in page_text(full)
    assert Entry.objects.count() == 1


def test_starting_or_ending_someone_elses_is_403(make_user):
    alice = make_user("alice")
    tournament = opened()
    services.join(user=alice, token=tournament.token)

    start = client_for(alice).post(url("start", tournament))
    end = client_for(alice).post(url("end", tournament))

    assert start.status_code == 403 and "Only the tournament's host can start it" in page_text(
        start
    )
    assert end.status_code == 403 and "Only the tournament's host can end it" in page_text(end)
    tournament.refresh_from_db()
    assert tournament.started_at is None and tournament.ended_at is None


def test_ending_twice_is_409_and_a_late_join_too(make_user):
    tournament = started_with(make_user("alice"))
    host = client_for(tournament.host)
    assert host.post(url("end", tournament)).status_code == 302

    again = host.post(url("end", tournament))
    late = client_for(make_user("bob")).post(url("join", tournament))

    assert again.status_code == 409 and "over already" in page_text(again)
    assert late.status_code == 409 and "is over" in page_text(late)


def test_playing_goes_to_the_entrants_game(make_user):
    alice = make_user("alice")
    tournament = started_with(alice)

    answer = client_for(alice).post(url("play", tournament))

    game = Entry.objects.get().game
    assert game is not None
    assert answer["Location"] == reverse("games:play", kwargs={"game_id": game.pk})
    refused = client_for(make_user("bob")).post(url("play", tournament))
    assert refused.status_code == 409 and "not joined" in page_text(refused)


def test_the_standings_poll_while_it_runs(make_user):
    alice = make_user("alice", display_name="Alice")
    tournament = started_with(alice)

    full = Client().get(url("page", tournament))
    part = Client().get(url("page", tournament), headers=HTMX)

    assert 'hx-trigger="every 5s"' in full.text and "Standings so far" in full.text
    assert part.text.lstrip().startswith('<section class="panel" id="standings"')
    assert "Alice" in part.text and part["Vary"].count("HX-Request") == 1


def test_the_list_shows_listed_ones_alone_by_state(make_user):
    listed = opened(name="Open house")
    hidden = opened(name="Secret club", listed=False)
    running = started_with(make_user("alice"), name="Under way")

    text = page_text(Client().get(reverse("tournaments:list")))

    assert "Open house" in text and "Under way" in text and "Secret club" not in text
    text = text[text.index("Open to join") :]  # after the site's weekly, listed first
    assert text.index("Open to join") < text.index("Open house") < text.index("Running")
    assert text.index("Running") < text.index("Under way") < text.index("Over")
    assert listed.token != hidden.token != running.token


def test_the_dashboard_links_the_tournaments(make_user):
    text = client_for(make_user("alice")).get(reverse("games:dashboard")).text

    assert reverse("tournaments:list") in text and reverse("tournaments:new") in text


def test_a_visitor_is_asked_to_log_in_to_join_while_it_is_open_alone(make_user):
    tournament = opened(listed=False)
    assert "Log in to join" in page_text(Client().get(url("page", tournament)))

    services.join(user=make_user("alice"), token=tournament.token)
    services.start(user=tournament.host, token=tournament.token)
    running = page_text(Client().get(url("page", tournament)))
    assert "Running" in running and "Log in to join" not in running


def test_once_over_the_state_and_the_final_standings_say_so_alike(make_user):
    """The page of an ended tournament says when it ended, with no action left for anyone;
    the standings pushed to its streams carry the same state, which the page shows in place
    of the one it was drawn with (``standings.js``)."""
    alice = make_user("alice")
    tournament = started_with(alice, listed=False)
    services.end(user=tournament.host, token=tournament.token)
    tournament.refresh_from_db()
    ended = clock.shown(tournament.ended_at)

    for client in (Client(), client_for(alice), client_for(tournament.host)):
        page = client.get(url("page", tournament))
        text = page_text(page)
        assert f"Over It ended on {ended}." in text
        assert "Log in to join" not in text and "Running" not in text
        assert "data-tournament-play>" not in page.text and "data-tournament-end>" not in page.text
    html = (  # as ``stream.read`` draws it for every stream
        engines["jinja2"]
        .get_template(stream.FRAGMENT)
        .render(standings_context(tournament, selectors.board(tournament)))
    )
    over = html.split("<template data-tournament-over>", 1)[1].split("</template>", 1)[0]
    assert f"It ended on {ended}." in page_text(over) and "data-tournament-state" in over
