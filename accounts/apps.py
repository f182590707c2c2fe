from __future__ import annotations

import contextlib
from pathlib import Path
from typing import Any

from django.apps import AppConfig
from django.conf import settings
from django.db.backends.base.base import BaseDatabaseWrapper
from django.db.backends.signals import connection_created
from django.db.models.signals import post_delete, post_save

from accounts import credentials


def keep_sqlite_private(sender: Any, connection: BaseDatabaseWrapper, **kwargs: Any) -> None:
    """The SQLite files hold password hashes: readable and writable by their owner only.

    SQLite creates them with the process's umask (0644 under the usual 022); each new connection
    tightens the database and its WAL files, so an existing install is mended too.
    """
    if connection.vendor != "sqlite":
        return
    # Only the SQLite wrapper has is_in_memory_db, hence the vendor test first.
    if connection.is_in_memory_db():  # type: ignore[attr-defined]
        return
    name = str(connection.settings_dict["NAME"])
    for suffix in ("", "-wal", "-shm"):
        path = Path(name + suffix)
        with contextlib.suppress(FileNotFoundError):
            if path.stat().st_mode & 0o077:
                path.chmod(0o600)


class AccountsConfig(AppConfig):
    name = "accounts"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        connection_created.connect(keep_sqlite_private, dispatch_uid="keep_sqlite_private")
        # The update check's view of each account's credentials (games.live), kept current.
        user = settings.AUTH_USER_MODEL
        post_save.connect(credentials.published_on_save, sender=user, dispatch_uid="credentials")
        post_delete.connect(
            credentials.forgotten_on_delete, sender=user, dispatch_uid="credentials"
        )
