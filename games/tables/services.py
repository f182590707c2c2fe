"""Before and after a game of several: setting the table (guests at the host's screen,
computer players, seats offered by link or in the lobby), taking and withdrawing seats, the
host's start, leaving a game not begun, and the rematch. One transaction each.

A game has no match until its host starts it (``games.play.actions.begin``); until then these
are the only writes to it, and each moves its version on (``seating.touch``) and tells every open
page.
"""

from __future__ import annotations

import secrets
from collections.abc import Sequence
from datetime import date
from typing import Any

from django.db import transaction
from django.utils import timezone

from accounts import licensing
from accounts.models import User
from games import rules, seating, store
from games.errors import GameError, GameNotFound, GameNotInProgress
from games.models import (
    TURN_LIMITS,
    Game,
    GameStatus,
    Invitation,
    PlayerKind,
    Seat,
)
from games.play import actions as play
from games.play import live
from games.store import SeatedGame
from games.tables import guests as guest_rules
from games.tables import waiting

MAX_SEATS = rules.MAX_SEATS
BadGuests = guest_rules.BadGuests
"""Raised here too, for computers and seats; defined with the rules guests' names follow."""


def _check_size(
    *,
    guests: int,
    computers: int,
    offered: int = 0,
    challenge: bool = False,
    roll_for_first: bool = False,
) -> None:
    """The host, their guests, the computers and the seats offered: a table the rules seat
    (``rules.Match.verify_table``), said as the new-game form reads."""
    seats = 1 + guests + computers + offered
    try:
        rules.Match.verify_table(seats, challenge=challenge, roll_for_first=roll_for_first)
    except rules.TableRefused as refused:
        if challenge:
            raise BadGuests(str(refused)) from refused
        raise BadGuests(f"A game has at most {MAX_SEATS} players, you included.") from refused


def lay_table(
    *,
    owner: User,
    kind: str,
    guests: Sequence[str] = (),
    computers: Sequence[tuple[str, str]] = (),
    status: GameStatus = GameStatus.IN_PROGRESS,
    turn_limit: int | None = None,
    roll_for_first: bool = False,
    used_trial_game: bool = False,
    challenge_day: date | None = None,
    tournament_id: int | None = None,
    rated: bool = False,
) -> tuple[Game, list[Seat]]:
    """The one way a table is laid: the game, then the host's seat, the guests at the host's
    screen, and the computer players (``computers``: strategy and name), in that order. Not
    written yet: a game that begins now is written by the store as its match begins
    (``games.play.actions.begin``), a waiting one by ``seating.lay``."""
    game = Game(
        owner=owner,
        kind=rules.KINDS[kind].key,
        status=status,
        turn_limit=turn_limit,
        roll_for_first=roll_for_first,
        challenge_day=challenge_day,
        tournament_id=tournament_id,
        rated=rated,
    )
    players: list[tuple[str, dict[str, Any]]] = [
        (str(owner), {"user": owner, "used_trial_game": used_trial_game}),
        *((name, {"player_kind": PlayerKind.GUEST}) for name in guests),
        *((name, {"player_kind": PlayerKind.COMPUTER, "bot": bot}) for bot, name in computers),
    ]
    seats = [
        Seat(game=game, position=position, display_name=name, **fields)
        for position, (name, fields) in enumerate(players)
    ]
    return game, seats


@transaction.atomic
def start_game(
    *,
    owner: User,
    kind: str = rules.CLASSIC.key,
    guests: Sequence[str] = (),
    computers: Sequence[str] = (),
    roll_for_first: bool = False,
    challenge_day: date | None = None,
    tournament_id: int | None = None,
    rated: bool = False,
) -> Game:
    """Start a game of ``kind`` for ``owner``, with ``guests`` at the owner's screen after them
    and then the ``computers`` (strategy names); with ``challenge_day``, that day's challenge
    (``games.daily.services.start_challenge`` starts it: alone, on the day's dice); with
    ``tournament_id``, a game of that tournament (``games.tournaments.services.play``: alone,
    on the tournament's dice). ``rated``:
    the host chose to have the accounts rated against the computers (``games.ratings``).

    A trial account uses up one of its trial games (``licensing.TrialOver`` when none is left);
    guests play on the host's game. ``BadGuests`` when a name will not do (nothing is used).
    """
    names = guest_rules.guest_names(guests, owner=owner)
    bots = guest_rules.computer_seats(computers)
    _check_size(
        guests=len(names),
        computers=len(bots),
        challenge=challenge_day is not None or tournament_id is not None,
        roll_for_first=roll_for_first,
    )
    used_trial_game = licensing.use_trial_game(user=owner)
    guest_rules.remember_guests(owner, names)
    game, seats = lay_table(
        owner=owner,
        kind=kind,
        guests=names,
        computers=bots,
        roll_for_first=roll_for_first,
        used_trial_game=used_trial_game,
        challenge_day=challenge_day,
        tournament_id=tournament_id,
        rated=rated,
    )
    play.begin(store.seated(game, seats), by=owner)
    return game


