"""Test settings: the real settings with a throwaway key, plain http and fast hashing."""

import os
import tempfile
from pathlib import Path

os.environ.setdefault("SECRET_KEY", "test-only-not-secret")
os.environ.setdefault("HTTPS", "0")
os.environ.setdefault("SERIAL_HMAC_KEY", "test-only-serial-key")
os.environ.setdefault("DAILY_DICE_KEY", "test-only-daily-dice-key")
os.environ.setdefault("EMAIL_CONSOLE_OK", "1")  # the tests replace the mailer with locmem

from yahtzee_site.settings import *  # noqa: F403
from yahtzee_site.settings import STORAGES

PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
# The site's dates in one zone, whatever TIME_ZONE the machine running the tests sets; a test
# about another zone says so itself (the ``settings`` fixture).
TIME_ZONE = "UTC"
STORAGES = {
    **STORAGES,
    "staticfiles": {"BACKEND": "django.contrib.staticfiles.storage.StaticFilesStorage"},
}
MAILERS = {"default": {"BACKEND": "django.core.mail.backends.locmem.EmailBackend"}}
# Tasks run at once, in the process that enqueues them (on commit: ``yahtzee_site.tasking``); the
# worker's own tests choose the database queue themselves.
TASKS = {"default": {"BACKEND": "django.tasks.backends.immediate.ImmediateBackend"}}
# Pages seen by the turn mail: in this process (the browser tests' server is a thread of it).
CACHES = {
    **CACHES,  # noqa: F405
    "presence": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache", "LOCATION": "seen"},
}

# Race tests run real concurrent connections: an in-memory shared-cache SQLite database answers
# "table is locked" instead of waiting, so the test database is a file (with WAL and timeouts).
if DATABASES["default"]["ENGINE"] == "django.db.backends.sqlite3":  # noqa: F405
    # One file per run, so two runs at once never share (or delete) each other's database.
    DATABASES["default"]["TEST"] = {  # noqa: F405
        "NAME": str(Path(tempfile.gettempdir()) / f"yahtzee-test-{os.getpid()}.sqlite3")
    }

# Tests never run collectstatic: WhiteNoise serves straight from the app and project folders.
WHITENOISE_USE_FINDERS = True
WHITENOISE_AUTOREFRESH = True
STATIC_ROOT = Path(tempfile.gettempdir()) / "yahtzee-test-static"
STATIC_ROOT.mkdir(exist_ok=True)

# Every game that finishes is graded against the perfect-play table (games.review.grading):
# tests that do not set their own (the strategy_ready fixture) share one, computed once per
# machine (about two seconds) and never into the repository's var/.
STRATEGY_DIR = Path(tempfile.gettempdir()) / "yahtzee-test-strategy"
