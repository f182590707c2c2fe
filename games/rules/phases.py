"""Where a match stands, and where a seat stands in it."""

from __future__ import annotations

from enum import StrEnum
from typing import NamedTuple


class MatchPhase(StrEnum):
    ROLLING_FOR_FIRST = "rolling_for_first"
    PLAYING = "playing"
    FINISHED = "finished"
    ABANDONED = "abandoned"


class SeatState(StrEnum):
    PLAYING = "playing"
    RESIGNED = "resigned"


class Standing(NamedTuple):
    seat: int
    total: int
    place: int
    """1 for the best total; equal totals share a place (1, 1, 3)."""
