"""The serial format (``accounts.serials``): pure Python, no database.

20 symbols of Crockford base32 in four groups of five, 95 random bits and a check symbol that
catches every single wrong symbol and every swap of two neighbours — checked exhaustively.
"""

from __future__ import annotations

import re
import secrets
from collections.abc import Callable, Sequence
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from accounts import licensing, serials
from tests.licensing.licensing_support import KNOWN, OTHER, serial_from

DISPLAY = re.compile(r"^[0-9A-HJKMNP-TV-Z]{5}(-[0-9A-HJKMNP-TV-Z]{5}){3}$")

# A few serials to check exhaustively: the hand-made ones, runs of one symbol, and random ones.
EXHAUSTIVE = [
    KNOWN,
    OTHER,
    serial_from("0" * 19),
    serial_from("Z" * 19),
    *(serials.new_serial(secrets.SystemRandom(seed).randrange) for seed in range(4)),
]


def minted_serials() -> st.SearchStrategy[str]:
    """Serials as ``new_serial`` makes them, with hypothesis choosing the random symbols."""

    def mint(values: list[int]) -> str:
        draws = iter(values)
        return serials.new_serial(lambda n: next(draws) % n)

    return st.lists(
        st.integers(0, 31), min_size=serials.RANDOM_SYMBOLS, max_size=serials.RANDOM_SYMBOLS
    ).map(mint)


# --- The shape of a serial -------------------------------------------------------------------


def test_a_new_serial_is_twenty_crockford_symbols_shown_in_four_groups_of_five() -> None:
    canonical = serials.new_serial()

    assert len(canonical) == 20
    assert set(canonical) <= set(serials.ALPHABET)
    assert DISPLAY.match(serials.display(canonical))


def test_the_alphabet_is_crockfords_base32_without_i_l_o_u() -> None:
    assert serials.ALPHABET == "0123456789ABCDEFGHJKMNPQRSTVWXYZ"


def test_a_serial_carries_at_least_80_random_bits() -> None:
    asked: list[int] = []

    def randbelow(n: int) -> int:
        asked.append(n)
        return 0

    serials.new_serial(randbelow)

    random_bits = sum(n.bit_length() - 1 for n in asked)  # each draw of 32 is 5 bits
    assert asked == [32] * 19
    assert random_bits == 95 >= 80


def test_new_serials_come_from_the_system_random_source_and_differ() -> None:
    minted = {serials.new_serial() for _ in range(1000)}

    assert len(minted) == 1000


def test_the_check_symbol_makes_a_valid_serial() -> None:
    for canonical in EXHAUSTIVE:
        assert serials.is_valid(canonical)
        assert serials.parse(canonical) == canonical


# --- The algorithm, pinned: serials already printed must stay valid --------------------------


def drawn(*values: int) -> Callable[[int], int]:
    """A ``randbelow`` that hands out ``values`` in order."""
    draws = iter(values)
    return lambda n: next(draws)


@pytest.mark.parametrize(
    ("draws", "canonical"),
    [
        pytest.param(range(19), "0123456789ABCDEFGHJW", id="counting"),
        pytest.param([(7 * i + 3) % 32 for i in range(19)], "3AHRZ6DMV29GQY5CKT1R", id="stride"),
        pytest.param([31] * 19, "ZZZZZZZZZZZZZZZZZZZC", id="all-Z"),
        pytest.param([0] * 19, "00000000000000000000", id="all-0"),
    ],
)
def test_known_draws_make_known_serials(draws: Sequence[int], canonical: str) -> None:
    """Written down once from the generator: any change to the alphabet, the field, its
    polynomial or the weights would invalidate every serial ever printed, and fails here."""
    assert serials.new_serial(drawn(*draws)) == canonical
    assert serials.is_valid(canonical)


def test_the_check_symbol_of_each_run_of_one_symbol_is_pinned() -> None:
    checks = "".join(serials.check_symbol(symbol * 19) for symbol in serials.ALPHABET)

    assert checks == "05AFMHYVD872SWKPTZGNEB41QJXR369C"


def test_serials_are_kept_as_a_pinned_keyed_hash(settings: Any) -> None:
    """Changing the hash would orphan every serial on the shelf: they are stored only as it."""
    settings.SERIAL_HMAC_KEY = "a known key"

    assert licensing.serial_digest(KNOWN) == (
        "30c89073ffac3eeab64e4803d6bb9ff44d3d7b546ebc28f92df26d6bc981a8b5"
    )


def test_alpha_is_primitive_its_powers_repeat_every_31() -> None:
    """The proof in the module's docstring needs alpha of order 31: all 31 non-zero elements
    are its powers, and alpha**(n + 31) == alpha**n for any n (weights and the inverse)."""
    alpha = 0b00010
    powers = [serials.gf_pow(alpha, n) for n in range(31)]

    assert sorted(powers) == list(range(1, 32))
    for n in range(100):
        assert serials.gf_pow(alpha, n + 31) == serials.gf_pow(alpha, n), n


# --- Every single typo is caught -------------------------------------------------------------


