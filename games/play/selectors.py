"""The reads of the game page besides the game itself: its latest moves, whether any was made."""

from __future__ import annotations

from games.models import (
    Game,
    Move,
)

# --- A game and its seats ------------------------------------------------------------------


def has_moves(game: Game) -> bool:
    """Whether anything has been rolled in the game yet."""
    return Move.objects.filter(game=game).exists()


def recent_moves(game: Game, *, limit: int = 8) -> list[Move]:
    """The game's last moves, newest first, read backwards along ``move_unique_seq`` (what a
    line of the log says; the player's name comes from the seats loaded with the game)."""
    return list(Move.objects.filter(game=game).order_by("-seq")[:limit])
