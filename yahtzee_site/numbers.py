"""The one parser of a whole number a request carries (a form field, a query string, a header).

Python's ``int`` is too generous for input: it takes any Unicode decimal digit ("١٢" is 12),
underscores ("1_000"), spaces and signs, and thousands of digits (which cost time and end in a
``ValueError`` of its own past 4,300). A request's number is ASCII digits only, at most
``MAX_DIGITS`` of them, within the bounds the caller gives; anything else is ``NotANumber``,
which a view answers with a message (400), never a 500.
"""

from __future__ import annotations

import re
from typing import Final

MAX_DIGITS: Final = 19
"""Enough for any int64 (a database id, a version); longer input is refused unread."""

_DIGITS: Final = re.compile(rf"[0-9]{{1,{MAX_DIGITS}}}", re.ASCII)


class NotANumber(ValueError):
    """Input that is not a whole number within the bounds asked for."""


def whole(text: str | None, *, low: int = 0, high: int = 2**63 - 1) -> int:
    """``text`` as a whole number in ``low``..``high``; ``NotANumber`` for anything else
    (missing, empty, a sign, a non-ASCII digit, too long, out of bounds)."""
    if text is None or not _DIGITS.fullmatch(text):
        raise NotANumber(f"{_shown(text)} is not a whole number.")
    number = int(text)
    if not low <= number <= high:
        raise NotANumber(f"{number} is not between {low} and {high}.")
    return number


def whole_or(text: str | None, *, default: int, low: int = 0, high: int = 2**63 - 1) -> int:
    """``text`` as a whole number clamped to ``low``..``high``, or ``default`` when it is not
    a whole number at all (a query string's optional setting)."""
    if text is None or not _DIGITS.fullmatch(text):
        return default
    return min(high, max(low, int(text)))


def _shown(text: str | None) -> str:
    if text is None:
        return "Nothing"
    return repr(text[:20] + ("…" if len(text) > 20 else ""))
