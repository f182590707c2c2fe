"""Each account's credential stamp in the shared cache: what a session must carry to be let in.

The stamp is Django's session auth hash of the account (an HMAC of its password hash, as every
session of it stores), or "" for an account that may not log in. The game's update check
(``games.live``) reads it together with the game's version, so a session Django's own
authentication would refuse (the password changed in another session, the account made
inactive or deleted) gets no ``304`` at no extra round trip.

A stamp is published once the save that changed the credentials commits, never before, so it is
never older than the database while that transaction is open. A change that goes around
``save()`` (a queryset update, a restored backup) is seen once the stamp expires (``TTL``).
"""

from __future__ import annotations

from functools import cache
from typing import TYPE_CHECKING, Any

from django.conf import settings
from django.core.cache import cache as shared_cache
from django.db import transaction
from django.utils.crypto import salted_hmac

if TYPE_CHECKING:  # a model class: not importable before the apps are loaded (apps.py imports us)
    from django.contrib.auth.base_user import AbstractBaseUser

TTL = 600
"""Seconds a stamp is kept: then read from the database again (one query, by primary key)."""

CREDENTIAL_FIELDS = frozenset({"password", "is_active"})
"""The fields Django's authentication of a session depends on (``get_user``, ``ModelBackend``)."""


def key(user_id: int | str) -> str:
    """The stamp's cache key, marked with the secret key: a rotated key's sessions, hashed with
    another secret, never meet a stamp computed with the old one."""
    return f"credentials:{_secret_mark(settings.SECRET_KEY)}:{user_id}"


@cache
def _secret_mark(secret: str) -> str:
    mark = salted_hmac("accounts.credentials.key", "", secret=secret, algorithm="sha256")
    return mark.hexdigest()[:8]


def stamp(user: AbstractBaseUser) -> str:
    """What a session of ``user`` carries when Django would let it in: its auth hash, or "" for
    an inactive account (which ``ModelBackend`` refuses whatever its session carries)."""
    return user.get_session_auth_hash() if user.is_active else ""


def published_on_save(
    sender: type[AbstractBaseUser],
    instance: AbstractBaseUser,
    update_fields: frozenset[str] | None = None,
    **kwargs: Any,
) -> None:
    """``post_save`` of the user model: publish the stamp once the save commits.

    A save of other fields alone (``last_login`` at each login, the options) publishes nothing:
    the copy saving them may be older than the credentials in the database.
    """
    if update_fields is not None and not CREDENTIAL_FIELDS & set(update_fields):
        return
    stamp_key, value = key(instance.pk), stamp(instance)
    transaction.on_commit(lambda: shared_cache.set(stamp_key, value, timeout=TTL))


def forgotten_on_delete(
    sender: type[AbstractBaseUser], instance: AbstractBaseUser, **kwargs: Any
) -> None:
    """``post_delete`` of the user model: no session of a deleted account is let in.

    Stamped "" rather than forgotten: a check that read the account just before it went cannot
    then put its stamp back (it only ever adds a missing one).
    """
    stamp_key = key(instance.pk)
    transaction.on_commit(lambda: shared_cache.set(stamp_key, "", timeout=TTL))
