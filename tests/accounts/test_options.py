"""The options page: saved per account, applied on every page, and bad input refused."""

from __future__ import annotations

import pytest
from django.urls import reverse

from accounts.models import User
from tests.factories import HTMX, cards_of

GOOD = {
    "theme": "dark",
    "felt_color": "#22446a",
    "dice_style": "red",
    "sound": "on",
    "animation": "",
    "confirm_zero": "on",
}


def test_options_need_a_login(client, db):
    response = client.get(reverse("accounts:options"))
    assert response.status_code == 302


def test_options_are_saved_and_applied_on_every_page(client, player):
    client.force_login(player)

    response = client.post(reverse("accounts:options"), GOOD)

    player.refresh_from_db()
    assert response.status_code == 302
    assert (player.theme, player.felt_color, player.dice_style) == ("dark", "#22446a", "red")
    assert (player.sound, player.animation, player.confirm_zero) == (True, False, True)
    for page in (reverse("home"), reverse("games:dashboard"), reverse("high_scores")):
        html = client.get(page).text
        assert 'class="page-wrap theme-dark dice-red motion-off"' in html, page
        assert 'data-sound="on"' in html
        assert "/theme.css?felt=22446a" in html


def test_a_change_over_htmx_redraws_the_page_at_once(client, player):
    client.force_login(player)

    response = client.post(reverse("accounts:options"), GOOD | {"theme": "light"}, headers=HTMX)

    assert response.status_code == 200
    assert "theme-light" in response.text
    assert "Saved." in response.text


def test_a_bad_colour_is_refused_and_changes_nothing(client, player):
    client.force_login(player)

    response = client.post(reverse("accounts:options"), GOOD | {"felt_color": "red; x"})

    player.refresh_from_db()
    assert response.status_code == 400
    assert "Pick a colour, written like #1d6b3c." in response.text
    assert player.theme == "classic"


def test_an_unknown_theme_is_refused(client, player):
    client.force_login(player)

    response = client.post(reverse("accounts:options"), GOOD | {"theme": "neon"})

    assert response.status_code == 400
    assert "Select a valid choice. neon is not one of the available choices." in response.text
    assert User.objects.get(pk=player.pk).theme == "classic"


def test_visitors_get_the_default_table(client, db):
    html = client.get(reverse("home")).text

    assert 'class="page-wrap theme-classic dice-ivory"' in html
    assert "theme.css" not in html


def test_the_table_colour_stylesheet(client, db):
    response = client.get(reverse("theme_css"), {"felt": "22446A"})

    assert response.status_code == 200
    assert response["Content-Type"].startswith("text/css")
    assert "--felt: #22446a;" in response.text
    assert "immutable" in response["Cache-Control"]
    assert client.get(reverse("theme_css"), {"felt": "x}body{"}).status_code == 400


def test_with_confirmation_off_a_zero_is_scored_at_once(client, player, game, next_dice):
    User.objects.filter(pk=player.pk).update(confirm_zero=False)
    client.force_login(player)
    next_dice(1, 2, 3, 4, 6)
    client.post(reverse("games:roll", kwargs={"game_id": game.pk}), {"version": 0}, headers=HTMX)

    response = client.post(
        reverse("games:score", kwargs={"game_id": game.pk}),
        {"version": 1, "box": "yahtzee"},
        headers=HTMX,
    )

    assert "Score 0 in" not in response.text
    assert cards_of(game) == [{"yahtzee": 0}]


def wcag_contrast(foreground: str, background: str) -> float:
    """WCAG 2.x contrast ratio of two #rrggbb colours, written apart from the site's own code."""

    def luminance(colour: str) -> float:
        def linear(byte: str) -> float:
            c = int(byte, 16) / 255
            return c / 12.92 if c <= 0.03928 else pow((c + 0.055) / 1.055, 2.4)

        r, g, b = (linear(colour[i : i + 2]) for i in (1, 3, 5))
        return 0.2126 * r + 0.7152 * g + 0.0722 * b

    light, dark = sorted((luminance(foreground), luminance(background)), reverse=True)
    return (light + 0.05) / (dark + 0.05)


def test_the_contrast_yardstick_agrees_with_published_ratios():
    assert wcag_contrast("#ffffff", "#000000") == pytest.approx(21.0)
    assert wcag_contrast("#ffffff", "#767676") == pytest.approx(4.54, abs=0.01)
    assert wcag_contrast("#ffffff", "#777777") == pytest.approx(4.48, abs=0.01)


def test_a_pale_table_colour_is_darkened_until_white_text_reads(client, db):
    response = client.get(reverse("theme_css"), {"felt": "ffff00"})

    colours = dict(
        part.strip().split(": ")
        for part in response.text.split("{")[1].split("}")[0].split(";")
        if part.strip()
    )
    for name in ("--felt", "--felt-light"):
        contrast = wcag_contrast("#ffffff", colours[name])
        assert contrast >= 4.5, (name, colours[name], contrast)
