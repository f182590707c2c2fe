"""Fragments drawn by Django's Jinja2 backend inside pages of Django's template language.

The hottest markup of the site (the card's rows, the tray's dice, every player's card side by
side, the dashboard's lines) is redrawn on every roll, score or visit; Jinja2 draws those loops
several times faster than Django's template language. Its templates live in
``templates/jinja2/`` and are autoescaped like every other template.
"""

from __future__ import annotations

from collections.abc import Hashable, Iterable, Mapping, Sequence
from functools import lru_cache
from typing import Any

import jinja2
from django import template
from django.template import engines
from django.urls import get_script_prefix, get_urlconf, reverse
from django.utils.safestring import SafeString, mark_safe
from django.utils.timesince import timesince
from jinja2.runtime import Context
from jinja2.utils import missing
from markupsafe import Markup, escape

from games.templatetags.dice import die_face

register = template.Library()


def environment(**options: Any) -> jinja2.Environment:
    """The Jinja2 backend's environment (``TEMPLATES`` in the settings): a name a template
    misspells fails at once, and the fragments filter as the other templates do (a die's
    face, Django's "3 minutes")."""
    options["undefined"] = jinja2.StrictUndefined
    env = jinja2.Environment(**options)
    env.filters.update(die_face=die_face, timesince=timesince)
    env.globals.update(url=url, drawn_each=drawn_each, here=here)
    return env


class Here:
    """The variables of the template that called ``here()``, read by attribute (``v.game``).

    How a macro reads the page it draws a part of without being imported ``with context``:
    a module imported with the context is built anew on every render (its whole file run
    again, each macro made again), one imported without it once per process. A name the page
    does not have is the environment's undefined (``StrictUndefined``: it fails when used), as
    it would be read bare.
    """

    __slots__ = ("_context",)

    def __init__(self, context: Context) -> None:
        self._context = context

    def __getattr__(self, name: str) -> Any:
        value = self._context.resolve_or_missing(name)
        if value is missing:
            return self._context.environment.undefined(name=name)
        return value


@jinja2.pass_context
def here(context: Context) -> Here:
    """``{% set v = here() %}``: the calling template's variables, for macros (``Here``)."""
    return Here(context)


def url(name: str, *args: Any) -> str:
    """``url("games:analysis", game.pk, seat.position)``: Django's ``{% url %}``.

    A URL of no arguments (a page of the site, the same for everyone) is reversed once per
    process, script prefix and URLconf: ``reverse`` walks the patterns every time (the
    dashboard draws four such links on every visit)."""
    if args:
        return reverse(name, args=args)
    return _fixed_url(name, get_script_prefix(), get_urlconf())


@lru_cache(maxsize=256)
def _fixed_url(name: str, prefix: str, urlconf: str | None) -> str:
    return reverse(name, urlconf=urlconf)


def drawn_each(
    template_name: str,
    items: Iterable[Hashable],
    each: str,
    *,
    fill: Mapping[str, str] | None = None,
    **context: Any,
) -> Markup:
    """``{{ drawn_each("games/play/card_row.html", rows, "row", fill={"score_url": …}) }}``
    in a Jinja2 template: ``{% jinja_each %}``'s kept drawings."""
    return Markup(_each(template_name, items, each, fill, context))


@register.simple_tag(takes_context=True)
def jinja_page(context: template.Context, template_name: str) -> SafeString:
    """``{% jinja_page "games/play/game.html" %}``: the fragment drawn by the Jinja2 backend
    with the whole context of the page that includes it, its request and CSRF token too.

    The token is the page's own (its ``csrf_token``, masked once for the whole page): given the
    request, the backend would put a token of its own in the context, masked anew, with a
    random mask drawn a character at a time (33 reads of ``os.urandom`` a page)."""
    page: dict[str, Any] = {str(key): value for key, value in context.flatten().items()}
    drawn = engines["jinja2"].get_template(template_name).render(page)
    return mark_safe(drawn)


