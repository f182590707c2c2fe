"""The account pages' markup: a label for every input, autofocus, and nothing the CSP blocks."""

from __future__ import annotations

from html.parser import HTMLParser

import pytest
from django.test import Client
from django.urls import reverse

pytestmark = pytest.mark.django_db


class FormMarkup(HTMLParser):
    """Collects the inputs, labels and CSP-relevant attributes of a page."""

    def __init__(self) -> None:
        super().__init__()
        self.inputs: list[dict[str, str | None]] = []
        self.label_targets: set[str] = set()
        self.inline_styles = 0
        self.inline_handlers: list[str] = []
        self.inline_scripts = 0
        self.autofocus = 0

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        named = dict(attrs)
        if "style" in named or tag == "style":
            self.inline_styles += 1
        self.inline_handlers += [name for name, _ in attrs if name.startswith("on")]
        if tag == "script" and "src" not in named:
            self.inline_scripts += 1
        if "autofocus" in named:
            self.autofocus += 1
        if tag == "label" and named.get("for"):
            self.label_targets.add(str(named["for"]))
        if tag in {"input", "select", "textarea"} and named.get("type") != "hidden":
            self.inputs.append(named)


def parse(page: str) -> FormMarkup:
    markup = FormMarkup()
    markup.feed(page)
    return markup


ANONYMOUS_PAGES = ["accounts:signup", "accounts:login", "accounts:password_reset"]
PLAYER_PAGES = ["accounts:account", "accounts:password_change"]
# The account page leads with the player's details; focusing its form would skip past them.
NO_AUTOFOCUS = {reverse("accounts:account")}


@pytest.mark.parametrize("name", ANONYMOUS_PAGES)
def test_anonymous_form_pages_are_labelled_and_csp_clean(client: Client, name: str) -> None:
    assert_labelled_and_csp_clean(client.get(reverse(name)).text, autofocus=1)


@pytest.mark.parametrize("name", PLAYER_PAGES)
def test_player_form_pages_are_labelled_and_csp_clean(alice_client: Client, name: str) -> None:
    url = reverse(name)
    autofocus = 0 if url in NO_AUTOFOCUS else 1
    assert_labelled_and_csp_clean(alice_client.get(url).text, autofocus=autofocus)


def test_pages_with_errors_stay_labelled_and_csp_clean(client: Client) -> None:
    page = client.post(reverse("accounts:signup"), {"username": "x", "email": "bad"}).text

    assert_labelled_and_csp_clean(page, autofocus=1)
    assert "Please check the form" in page


def assert_labelled_and_csp_clean(page: str, *, autofocus: int) -> None:
    markup = parse(page)
    assert markup.inputs, "the page has a form"
    for field in markup.inputs:
        assert field.get("id") in markup.label_targets, f"no <label> for {field}"
        if field.get("type") in {"text", "email", "password"}:
            assert field.get("autocomplete"), f"no autocomplete on {field}"
    assert markup.autofocus == autofocus
    assert markup.inline_styles == 0
    assert markup.inline_handlers == []
    assert markup.inline_scripts == 0
