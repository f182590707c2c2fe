"""The daily challenge's writes: starting the day's attempt (one per account and day, held by
the database), and the day's perfect play computed once and kept."""

from __future__ import annotations

from datetime import date, datetime
from functools import lru_cache

from django.db import IntegrityError, transaction
from django.utils import timezone

from accounts.models import User
from games import advice
from games.daily import perfect
from games.daily.clock import today as today
from games.daily.dice import site_key
from games.daily.models import DailyAttempt, DailyChallenge
from games.errors import GameError
from games.models import Game
from games.tables import services as tables


class AlreadyPlayed(GameError):
    """The account has its attempt at the day's challenge already (abandoned ones count)."""


def _played_today(when: datetime | None) -> AlreadyPlayed:
    started = f" (you started it at {timezone.localtime(when):%H:%M})" if when else ""
    return AlreadyPlayed(
        f"You have played today's challenge already{started}: one attempt a day, and an "
        "abandoned attempt counts. Come back tomorrow."
    )


@transaction.atomic
def start_challenge(*, user: User, now: datetime | None = None) -> Game:
    """Start ``user``'s attempt at the day's challenge: a Classic game alone on the day's dice,
    using a trial game like any other game (``licensing``'s refusals as for any game), ranked
    on the day's board if the account is older than the day (``ranked_on``).

    ``AlreadyPlayed`` when the account has an attempt of the day, changing nothing: the unique
    constraint on (account, day) holds against a second tab or racing requests too (the loser's
    whole transaction, trial game and game included, is rolled back)."""
    day = today(now)
    earlier = DailyAttempt.objects.filter(user=user, day=day).values_list("started_at").first()
    if earlier is not None:
        raise _played_today(earlier[0])
    game = tables.start_game(owner=user, challenge_day=day)
    try:
        with transaction.atomic():
            DailyAttempt.objects.create(
                day=day, user=user, game=game, display_name=str(user), ranked=ranked_on(user, day)
            )
    except IntegrityError as race:
        raise _played_today(None) from race
    return game


def ranked_on(user: User, day: date) -> bool:
    """Whether ``user``'s attempt at ``day``'s challenge is ranked on its board: an account made
    before the day began (the site's midnight) is; one made on the day plays it, unranked, so
    fresh accounts that read the day's dice for another buy no place."""
    return today(user.date_joined) < day


KEPT_DAYS = 8
"""Days of perfect play kept in each process (a few tens of kilobytes each): today's and the
last few days', which nearly every board asks for; an older day is read again from its row."""


def challenge(day: date) -> DailyChallenge:
    """``day``'s challenge with the perfect bot's game on its dice, computed on first need
    (a few milliseconds) and kept in the database (racing requests keep one row) and, for the
    last few days asked, in this process (``KEPT_DAYS``). Only for a day somebody played
    (``selectors.played``): the pages ask for no other."""
    return _kept(site_key(), day)


@lru_cache(maxsize=KEPT_DAYS)
def _kept(key: bytes, day: date) -> DailyChallenge:
    found = DailyChallenge.objects.filter(day=day).first()
    if found is None:
        played = perfect.play_day(key, day, advice.advisor())
        DailyChallenge.objects.bulk_create(
            [DailyChallenge(day=day, perfect_total=played.total, perfect_turns=played.turns)],
            ignore_conflicts=True,
        )
        found = DailyChallenge.objects.get(day=day)
    return found
