"""A tournament's writes, one transaction each (after the clock's, in its own, when due):
opening one (a registered account), joining (below the cap, once), the host's start and end,
an entrant's one game on its dice, the end that comes by itself when every entrant's game is
over, and the start and end that come by the clock (``start_on_time``, ``end_on_time``: a
task's at the set time, and ``settle``'s wherever a late task would matter). Each end enqueues
the perfect bot's game on the tournament's dice
(``games.tournaments.perfect``), never sooner: the dice are sealed until then.

The rules that matter under racing requests are held by the database: the cap by a conditional
UPDATE of the entrants' count, one entry per account by a unique constraint, one game per entry
by the entry's row lock, and the end by locking the tournament's games still in play before it
is written, so a move is either committed before the end or refused after it. The clock's start
and end are conditional UPDATEs (idempotent; a host's earlier start or end wins)."""

from __future__ import annotations

import secrets
from datetime import datetime, timedelta

from django.db import IntegrityError, transaction
from django.db.models import F, Q
from django.utils import timezone

from accounts import licensing
from accounts.models import User
from games import rules
from games.errors import BadInput, GameError, GameNotFound, NotRegistered, NotTheHost
from games.models import KINDS_IN_WORDS, Game, GameStatus
from games.tables import services as tables
from games.tournaments import clock, news
from games.tournaments.models import MAX_PLAYERS, Entry, Tournament
from yahtzee_site.tasking import later

TOKEN_BYTES = 32
"""256 random bits in a private tournament's link: guessed no better than a key."""

NAME_LENGTH = 60


class TournamentRefused(GameError):
    """A tournament that cannot do what was asked now (full, started, over, joined already);
    the message says why (answered 409)."""


def _settled(token: str, now: datetime) -> Tournament:
    """The tournament of ``token`` as its clock says it is (``settle``), in a transaction of
    its own: a refusal after it does not undo what the clock did."""
    found = Tournament.objects.filter(token=token).first()
    if found is None:
        raise GameNotFound("There is no such tournament: check the link.")
    return settle(found, now)


def _locked(token: str) -> Tournament:
    found = Tournament.objects.select_for_update().filter(token=token).first()
    if found is None:
        raise GameNotFound("There is no such tournament: check the link.")
    return found


@transaction.atomic
def open_tournament(
    *,
    host: User,
    name: str,
    kind: str = rules.CLASSIC.key,
    listed: bool,
    cap: int = MAX_PLAYERS,
    starts_at: datetime | None = None,
    length: timedelta | None = None,
    now: datetime | None = None,
) -> Tournament:
    """Open a tournament, to be started by its host when they press start, or by itself at
    ``starts_at`` (to come, within ``clock.FURTHEST_START``) and then to end by itself
    ``length`` later (1 hour to 7 days; only with a set start). Only a registered account
    hosts one (``NotRegistered`` for a trial account); ``BadInput`` for a name, kind, cap,
    start or length that will not do. Nothing is written on a refusal."""
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
    if kind not in rules.PLAYABLE:
        raise BadInput(f"Choose {KINDS_IN_WORDS}.")
    if not 1 <= cap <= MAX_PLAYERS:
        raise BadInput(f"A tournament takes 1 to {MAX_PLAYERS:,} players.")
    ends_at = None
    if starts_at is not None:
        clock.verify_start(starts_at, now or timezone.now())
    if length is not None:
        if starts_at is None:
            raise BadInput(
                "A set length needs a set start: choose a start time, or run it until you end it."
            )
        clock.verify_length(length)
        ends_at = starts_at + length
    tournament = Tournament.objects.create(
        host=host,
        name=name,
        kind=kind,
        listed=listed,
        cap=cap,
        token=secrets.token_urlsafe(TOKEN_BYTES),
        starts_at=starts_at,
        ends_at=ends_at,
    )
    schedule(tournament)
    return tournament


def schedule(tournament: Tournament) -> None:
    """Enqueue, on commit, the tasks that start and end ``tournament`` at its set times."""
    from games.tournaments import tasks  # the tasks call this module

    if tournament.starts_at is not None:
        later(tasks.start_on_time, run_after=tournament.starts_at, tournament_id=tournament.pk)
    if tournament.ends_at is not None:
        later(tasks.end_on_time, run_after=tournament.ends_at, tournament_id=tournament.pk)


def _ended(tournament_id: int) -> None:
    """The tournament has just ended (in this transaction): once it commits, the perfect bot
    plays its dice, now unsealed; its streams are told."""
    from games.tournaments import tasks  # the tasks call this module

    later(tasks.work_out_perfect, tournament_id=tournament_id)
    news.tell(tournament_id)


@transaction.atomic
def start_on_time(*, tournament_id: int, now: datetime | None = None) -> bool:
    """Start the tournament at its set start, if that has come and nothing has started or
    ended it (a conditional UPDATE: run twice, or after the host's start, it changes nothing).
    It started at ``starts_at``, however late this runs. Whether it started now."""
    return bool(
        Tournament.objects.filter(
            pk=tournament_id,
            started_at__isnull=True,
            ended_at__isnull=True,
            starts_at__lte=now or timezone.now(),
        ).update(started_at=F("starts_at"))
    ) and _started(tournament_id)


def _started(tournament_id: int) -> bool:
    """The tournament has just started by its clock: its streams are told (once it commits)."""
    news.tell(tournament_id)
    return True


