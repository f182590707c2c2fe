"""The watchers' tests' games: a tournament's game under way, an online game of two, and the
addresses that watch them."""

from __future__ import annotations

from django.urls import reverse

from accounts.models import User
from games.models import Game
from games.tables import services as tables
from games.tournaments import services as tournaments
from games.tournaments.models import Tournament
from tests.tournaments.tournament_support import started_with


def tournament_game(player: User, **fields: object) -> tuple[Tournament, Game]:
    """``player``'s game begun in a tournament they have joined and its host started."""
    tournament = started_with(player, **fields)
    return tournament, tournaments.play(user=player, token=tournament.token)


def online(host: User, guest: User) -> Game:
    """``host`` and ``guest`` at one table, each on their own device; the host plays first."""
    game = tables.open_game(owner=host, invites=1, kind="classic", roll_for_first=False)
    tables.join_game(token=game.invitations.get().token, user=guest)
    tables.begin_game(game_id=game.pk, user=host)
    game.refresh_from_db()
    return game


def watch_url(tournament: Tournament, game: Game | int) -> str:
    game_id = game if isinstance(game, int) else game.pk
    return reverse("watching:tournament_game", args=[tournament.token, game_id])


def watch_stream_url(tournament: Tournament, game: Game) -> str:
    return reverse("watching:tournament_stream", args=[tournament.token, game.pk])


def link_url(game: Game) -> str:
    game.refresh_from_db()
    assert game.watch_token is not None
    return reverse("watching:game", args=[game.watch_token])
