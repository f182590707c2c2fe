"""Helpers for the quick-play tests: accounts at a given rating, a clock to wait on."""

from __future__ import annotations

import datetime
from typing import Any

from django.utils import timezone

from accounts.models import User
from games.ratings.models import Rating
from games.ratings.scale import START_MU, START_SIGMA
from tests.factories import make_user

T0 = timezone.now().replace(microsecond=0)


def at(seconds: float) -> datetime.datetime:
    """``seconds`` after the tests' start of waiting."""
    return T0 + datetime.timedelta(seconds=seconds)


def rated(name: str, rating: int | None, kind: str = "classic", **fields: Any) -> User:
    """An account rated ``rating`` at ``kind`` (no rating at all with ``None``)."""
    user = make_user(name, **fields)
    if rating is not None:
        Rating.objects.create(
            user=user,
            kind=kind,
            mu=START_MU,
            sigma=START_SIGMA,
            rating=rating,
            updated_at=timezone.now(),
        )
    return user
