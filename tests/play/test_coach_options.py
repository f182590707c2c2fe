"""The coach's options: off by default, turned on per account with the points it speaks from,
and a threshold out of range, blank or too precise refused with one clear message."""

from __future__ import annotations

from decimal import Decimal

import pytest
from django.db import IntegrityError, transaction
from django.urls import reverse

from accounts.forms import COACH_THRESHOLD_WRONG
from accounts.models import User
from tests.factories import HTMX, page_text

FORM = {"theme": "classic", "felt_color": "#1d6b3c", "dice_style": "ivory", "confirm_zero": "on"}


def test_the_coach_is_off_by_default_and_speaks_from_half_a_point(player) -> None:
    assert (player.coach, player.coach_threshold) == (False, Decimal("0.5"))


def test_the_options_page_offers_the_coach_and_says_what_it_does(client, player) -> None:
    client.force_login(player)

    text = page_text(client.get(reverse("accounts:options")))

    assert "Coach me after costly choices" in text
    assert "Never before you choose, and never in the daily challenge (no help there)." in text
    assert "The coach speaks from" in text


def test_the_coach_is_turned_on_with_its_threshold(client, player) -> None:
    client.force_login(player)

    response = client.post(
        reverse("accounts:options"), FORM | {"coach": "on", "coach_threshold": "1.5"}
    )

    player.refresh_from_db()
    assert response.status_code == 302
    assert (player.coach, player.coach_threshold) == (True, Decimal("1.5"))


@pytest.mark.parametrize(
    "value",
    ["0", "0.05", "10.1", "-1", "lots", "0.25", "NaN", "", "1e999999", "-1e999999", "Infinity"],
)
def test_a_threshold_it_cannot_use_is_refused_and_changes_nothing(client, player, value) -> None:
    client.force_login(player)

    response = client.post(
        reverse("accounts:options"),
        FORM | {"coach": "on", "coach_threshold": value},
        headers=HTMX,
    )

    player.refresh_from_db()
    assert response.status_code == 400
    text = page_text(response)
    assert text.count(COACH_THRESHOLD_WRONG) == 2  # once at the top, once at the field
    assert "The coach speaks from: " + COACH_THRESHOLD_WRONG in text  # the top's link
    assert COACH_THRESHOLD_WRONG == (
        "Enter the points the coach speaks from: a number from 0.1 to 10, in tenths, like 0.5."
    )
    assert (player.coach, player.coach_threshold) == (False, Decimal("0.5"))


@pytest.mark.parametrize("value", ["0.1", "10"])
def test_the_ends_of_the_range_are_allowed(client, player, value) -> None:
    client.force_login(player)

    response = client.post(reverse("accounts:options"), FORM | {"coach_threshold": value})

    player.refresh_from_db()
    assert response.status_code == 302 and player.coach_threshold == Decimal(value)


def test_a_form_sent_without_the_threshold_keeps_the_account_s(client, player) -> None:
    User.objects.filter(pk=player.pk).update(coach_threshold=Decimal("2.0"))
    client.force_login(player)

    response = client.post(reverse("accounts:options"), FORM | {"coach": "on"})

    player.refresh_from_db()
    assert response.status_code == 302
    assert (player.coach, player.coach_threshold) == (True, Decimal("2.0"))


def test_the_database_refuses_a_threshold_out_of_range(player) -> None:
    with pytest.raises(IntegrityError), transaction.atomic():
        User.objects.filter(pk=player.pk).update(coach_threshold=Decimal("0.0"))
