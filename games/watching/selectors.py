"""The reads of a watcher's page: the watched game and its seats (with its tournament), found
by the link's secret in one query, the seats' ``game`` index walked from the unique token."""

from __future__ import annotations

from dataclasses import dataclass

from games import store
from games.models import Seat
from games.store import SeatedGame
from games.tournaments.models import Tournament


@dataclass(frozen=True)
class Watched:
    """A game as a watcher finds it: by its tournament's link (``tournament``) or by its own
    watch link; ``token`` is that link's secret, which every address of the page carries."""

    seated: SeatedGame
    tournament: Tournament | None
    token: str

    @property
    def by_tournament(self) -> bool:
        return self.tournament is not None

    @property
    def closed(self) -> bool:
        """A tournament's game left unfinished at the tournament's end: it no longer moves."""
        return (
            self.tournament is not None
            and self.tournament.ended_at is not None
            and self.seated.game.is_in_progress
        )


def tournament_game(token: str, game_id: int) -> Watched | None:
    """The game ``game_id`` of the tournament whose link is ``token``; ``None`` for no such
    tournament, a game not of it, or one with nothing to show yet."""
    seats = list(
        Seat.objects.filter(game_id=game_id, game__tournament__token=token)
        .select_related("game__tournament")
        .order_by("position")
    )
    if not seats or seats[0].game.state is None:
        return None
    game = seats[0].game
    return Watched(store.seated(game, seats), game.tournament, token)


def linked_game(token: str) -> Watched | None:
    """The game whose live watch link is ``token``; ``None`` for a link never given out or
    withdrawn (or a game with nothing to show yet)."""
    seats = list(
        Seat.objects.filter(game__watch_token=token).select_related("game").order_by("position")
    )
    if not seats or seats[0].game.state is None:
        return None
    return Watched(store.seated(seats[0].game, seats), None, token)
