"""Your turn, by e-mail: one short mail to a player whose turn it has become in an online game
with a turn limit of an hour or more, when no page of theirs shows the game.

It listens to the move (``games.play.events``): a turn passed to an account's seat enqueues,
once the move commits, the task that runs ``turn_passed`` on the worker (``games.play.tasks``),
which checks the player (options, address, an open page), claims the turn's one ``TurnMail``
row (unique per game, seat and turn: retries and other workers find it taken) and sends, or
holds the mail until 08:00 when it is night where the player lives. ``send_held``, run by
``manage.py send_turn_mail`` every few minutes, sends the held mails whose morning has come,
if the turn is still theirs.
"""

from __future__ import annotations

import logging
from collections.abc import Sequence
from datetime import datetime, time, timedelta
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from django.conf import settings
from django.db import IntegrityError, transaction
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils import timezone

from accounts import mailing
from accounts.models import User
from games import rules, store
from games.events import Moved
from games.models import Game, GameStatus, PlayerKind, Seat
from games.play import live
from games.play.models import TurnMail, TurnMailState

logger = logging.getLogger(__name__)

MIN_TURN_LIMIT = 3600
"""Seconds: a game played at a slower pace than this (``TURN_LIMITS``) mails the turn."""
NIGHT_STARTS, MORNING = time(22), time(8)
"""No turn mail between these hours of the player's day (their time zone, when set)."""


_SPELLED_OUT = {"Sm. Straight": "Small Straight", "Lg. Straight": "Large Straight"}
"""A mail has room for the names the card shortens."""


# --- Whether a change passed the turn (inside the action's transaction) ----------------------


def mails_turns(game: Game) -> bool:
    """Whether ``game`` is one whose turns may be mailed (a long turn limit): only its pages'
    presence is worth writing down."""
    return (game.turn_limit or 0) >= MIN_TURN_LIMIT


def turn_to_mail(moved: Moved) -> tuple[int, int, str] | None:
    """When ``moved`` gave the turn to an account's seat in an online game with a long turn
    limit: that seat, the turn and what passed it (what ``turn_passed`` is asked for)."""
    position = moved.turn_passed_to
    if position is None or not mails_turns(moved.game):
        return None
    seats = moved.seats
    seat = seats[position]
    accounts = {s.user_id for s in seats if s.user_id is not None}
    if seat.user_id is None or seat.player_kind != PlayerKind.HUMAN or len(accounts) < 2:
        return None  # a guest or the computer, or nobody plays from another device
    return seat.pk, moved.after.round, news(seats, moved.events)


def news(seats: Sequence[Seat], events: Sequence[rules.MatchEvent]) -> str:
    """What passed the turn, as the mail's subject opens: the last scoring, skip or
    resignation among ``events``, or the start of the game."""
    for event in reversed(events):
        if isinstance(event, rules.Scored):
            name, box = seats[event.seat].display_name, _box_name(event.box)
            column = (
                f" ×{event.column + 1}" if seats[event.seat].game.rules_kind.columns > 1 else ""
            )
            return f"{name} scored {event.points} in {box}{column}"
        if isinstance(event, rules.Skipped):
            return f"{seats[event.seat].display_name} was skipped"
        if isinstance(event, rules.Resigned):
            return f"{seats[event.seat].display_name} resigned"
    return "The game has begun"


def _box_name(box: str) -> str:
    label = rules.Box(box).label
    return _SPELLED_OUT.get(label, label)


# --- After the commit: claim the turn's mail, send it or hold it for the morning -------------


def turn_passed(*, seat_id: int, turn: int, news: str, now: datetime | None = None) -> None:
    """Mail the player of ``seat_id`` that their ``turn`` has come, at most once: nothing when
    it is no longer theirs, when they do not want or cannot get the mail, or when a page of
    theirs shows the game; held until 08:00 when it is night where they live."""
    now = now or timezone.now()
    seat = Seat.objects.select_related("game", "user").filter(pk=seat_id).first()
    if seat is None or not _still_due(seat, turn) or not _wanted(seat):
        return
    assert seat.user is not None  # _wanted
    morning = hold_until(now, seat.user.time_zone)
    try:
        with transaction.atomic():
            mail = TurnMail.objects.create(
                game=seat.game,
                seat=seat,
                turn=turn,
                news=news[:200],
                send_after=morning or now,
                state=TurnMailState.HELD if morning else TurnMailState.SENDING,
            )
    except IntegrityError:
        return  # this turn's mail was claimed already (a retry, another worker)
    if morning is None:
        _deliver(mail, seat, seat.user)


