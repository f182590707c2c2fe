"""A tournament's writes, one transaction each: opening one (a registered account), joining
(below the cap, once), the host's start and end, an entrant's one game on its dice, and the end
that comes by itself when every entrant's game is over.

The rules that matter under racing requests are held by the database: the cap by a conditional
UPDATE of the entrants' count, one entry per account by a unique constraint, one game per entry
by the entry's row lock, and the end by locking the tournament's games still in play before it
is written, so a move is either committed before the end or refused after it."""

from __future__ import annotations

import secrets

from django.db import IntegrityError, transaction
from django.db.models import F, Q
from django.utils import timezone

from accounts import licensing
from accounts.models import User
from games import rules
from games.errors import BadInput, GameError, GameNotFound, NotRegistered, NotTheHost
from games.models import Game, GameStatus
from games.tables import services as tables
from games.tournaments import news
from games.tournaments.models import MAX_PLAYERS, Entry, Tournament

TOKEN_BYTES = 32
"""256 random bits in a private tournament's link: guessed no better than a key."""

NAME_LENGTH = 60


class TournamentRefused(GameError):
    """A tournament that cannot do what was asked now (full, started, over, joined already);
    the message says why (answered 409)."""


def _locked(token: str) -> Tournament:
    found = Tournament.objects.select_for_update().filter(token=token).first()
    if found is None:
        raise GameNotFound("There is no such tournament: check the link.")
    return found


@transaction.atomic
def open_tournament(
    *, host: User, name: str, kind: str = rules.CLASSIC.key, listed: bool, cap: int = MAX_PLAYERS
) -> Tournament:
    """Open a tournament, to be started by its host when they press start. Only a registered
    account hosts one (``NotRegistered`` for a trial account); ``BadInput`` for a name, kind or
    cap that will not do. Nothing is written on a refusal."""
    if not licensing.licence_of(host).registered:
        raise NotRegistered(
            "Only a registered account can host a tournament: enter a serial number to host "
            "one. A trial account may join tournaments others host."
        )
    name = " ".join(name.split())
    if not name or len(name) > NAME_LENGTH:
        raise BadInput(f"Give the tournament a name of 1 to {NAME_LENGTH} characters.")
    if not name.isprintable():
        raise BadInput(
            "A tournament's name cannot hold control, invisible or direction-changing characters."
        )
    if kind not in rules.KINDS:
        raise BadInput("Choose Classic or Triple.")
    if not 1 <= cap <= MAX_PLAYERS:
        raise BadInput(f"A tournament takes 1 to {MAX_PLAYERS:,} players.")
    return Tournament.objects.create(
        host=host,
        name=name,
        kind=kind,
        listed=listed,
        cap=cap,
        token=secrets.token_urlsafe(TOKEN_BYTES),
    )


@transaction.atomic
def join(*, user: User, token: str) -> Entry:
    """Enter ``user`` in the tournament of ``token``, while it is open (not started) and below
    its cap. Racing joins: the count rises by a conditional UPDATE (never past the cap), the
    entry is one per account (a unique constraint); a refused join changes nothing. A trial
    account with no game left is told now (its game will use one, like any game)."""
    found = Tournament.objects.filter(token=token).first()
    if found is None:
        raise GameNotFound("There is no such tournament: check the link.")
    if Entry.objects.filter(tournament=found, user=user).exists():
        raise TournamentRefused("You have joined this tournament already.")
    licensing.check_can_start(user=user)
    counted = Tournament.objects.filter(
        pk=found.pk, started_at__isnull=True, ended_at__isnull=True, entrants__lt=F("cap")
    ).update(entrants=F("entrants") + 1)
    if not counted:
        raise _why_closed(Tournament.objects.get(pk=found.pk))
    try:
        with transaction.atomic():
            entry = Entry.objects.create(tournament=found, user=user, display_name=str(user))
    except IntegrityError as race:  # the same account joining twice at once
        raise TournamentRefused("You have joined this tournament already.") from race
    news.tell(found.pk)
    return entry


