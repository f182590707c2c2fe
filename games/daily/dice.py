"""The day's dice: one face per (day, round, roll, die position), the same for every player.

A face is drawn from HMAC-SHA256 under the site's ``DAILY_DICE_KEY``, so nobody without the key
can work out tomorrow's dice (nor today's faces not yet thrown), and mapped to 1..6 without bias
by rejection sampling: a byte is used only below 252 (42 × 6), else the next byte is read. The
faces are never sent to a browser before they are thrown. Changing this file's arithmetic
changes every past day's dice: ``tests/daily/test_daily_dice.py`` pins them.
"""

from __future__ import annotations

import hashlib
import hmac
from collections.abc import Sequence
from datetime import date
from itertools import count
from typing import Final

from django.conf import settings

from games import rules
from games.rules import actions

_LIMIT: Final = 252
"""42 × 6, the most bytes that split evenly into six faces: bytes 252 to 255 would favour faces
1 to 4, so they are passed over."""


def face(key: bytes, day: date, round: int, roll: int, position: int) -> int:
    """The face die ``position`` (0..4) shows when thrown in roll ``roll`` (1..3) of turn
    ``round`` (1..13) of ``day``'s challenge."""
    return stream_face(key, day_stream(day), round, roll, position)


def day_stream(day: date) -> str:
    """The name of ``day``'s stream of faces: the start of each face's HMAC message."""
    return f"yahtzee-daily:{day.isoformat()}"


def stream_face(key: bytes, stream: str, round: int, roll: int, position: int) -> int:
    """The face die ``position`` shows when thrown in roll ``roll`` of turn ``round`` on the
    stream named ``stream`` (a day's challenge, a tournament: each its own prefix, so no two
    streams share a message)."""
    message = f"{stream}:{round}:{roll}:{position}".encode()
    for block in count():
        digest = hmac.new(key, message + b":%d" % block, hashlib.sha256).digest()
        for byte in digest:
            if byte < _LIMIT:
                return byte % rules.FACES + 1
    raise AssertionError("unreachable")  # pragma: no cover


def thrown_positions(match: rules.Match, action: rules.Action) -> tuple[int, ...]:
    """The dice positions a roll ``action`` throws: all five on a turn's first roll, else those
    not held (the action's own hold, when it sends one, is chosen before it rolls)."""
    turn = match.turn
    if not turn.has_rolled:
        return tuple(range(rules.DICE_COUNT))
    held = turn.held
    if isinstance(action, actions.Roll) and action.held is not None:
        held = action.held
    return tuple(p for p in range(rules.DICE_COUNT) if not held[p])


def positional_source(
    key: bytes, day: date, match: rules.Match, action: rules.Action
) -> rules.DiceSource:
    """The dice ``action`` throws on ``day``'s stream (``stream_source``)."""
    return stream_source(key, day_stream(day), match, action)


def stream_source(
    key: bytes, stream: str, match: rules.Match, action: rules.Action
) -> rules.DiceSource:
    """The dice ``action`` throws on ``stream``: the faces of the positions it throws, at the
    match's round and the turn's next roll. Refuses a count the positions do not explain (the
    rules and this file disagreeing must never pass unseen)."""
    positions = thrown_positions(match, action)
    round, roll = match.round, match.turn.rolls_used + 1

    def source(n: int) -> Sequence[int]:
        if n != len(positions):
            raise ValueError(f"Shared dice: {n} dice asked, {len(positions)} positions thrown.")
        return tuple(stream_face(key, stream, round, roll, p) for p in positions)

    return source


def site_key() -> bytes:
    return settings.DAILY_DICE_KEY.encode()


def source_for(
    day: date | None, match: rules.Match, action: rules.Action
) -> rules.DiceSource | None:
    """The dice for ``action`` in a game of ``day``'s challenge (``None``: not a challenge)."""
    if day is None:
        return None
    return positional_source(site_key(), day, match, action)
