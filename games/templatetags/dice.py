"""Template helpers for drawing dice."""

from __future__ import annotations

from functools import cache

from django import template
from django.template.loader import render_to_string
from django.utils.safestring import SafeString, mark_safe

register = template.Library()

_LOW, _MID, _HIGH = 27, 50, 73
PIPS: dict[int, tuple[tuple[int, int], ...]] = {
    1: ((_MID, _MID),),
    2: ((_HIGH, _LOW), (_LOW, _HIGH)),
    3: ((_HIGH, _LOW), (_MID, _MID), (_LOW, _HIGH)),
    4: ((_LOW, _LOW), (_HIGH, _LOW), (_LOW, _HIGH), (_HIGH, _HIGH)),
    5: ((_LOW, _LOW), (_HIGH, _LOW), (_MID, _MID), (_LOW, _HIGH), (_HIGH, _HIGH)),
    6: ((_LOW, _LOW), (_HIGH, _LOW), (_LOW, _MID), (_HIGH, _MID), (_LOW, _HIGH), (_HIGH, _HIGH)),
}


@register.filter
def pips(value: int | None) -> tuple[tuple[int, int], ...]:
    """Centre points of the pips of a die showing ``value`` on a 100×100 face."""
    return PIPS.get(value or 0, ())


@register.filter
def die_face(value: int | str | None) -> SafeString:
    """The SVG of a die showing ``value`` (a blank face for none), drawn once per face."""
    try:
        face = int(value or 0)
    except ValueError:
        face = 0
    return _face(face if face in PIPS else 0)


@cache
def _face(value: int) -> SafeString:
    return mark_safe(render_to_string("games/play/_die.html", {"value": value or None}).strip())
