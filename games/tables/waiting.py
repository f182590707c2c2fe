"""How many games an account may keep waiting for players, and how long a lobby seat stays
open: the waiting room's limits against a host who would fill the lobby."""

from __future__ import annotations

from django.utils import timezone

from accounts.models import User
from games.models import LOBBY_SEAT_HOURS, Game, GameStatus, lobby_cutoff
from games.tables import guests as guest_rules

MAX_WAITING_GAMES = 3
"""Games one account may keep waiting for players at once: enough to ask friends to one and
strangers to another with one to spare, too few to fill the lobby (issue 19: one trial account
opened 40 lobby games in half a second). A game stops counting once it starts or ends, or once
it has waited ``LOBBY_SEAT_LIFETIME``: its lobby seats have closed by then."""

LOBBY_SEAT_CLOSED = (
    f"Nobody took this seat in the lobby within {LOBBY_SEAT_HOURS} hours, so it has closed."
)
"""What a player following a lobby seat past ``LOBBY_SEAT_LIFETIME`` is told."""


def check_waiting_games(owner: User) -> None:
    """Raise ``guests.BadGuests`` if ``owner`` keeps ``MAX_WAITING_GAMES`` games waiting already.

    The account's row is locked first, so racing requests of one account count one after
    another, each seeing the games the others opened (on SQLite, whose transactions begin
    ``IMMEDIATE``, they queue for the database anyway). ``no_key``: rows that merely point at
    the account (a seat, a score) are not held up by it.
    """
    User.objects.select_for_update(no_key=True).filter(pk=owner.pk).values_list("pk").get()
    waiting = Game.objects.filter(
        owner=owner, status=GameStatus.WAITING, created_at__gt=lobby_cutoff(timezone.now())
    )
    if waiting.count() >= MAX_WAITING_GAMES:
        raise guest_rules.BadGuests(
            f"You already have {MAX_WAITING_GAMES} games waiting for players: start one or "
            "abandon one (My games lists them) before you open another."
        )