@transaction.atomic
def end_on_time(*, tournament_id: int, now: datetime | None = None) -> bool:
    """End the tournament at its set end, if that has come and nothing has ended it: the games
    in play are locked first (as the host's end locks them), so a move is wholly before the
    end or refused; a conditional UPDATE, so running twice or after the host's end changes
    nothing. It ended at ``ends_at``, however late this runs. Whether it ended now."""
    due = Tournament.objects.filter(
        pk=tournament_id, ended_at__isnull=True, ends_at__lte=now or timezone.now()
    )
    if not due.exists():
        return False
    _lock_games_in_play(tournament_id)
    if not due.update(ended_at=F("ends_at")):
        return False
    _ended(tournament_id)
    return True


def settle(tournament: Tournament, now: datetime | None = None) -> Tournament:
    """``tournament`` as its clock says it is at ``now``: started or ended by the clock when a
    task that should have done it has not run yet (the same conditional UPDATEs; no write
    when nothing is due)."""
    now = now or timezone.now()
    if tournament.due_to_end(now):
        end_on_time(tournament_id=tournament.pk, now=now)
    elif tournament.due_to_start(now):
        start_on_time(tournament_id=tournament.pk, now=now)
    else:
        return tournament
    tournament.refresh_from_db()
    return tournament


def join(*, user: User, token: str, now: datetime | None = None) -> Entry:
    """Enter ``user`` in the tournament of ``token``, while it is open (not started, by its
    host or its clock) and below its cap. Racing joins: the count rises by a conditional UPDATE
    (never past the cap), the entry is one per account (a unique constraint); a refused join
    changes nothing. A trial account with no game left is told now (its game will use one,
    like any game)."""
    now = now or timezone.now()
    found = _settled(token, now)
    with transaction.atomic():
        return _join(found, user)


def _join(found: Tournament, user: User) -> Entry:
    if Entry.objects.filter(tournament=found, user=user).exists():
        raise TournamentRefused("You have joined this tournament already.")
    licensing.check_can_start(user=user)
    # Started by the clock is written by now (``_settled``, committed before this transaction).
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


def start(*, user: User, token: str) -> Tournament:
    """The host starts the tournament: its entrants may play their games from now on, and
    nobody more may join. Only its host (``NotTheHost``), once, before its end, with somebody
    entered."""
    _settled(token, timezone.now())  # before the lock: an end by the clock locks games first
    with transaction.atomic():
        return _start(user, token)


def _start(user: User, token: str) -> Tournament:
    tournament = _locked(token)
    if tournament.is_sites:
        raise NotTheHost("The site's weekly tournament starts by its clock: nobody starts it.")
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


def end(*, user: User, token: str) -> Tournament:
    """The host ends the tournament (started or not): its games no longer count nor move, its
    dice may be seen, and its final standings stand. Only its host, once."""
    found = _settled(token, timezone.now())
    if found.is_sites:
        raise NotTheHost("The site's weekly tournament ends by its clock: nobody ends it.")
    if found.host_id != user.pk:
        raise NotTheHost("Only the tournament's host can end it.")
    with transaction.atomic():
        return _end(found)


def _end(found: Tournament) -> Tournament:
    _lock_games_in_play(found.pk)
    tournament = _locked(found.token)
    if tournament.ended_at is not None:
        raise TournamentRefused("This tournament is over already.")
    tournament.ended_at = timezone.now()
    tournament.save(update_fields=["ended_at"])
    _ended(tournament.pk)
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
    the last two games ending at once end it once. One with a set end (the weekly among them)
    ends by its clock alone: its page has said when. Whether it ended now."""
    tournament = Tournament.objects.select_for_update().filter(pk=tournament_id).first()
    if tournament is None or not tournament.is_running or tournament.ends_at is not None:
        return False
    playing = Q(game__isnull=True) | Q(
        game__status__in=[GameStatus.WAITING, GameStatus.IN_PROGRESS]
    )
    if Entry.objects.filter(tournament=tournament).filter(playing).exists():
        return False
    tournament.ended_at = timezone.now()
    tournament.save(update_fields=["ended_at"])
    _ended(tournament.pk)
    return True


def play(*, user: User, token: str, now: datetime | None = None) -> Game:
    """``user``'s game of the tournament: the one begun already, else begun now (alone, on the
    tournament's dice, no help; a trial game used like any game's). Only an entrant, once the
    host or the clock has started it and until its end; two tabs at once begin one game (the
    entry's row is locked)."""
    tournament = _settled(token, now or timezone.now())
    with transaction.atomic():
        return _play(tournament, user)


def _play(tournament: Tournament, user: User) -> Game:
    entry = Entry.objects.select_for_update().filter(tournament=tournament, user=user).first()
    if entry is None:
        raise TournamentRefused("You have not joined this tournament.")
    if entry.game_id is not None:
        return Game.objects.get(pk=entry.game_id)
    if tournament.ended_at is not None:
        raise TournamentRefused("This tournament is over: its games can no longer be played.")
    if tournament.started_at is None:
        if tournament.starts_at is not None:
            raise TournamentRefused(
                f"The tournament has not started: it starts at {clock.shown(tournament.starts_at)}."
            )
        raise TournamentRefused("The tournament has not started: its host starts it.")
    game = tables.start_game(owner=user, kind=tournament.kind, tournament_id=tournament.pk)
    entry.game = game
    entry.save(update_fields=["game"])
    return game
