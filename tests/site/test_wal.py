"""SQLite's log is copied back into the database between requests, not by the commit of one
(``yahtzee_site.wal``): each connection checkpoints by itself only past
``SQLITE_AUTOCHECKPOINT_PAGES``, and a served process checkpoints after its answers."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from django.conf import settings
from django.db.backends.base.base import BaseDatabaseWrapper
from django.db.utils import ConnectionHandler

from tests.served import ENTRY_POINTS, run_served
from yahtzee_site import wal

PAGE = 4096
ROW = b"x" * 3000  # about a page a row


@pytest.fixture
def database(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, django_db_blocker: Any
) -> Iterator[BaseDatabaseWrapper]:
    """A database file of its own (not the tests' database) opened as the site opens its own,
    with the settings' PRAGMAs: the only connection ``wal`` sees, no checkpoint taken yet."""
    handler = ConnectionHandler(
        {
            "default": {
                "ENGINE": "django.db.backends.sqlite3",
                "NAME": str(tmp_path / "db.sqlite3"),
                "OPTIONS": settings.SQLITE_OPTIONS,
            }
        }
    )
    monkeypatch.setattr(wal, "connections", handler)
    monkeypatch.setattr(wal, "_last_checkpoint", -wal.CHECKPOINT_SECONDS)
    connection = handler["default"]
    with django_db_blocker.unblock():
        with connection.cursor() as cursor:
            cursor.execute("CREATE TABLE rows (data BLOB)")
        yield connection
        handler.close_all()


def _write(connection: BaseDatabaseWrapper, rows: int) -> None:
    """``rows`` commits of a row each, as as many moves would make."""
    with connection.cursor() as cursor:
        for _ in range(rows):
            cursor.execute("INSERT INTO rows (data) VALUES (%s)", [ROW])


def _file_pages(connection: BaseDatabaseWrapper) -> int:
    return Path(str(connection.settings_dict["NAME"])).stat().st_size // PAGE


def test_commits_leave_their_pages_in_the_log_past_sqlites_own_limit(
    database: BaseDatabaseWrapper,
) -> None:
    _write(database, 1_500)  # SQLite's default would have checkpointed at 1,000 pages

    assert _file_pages(database) < 10


def test_after_an_answer_the_log_is_copied_into_the_database(
    database: BaseDatabaseWrapper,
) -> None:
    _write(database, 300)

    assert wal.checkpoint_between_requests() is True

    assert _file_pages(database) >= 300


def test_at_most_one_checkpoint_a_second(database: BaseDatabaseWrapper) -> None:
    _write(database, 10)
    assert wal.checkpoint_between_requests() is True
    _write(database, 300)

    assert wal.checkpoint_between_requests() is False

    assert _file_pages(database) < 300


def test_a_closed_connection_is_not_opened_again_for_it(database: BaseDatabaseWrapper) -> None:
    database.close()

    assert wal.checkpoint_between_requests() is False
    assert database.connection is None


@pytest.mark.parametrize("entry", ENTRY_POINTS)
def test_served_processes_checkpoint_after_their_answers(entry: str, tmp_path: Path) -> None:
    printed = run_served(
        entry,
        "from django.core.signals import request_finished; "
        "print(request_finished.disconnect(dispatch_uid='wal.checkpoint'))",
        tmp_path,
    )

    assert printed.split() == ["True"]  # the receiver was connected
