"""Display names people read: a look-alike key so no name can pose as another, and the neutral
"Player 123456" for accounts without one (a login name is never shown). Pure Python.

Two names clash when their ``skeleton`` is equal. The skeleton follows Unicode's idea of one
(UTS #39) with a table small enough to read: compatibility forms folded (fullwidth, maths
letters, ligatures), case folded, accents dropped, Cyrillic and Greek letters that print like
Latin ones mapped onto them, ``0``/``1``/``I``/``|`` and ``rn``/``vv`` onto what they mimic,
spaces and punctuation ignored. So "Alice", "ALICE", "Аlice" (Cyrillic А), "Al1ce", "A.lice"
and "Ａｌｉｃｅ" are one name.
"""

from __future__ import annotations

import re
import unicodedata
from typing import Final
from uuid import UUID

CONFUSABLES: Final = str.maketrans(
    {
        # Cyrillic letters that print like Latin ones (after case folding).
        "а": "a", "в": "b", "е": "e", "ё": "e", "к": "k", "м": "m", "н": "h", "о": "o",
        "р": "p", "с": "c", "т": "t", "у": "y", "х": "x", "ѕ": "s", "і": "i", "ї": "i",
        "ј": "j", "ԁ": "d", "һ": "h", "ӏ": "l", "ԛ": "q", "ԝ": "w", "ь": "b", "г": "r",
        "п": "n", "ц": "u", "ш": "w", "з": "3", "ч": "4", "ɡ": "g",
        # Greek.
        "α": "a", "β": "b", "γ": "y", "δ": "d", "ε": "e", "η": "n", "ι": "i", "κ": "k",
        "μ": "u", "ν": "v", "ο": "o", "ρ": "p", "σ": "o", "ς": "c", "τ": "t", "υ": "u",
        "χ": "x", "ω": "w", "ζ": "z", "θ": "o",
        # Digits and strokes that pass for letters.
        "0": "o", "1": "l", "i": "l", "|": "l", "!": "l", "ı": "l", "ł": "l", "ø": "o",
        "$": "s", "@": "a",
    }
)  # fmt: skip
MULTI: Final = (("rn", "m"), ("vv", "w"), ("cl", "d"))
IGNORED_CATEGORIES: Final = ("Z", "P", "Cf", "Mn", "Me")
NEUTRAL_PREFIX: Final = "Player "
RESERVED: Final = re.compile(r"player[0-9ol]+")


def skeleton(name: str) -> str:
    """The key two names share when they would be taken for each other."""
    folded = unicodedata.normalize("NFKC", name).casefold()
    # Mapped before punctuation is dropped: "!" and "@" pass for letters ("Al!ce", "@lice").
    mapped = unicodedata.normalize("NFD", folded).translate(CONFUSABLES)
    key = "".join(
        char for char in mapped if not unicodedata.category(char).startswith(IGNORED_CATEGORIES)
    )
    for look_alike, letter in MULTI:
        key = key.replace(look_alike, letter)
    # A name of only spaces and punctuation ("?!") still needs a key of its own.
    return key or folded


def neutral_name(public_id: UUID) -> str:
    """What an account without a display name is called in public: "Player 123456"."""
    return f"{NEUTRAL_PREFIX}{public_id.int % 900_000 + 100_000}"


def is_reserved(name: str) -> bool:
    """Whether a name looks like a neutral "Player 123456", which people may not choose."""
    return RESERVED.fullmatch(skeleton(name)) is not None