# --- Online: seats offered by link or in the lobby, taken before the host starts ------------


class InvitationError(GameError):
    """An invitation that cannot be used; the message says why, for the one who followed it."""


def new_seat(game: Game, position: int, name: str, **fields: Any) -> Seat:
    """A seat taken at a table already laid (a player following an invitation)."""
    return Seat(game=game, position=position, display_name=name, **fields)


@transaction.atomic
def open_game(
    *,
    owner: User,
    kind: str = rules.CLASSIC.key,
    guests: Sequence[str] = (),
    computers: Sequence[str] = (),
    invites: int = 0,
    open_seats: int = 0,
    turn_limit: int | None = None,
    roll_for_first: bool = False,
    rated: bool = False,
) -> Game:
    """A game with seats offered online: ``invites`` links for friends, ``open_seats`` listed in
    the lobby. It waits for players until the host starts it; with no seat offered it is an
    ordinary game, started at once (``start_game``). ``BadGuests`` when a choice will not do,
    or when the host keeps ``MAX_WAITING_GAMES`` games waiting already (nothing is changed)."""
    if invites < 0 or open_seats < 0:
        raise BadGuests("The number of seats offered cannot be negative.")
    if invites + open_seats == 0:
        return start_game(
            owner=owner,
            kind=kind,
            guests=guests,
            computers=computers,
            roll_for_first=roll_for_first,
            rated=rated,
        )
    names = guest_rules.guest_names(guests, owner=owner)
    bots = guest_rules.computer_seats(computers)
    _check_size(guests=len(names), computers=len(bots), offered=invites + open_seats)
    # Nothing is used yet: each account uses a trial game when the host starts the game.
    licensing.check_can_start(user=owner)
    if turn_limit is not None and turn_limit not in TURN_LIMITS:
        raise BadGuests("Choose a time limit from the list.")
    waiting.check_waiting_games(owner)
    guest_rules.remember_guests(owner, names)
    game = seating.lay(
        *lay_table(
            owner=owner,
            kind=kind,
            guests=names,
            computers=bots,
            status=GameStatus.WAITING,
            turn_limit=turn_limit,
            roll_for_first=roll_for_first,
            rated=rated,
        )
    )
    Invitation.objects.bulk_create(
        Invitation(game=game, token=secrets.token_urlsafe(32), open_to_all=offered >= invites)
        for offered in range(invites + open_seats)
    )
    return game


def _waiting_game(game_id: int) -> Game:
    """The game, locked, if it still waits for players."""
    game = _locked(game_id)
    _require_waiting(game)
    return game


def _require_waiting(game: Game) -> None:
    if game.status != GameStatus.WAITING:
        raise InvitationError(
            "This game has already started." if game.is_in_progress else "This game is over."
        )


@transaction.atomic
def join_game(*, token: str, user: User) -> Game:
    """Take the seat an invitation offers. Following it again once seated changes nothing.

    ``InvitationError`` for an unknown, revoked or taken invitation, a lobby seat closed
    (``LOBBY_SEAT_LIFETIME``), or a game no longer waiting; ``licensing.TrialOver`` for an
    account with no trial game left to play it with.
    """
    game_id = Invitation.objects.filter(token=token).values_list("game_id", flat=True).first()
    if game_id is None:
        raise InvitationError("This invitation link is not valid: check that it was copied whole.")
    # Locked first: racing players (or one account through two links at once) take the seats
    # one at a time, and each sees the seats taken before it.
    game = _locked(game_id)
    if Seat.objects.filter(game_id=game_id, user=user).exists():
        return game
    _require_waiting(game)
    invitation = Invitation.objects.get(token=token)
    if invitation.revoked_at is not None:
        raise InvitationError("The host has withdrawn this invitation.")
    if invitation.seat_id is not None:
        raise InvitationError("Someone else has taken this seat.")
    if invitation.closed_in_lobby(timezone.now()):
        raise InvitationError(waiting.LOBBY_SEAT_CLOSED)
    if invitation.for_user_id is not None and invitation.for_user_id != user.pk:
        raise InvitationError("This seat is kept for another player.")
    licensing.check_can_start(user=user)
    last = Seat.objects.filter(game=game).order_by("-position").values_list("position", flat=True)
    seat = seating.seat_taken(new_seat(game, last[0] + 1, str(user), user=user))
    invitation.seat = seat
    invitation.save(update_fields=["seat"])
    _touched(game)
    return game


