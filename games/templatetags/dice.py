"""Template helpers for drawing dice."""

from __future__ import annotations

from django import template

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
