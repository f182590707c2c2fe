"""Display names people read: a look-alike key so no name can pose as another, and the neutral
"Player 123456" for accounts without one (a login name is never shown). Pure Python.

Two names clash when their ``skeleton`` is equal. The skeleton follows Unicode's idea of one
(UTS #39) with a table small enough to read: compatibility forms folded (fullwidth, maths
letters, ligatures), case folded, accents dropped, Cyrillic and Greek letters that print like
Latin ones mapped onto them, ``0``/``1``/``I``/``|`` and ``rn``/``vv`` onto what they mimic,
spaces and punctuation ignored. So "Alice", "ALICE", "Аlice" (Cyrillic А), "Al1ce", "A.lice"
and "Ａｌｉｃｅ" are one name.

A name is read twice: on the site as typed, and in mail, where a program decodes any RFC 2047
encoded word in a header (``=?utf-8?q?Alice?=`` reads "Alice"). Names with such a sequence are
refused (``has_encoded_words``), and every rule holds for both readings (``readings``), so a
name may not pose as another, or carry a line break or an override, in either.
"""

from __future__ import annotations

import base64
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

ENCODED_WORDS_REFUSED: Final = (
    "Names cannot contain =?…?= sequences: mail programs read them as encoded text."
)
# An encoded word as mail programs decode it: any charset (an RFC 2231 language after "*"
# too), Q or B in either case, any text without "?" (as Python's email parser, and linear).
ENCODED_WORD: Final = re.compile(r"=\?([^?]*)\?([bq])\?([^?]*)\?=", re.IGNORECASE)
_QUOTED_OCTET: Final = re.compile(rb"=([0-9a-f]{2})", re.IGNORECASE)
_NOT_BASE64: Final = re.compile(rb"[^A-Za-z0-9+/]")


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
    """Whether a name looks like a neutral "Player 123456", which people may not choose, on the
    site or in mail."""
    return any(RESERVED.fullmatch(key) for key in skeletons(name))


def has_encoded_words(name: str) -> bool:
    """Whether ``name`` holds a ``=?`` … ``?=`` sequence, which mail programs may decode.

    Broader than an encoded word (any "=?" with a "?=" after it), so that no program's looser
    reading of the syntax finds one in a name that passed.
    """
    start = name.find("=?")
    return start >= 0 and name.find("?=", start + 2) >= 0


def as_mail_reads(name: str) -> str:
    """``name`` as a mail program shows it in a header: each encoded word decoded, and the
    space between two adjacent ones dropped (RFC 2047, 6.2). Decoded once, as programs do."""
    parts: list[str] = []
    end, after_word = 0, False
    for word in ENCODED_WORD.finditer(name):
        gap = name[end : word.start()]
        if not (after_word and gap.isspace()):
            parts.append(gap)
        parts.append(_decoded(word))
        end, after_word = word.end(), True
    parts.append(name[end:])
    return "".join(parts)


def _decoded(word: re.Match[str]) -> str:
    charset, encoding, text = word.groups()
    data = text.encode()
    if encoding in "qQ":
        data = _QUOTED_OCTET.sub(lambda octet: bytes([int(octet[1], 16)]), data.replace(b"_", b" "))
    else:
        data = _NOT_BASE64.sub(b"", data)
        data = data[: len(data) // 4 * 4] if len(data) % 4 == 1 else data  # one too many: cut
        data = base64.b64decode(data + b"=" * (-len(data) % 4))
    try:
        return data.decode(charset.partition("*")[0], errors="replace")
    except (LookupError, ValueError):
        # A charset the program does not know (or a codec that is no charset): it may guess.
        return data.decode("utf-8", errors="replace")


def readings(name: str) -> tuple[str, ...]:
    """Each way ``name`` is read: as typed (on the site) and, when it differs, in mail."""
    in_mail = as_mail_reads(name)
    return (name,) if in_mail == name else (name, in_mail)


def prints(name: str) -> bool:
    """Whether every reading of ``name`` prints: no control character, line break, invisible
    or direction-changing character."""
    return all(reading.isprintable() for reading in readings(name))


def skeletons(name: str) -> tuple[str, ...]:
    """The look-alike key of each reading of ``name``: it clashes with a name sharing any.

    The key an account keeps (``User.display_name_key``) stays the ``skeleton`` of the name as
    typed: so no stored key changes, and the names refused by ``has_encoded_words`` are the only
    ones whose readings differ."""
    return tuple(dict.fromkeys(skeleton(reading) for reading in readings(name)))
