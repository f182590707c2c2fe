"""Django's Jinja2 backend, which draws the hot fragments: it escapes what it is given, and a
name a template misspells fails rather than drawing nothing."""

from __future__ import annotations

import re

import jinja2
import pytest
from django.template import engines
from django.test import Client
from django.urls import reverse

HOSTILE = "<script>alert('x')</script>&"


def test_the_fragments_backend_escapes_what_it_is_given() -> None:
    drawn = engines["jinja2"].from_string("<b>{{ name }}</b>").render({"name": HOSTILE})

    assert drawn == "<b>&lt;script&gt;alert(&#39;x&#39;)&lt;/script&gt;&amp;</b>"


def test_a_misspelled_name_fails_instead_of_drawing_nothing() -> None:
    with pytest.raises(jinja2.UndefinedError):
        engines["jinja2"].from_string("{{ nmae }}").render({"name": "Ann"})


def test_a_macro_reads_the_page_through_here_and_a_misspelling_still_fails() -> None:
    # The game's parts are macros imported without the page's context (built once per process):
    # they read the page through here(), escaped as ever, and a name it lacks fails on use.
    macros = "{% macro shout(v) %}<b>{{ v.name }}</b>{% endmacro %}"
    engine = engines["jinja2"]
    page = engine.from_string(macros + "{% set v = here() %}{{ shout(v) }}")
    misspelled = engine.from_string(
        "{% macro shout(v) %}<b>{{ v.nmae }}</b>{% endmacro %}{% set v = here() %}{{ shout(v) }}"
    )

    assert page.render({"name": HOSTILE}) == (
        "<b>&lt;script&gt;alert(&#39;x&#39;)&lt;/script&gt;&amp;</b>"
    )
    with pytest.raises(jinja2.UndefinedError, match="nmae"):
        misspelled.render({"name": "Ann"})


def test_the_game_parts_module_is_built_once_not_on_every_answer(monkeypatch) -> None:
    engine = engines["jinja2"]
    answer = engine.get_template("games/play/hold_answer.html")
    parts = engine.env.get_template("games/play/parts.html")
    built: list[object] = []
    make_module = type(parts).make_module

    def counted(self, *args, **kwargs):
        built.append(self.name)
        return make_module(self, *args, **kwargs)

    monkeypatch.setattr(type(parts), "make_module", counted)
    monkeypatch.setattr(parts, "_module", None)
    game = {"game": {"version": 41}}

    drawn = [answer.template.render(game) for _ in range(3)]

    assert drawn[0] == drawn[2] and 'value="41" hx-swap-oob="true"' in drawn[0]
    assert built == ["games/play/parts.html"]


def test_a_page_draws_its_jinja2_body_with_its_context_escaped_once() -> None:
    page = engines["django"].from_string(
        '{% load jinja %}<ol>{% jinja_page "games/play/player_chips.html" %}</ol>'
    )

    drawn = page.render({"players": [{"name": HOSTILE, "total": 7, "on_turn": False}]})

    assert drawn == (
        '<ol><li class="player-chip">&lt;script&gt;alert(&#39;x&#39;)&lt;/script&gt;&amp;'
        " <strong>7</strong></li></ol>"
    )


@pytest.mark.django_db
def test_a_page_with_a_jinja2_body_masks_its_csrf_token_once_and_it_is_accepted(
    player, alice_client
) -> None:
    page = alice_client.get(reverse("games:dashboard")).text

    header = re.findall(r'hx-headers=\'\{"X-CSRFToken": "([^"]+)"\}\'', page)
    fields = re.findall(r'name="csrfmiddlewaretoken" value="([^"]+)"', page)
    # The log-out forms, the new-game form and Quick play's.
    assert len(header) == 1 and len(fields) == 4
    assert set(fields) == set(header)  # the page's one token, not a second mask in its body
    checked = Client(enforce_csrf_checks=True)
    checked.force_login(player)
    checked.cookies = alice_client.cookies
    started = checked.post(reverse("games:new"), {"csrfmiddlewaretoken": fields[1]})
    assert started.status_code == 302 and started["Location"].startswith("/play/")


def test_a_link_of_no_arguments_is_reversed_once_and_follows_the_script_prefix(
    monkeypatch,
) -> None:
    from django.urls import clear_script_prefix, set_script_prefix

    from games.templatetags import jinja as fragments

    reversed_names: list[str] = []
    real_reverse = fragments.reverse

    def counted(name: str, *args, **kwargs) -> str:
        reversed_names.append(name)
        return real_reverse(name, *args, **kwargs)

    monkeypatch.setattr(fragments, "reverse", counted)
    fragments._fixed_url.cache_clear()
    link = engines["jinja2"].from_string("{{ url('help') }}")
    try:
        first, again = link.render({}), link.render({})
        set_script_prefix("/yahtzee/")  # the site served below a path (SCRIPT_NAME)
        below = link.render({})
    finally:
        clear_script_prefix()
        fragments._fixed_url.cache_clear()

    assert first == again == reverse("help") and below == "/yahtzee" + reverse("help")
    assert reversed_names == ["help", "help"]  # once per prefix, not once per page