def _why_closed(tournament: Tournament) -> TournamentRefused:
    if tournament.ended_at is not None:
        return TournamentRefused("This tournament is over: it takes no more players.")
    if tournament.started_at is not None:
        return TournamentRefused("This tournament has started: it takes no more players.")
    return TournamentRefused(f"This tournament is full: it takes {tournament.cap:,} players.")


@transaction.atomic
def start(*, user: User, token: str) -> Tournament:
    """The host starts the tournament: its entrants may play their games from now on, and
    nobody more may join. Only its host (``NotTheHost``), once, before its end, with somebody
    entered."""
    tournament = _locked(token)
    if tournament.host_id != user.pk:
        raise NotTheHost("Only the tournament's host can start it.")
    if tournament.ended_at is not None:
        raise TournamentRefused("This tournament is over: it cannot start.")
    if tournament.started_at is not None:
        raise TournamentRefused("This tournament has started already.")
    if tournament.entrants == 0:
        raise TournamentRefused("Nobody has joined yet: a tournament starts with one player.")
    tournament.started_at = timezone.now()
    tournament.save(update_fields=["started_at"])
    news.tell(tournament.pk)
    return tournament


@transaction.atomic
def end(*, user: User, token: str) -> Tournament:
    """The host ends the tournament (started or not): its games no longer count nor move, its
    dice may be seen, and its final standings stand. Only its host, once."""
    found = Tournament.objects.filter(token=token).first()
    if found is None:
        raise GameNotFound("There is no such tournament: check the link.")
    if found.host_id != user.pk:
        raise NotTheHost("Only the tournament's host can end it.")
    _lock_games_in_play(found.pk)
    tournament = _locked(token)
    if tournament.ended_at is not None:
        raise TournamentRefused("This tournament is over already.")
    tournament.ended_at = timezone.now()
    tournament.save(update_fields=["ended_at"])
    news.tell(tournament.pk)
    return tournament


def _lock_games_in_play(tournament_id: int) -> None:
    """Wait for every move in flight in the tournament's games (each holds its game's row)
    and hold them until the end commits: a move is then wholly before the end, or refused."""
    list(
        Game.objects.select_for_update()
        .filter(tournament_id=tournament_id, status=GameStatus.IN_PROGRESS)
        .order_by("pk")
        .values_list("pk", flat=True)
    )


def end_if_all_over(tournament_id: int) -> bool:
    """End the started tournament ``tournament_id`` if every entrant's game is over (finished
    or abandoned; an entrant who has not begun keeps it running). Called in the transaction of
    the move that ended a game (``games.tournaments.events``), the tournament locked first so
    the last two games ending at once end it once. Whether it ended now."""
    tournament = Tournament.objects.select_for_update().filter(pk=tournament_id).first()
    if tournament is None or not tournament.is_running:
        return False
    playing = Q(game__isnull=True) | Q(
        game__status__in=[GameStatus.WAITING, GameStatus.IN_PROGRESS]
    )
    if Entry.objects.filter(tournament=tournament).filter(playing).exists():
        return False
    tournament.ended_at = timezone.now()
    tournament.save(update_fields=["ended_at"])
    news.tell(tournament.pk)
    return True


@transaction.atomic
def play(*, user: User, token: str) -> Game:
    """``user``'s game of the tournament: the one begun already, else begun now (alone, on the
    tournament's dice, no help; a trial game used like any game's). Only an entrant, once the
    host has started it and until its end; two tabs at once begin one game (the entry's row
    is locked)."""
    tournament = Tournament.objects.filter(token=token).first()
    if tournament is None:
        raise GameNotFound("There is no such tournament: check the link.")
    entry = Entry.objects.select_for_update().filter(tournament=tournament, user=user).first()
    if entry is None:
        raise TournamentRefused("You have not joined this tournament.")
    if entry.game_id is not None:
        return Game.objects.get(pk=entry.game_id)
    if tournament.ended_at is not None:
        raise TournamentRefused("This tournament is over: its games can no longer be played.")
    if tournament.started_at is None:
        raise TournamentRefused("The tournament has not started: its host starts it.")
    game = tables.start_game(owner=user, kind=tournament.kind, tournament_id=tournament.pk)
    entry.game = game
    entry.save(update_fields=["game"])
    return game
