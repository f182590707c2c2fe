"""Path converters: what a number in an address may be before a view sees it."""

from __future__ import annotations

LARGEST = 2**63 - 1
"""The largest integer any of our databases' columns holds (PostgreSQL's bigint, SQLite's)."""


class Int64Converter:
    """A whole number that fits a database column; a larger one matches no route, so 404.

    Django's ``int`` takes any length of digits: past ``LARGEST`` SQLite's driver raises
    ``OverflowError`` on a read that skips the ORM's range handling, a 500.
    """

    regex = "[0-9]{1,19}"

    def to_python(self, value: str) -> int:
        number = int(value)
        if number > LARGEST:
            raise ValueError(f"{value} is past what a database column holds")
        return number

    def to_url(self, value: int) -> str:
        if not 0 <= int(value) <= LARGEST:
            raise ValueError(f"{value} is no id a database column holds")
        return str(value)


class TokenConverter:
    """A link's secret as the site makes them (``secrets.token_urlsafe``: letters, digits, ``-``
    and ``_``, at most 64): anything else matches no route, so 404, never a database error
    (PostgreSQL refuses a NUL in a text it is asked to compare)."""

    regex = "[A-Za-z0-9_-]{1,64}"

    def to_python(self, value: str) -> str:
        return value

    def to_url(self, value: str) -> str:
        return value