@transaction.atomic
def rematch(*, game_id: int, user: User) -> Game:
    """The same players again, same kind and settings: a new game waiting for them, with a seat
    kept for each other account (they accept from the old game's page). Whoever asks first
    hosts it; asking again, by anyone, leads to the same game."""
    seated = store.load(game_id=game_id, user=user, lock=True)
    old = seated.game
    if old.rematch_id is not None:
        return Game.objects.get(pk=old.rematch_id)
    if old.status not in (GameStatus.FINISHED, GameStatus.ABANDONED):
        raise GameNotInProgress("A rematch follows a game that is over.")
    others = [s for s in seated.seats if s.user_id not in (None, user.pk)]
    if not others:
        raise rules.IllegalMove("Nobody else to play again with: start a new game.")
    licensing.check_can_start(user=user)
    hosting = old.owner_id == user.pk
    guests = [s.display_name for s in seated.seats if s.player_kind == PlayerKind.GUEST]
    computers = [
        (s.bot, s.display_name) for s in seated.seats if s.player_kind == PlayerKind.COMPUTER
    ]
    game = seating.lay(
        *lay_table(
            owner=user,
            kind=old.kind,
            guests=guests if hosting else [],
            computers=computers,
            status=GameStatus.WAITING,
            turn_limit=old.turn_limit,
            roll_for_first=old.roll_for_first,
            rated=old.rated,
        )
    )
    Invitation.objects.bulk_create(
        Invitation(game=game, token=secrets.token_urlsafe(32), for_user_id=seat.user_id)
        for seat in others
    )
    old.rematch = game
    _touched(old, "rematch")
    return game


def _locked(game_id: int) -> Game:
    """The game row, locked until the transaction ends; ``GameNotFound`` when there is none."""
    game = Game.objects.select_for_update().filter(pk=game_id).first()
    if game is None:
        raise GameNotFound("There is no such game.")
    return game


def _hosted(game_id: int, user: User) -> Game:
    game = _locked(game_id)
    _require_host(game, user)
    return game


def _require_host(game: Game, user: User) -> None:
    """``game`` (locked) still waits for players, and ``user`` hosts it."""
    _require_waiting(game)
    if game.owner_id != user.pk:
        raise rules.NotHost("Only the host can do that.")


@transaction.atomic
def revoke_invitation(*, game_id: int, user: User, invitation_id: int) -> Game:
    """Withdraw a seat not yet taken; its link then says so."""
    game = _hosted(game_id, user)
    withdrawn = Invitation.objects.filter(
        pk=invitation_id, game=game, seat__isnull=True, revoked_at__isnull=True
    ).update(revoked_at=timezone.now())
    if not withdrawn:
        raise InvitationError("That seat is already taken or withdrawn.")
    _touched(game)
    return game


@transaction.atomic
def begin_game(*, game_id: int, user: User) -> SeatedGame:
    """The host starts a waiting game: seats not taken are dropped, and each account seated uses
    one of its own trial games. A player whose last trial game went meanwhile is dropped (the
    host's own ``TrialOver`` stops the start).

    Starting is idempotent for the host: a start sent again (a double click, or a retry after
    the answer was lost) finds the game under way and changes nothing, so the host lands on it
    rather than on a refusal of what they had already done."""
    game = _locked(game_id)
    if game.is_in_progress and game.owner_id == user.pk:
        return store.load(game_id=game_id, user=user)
    _require_host(game, user)
    Invitation.objects.filter(game=game, seat__isnull=True, revoked_at__isnull=True).update(
        revoked_at=timezone.now()
    )
    seated = store.load(game_id=game_id, user=user)
    keep: list[Seat] = []
    for seat in seated.seats:
        if seat.user is not None:
            try:
                seat.used_trial_game = licensing.use_trial_game(user=seat.user)
            except licensing.LicenceError:
                if seat.user_id == game.owner_id:
                    raise
                continue  # dropped: the others close ranks
        keep.append(seat)
    return play.begin(seating.seats_kept(seated, keep), by=user)


def leave(table: SeatedGame, user: User) -> SeatedGame:
    """A player gives up their seat at a game that has not started: it is offered again."""
    mine = table.seat_of(user)
    assert mine is not None
    left = seating.seat_given_up(table, mine)
    _touched(table.game)
    return left


def close(table: SeatedGame) -> SeatedGame:
    """The host gives up a game still waiting for players: it ends before it began."""
    Invitation.objects.filter(game=table.game, revoked_at__isnull=True, seat__isnull=True).update(
        revoked_at=timezone.now()
    )
    closed = seating.close_waiting(table)
    live.publish(closed.game)
    return closed


def _touched(game: Game, *changed: str) -> None:
    """A change to ``game`` before it begins, written (``seating.touch``) and told to its pages."""
    seating.touch(game, *changed)
    live.publish(game)
