"""Django's Jinja2 backend, which draws the hot fragments: it escapes what it is given, and a
name a template misspells fails rather than drawing nothing."""

from __future__ import annotations

import re

import jinja2
import pytest
from django.template import engines
from django.test import Client
from django.urls import reverse

from games import rules
from games.play.card import CardRow, card_rows
from games.templatetags.jinja import _drawn, drawn_each, jinja_each

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


def test_a_page_includes_a_fragment_drawn_once_and_escaped_once() -> None:
    page = engines["django"].from_string(
        '{% load jinja %}<ol>{% jinja "games/play/player_chips.html" players=players %}</ol>'
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
    assert len(header) == 1 and len(fields) == 3  # the log-out forms and the new-game form
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


# --- Kept drawings (drawn_each / jinja_each) --------------------------------------------------


def _rows() -> list[CardRow]:
    sheet = rules.Sheet(cards=({rules.Box.FOURS: 12},))
    legal = {(0, rules.Box.ACES): 3, (0, rules.Box.CHANCE): 17}
    upper, lower = card_rows(sheet, legal, rolled=True)
    return [upper[0], lower[-1], upper[3], upper[1]]  # offers, filled, forbidden


def _each_drawn_alone(name: str, items: list, each: str, **context) -> str:
    template = engines["jinja2"].get_template(name)
    return "".join(template.render({each: item, **context}) for item in items)


def test_a_kept_row_is_the_row_drawn_with_the_games_own_url_escaped() -> None:
    rows = _rows()
    url = '/play/7/score/?a="1"&b=<2>'

    drawn = jinja_each("games/play/card_row.html", rows, "row", {"score_url": url}, multi=False)

    assert drawn == _each_drawn_alone(
        "games/play/card_row.html", rows, "row", score_url=url, multi=False
    )
    assert 'formaction="/play/7/score/?a=&#34;1&#34;&amp;b=&lt;2&gt;"' in drawn
    assert "\x00" not in drawn


def test_one_drawing_of_a_row_serves_every_game_each_with_its_own_url(monkeypatch) -> None:
    rows = _rows()
    made: list[str] = []
    template = engines["jinja2"].get_template("games/play/card_row.html")
    real = type(template).render

    def counted(self, context=None, request=None):
        made.append(self.template.name)
        return real(self, context, request)

    monkeypatch.setattr(type(template), "render", counted)
    _drawn.cache_clear()
    first = drawn_each(
        "games/play/card_row.html", rows, "row", fill={"score_url": "/play/1/s/"}, multi=False
    )
    drawings = len(made)
    second = drawn_each(
        "games/play/card_row.html", rows, "row", fill={"score_url": "/play/2/s/"}, multi=False
    )

    assert len(made) == drawings  # the second game drew nothing
    assert second == first.replace("/play/1/s/", "/play/2/s/") != first
    assert 'hx-post="/play/2/s/"' in second


def test_a_template_that_does_more_than_write_out_a_filled_value_is_refused(monkeypatch) -> None:
    env = engines["jinja2"].env
    monkeypatch.setattr(
        env,
        "loader",
        jinja2.ChoiceLoader(
            [
                jinja2.DictLoader(
                    {
                        "test/upper.html": "<a href='{{ url|upper }}'>{{ die }}</a>",
                        "test/length.html": "<i>{{ url|length }}</i>{{ url }}",
                        "test/plain.html": "<a href='{{ url }}'>{{ die }}</a>",
                    }
                ),
                env.loader,
            ]
        ),
    )

    for name in ("test/upper.html", "test/length.html"):
        with pytest.raises(ValueError, match=f"{name} does more than write out url"):
            drawn_each(name, [1, 2], "die", fill={"url": "/x"})
    assert drawn_each("test/plain.html", [1, 2], "die", fill={"url": "/a&b"}) == (
        "<a href='/a&amp;b'>1</a><a href='/a&amp;b'>2</a>"
    )