@register.simple_tag
def jinja(template_name: str, **context: Any) -> SafeString:
    """``{% jinja "games/play/card_rows.html" rows=rows.0 %}``: the fragment drawn by the
    Jinja2 backend with ``context``. Its output is escaped there, by Jinja2's autoescaping."""
    drawn = engines["jinja2"].get_template(template_name).render(context)
    return mark_safe(drawn)


@register.simple_tag
def jinja_each(
    template_name: str,
    items: Iterable[Hashable],
    each: str,
    fill: Mapping[str, str] | None = None,
    **context: Any,
) -> SafeString:
    """``{% jinja_each "games/play/card_row.html" rows each="row" multi=… %}``: the fragment
    drawn for each of ``items`` (named ``each`` in it), joined. Each drawing is kept: the items
    are frozen values (a card's row, a die) and a row drawn once with the same values is the
    same markup, so a page redraws only what changed. Profiled over 390 moves of solo games
    (cProfile, in process), the card's two sections and the dice cost 0.29 ms a request kept
    against 0.91 ms drawn each time. Bounded: at most 4,096 drawings a process.

    ``fill`` names the values that differ from page to page but are only written out, as they
    are, in the markup (a game's URLs): a drawing is kept once for every game, with a hole
    where each goes, and the value, escaped, put in its hole as it is joined. Kept per game
    instead, a bench worker's rows missed one time in seven (drawn anew, 45-50 us each) where
    shared they all but never miss. A name in ``fill`` may only be written out (``{{ url }}``):
    an ``{% if %}`` or a filter on it would see the hole, not the value.
    """
    return mark_safe(_each(template_name, items, each, fill, context))


_HOLE = "\x00"
"""Marks a hole in a kept drawing (``\\x00`` + its number + ``\\x00``): NUL is in no page of
ours (Django's form fields refuse it, and names, labels and numbers never carry it)."""


def _each(
    template_name: str,
    items: Iterable[Hashable],
    each: str,
    fill: Mapping[str, str] | None,
    context: Mapping[str, Any],
) -> str:
    fixed = tuple(context.items())
    if not fill:
        return "".join(str(_drawn(template_name, each, item, fixed, ())[0]) for item in items)
    holes = tuple(fill)
    values = [str(escape(value)) for value in fill.values()]
    return "".join(
        _filled(_drawn(template_name, each, item, fixed, holes), values) for item in items
    )


def _filled(pieces: tuple[str | int, ...], values: Sequence[str]) -> str:
    return "".join(values[piece] if isinstance(piece, int) else piece for piece in pieces)


@lru_cache(maxsize=4096)
def _drawn(
    template_name: str,
    each: str,
    item: Hashable,
    fixed: tuple[tuple[str, Any], ...],
    holes: tuple[str, ...],
) -> tuple[str | int, ...]:
    """The drawing of ``item``: its markup, cut where the values named by ``holes`` go
    (their numbers between the pieces).

    A template that does more with such a value than write it out is refused here, when the
    drawing is first made: drawn with stand-ins instead (characters to escape included), it
    must be its pieces filled with them."""
    template = engines["jinja2"].get_template(template_name)
    marks = {name: Markup(f"{_HOLE}{number}{_HOLE}") for number, name in enumerate(holes)}
    drawn = template.render({each: item, **dict(fixed), **marks})
    if not holes:
        return (drawn,)
    cut = drawn.split(_HOLE)
    numbers = cut[1::2]
    refused = ValueError(f"{template_name} does more than write out {', '.join(holes)}")
    if len(cut) % 2 == 0 or not all(n.isdigit() and int(n) < len(holes) for n in numbers):
        raise refused
    pieces = tuple(p if i % 2 == 0 else int(p) for i, p in enumerate(cut))
    stand_ins = [f"<'&\"{name}" for name in holes]
    if template.render({each: item, **dict(fixed), **dict(zip(holes, stand_ins, strict=True))}) != (
        _filled(pieces, [str(escape(value)) for value in stand_ins])
    ):
        raise refused
    return pieces
