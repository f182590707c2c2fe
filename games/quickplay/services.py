"""Quick play: one click to wait for an opponent of about your rating at one kind of game; two
who match are seated at once in a new rated game; after ``COMPUTER_AFTER`` with nobody, a rated
game against the computer of your strength. One transaction each.

Who matches whom: ``window`` says how far from its own rating a wait reaches, widening as it
waits; two waits match when each reaches the other. A wait is paired with the closest rating
both windows allow (the longest waiting first on ties) when it joins, and again whenever its
page checks in after its window has widened (``check_in``): between widenings a check costs one
read. Pairing locks both rows, in the order of their ids, and seats them only if neither was
seated meanwhile, so two arrivals never take the same waiter (SQLite takes its writers one at a
time anyway). Nothing of a licence is used until the table is laid: then each account uses a
trial game, as when a host starts an online game. Once a seating commits, each account seated
hears of it (``seated``): its waiting page is taken to the game by its stream.
"""

from __future__ import annotations

import datetime
from dataclasses import dataclass
from typing import Final

from django.db import IntegrityError, transaction
from django.db.models import F, Q, QuerySet
from django.db.models.functions import Abs
from django.utils import timezone

from accounts import licensing
from accounts.models import User
from games import rules, store
from games.errors import BadInput, GameError
from games.models import KINDS_IN_WORDS, Game, GameStatus
from games.play import actions as play
from games.play import broadcast
from games.quickplay.models import QuickWait
from games.ratings import anchors
from games.ratings.models import Rating
from games.ratings.scale import SHOWN_AT_START
from games.strategy import BOT_NAMES
from games.tables import services as tables

WINDOW_START: Final = 100
WINDOW_STEP: Final = 50
STEP_EVERY: Final = datetime.timedelta(seconds=5)
WINDOW_MOST: Final = 400
"""A wait reaches ``WINDOW_START`` rating points either side at first, ``WINDOW_STEP`` more for
every ``STEP_EVERY`` it has waited, up to ``WINDOW_MOST`` (reached at 30 s, when the computer is
offered: further than that is no longer a game of equals)."""
COMPUTER_AFTER: Final = datetime.timedelta(seconds=30)
"""How long a wait lasts before its page offers the computer of the account's strength."""
GONE_AFTER: Final = datetime.timedelta(seconds=20)
"""A wait whose page has not checked in for this long (a page checks every second or two, and
writes it at every widening) is left out of pairing: its player has most likely gone."""
TURN_LIMIT: Final = 60
"""Seconds a player of a quick game may take over a turn before the other may skip them: two
strangers who came to play now, at their screens."""
TRIES: Final = 3
"""Times a pairing looks again when the opponent it chose was seated meanwhile."""


class QuickPlayError(GameError):
    """A quick-play request that cannot be carried out; the message says why."""


class UnknownKind(QuickPlayError, BadInput):
    def __init__(self) -> None:
        super().__init__(f"There is no such kind of game: choose {KINDS_IN_WORDS}.")


class AlreadyWaiting(QuickPlayError):
    def __init__(self, kind: str) -> None:
        name = rules.KINDS[kind].name if kind in rules.KINDS else kind
        super().__init__(
            f"You are already waiting for a game of {name}: one wait at a time. "
            "Cancel it first to wait for another."
        )


class NotWaiting(QuickPlayError):
    def __init__(self) -> None:
        super().__init__("You are not waiting for a game: choose Quick play to start waiting.")


class AlreadySeated(QuickPlayError):
    def __init__(self) -> None:
        super().__init__("An opponent was found: your game has begun.")


class TooSoon(QuickPlayError):
    def __init__(self) -> None:
        seconds = int(COMPUTER_AFTER.total_seconds())
        super().__init__(f"The computer is offered after {seconds} seconds of waiting.")


def window(waited: datetime.timedelta) -> int:
    """How many rating points either side a wait reaches after ``waited``."""
    steps = max(0, int(waited / STEP_EVERY))
    return min(WINDOW_MOST, WINDOW_START + WINDOW_STEP * steps)


def reaches(a: QuickWait, b: QuickWait, now: datetime.datetime) -> bool:
    """Whether the waits ``a`` and ``b`` match now: each one's window holds the other."""
    apart = abs(a.rating - b.rating)
    return apart <= window(now - a.joined_at) and apart <= window(now - b.joined_at)


def rating_of(user: User, kind: str) -> int:
    """``user``'s rating at ``kind``, or the start's with none yet."""
    found = Rating.objects.filter(user=user, kind=kind).values_list("rating", flat=True).first()
    return SHOWN_AT_START if found is None else found


