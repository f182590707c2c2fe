"""A game's rows before its match begins: the table laid, seats taken, given up and kept, the
changes the waiting room makes, and the trial games its seats give back. The store's other
half (``games.store`` reads and writes a game in play); like it, it decides no rule and knows
no feature: the tables room (``games.tables``) decides, and writes through here.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace

from django.utils import timezone

from games.models import Game, GameStatus, Seat
from games.store import SeatedGame, seated


def lay(game: Game, seats: list[Seat]) -> Game:
    """A table laid for a game that waits for players: its rows, as laid."""
    game.save(force_insert=True)
    Seat.objects.bulk_create(seats)
    return game


def seat_taken(seat: Seat) -> Seat:
    """A seat taken at a game still waiting for players (``seat.position`` the next free)."""
    seat.save(force_insert=True)
    return seat


def seat_given_up(table: SeatedGame, seat: Seat) -> SeatedGame:
    """``seat`` leaves a game that has not started; the others close ranks."""
    seat.delete()
    seats = [other for other in table.seats if other.pk != seat.pk]
    _renumber(seats)
    return replace(table, seats=seats)


def seats_kept(table: SeatedGame, keep: list[Seat]) -> SeatedGame:
    """As the host starts a game: the seats of ``table`` not in ``keep`` go, those kept are
    numbered again in their order, and each one's use of a trial game is written."""
    kept = {seat.pk for seat in keep}
    Seat.objects.filter(game=table.game).exclude(pk__in=kept).delete()
    Seat.objects.bulk_update(keep, ["used_trial_game"])
    _renumber(keep)
    return seated(table.game, keep)


def trial_games_returned(seats: Sequence[Seat]) -> None:
    """``seats`` no longer hold a trial game of their accounts' (given back)."""
    for seat in seats:
        seat.used_trial_game = False
    Seat.objects.bulk_update(list(seats), ["used_trial_game"])


def _renumber(seats: Sequence[Seat]) -> None:
    """Number ``seats`` 0, 1, 2, … again in their order, so that a position is also the seat's
    place in the turn order. One at a time, lowest first: each moves into a place already
    freed, whatever order the database checks uniqueness in."""
    for position, seat in enumerate(seats):
        if seat.position != position:
            seat.position = position
            seat.save(update_fields=["position"])


def touch(game: Game, *changed: str) -> None:
    """A change to a game before its match begins (a seat taken, an invitation withdrawn, a
    rematch offered), with the fields it ``changed``: the version moves on (the caller tells
    the open pages)."""
    game.version += 1
    game.save(update_fields=[*changed, "version", "updated_at"])


def close_waiting(table: SeatedGame) -> SeatedGame:
    """The host gives up a game still waiting for players: it ends before it began."""
    game = table.game
    game.status, game.finished_at = GameStatus.ABANDONED, timezone.now()
    touch(game, "status", "finished_at")
    for seat in table.seats:
        seat.game_over = True
    Seat.objects.filter(game=game).update(game_over=True)
    return table
