"""Which account's seat is on turn, copied onto the seats (``Seat.on_turn``).

The game row says whose turn it is (``current_seat``, while ``status`` is in progress); the
dashboard lists a player's games with those waiting for them first, and with the flag on the
seat that order is a range of the ``seat_user_turn`` index, however many games are open,
instead of a join and a sort over all of them. Every change of the turn or of the game's status
calls ``mark``, which writes only the seats whose flag changes: none in a solo game's turn, none
between guests at one screen or computers (they have no dashboard, so no flag).
"""

from __future__ import annotations

from games.models import Seat
from games.selectors import SeatedGame
from yahtzee_site import prepared


def mark(seated: SeatedGame, *, but: Seat | None = None) -> None:
    """Bring each seat's ``on_turn`` in line with the game, in memory and in its row; ``but``'s
    only in memory (the caller writes that seat's row anyway)."""
    for seat in seated.seats:
        now = seat.account_on_turn()
        if seat.on_turn != now:
            seat.on_turn = now
            if seat is not but:
                prepared.update(seat, ["on_turn"])