def send_held(*, now: datetime | None = None) -> int:
    """Send the held mails whose morning has come (``manage.py send_turn_mail``); how many.

    Each is claimed first (held -> sending, one conditional UPDATE), so two runs at once send
    it once. One whose turn has passed, or whose player now has the game open or wants no
    mail, is dropped."""
    now = now or timezone.now()
    sent = 0
    due = TurnMail.objects.filter(state=TurnMailState.HELD, send_after__lte=now)
    for mail in due.select_related("seat__game", "seat__user").order_by("send_after")[:500]:
        claimed = TurnMail.objects.filter(pk=mail.pk, state=TurnMailState.HELD).update(
            state=TurnMailState.SENDING
        )
        if not claimed:
            continue
        seat = mail.seat
        if not _still_due(seat, mail.turn) or not _wanted(seat):
            TurnMail.objects.filter(pk=mail.pk).update(state=TurnMailState.DROPPED)
            continue
        assert seat.user is not None  # _wanted
        sent += _deliver(mail, seat, seat.user)
    return sent


def _still_due(seat: Seat, turn: int) -> bool:
    """Whether ``turn`` of ``seat`` is the turn its game awaits now."""
    game = seat.game
    return (
        game.status == GameStatus.IN_PROGRESS
        and store.match_of(game).phase is rules.MatchPhase.PLAYING
        and game.current_seat == seat.position
        and game.round == turn
        and not seat.resigned
    )


def _wanted(seat: Seat) -> bool:
    """Whether the seat's player may be mailed now: mail wanted, an address that works, and
    no page of theirs showing the game."""
    user = seat.user
    if user is None or not mailing.may_mail(user):
        return False
    return not live.page_open(game_id=seat.game_id, user_id=user.pk)


def hold_until(now: datetime, zone_name: str) -> datetime | None:
    """The next 08:00 in ``zone_name`` when ``now`` is night there (22:00-08:00), else
    ``None``: send now. No zone set (or one unknown here) is never night."""
    if not zone_name:
        return None
    try:
        zone = ZoneInfo(zone_name)
    except (ZoneInfoNotFoundError, ValueError):
        return None
    local = now.astimezone(zone)
    if MORNING <= local.time() < NIGHT_STARTS:
        return None
    day = local.date() + timedelta(days=1 if local.time() >= NIGHT_STARTS else 0)
    return datetime.combine(day, MORNING, tzinfo=zone)


# --- The mail --------------------------------------------------------------------------------


def game_label(game: Game) -> str:
    """How the mail names the game: its name when it has one, else its number."""
    name = str(getattr(game, "name", "") or "").strip()
    return f"game '{name}'" if name else f"game #{game.pk}"


def compose(mail: TurnMail, seat: Seat, user: User) -> mailing.LiteralSubjectMail:
    """The turn mail: a one-line subject that mail programs show as written, whatever a name in
    it holds (``mailing.LiteralSubjectMail``), a link to the game, and the one-click unsubscribe
    (RFC 8058: the ``List-Unsubscribe`` https address and ``List-Unsubscribe-Post``)."""
    site = settings.SITE_URL
    unsubscribe = site + mailing.unsubscribe_path(user)
    context = {
        "user": user,
        "news": mail.news,
        "game": game_label(seat.game),
        "link": site + reverse("games:play", kwargs={"game_id": seat.game_id}),
        "unsubscribe": unsubscribe,
        "options": site + reverse("accounts:options"),
    }
    return mailing.LiteralSubjectMail(
        subject=f"{mail.news} — your turn in {context['game']}",
        body=render_to_string("games/play/turn_mail.txt", context),
        to=[user.email],
        headers={
            "List-Unsubscribe": f"<{unsubscribe}>",
            "List-Unsubscribe-Post": "List-Unsubscribe=One-Click",
            "Auto-Submitted": "auto-generated",
        },
    )


def _deliver(mail: TurnMail, seat: Seat, user: User) -> int:
    """Send a claimed mail (state "sending"): 1 once sent. A failure is logged (which mail,
    never its address or link) and leaves it held, for the next ``send_turn_mail`` run."""
    try:
        compose(mail, seat, user).send()
    except Exception as exc:
        logger.warning("Turn mail %s not sent (%s); held for a retry.", mail.pk, type(exc).__name__)
        TurnMail.objects.filter(pk=mail.pk).update(state=TurnMailState.HELD)
        return 0
    TurnMail.objects.filter(pk=mail.pk).update(state=TurnMailState.SENT, sent_at=timezone.now())
    logger.info("Turn mail %s sent (game %s, turn %s).", mail.pk, mail.game_id, mail.turn)
    return 1