@dataclass(frozen=True)
class Waiting:
    """Where an account's wait stands, as its page shows it."""

    kind: str
    rating: int
    waited: datetime.timedelta
    game_id: int | None

    @property
    def window(self) -> int:
        return window(self.waited)

    @property
    def low(self) -> int:
        return self.rating - self.window

    @property
    def high(self) -> int:
        return self.rating + self.window

    @property
    def seconds(self) -> int:
        return int(self.waited.total_seconds())

    @property
    def computer_offered(self) -> bool:
        return self.game_id is None and self.waited >= COMPUTER_AFTER

    @property
    def computer(self) -> str:
        return closest_computer(self.kind, self.rating)

    @property
    def computer_rating(self) -> int:
        return anchors.anchor(self.kind, self.computer).shown


def _waiting(wait: QuickWait, now: datetime.datetime) -> Waiting:
    return Waiting(
        wait.kind, wait.rating, max(now - wait.joined_at, datetime.timedelta()), wait.game_id
    )


# --- Joining, looking in, leaving ------------------------------------------------------------


@transaction.atomic
def join(*, user: User, kind: str, now: datetime.datetime | None = None) -> Waiting:
    """``user`` waits for an opponent at ``kind``, and is paired at once if one matches.

    ``UnknownKind``; ``AlreadyWaiting`` for a second wait; ``licensing.TrialOver`` or
    ``EmailNotConfirmed`` for an account that could not start a game (nothing is used)."""
    if kind not in rules.PLAYABLE:
        raise UnknownKind()
    now = timezone.now() if now is None else now
    licensing.check_can_start(user=user)
    # A wait already seated is done with: its game has begun.
    QuickWait.objects.filter(user=user, game__isnull=False).delete()
    waiting = QuickWait.objects.filter(user=user).values_list("kind", flat=True).first()
    if waiting is not None:
        raise AlreadyWaiting(waiting)
    wait = QuickWait(
        user=user, kind=kind, rating=rating_of(user, kind), joined_at=now, checked_at=now
    )
    try:
        with transaction.atomic():
            wait.save(force_insert=True)
    except IntegrityError:  # the same account's other request, a moment earlier
        raise AlreadyWaiting(kind) from None
    _pair(wait, now)
    return _waiting(wait, now)


def check_in(*, user: User, now: datetime.datetime | None = None) -> Waiting:
    """Where ``user``'s wait stands, as its page checks in: one read; and when its window has
    widened since the page last looked, a look for an opponent it now reaches.
    ``NotWaiting`` with no wait."""
    now = timezone.now() if now is None else now
    wait = _current(user).first()
    if wait is None:
        raise NotWaiting()
    if wait.game_id is None and _widened(wait, now):
        with transaction.atomic():
            wait = _look_again(wait, now)
    return _waiting(wait, now)


def _current(user: User) -> QuerySet[QuickWait]:
    """``user``'s wait, still waiting or seated in a game not over (one that is over is
    forgotten: its page is the game's)."""
    return _current_of(user.pk)


def _current_of(user_id: int) -> QuerySet[QuickWait]:
    live = Q(game__isnull=True) | Q(game__status=GameStatus.IN_PROGRESS)
    return QuickWait.objects.filter(live, user_id=user_id)


def _widened(wait: QuickWait, now: datetime.datetime) -> bool:
    """Whether ``wait``'s window has widened since its page last looked (or the wait has not
    been seen for long enough to need marking as still there)."""
    return (
        window(now - wait.joined_at) != window(wait.checked_at - wait.joined_at)
        or now - wait.checked_at >= STEP_EVERY
    )


def _look_again(wait: QuickWait, now: datetime.datetime) -> QuickWait:
    """Look for an opponent, then mark the page as still there. No row is locked before the
    pairing locks its two (in the order of their ids): two pages checking in at once, each
    finding the other, never wait for each other in a circle."""
    _pair(wait, now)
    still = QuickWait.objects.filter(pk=wait.pk, game__isnull=True)
    if wait.game_id is None and still.update(checked_at=now):
        wait.checked_at = now
        return wait
    current = QuickWait.objects.filter(pk=wait.pk).first()  # seated, or cancelled meanwhile
    if current is None:
        raise NotWaiting()
    return current


@transaction.atomic
def cancel(*, user: User) -> None:
    """``user`` stops waiting. ``NotWaiting`` with no wait, ``AlreadySeated`` once paired."""
    deleted, _ = QuickWait.objects.filter(user=user, game__isnull=True).delete()
    if deleted:
        return
    if _current(user).exists():
        raise AlreadySeated()
    raise NotWaiting()


def closest_computer(kind: str, rating: int) -> str:
    """The computer player whose fixed rating at ``kind`` is closest to ``rating`` (the
    weaker on a tie: it is the one ``rating`` has more surely reached)."""
    shown = {bot: anchors.anchor(kind, bot).shown for bot in BOT_NAMES}
    return min(BOT_NAMES, key=lambda bot: (abs(shown[bot] - rating), shown[bot]))


