"""The site's weekly tournament: made once (racing makers make one), this week's and next
week's, with no host; nobody starts or ends it by hand; listed first with its start; the list
page makes it without a write once made; the command makes it."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from io import StringIO

import pytest
from django.core.management import call_command
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from games.errors import NotTheHost
from games.tournaments import services, weekly
from games.tournaments.models import Tournament
from tests.factories import client_for, page_text
from tests.licensing.licensing_support import run_together
from tests.tournaments.tournament_support import opened, registered

NOW = datetime(2026, 12, 6, 9, 0, tzinfo=UTC)  # Sunday of week 49


@pytest.mark.django_db
def test_this_weeks_and_next_weeks_are_made_with_the_sites_choices():
    made = weekly.ensure(NOW)

    assert [t.weekly for t in made] == ["2026-W49", "2026-W50"]
    this, following = Tournament.objects.order_by("starts_at")
    assert this.host is None and this.listed and this.kind == "classic"
    assert this.name == "Weekly tournament, week 49 of 2026"
    assert this.starts_at == datetime(2026, 12, 5, 18, tzinfo=UTC)
    assert this.ends_at == datetime(2026, 12, 6, 18, tzinfo=UTC)
    assert following.starts_at == datetime(2026, 12, 12, 18, tzinfo=UTC)


@pytest.mark.django_db
def test_made_again_it_is_the_same_one():
    first = weekly.ensure(NOW)
    again = weekly.ensure(NOW + timedelta(hours=1))

    assert [t.pk for t in again] == [t.pk for t in first]
    assert Tournament.objects.count() == 2


@pytest.mark.django_db(transaction=True)
def test_racing_makers_make_one_each_week():
    results = run_together(6, lambda i: [t.pk for t in weekly.ensure(NOW)])

    assert not [r for r in results if isinstance(r, Exception)], results
    assert len({tuple(r) for r in results}) == 1
    assert Tournament.objects.filter(weekly="2026-W49").count() == 1
    assert Tournament.objects.count() == 2


@pytest.mark.django_db
def test_nobody_starts_or_ends_the_sites_tournament_by_hand(make_user):
    tournament = weekly.ensure(NOW)[1]
    services.join(user=make_user("alice"), token=tournament.token)
    for anyone in (make_user("bob"), registered("a_host")):
        with pytest.raises(NotTheHost, match="starts by its clock"):
            services.start(user=anyone, token=tournament.token)
        with pytest.raises(NotTheHost, match="ends by its clock"):
            services.end(user=anyone, token=tournament.token)
    tournament.refresh_from_db()
    assert tournament.started_at is None and tournament.ended_at is None


@pytest.mark.django_db
def test_its_page_names_the_site_as_host_and_offers_no_start(make_user):
    tournament = weekly.ensure()[1]
    text = page_text(client_for(make_user("alice")).get(_url(tournament)))

    assert "hosted by Yahtzee:" in text
    assert "It starts at Saturday" in text and "18:00 UTC" in text
    assert "or sooner if its host" not in text
    page = client_for(make_user("bob")).get(_url(tournament)).content.decode()
    assert "data-tournament-start" not in page and "data-tournament-end" not in page


@pytest.mark.django_db
def test_the_list_shows_the_weekly_first_with_its_start(make_user):
    opened(name="Open house")
    text = page_text(Client().get(reverse("tournaments:list")))

    following = weekly.ensure()[1]
    assert (
        text.index("The weekly tournament") < text.index(following.name) < text.index("Open house")
    )
    assert "Starts Saturday" in text


@pytest.mark.django_db
def test_the_list_makes_it_once_then_writes_nothing():
    Client().get(reverse("tournaments:list"))
    assert Tournament.objects.filter(weekly__isnull=False).count() == 2

    with CaptureQueriesContext(connection) as queries:
        Client().get(reverse("tournaments:list"))
    writes = [q["sql"] for q in queries if not q["sql"].lstrip().upper().startswith("SELECT")]
    assert not [w for w in writes if "tournament" in w.lower()], writes
    made = [q["sql"] for q in queries if '"weekly" =' in q["sql"]]
    assert not made, made  # the cached flag: not even the lookup of this week's key


@pytest.mark.django_db
def test_the_command_makes_them(settings):
    out = StringIO()
    call_command("weekly_tournament", stdout=out)
    call_command("weekly_tournament", stdout=out)

    assert Tournament.objects.filter(weekly__isnull=False, host__isnull=True).count() == 2
    assert "Weekly tournament, week" in out.getvalue()


def _url(tournament: Tournament) -> str:
    return reverse("tournaments:page", kwargs={"token": tournament.token})
