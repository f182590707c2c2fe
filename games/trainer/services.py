"""The trainer's writes: taking a player's costly decisions from their finished games, drawing
the next position (made a row of theirs when first drawn), and answering one.

The draw's order: a position due again (answered before, its day come), then the player's own
mistakes not yet answered (costliest first), then the next of the instructive set. Nothing here
starts a game, uses a trial game or writes a score.
"""

from __future__ import annotations

import zoneinfo
from dataclasses import dataclass
from datetime import date, datetime, tzinfo

from django.db import transaction
from django.utils import timezone

from accounts.models import User
from games import advice, rules, strategy
from games.errors import GameError
from games.models import Seat
from games.review.selectors import NoRecord, game_record
from games.trainer import instructive, selectors, spacing
from games.trainer.models import Source, TrainerHarvest, TrainingPosition
from games.trainer.positions import Position, action_to_json, verify_action

COSTLY = 0.5
"""A decision of the player's own that cost at least this many expected points is trained."""

PER_GAME = 10
"""At most this many of one game's costly decisions (its costliest), so one bad game does not
crowd out every other."""


class PositionNotFound(GameError):
    """No such position, or another account's: the two look the same from outside."""


class NotDue(GameError):
    """A position answered already, not due again yet (a second click, an old tab)."""


def zone_of(user: User) -> tzinfo:
    """The account's time zone (Options), else the site's."""
    if user.time_zone:
        try:
            return zoneinfo.ZoneInfo(user.time_zone)
        except (zoneinfo.ZoneInfoNotFoundError, ValueError):
            pass
    return timezone.get_default_timezone()


# --- The player's own mistakes --------------------------------------------------------------


@dataclass(frozen=True)
class Mistake:
    key: str
    position: Position
    played: strategy.Action
    cost: float


def mistakes_in(seat: Seat) -> list[Mistake]:
    """The decisions of ``seat``'s finished game that cost ``COSTLY`` expected points or more,
    the costliest first (at most ``PER_GAME``); none for a game whose log cannot be graded, nor
    for a game not of Classic (the trainer's positions are Classic cards)."""
    if seat.game.rules_kind is not rules.CLASSIC:
        return []
    try:
        record = game_record(seat)
        found = strategy.analyse(advice.advisor(), record)
    except (NoRecord, strategy.RecordError):
        return []
    mistakes = []
    for number, decision in enumerate(found.decisions, start=1):
        if decision.loss < COSTLY:
            continue
        played = record.turns[decision.turn_number - 1]
        # The dice held through the roll just made, as the table showed them.
        held = played.holds[decision.roll_number - 2] if decision.roll_number > 1 else None
        sheet = decision.sheet
        position = Position(
            card=dict(sheet.cards[0]),
            dice=decision.dice,
            rolls_used=decision.roll_number,
            held=tuple(held) if held is not None else rules.NO_HOLD,
            yahtzee_bonuses=sheet.yahtzee_bonuses,
        )
        key = f"seat:{seat.pk}:{number}"
        mistakes.append(Mistake(key, position, decision.choice.action, decision.loss))
    mistakes.sort(key=lambda m: -m.cost)
    return mistakes[:PER_GAME]


@transaction.atomic
def harvest(*, user: User, now: datetime) -> int:
    """Take the costly decisions of the account's recent finished games not taken yet into its
    training (due at once); how many positions that made. Each game is analysed once: racing
    requests make each row once (the unique keys)."""
    made = 0
    for seat in selectors.seats_to_harvest(user):
        mistakes = mistakes_in(seat)
        rows = [
            TrainingPosition(
                user=user,
                key=m.key,
                source=Source.OWN,
                seat=seat,
                position=m.position.to_json(),
                played=action_to_json(m.played),
                cost=m.cost,
                due_at=now,
            )
            for m in mistakes
        ]
        TrainingPosition.objects.bulk_create(rows, ignore_conflicts=True)
        TrainerHarvest.objects.bulk_create(
            [TrainerHarvest(seat=seat, positions=len(rows))], ignore_conflicts=True
        )
        made += len(rows)
    return made


# --- The draw -------------------------------------------------------------------------------


def draw(*, user: User, now: datetime | None = None) -> TrainingPosition | None:
    """The position ``user`` should decide next (``None``: nothing left for now)."""
    now = now or timezone.now()
    found = selectors.due_again(user, now)
    if found is not None:
        return found
    harvest(user=user, now=now)
    found = selectors.unanswered(user)
    if found is not None:
        return found
    given = selectors.set_keys(user)
    for item in instructive.SET:
        key = f"set:{item.slug}"
        if key in given:
            continue
        TrainingPosition.objects.bulk_create(
            [
                TrainingPosition(
                    user=user,
                    key=key,
                    source=Source.SET,
                    theme=item.theme,
                    position=item.position.to_json(),
                    due_at=now,
                )
            ],
            ignore_conflicts=True,  # a second tab drew it first: the same row
        )
        return TrainingPosition.objects.get(user=user, key=key)
    return None


def is_due(row: TrainingPosition, now: datetime) -> bool:
    return row.learned_at is None and row.due_at <= now


# --- Answering ------------------------------------------------------------------------------


@dataclass(frozen=True)
class Answer:
    """An answer as graded: the decision beside the best, and what becomes of the position."""

    row: TrainingPosition
    decision: strategy.Decision
    next: spacing.Next
    today: date
    """The player's day the answer was given on."""


def grade(position: Position, action: strategy.Action) -> strategy.Decision:
    """``action`` on ``position`` beside the best choice, graded by the solved table (exact:
    Classic solitaire). The rules' ``IllegalMove`` (saying why) for an action not open there."""
    verify_action(position, action)
    return strategy.grade(advice.advisor(), position.sheet, position.turn, action)


@transaction.atomic
def answer(
    *, user: User, position_id: int, action: strategy.Action, now: datetime | None = None
) -> Answer:
    """Grade ``user``'s answer to their position ``position_id`` and schedule the position's
    return (``spacing``). Refused, changing nothing: ``PositionNotFound`` (not theirs, or none),
    ``NotDue`` (answered already, not due again yet), the rules' ``IllegalMove`` (a box filled,
    a roll after the third)."""
    now = now or timezone.now()
    # Locked (its own row only: the game it came from is read along, not locked), so two
    # answers at once are graded one after the other, the second refused as not due.
    locked = TrainingPosition.objects.select_for_update(of=("self",)).select_related("seat__game")
    row = locked.filter(user=user, pk=position_id).first()
    if row is None:
        raise PositionNotFound("There is no such position among yours.")
    zone = zone_of(user)
    today = timezone.localdate(now, zone)
    if not is_due(row, now):
        raise NotDue(not_due_text(row, today, zone))
    decision = grade(Position.from_json(row.position), action)
    best = decision.is_best
    following = spacing.after_answer(
        row.interval_days, best=best, today=today, missed_before=row.source == Source.OWN
    )
    row.interval_days = following.interval
    row.right += best
    row.wrong += not best
    row.last_answer = action_to_json(action)
    row.answered_at = now
    if following.due_on is None:
        row.learned_at = now
    else:
        row.due_at = spacing.start_of(following.due_on, zone)
    row.save()
    return Answer(row, decision, following, today)


def not_due_text(row: TrainingPosition, today: date, zone: tzinfo) -> str:
    """Why ``row`` cannot be answered now, as the player reads it."""
    if row.learned_at is not None:
        return "You have answered this position already: it is learned, and does not come back."
    due_on = timezone.localdate(row.due_at, zone)
    return (
        f"You have answered this position already: it comes back {spacing.in_words(due_on, today)}."
    )
