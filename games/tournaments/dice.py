"""A tournament's dice: one face per (tournament, turn, roll, die position), the same for every
entrant, drawn like the daily challenge's (``games.daily.dice``: HMAC-SHA256 without bias)
under the same site key, on a stream of the tournament's own: its prefix
``yahtzee-tournament`` and its id begin every message, so no face of a tournament is a day's
face or another tournament's, and nobody without the key can work out a face not yet thrown.
"""

from __future__ import annotations

from games import rules
from games.daily import dice as shared


def stream(tournament_id: int) -> str:
    """The name of tournament ``tournament_id``'s stream of faces."""
    return f"yahtzee-tournament:{tournament_id}"


def face(key: bytes, tournament_id: int, round: int, roll: int, position: int) -> int:
    """The face die ``position`` (0..4) shows when thrown in roll ``roll`` (1..3) of turn
    ``round`` of the tournament's games."""
    return shared.stream_face(key, stream(tournament_id), round, roll, position)


def source_for(
    tournament_id: int | None, match: rules.Match, action: rules.Action
) -> rules.DiceSource | None:
    """The dice for ``action`` in a game of tournament ``tournament_id`` (``None``: not a
    tournament's game)."""
    if tournament_id is None:
        return None
    return shared.stream_source(shared.site_key(), stream(tournament_id), match, action)