@transaction.atomic
def play_computer(*, user: User, now: datetime.datetime | None = None) -> Game:
    """After ``COMPUTER_AFTER`` with nobody, ``user`` stops waiting and plays a rated game
    against the computer of their strength. A wait seated meanwhile leads to its game.

    ``NotWaiting``, ``TooSoon``; ``licensing.TrialOver`` and the like (the wait stays)."""
    now = timezone.now() if now is None else now
    wait = QuickWait.objects.select_for_update().filter(user=user).first()
    if wait is None:
        raise NotWaiting()
    if wait.game_id is not None:
        return Game.objects.get(pk=wait.game_id)
    if now - wait.joined_at < COMPUTER_AFTER:
        raise TooSoon()
    bot = closest_computer(wait.kind, wait.rating)
    game = tables.start_game(owner=user, kind=wait.kind, computers=[bot], rated=True)
    wait.delete()
    seated(account_ids=[user.pk], game_id=game.pk)  # its other waiting pages follow
    return game


# --- Pairing -----------------------------------------------------------------------------------


def _pair(wait: QuickWait, now: datetime.datetime) -> Game | None:
    """Seat ``wait`` (unseated, and visible to this transaction alone or not locked by it)
    with the closest wait both windows allow, if any; the game.

    Each try locks both rows in one statement, in the order of their ids, inside a savepoint:
    a try that finds one of them seated meanwhile rolls back to it, which lets go of the row it
    did lock, so no transaction ever waits for a row while holding another (no deadlock, however
    many pages check in at once)."""
    for _ in range(TRIES):
        other = _opponent(wait, now)
        if other is None:
            return None
        with transaction.atomic():
            locked = list(
                QuickWait.objects.select_for_update()
                .filter(pk__in=[wait.pk, other.pk], game__isnull=True)
                .order_by("pk")
            )
            if len(locked) == 2:
                return _seat(wait, other)
            transaction.set_rollback(True)
        if all(row.pk != wait.pk for row in locked):
            return None  # this wait itself was seated (or cancelled) meanwhile
    return None


def _opponent(wait: QuickWait, now: datetime.datetime) -> QuickWait | None:
    """The wait ``wait`` should meet: the closest rating within its window whose own window
    holds it, the longest waiting first among equals; only waits whose page is still there.
    Read along the ``quick_wait_rating`` index (one kind, a range of ratings)."""
    reach = window(now - wait.joined_at)
    candidates = (
        QuickWait.objects.filter(
            kind=wait.kind,
            game__isnull=True,
            rating__gte=wait.rating - reach,
            rating__lte=wait.rating + reach,
            checked_at__gte=now - GONE_AFTER,
        )
        .exclude(pk=wait.pk)
        .annotate(apart=Abs(F("rating") - wait.rating))
        .order_by("apart", "joined_at", "pk")
        .only("pk", "user_id", "kind", "rating", "joined_at")
    )
    for other in candidates.iterator(chunk_size=100):
        if reaches(wait, other, now):
            return other
    return None


def _seat(first: QuickWait, second: QuickWait) -> Game | None:
    """The two waits (locked) seated in a new rated game, begun at once: the one who waited
    longer hosts and plays first. An account that can no longer start a game (its last trial
    game used meanwhile) stops waiting; the other waits on."""
    host, guest = sorted((first, second), key=lambda w: (w.joined_at, w.pk))
    users = User.objects.in_bulk([host.user_id, guest.user_id])
    used: list[bool] = []
    with transaction.atomic():  # a savepoint: a refused licence undoes the other's use
        for wait in (host, guest):
            try:
                used.append(licensing.use_trial_game(user=users[wait.user_id]))
            except licensing.LicenceError:
                refused = wait
                break
        else:
            refused = None
        if refused is not None:
            transaction.set_rollback(True)
    if refused is not None:
        QuickWait.objects.filter(pk=refused.pk).delete()
        return None
    owner, other = users[host.user_id], users[guest.user_id]
    game, seats = tables.lay_table(
        owner=owner, kind=host.kind, turn_limit=TURN_LIMIT, used_trial_game=used[0], rated=True
    )
    seats.append(tables.new_seat(game, 1, str(other), user=other, used_trial_game=used[1]))
    play.begin(store.seated(game, seats), by=owner)
    QuickWait.objects.filter(pk__in=[host.pk, guest.pk]).update(game=game)
    first.game_id = second.game_id = game.pk
    seated(account_ids=[host.user_id, guest.user_id], game_id=game.pk)
    return game


def seated(*, account_ids: list[int], game_id: int) -> None:
    """Once the seating commits, tell each account's quick-play streams (``stream``) where to
    go: the one who arrived is sent there by its own request too, but its other pages are not."""
    news = [broadcast.seated(account_id=account_id, game_id=game_id) for account_id in account_ids]

    def tell() -> None:
        for message in news:
            broadcast.publish(message)

    transaction.on_commit(tell)


def seated_in(*, user_id: int) -> int | None:
    """The game ``user_id``'s wait was seated in (one not over), ``None`` while it waits.
    ``NotWaiting`` with no wait."""
    found = list(_current_of(user_id).values_list("game_id", flat=True)[:1])
    if not found:
        raise NotWaiting()
    return found[0]
