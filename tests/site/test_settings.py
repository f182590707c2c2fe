"""Production settings: refuse to start without a secret or a mail server, pass the deploy checks.

The deploy check is run exactly as docs/configuration.md writes it, so the two cannot drift apart.
"""

from __future__ import annotations

import gzip
import os
import re
import shlex
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def manage(*args: str, **env: str) -> subprocess.CompletedProcess[str]:
    clean = {
        k: v
        for k, v in os.environ.items()
        if k
        not in {
            "SECRET_KEY",
            "SECRET_KEY_FILE",
            "SERIAL_HMAC_KEY",
            "SERIAL_HMAC_KEY_FILE",
            "DAILY_DICE_KEY",
            "DAILY_DICE_KEY_FILE",
            "DEBUG",
            "HTTPS",
            "EMAIL_HOST",
            "EMAIL_CONSOLE_OK",
            "ALLOWED_HOSTS",
            "ADMIN_PATH",
            "DATABASE_URL",
            "SQLITE_PATH",
            "VAR_DIR",
            "NODES",
        }
    }
    clean["DJANGO_SETTINGS_MODULE"] = "yahtzee_site.settings"
    return subprocess.run(
        [sys.executable, "manage.py", *args],
        cwd=ROOT,
        env=clean | env,
        capture_output=True,
        text=True,
        timeout=60,
    )


def test_production_refuses_to_start_without_a_secret_key():
    result = manage("check", DEBUG="0")

    assert result.returncode != 0
    assert "SECRET_KEY (or SECRET_KEY_FILE) must be set when DEBUG is off" in result.stderr


def test_production_refuses_to_start_without_a_serial_key():
    result = manage("check", DEBUG="0", SECRET_KEY="x" * 50)

    assert result.returncode != 0
    assert "SERIAL_HMAC_KEY (or SERIAL_HMAC_KEY_FILE) must be set" in result.stderr


def test_production_refuses_to_start_without_a_daily_dice_key():
    result = manage("check", DEBUG="0", SECRET_KEY="x" * 50, SERIAL_HMAC_KEY="y" * 50)

    assert result.returncode != 0
    assert "DAILY_DICE_KEY (or DAILY_DICE_KEY_FILE) must be set" in result.stderr


def test_production_refuses_to_start_without_a_mail_server():
    result = manage(
        "check", DEBUG="0", SECRET_KEY="x" * 50, SERIAL_HMAC_KEY="y" * 50, DAILY_DICE_KEY="z" * 50
    )

    assert result.returncode != 0
    assert "EMAIL_HOST must be set when DEBUG is off" in result.stderr
    assert "EMAIL_CONSOLE_OK=1" in result.stderr


def readme_deploy_check() -> tuple[dict[str, str], list[str]]:
    """The production check the docs promise to be clean: its variables and its arguments."""
    readme = (ROOT / "docs" / "configuration.md").read_text()
    (command,) = re.findall(r"`(DEBUG=0 HTTPS=1 [^`]*manage\.py check --deploy[^`]*)`", readme)
    words = shlex.split(command)
    env = dict(word.split("=", 1) for word in words if "=" in word and not word.startswith("-"))
    args = words[words.index("manage.py") + 1 :]
    return env, args


def test_the_documented_deploy_check_is_clean(tmp_path):
    env, args = readme_deploy_check()
    for name in env:
        if name.endswith("_FILE"):  # the keys `make run` generates into var/, made up here
            key = tmp_path / name.lower()
            key.write_text(f"{name}-test-only-" + "k7Q" * 20)
            env[name] = str(key)

    result = manage(*args, **env)

    assert "EMAIL_HOST" in env and "EMAIL_CONSOLE_OK" not in env
    assert result.returncode == 0, result.stderr + result.stdout
    assert "no issues" in result.stdout


def test_the_console_mailer_passes_the_deploy_check_only_when_explicitly_allowed(tmp_path):
    env, args = readme_deploy_check()
    kept_out = ("EMAIL_", "SECRET_KEY", "SERIAL", "DAILY")
    env = {k: v for k, v in env.items() if not k.startswith(kept_out)}
    keys = {
        "SECRET_KEY": "s3Kr-" + "q7Zx9" * 12,
        "SERIAL_HMAC_KEY": "h" * 60,
        "DAILY_DICE_KEY": "d" * 60,
    }

    result = manage(*args, **env, **keys, EMAIL_CONSOLE_OK="1")

    assert result.returncode == 0, result.stderr + result.stdout
    assert "no issues" in result.stdout


def test_pages_go_out_compressed_to_a_browser_that_accepts_gzip(client, db) -> None:
    response = client.get("/help/", headers={"Accept-Encoding": "gzip"})

    assert response["Content-Encoding"] == "gzip"
    assert "Accept-Encoding" in response["Vary"]
    assert gzip.decompress(response.content).startswith(b"<!doctype html>")


def test_database_connections_persist_on_sqlite_and_on_a_database_url():
    code = (
        "from django.conf import settings; d = settings.DATABASES['default'];"
        "print(d['ENGINE'].rsplit('.', 1)[-1], d['CONN_MAX_AGE'])"
    )
    env = {"DEBUG": "1", "SQLITE_PATH": "/tmp/yahtzee-settings-probe.sqlite3"}

    default = manage("shell", "--no-imports", "-c", code, **env)
    postgres = manage(
        "shell", "--no-imports", "-c", code, DATABASE_URL="postgres://u@127.0.0.1/x", **env
    )

    assert default.stdout.split() == ["sqlite3", "600"], default.stderr
    assert postgres.stdout.split() == ["postgresql", "600"], postgres.stderr


def test_several_nodes_refuse_sqlite(tmp_path):
    """Two nodes on SQLite would each keep a database file of their own."""
    result = manage("check", DEBUG="1", NODES="2", SQLITE_PATH=str(tmp_path / "db.sqlite3"))

    assert result.returncode != 0
    assert "NODES=2 but the database is SQLite" in result.stderr


def test_several_nodes_refuse_sqlite_named_by_url(tmp_path):
    result = manage("check", DEBUG="1", NODES="3", DATABASE_URL=f"sqlite:///{tmp_path}/db.sqlite3")

    assert result.returncode != 0
    assert "NODES=3 but the database is SQLite" in result.stderr


def test_one_node_runs_on_sqlite(tmp_path):
    result = manage("check", DEBUG="1", NODES="1", SQLITE_PATH=str(tmp_path / "db.sqlite3"))

    assert result.returncode == 0, result.stderr


def test_several_nodes_run_on_postgresql():
    # Only the settings are checked (no connection is made by `check` without --database).
    result = manage("check", DEBUG="1", NODES="2", DATABASE_URL="postgres://nobody@127.0.0.1:1/x")

    assert result.returncode == 0, result.stderr
