"""Serial numbers: Crockford base32, 95 random bits, one check character; pure Python.

A serial is 20 symbols shown as ``XXXXX-XXXXX-XXXXX-XXXXX``: 19 random symbols and a check
symbol. Read as elements of GF(32), the symbols ``v_i`` of a valid serial satisfy
``sum(alpha**i * v_i) == 0`` for a primitive ``alpha``. A single wrong symbol changes that sum by
``alpha**i * d`` with ``d != 0``, and two neighbours swapped change it by
``alpha**i * (a ^ b) * (1 ^ alpha)``; neither is ever zero, so every single substitution and
every swap of neighbouring symbols is caught
(``tests/licensing/test_licence_serial_format.py`` checks them all).
"""

from __future__ import annotations

import secrets
from collections.abc import Callable
from typing import Final

ALPHABET: Final = "0123456789ABCDEFGHJKMNPQRSTVWXYZ"
"""Crockford's base32: no I, L, O or U, so nothing is read as something else."""
VALUE: Final = {symbol: value for value, symbol in enumerate(ALPHABET)}
LOOK_ALIKES: Final = {"O": "0", "I": "1", "L": "1"}
IGNORED: Final = frozenset(" -_\t\u00a0\u2010\u2011\u2012\u2013\u2014")

LENGTH: Final = 20
GROUP: Final = 5
RANDOM_SYMBOLS: Final = LENGTH - 1  # 19 × 5 = 95 random bits

_POLY: Final = 0b100101  # x^5 + x^2 + 1, primitive over GF(2)
_ALPHA: Final = 0b00010  # x


class SerialError(ValueError):
    """Text that is not a valid serial; the message is written for the person typing it."""


class SerialMalformed(SerialError):
    pass


class SerialTypo(SerialError):
    pass


def gf_mul(a: int, b: int) -> int:
    """Multiply two elements of GF(32)."""
    product = 0
    while b:
        if b & 1:
            product ^= a
        b >>= 1
        a <<= 1
        if a & 0b100000:
            a ^= _POLY
    return product


def gf_pow(a: int, n: int) -> int:
    result = 1
    for _ in range(n % 31):
        result = gf_mul(result, a)
    return result


_WEIGHTS: Final = tuple(gf_pow(_ALPHA, i) for i in range(LENGTH))
_LAST_INVERSE: Final = gf_pow(_ALPHA, 31 - (LENGTH - 1))  # alpha^-(n-1), as alpha^31 == 1


def syndrome(values: list[int]) -> int:
    total = 0
    for weight, value in zip(_WEIGHTS, values, strict=True):
        total ^= gf_mul(weight, value)
    return total


def check_symbol(body: str) -> str:
    """The symbol that makes ``body`` (19 symbols) a valid serial."""
    values = [VALUE[s] for s in body] + [0]
    return ALPHABET[gf_mul(_LAST_INVERSE, syndrome(values))]


def is_valid(canonical: str) -> bool:
    return len(canonical) == LENGTH and syndrome([VALUE[s] for s in canonical]) == 0


def new_serial(randbelow: Callable[[int], int] = secrets.randbelow) -> str:
    """A fresh serial in canonical form (20 symbols, no dashes)."""
    body = "".join(ALPHABET[randbelow(32)] for _ in range(RANDOM_SYMBOLS))
    return body + check_symbol(body)


def display(canonical: str) -> str:
    """``ABCDE-FGHJK-MNPQR-STVWX``: how a serial is printed and shown."""
    return "-".join(canonical[i : i + GROUP] for i in range(0, len(canonical), GROUP))


def normalize(text: str) -> str:
    """Canonical symbols from what a person typed: any case, spaces or dashes, O/0, I/L/1."""
    symbols = []
    for char in text.upper():
        if char in IGNORED:
            continue
        char = LOOK_ALIKES.get(char, char)
        if char not in VALUE:
            raise SerialMalformed(
                f"“{char}” cannot be part of a serial: serials use digits and letters other than U."
            )
        symbols.append(char)
    if len(symbols) != LENGTH:
        raise SerialMalformed(
            f"A serial has {LENGTH} letters and digits (like XXXXX-XXXXX-XXXXX-XXXXX); "
            f"this has {len(symbols)}."
        )
    return "".join(symbols)


def parse(text: str) -> str:
    """The canonical serial in ``text``, or ``SerialMalformed`` / ``SerialTypo``."""
    canonical = normalize(text)
    if not is_valid(canonical):
        raise SerialTypo("This serial has a typo: please check each character and try again.")
    return canonical
