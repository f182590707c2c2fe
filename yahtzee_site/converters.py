"""Path converters: what a number in an address may be before a view sees it."""

from __future__ import annotations

LARGEST = 2**63 - 1
"""The largest integer any of our databases' columns holds (PostgreSQL's bigint, SQLite's)."""


class Int64Converter:
    """A whole number that fits a database column; a larger one matches no route, so 404.

    Django's ``int`` takes any length of digits: past ``LARGEST`` SQLite's driver raises
    ``OverflowError`` on the reads that skip the ORM's range handling (``prepared``), a 500.
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
