"""Mail links where the site is: ``make run`` tells the site where it serves (``SITE_URL``),
and production without ``SITE_URL`` says its mail links are guessed (``yahtzee_site.W001``), in
``manage.py check --deploy`` and in a served process's log at start."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
from pathlib import Path

import pytest

from tests.site.test_settings import ROOT, manage, readme_deploy_check

SITE = "https://yahtzee.example.com"
PRODUCTION = {
    "DEBUG": "0",
    "HTTPS": "1",
    "SECRET_KEY": "s3Kr-" + "q7Zx9" * 12,
    "SERIAL_HMAC_KEY": "h" * 60,
    "DAILY_DICE_KEY": "d" * 60,
    "EMAIL_CONSOLE_OK": "1",
    "ALLOWED_HOSTS": "yahtzee.example.com",
}


def make_run(*args: str, **env: str) -> tuple[str, str]:
    """What ``make run`` would run (``make -n``): the SITE_URL it gives the server, and the
    address it binds."""
    environment = {k: v for k, v in os.environ.items() if k != "SITE_URL"} | env
    printed = subprocess.run(
        ["make", "-n", "run", *args], cwd=ROOT, env=environment,
        capture_output=True, text=True, check=True, timeout=60,
    ).stdout.replace("\\\n", " ")  # fmt: skip
    commands = [part for line in printed.splitlines() for part in line.split(";")]
    (server,) = [command for command in commands if "bin/gunicorn " in command]
    (worker,) = [command for command in commands if "manage.py run_tasks" in command]
    (site,) = re.findall(r"SITE_URL='([^']*)'", server)
    # The task worker sends the turn mail: it links to the same address.
    assert re.findall(r"SITE_URL='([^']*)'", worker) == [site]
    (bind,) = re.findall(r"--bind (\S+)", server)
    return site, bind


@pytest.mark.skipif(shutil.which("make") is None, reason="make is needed")
def test_make_run_links_mail_to_where_it_serves() -> None:
    site, bind = make_run("HOST=127.0.0.1", "PORT=8123")

    assert site == f"http://{bind}" == "http://127.0.0.1:8123"


@pytest.mark.skipif(shutil.which("make") is None, reason="make is needed")
def test_make_run_links_mail_to_localhost_when_it_listens_everywhere() -> None:
    assert make_run("HOST=0.0.0.0", "PORT=8123") == ("http://localhost:8123", "0.0.0.0:8123")


@pytest.mark.skipif(shutil.which("make") is None, reason="make is needed")
def test_make_run_keeps_a_site_url_of_the_users() -> None:
    site, _ = make_run("PORT=8123", SITE_URL=SITE)

    assert site == SITE


def test_the_deploy_check_warns_when_mail_links_are_guessed() -> None:
    result = manage("check", "--deploy", "--fail-level", "WARNING", **PRODUCTION)

    assert result.returncode != 0
    assert "(yahtzee_site.W001) SITE_URL is not set" in result.stderr + result.stdout


def test_the_readmes_deploy_check_is_clean_with_a_site_url(tmp_path: Path) -> None:
    env, args = readme_deploy_check()
    for name in env:
        if name.endswith("_FILE"):
            (tmp_path / name).write_text(f"{name}-test-only-" + "k7Q" * 20)
            env[name] = str(tmp_path / name)

    result = manage(*args, **(env | {"SITE_URL": SITE}))

    assert result.returncode == 0, result.stderr + result.stdout
    assert "no issues" in result.stdout


def test_development_needs_no_site_url(tmp_path: Path) -> None:
    result = manage("check", "--deploy", DEBUG="1", SQLITE_PATH=str(tmp_path / "db.sqlite3"))

    assert "yahtzee_site.W001" not in result.stderr + result.stdout


@pytest.mark.parametrize("entry", ["yahtzee_site.wsgi", "yahtzee_site.asgi"])
def test_a_served_process_says_at_start_that_mail_links_are_guessed(
    entry: str, tmp_path: Path
) -> None:
    load = ["shell", "--no-imports", "-c", f"import {entry}"]
    env = PRODUCTION | {"SQLITE_PATH": str(tmp_path / "db.sqlite3")}

    guessed = manage(*load, **env)
    given = manage(*load, **env, SITE_URL=SITE)

    assert guessed.returncode == 0 and given.returncode == 0, guessed.stderr + given.stderr
    assert "SITE_URL is not set: mail links to https://yahtzee.example.com" in guessed.stderr
    assert "yahtzee_site.W001" in guessed.stderr
    assert "SITE_URL" not in given.stderr
