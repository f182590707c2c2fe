"""Production settings: refuse to start without a secret, and pass Django's deploy checks."""

from __future__ import annotations

import gzip
import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


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
            "DEBUG",
            "HTTPS",
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


def test_deploy_checks_are_clean_in_production_mode(tmp_path):
    key = tmp_path / "key"
    key.write_text("k" * 20 + "-Very-Secret-Key-For-Tests-Only-0123456789abcdefghij")

    result = manage(
        "check",
        "--deploy",
        "--fail-level",
        "WARNING",
        DEBUG="0",
        HTTPS="1",
        SECRET_KEY_FILE=str(key),
        SERIAL_HMAC_KEY="another-key-only-for-serials",
        EMAIL_HOST="smtp.example.com",
        ALLOWED_HOSTS="yahtzee.example.com",
    )

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
