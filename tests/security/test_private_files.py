"""The database holds password hashes: its folder is 0700 and its files 0600, new or old."""

from __future__ import annotations

import stat
from pathlib import Path

from tests.site.test_settings import manage
from yahtzee_site.settings import private_dir


def mode(path: Path) -> int:
    return stat.S_IMODE(path.stat().st_mode)


def migrate_at(database: Path) -> None:
    folder = str(database.parent)
    result = manage("migrate", "-v0", DEBUG="1", SQLITE_PATH=str(database), VAR_DIR=folder)
    assert result.returncode == 0, result.stderr


def test_a_fresh_install_creates_its_folder_0700_and_its_database_0600(tmp_path: Path) -> None:
    database = tmp_path / "var" / "db.sqlite3"

    migrate_at(database)

    assert mode(database.parent) == 0o700
    assert mode(database) == 0o600
    for wal in database.parent.glob("db.sqlite3-*"):
        assert mode(wal) == 0o600, wal


def test_a_database_left_world_readable_is_closed_on_the_next_connection(tmp_path: Path) -> None:
    database = tmp_path / "db.sqlite3"
    migrate_at(database)
    database.chmod(0o644)

    migrate_at(database)

    assert mode(database) == 0o600


def test_the_sites_own_folder_is_tightened_but_a_shared_one_is_left_alone(tmp_path: Path) -> None:
    own, shared = tmp_path / "own", tmp_path / "shared"
    for folder in (own, shared):
        folder.mkdir(mode=0o755)
        folder.chmod(0o755)

    private_dir(own, ours=True)
    private_dir(shared, ours=False)

    assert mode(own) == 0o700
    assert mode(shared) == 0o755
