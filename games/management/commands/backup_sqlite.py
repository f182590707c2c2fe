"""`manage.py backup_sqlite PATH`: an online copy of the SQLite database, safe while the site
serves. SQLite's backup API copies the database as one read transaction sees it, so the file at
``PATH`` is one consistent state, never a half-written one as a plain ``cp`` of a live WAL
database (its ``-wal`` file apart) can be."""

from __future__ import annotations

import os
import re
import sqlite3
from pathlib import Path
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser
from django.db import connection

ALL_PAGES = -1
"""Copied in one step, inside one read transaction. In WAL mode a reader never blocks the
site's writers, and a one-step copy is never restarted by their writes (a copy in small steps
restarts after every write from another connection, and might never finish on a busy site)."""


def _regexp(pattern: str, value: object) -> bool:
    return value is not None and re.search(pattern, str(value)) is not None


class Command(BaseCommand):
    help = "Copy the live SQLite database to PATH (0600), checked with PRAGMA integrity_check."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("path", help="the backup file to write (replaced when it exists)")

    def handle(self, *args: Any, **opts: Any) -> None:
        if connection.vendor != "sqlite":
            raise CommandError(
                f"The database is {connection.vendor}, not SQLite: back it up with its own "
                "tools (docs/deployment.md: pg_dump)."
            )
        source_path = str(connection.settings_dict["NAME"])
        target = Path(opts["path"]).resolve()
        if target == Path(source_path).resolve():
            raise CommandError("The backup cannot overwrite the database it copies.")
        partial = target.with_name(target.name + ".partial")
        partial.unlink(missing_ok=True)
        # The copy holds password hashes: readable by its owner only, from its first byte.
        os.close(os.open(partial, os.O_CREAT | os.O_WRONLY, 0o600))
        source = sqlite3.connect(source_path, timeout=20)
        copy = sqlite3.connect(partial)
        # The check evaluates CHECK constraints, some of which use the REGEXP Django provides.
        copy.create_function("REGEXP", 2, _regexp, deterministic=True)
        try:
            source.backup(copy, pages=ALL_PAGES)
            # The copy stands alone: a rollback journal, no -wal file to carry along.
            copy.execute("PRAGMA journal_mode=DELETE")
            (verdict,) = copy.execute("PRAGMA integrity_check").fetchone()
        finally:
            copy.close()
            source.close()
        if verdict != "ok":
            raise CommandError(f"The copy failed its integrity check: {verdict}")
        partial.replace(target)
        self.stdout.write(f"Backed up {source_path} to {target} (integrity_check: ok).")
