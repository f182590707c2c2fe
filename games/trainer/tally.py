"""The running score of a training session: positions tried, best choices, expected points
lost. Kept in the browser session (a session is a sitting: logging out ends it, and the page
can start a new one); the account keeps the positions themselves."""

from __future__ import annotations

from collections.abc import MutableMapping
from dataclasses import asdict, dataclass
from typing import Any

SESSION_KEY = "trainer_tally"


@dataclass(frozen=True)
class Tally:
    tried: int = 0
    best: int = 0
    lost: float = 0.0


def read(session: MutableMapping[str, Any]) -> Tally:
    kept = session.get(SESSION_KEY)
    if not isinstance(kept, dict):
        return Tally()
    try:
        return Tally(int(kept["tried"]), int(kept["best"]), float(kept["lost"]))
    except (KeyError, TypeError, ValueError):
        return Tally()


def add(session: MutableMapping[str, Any], *, best: bool, loss: float) -> Tally:
    """Count one answer (``loss``: the expected points it gave away)."""
    now = read(session)
    counted = Tally(now.tried + 1, now.best + best, now.lost + (0.0 if best else loss))
    session[SESSION_KEY] = asdict(counted)
    return counted


def reset(session: MutableMapping[str, Any]) -> None:
    session.pop(SESSION_KEY, None)
