"""A ``Match`` as stored data and back: plain JSON values (dicts, lists, numbers, strings), one
document per match, versioned.

``to_state`` keeps everything the rules need to go on playing: every seat's sheet and state,
the draw for first, who went first, the seat on turn and its turn, who plays each seat, the
turn limit, and the undo snapshot with the scoring it would take back (the only part of the
log the rules read again). The whole log is kept elsewhere (the ``Move`` rows): a decoded match
carries only that scoring. ``from_state`` refuses a document it does not understand.

``VERSION`` names the document's shape: a change to it comes with a new version and a reading
of the old one here (and a data migration for the stored games when the old reading goes).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import fields
from typing import Any, Final

from games.rules.events import Scored
from games.rules.match import Match
from games.rules.phases import MatchPhase, SeatState
from games.rules.scoring import KINDS, GameKind
from games.rules.turn import Sheet, Turn

VERSION: Final = 1

State = dict[str, Any]
"""A match as stored: what ``json.dumps`` takes."""

FIELDS: Final = frozenset(
    {"kind", "sheets", "states", "host", "phase", "first", "current", "turn", "contenders",
     "first_rolls", "log", "undo", "players", "turn_limit", "challenge"}
)  # fmt: skip
"""The ``Match`` fields this codec keeps (``log`` as the scoring an undo takes back): a field
added to the ``Match`` fails ``tests/rules/test_codec.py`` until it is kept here too."""


class BadState(ValueError):
    """Stored data that is no match this codec can read."""


def to_state(match: Match) -> State:
    """``match`` as stored data."""
    state = _body(match)
    if match.undo is not None:
        scored = next(e for e in reversed(match.log) if isinstance(e, Scored))
        state["undo"] = _body(match.undo)
        state["scored"] = [
            scored.seat, scored.column, scored.box, scored.points, list(scored.dice),
            scored.yahtzee_bonus, scored.joker, scored.upper_bonus,
        ]  # fmt: skip
    return {"v": VERSION} | state


def from_state(state: Mapping[str, Any]) -> Match:
    """The match ``state`` keeps (``to_state``'s), its log the scoring an undo would take back."""
    if not isinstance(state, Mapping) or state.get("v") != VERSION:
        raise BadState(f"Not a stored match of version {VERSION}.")
    try:
        match = _match(state)
        if "undo" not in state:
            return match
        seat, column, box, points, dice, bonus, joker, upper = state["scored"]
        scored = Scored(seat, column, box, points, tuple(dice), bonus, joker, upper)
        return Match(**_fields(match), log=(scored,), undo=_match(state["undo"]))
    except (KeyError, TypeError, ValueError) as exc:
        raise BadState(f"A stored match that cannot be read: {exc}") from exc


def sheet_of(state: object, seat: int) -> Sheet:
    """The sheet of ``seat`` in the match ``state`` keeps, the rest of it left unread (a list
    of games shows each one's card)."""
    if not isinstance(state, Mapping) or state.get("v") != VERSION:
        raise BadState(f"Not a stored match of version {VERSION}.")
    try:
        return _sheet(KINDS[state["kind"]], *state["sheets"][seat])
    except (KeyError, IndexError, TypeError, ValueError) as exc:
        raise BadState(f"A stored match that cannot be read: {exc}") from exc


def _sheet(kind: GameKind, cards: list[dict[str, int]], bonuses: int, yahtzees: int) -> Sheet:
    return Sheet(
        kind=kind, cards=tuple(dict(c) for c in cards), yahtzee_bonuses=bonuses, yahtzees=yahtzees
    )


def _body(match: Match) -> State:
    turn = match.turn
    return {
        "kind": match.kind.key,
        "sheets": [
            [[dict(card) for card in sheet.cards], sheet.yahtzee_bonuses, sheet.yahtzees]
            for sheet in match.sheets
        ],
        "states": [str(state) for state in match.states],
        "host": match.host,
        "phase": str(match.phase),
        "first": match.first,
        "current": match.current,
        "turn": [
            list(turn.dice) if turn.dice is not None else None,
            list(turn.held),
            turn.rolls_used,
        ],
        "contenders": list(match.contenders),
        "first_rolls": [list(dice) if dice is not None else None for dice in match.first_rolls],
        "players": list(match.players),
        "turn_limit": match.turn_limit,
        "challenge": match.challenge,
    }


def _match(state: Mapping[str, Any]) -> Match:
    kind = KINDS[state["kind"]]
    dice, held, rolls_used = state["turn"]
    return Match(
        kind=kind,
        sheets=tuple(_sheet(kind, *sheet) for sheet in state["sheets"]),
        states=tuple(SeatState(s) for s in state["states"]),
        host=state["host"],
        phase=MatchPhase(state["phase"]),
        first=state["first"],
        current=state["current"],
        turn=Turn(
            dice=tuple(dice) if dice is not None else None, held=tuple(held), rolls_used=rolls_used
        ),
        contenders=tuple(state["contenders"]),
        first_rolls=tuple(tuple(d) if d is not None else None for d in state["first_rolls"]),
        players=tuple(state["players"]),
        turn_limit=state["turn_limit"],
        challenge=state["challenge"],
    )


def _fields(match: Match) -> dict[str, Any]:
    """``match``'s fields but its log and undo, to build a match like it."""
    return {f.name: getattr(match, f.name) for f in fields(match) if f.name not in {"log", "undo"}}