@pytest.mark.parametrize("canonical", EXHAUSTIVE)
def test_every_single_wrong_symbol_is_caught_by_the_check_symbol(canonical: str) -> None:
    checked = 0
    for position, right in enumerate(canonical):
        for wrong in serials.ALPHABET.replace(right, ""):
            typed = canonical[:position] + wrong + canonical[position + 1 :]
            with pytest.raises(serials.SerialTypo):
                serials.parse(typed)
            checked += 1

    assert checked == 20 * 31


@pytest.mark.parametrize("canonical", EXHAUSTIVE)
def test_every_swap_of_two_different_neighbours_is_caught(canonical: str) -> None:
    for i in range(len(canonical) - 1):
        a, b = canonical[i], canonical[i + 1]
        if a == b:
            continue  # swapping equal symbols changes nothing
        typed = canonical[:i] + b + a + canonical[i + 2 :]
        with pytest.raises(serials.SerialTypo):
            serials.parse(typed)


def serial_with(position: int, pair: str) -> str:
    """A valid serial holding ``pair`` at ``position`` and ``position + 1``."""
    if position + 1 < serials.RANDOM_SYMBOLS:
        return serial_from("0" * position + pair + "0" * (serials.RANDOM_SYMBOLS - 2 - position))
    for steer in serials.ALPHABET:  # the first symbol steers the check symbol through all 32
        canonical = serial_from(steer + "0" * 17 + pair[0])
        if canonical[-1] == pair[1]:
            return canonical
    raise AssertionError(f"no serial ends in {pair!r}")


def test_every_swap_is_caught_for_every_pair_of_symbols_at_every_place() -> None:
    """Beyond the sample serials: every ordered pair of different neighbours, everywhere."""
    for position in range(serials.LENGTH - 1):
        for a in serials.ALPHABET:
            for b in serials.ALPHABET.replace(a, ""):
                canonical = serial_with(position, a + b)
                swapped = canonical[:position] + b + a + canonical[position + 2 :]
                assert not serials.is_valid(swapped), (canonical, position)


def test_a_typo_says_so_in_words() -> None:
    typed = KNOWN[:-1] + ("0" if KNOWN[-1] != "0" else "1")

    with pytest.raises(serials.SerialTypo, match="This serial has a typo"):
        serials.parse(typed)


# --- Text that is not a serial at all --------------------------------------------------------


@pytest.mark.parametrize(
    ("typed", "message"),
    [
        ("", "A serial has 20 letters and digits"),
        (KNOWN[:-1], "this has 19"),
        (KNOWN + "0", "this has 21"),
        ("U" + KNOWN[1:], "“U” cannot be part of a serial"),
        (KNOWN[:10] + "*" + KNOWN[11:], "“*” cannot be part of a serial"),
    ],
)
def test_text_that_is_no_serial_is_malformed_with_a_reason(typed: str, message: str) -> None:
    with pytest.raises(serials.SerialMalformed, match=re.escape(message)):
        serials.parse(typed)


def test_malformed_and_typo_are_both_serial_errors_and_value_errors() -> None:
    assert issubclass(serials.SerialTypo, serials.SerialError)
    assert issubclass(serials.SerialMalformed, serials.SerialError)
    assert issubclass(serials.SerialError, ValueError)


# --- What a person may type (properties) -----------------------------------------------------


@given(minted_serials())
def test_a_minted_serial_round_trips_through_display_and_parse(canonical: str) -> None:
    shown = serials.display(canonical)

    assert DISPLAY.match(shown)
    assert serials.normalize(shown) == canonical
    assert serials.parse(shown) == canonical
    assert serials.parse(canonical) == canonical


@given(minted_serials())
def test_lower_case_is_the_same_serial(canonical: str) -> None:
    assert serials.parse(serials.display(canonical).lower()) == canonical


@given(minted_serials(), st.data())
def test_spaces_and_dashes_anywhere_are_ignored(canonical: str, data: st.DataObject) -> None:
    separators = st.text(alphabet=" -", max_size=3)
    typed = "".join(data.draw(separators) + symbol for symbol in canonical)
    typed += data.draw(separators)

    assert serials.parse(typed) == canonical


@given(minted_serials(), st.data())
def test_look_alikes_o_for_zero_and_i_or_l_for_one_are_the_same_serial(
    canonical: str, data: st.DataObject
) -> None:
    look_alike = {"0": st.sampled_from("0Oo"), "1": st.sampled_from("1IiLl")}
    typed = "".join(
        data.draw(look_alike[symbol]) if symbol in look_alike else symbol for symbol in canonical
    )

    assert serials.parse(typed) == canonical


@given(minted_serials(), st.data())
def test_all_the_leniencies_together_still_give_the_canonical_serial(
    canonical: str, data: st.DataObject
) -> None:
    typed = ""
    for symbol in canonical:
        symbol = {"0": "O", "1": data.draw(st.sampled_from("IL"))}.get(symbol, symbol)
        if data.draw(st.booleans()):
            symbol = symbol.lower()
        typed += data.draw(st.sampled_from(["", " ", "-", " - "])) + symbol

    assert serials.parse(typed) == canonical


def test_the_hand_made_serials_hold_zeros_and_ones_for_the_look_alike_tests() -> None:
    assert {"0", "1"} <= set(KNOWN)
    assert serials.parse(KNOWN.replace("0", "o").replace("1", "l")) == KNOWN
