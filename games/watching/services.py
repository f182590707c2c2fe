"""A game's watch link, given out and withdrawn by the game's host: the link's token is its
whole secret (``Game.watch_token``, 256 random bits), so withdrawing it is clearing the token,
and the streams watching by it are told to end once that commits."""

from __future__ import annotations

import hashlib
import secrets

from django.db import transaction

from accounts.models import User
from games.errors import GameNotFound, NotTheHost, NotWatchable
from games.models import Game, Seat
from games.play import broadcast

TOKEN_BYTES = 32
"""A watch link's randomness: 256 bits, as a private tournament's link."""


def link_mark(token: str) -> str:
    """How a watch link is named in the news that it was withdrawn (never the token itself)."""
    return hashlib.sha256(f"watch-link:{token}".encode()).hexdigest()[:24]


def _hosted(*, game_id: int, user: User) -> Game:
    """``user``'s game, locked, if they host it (``NotTheHost`` for another player at it,
    ``GameNotFound`` for anyone not seated: the two look the same as no game from outside)
    and it is one others can watch (``NotWatchable``)."""
    game = Game.objects.select_for_update().filter(pk=game_id).first()
    people = set(
        Seat.objects.filter(game_id=game_id, user__isnull=False).values_list("user_id", flat=True)
    )
    if game is None or user.pk not in people:
        raise GameNotFound("There is no such game.")
    if game.owner_id != user.pk:
        raise NotTheHost("Only the game's host can let others watch it.")
    if game.tournament_id is not None:
        raise NotWatchable("A tournament's game is watched from the tournament's page.")
    if len(people) < 2:
        raise NotWatchable("Only an online game of several players can be watched.")
    return game


@transaction.atomic
def allow_watching(*, game_id: int, user: User) -> Game:
    """The host lets anyone with the link watch the game; asked twice, one link."""
    game = _hosted(game_id=game_id, user=user)
    if game.watch_token is None:
        game.watch_token = secrets.token_urlsafe(TOKEN_BYTES)
        game.save(update_fields=["watch_token"])
    return game


@transaction.atomic
def stop_watching(*, game_id: int, user: User) -> Game:
    """The host withdraws the link: it no longer opens the game, and the streams watching by
    it end once this commits."""
    game = _hosted(game_id=game_id, user=user)
    token = game.watch_token
    if token is not None:
        game.watch_token = None
        game.save(update_fields=["watch_token"])
        news = broadcast.withdrawn(game_id=game.pk, mark=link_mark(token))
        transaction.on_commit(lambda: broadcast.publish(news))
    return game
