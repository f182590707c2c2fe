"""The Jinja2 backend's environment, and the one way a page of Django's template language
draws a Jinja2 body (``{% jinja_page %}``).

The game screen and the dashboard are drawn by Jinja2 (the card's rows, the tray's dice, every
player's card side by side, the dashboard's lines are redrawn on every roll, score or visit, and
Jinja2 draws those loops several times faster than Django's template language); their answers
to htmx are Jinja2 templates alone, their whole pages the site's layout (Django's) around a
Jinja2 body. Its templates live in ``templates/jinja2/`` and are autoescaped like every other
template.
"""

from __future__ import annotations

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

from games.templatetags.dice import die_face

register = template.Library()


def environment(**options: Any) -> jinja2.Environment:
    """The Jinja2 backend's environment (``TEMPLATES`` in the settings): a name a template
    misspells fails at once, and the fragments filter as the other templates do (a die's
    face, Django's "3 minutes")."""
    options["undefined"] = jinja2.StrictUndefined
    env = jinja2.Environment(**options)
    env.filters.update(die_face=die_face, timesince=timesince)
    env.globals.update(url=url, here=here)
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
