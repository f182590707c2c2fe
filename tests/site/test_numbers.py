"""The one parser of a request's whole numbers: ASCII digits within bounds, nothing else."""

from __future__ import annotations

import pytest

from yahtzee_site.numbers import NotANumber, whole, whole_or


@pytest.mark.parametrize("text", ["0", "7", "42", "9223372036854775807"])
def test_ascii_digits_are_read(text: str) -> None:
    assert whole(text) == int(text)


@pytest.mark.parametrize(
    "text",
    [None, "", " 1", "1 ", "+1", "-1", "1_000", "1.0", "1e3", "²", "①", "١٢", "٣", "x", "0x10",
     "9" * 20, "9" * 5000, "9223372036854775808"],
)  # fmt: skip
def test_anything_else_is_not_a_number(text: str | None) -> None:
    with pytest.raises(NotANumber):
        whole(text)


def test_bounds_are_checked() -> None:
    assert whole("4", low=0, high=4) == 4
    with pytest.raises(NotANumber, match="not between 0 and 4"):
        whole("5", low=0, high=4)
    with pytest.raises(NotANumber):
        whole("0", low=1, high=4)


def test_an_optional_setting_is_clamped_or_defaulted() -> None:
    assert whole_or("5000", default=3, low=1, high=1000) == 1000
    assert whole_or("0", default=3, low=1, high=1000) == 1
    assert whole_or("١٢", default=3, low=1, high=1000) == 3
    assert whole_or(None, default=3, low=1, high=1000) == 3
    assert whole_or("9" * 5000, default=3, low=1, high=1000) == 3
