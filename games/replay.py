"""A game played again from its ``Move`` log through ``rules.Match.replay`` (``store.replay``):
the log is the match's events, so any game can be rebuilt from it exactly and checked against
what is stored."""

from games.moves import ReplayMismatch
from games.store import replay

__all__ = ["ReplayMismatch", "replay"]
