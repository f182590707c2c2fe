"""Settings for the Yahtzee site, read from the environment with safe development defaults.

Production (``DEBUG`` off) refuses to start without a secret key. ``docs/configuration.md``
lists every variable read here.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import dj_database_url
import django_stubs_ext
from django.core.exceptions import ImproperlyConfigured
from django.utils.csp import CSP

# Lets the admin and forms be written ModelAdmin[Serial], ModelForm[User] for the type checker.
django_stubs_ext.monkeypatch()

BASE_DIR = Path(__file__).resolve().parent.parent
VAR_DIR = Path(os.environ.get("VAR_DIR", BASE_DIR / "var"))
# The solved strategy table (games/strategy), built by `manage.py build_strategy`.
STRATEGY_DIR = Path(os.environ.get("STRATEGY_DIR", VAR_DIR / "strategy"))


def private_dir(path: Path, *, ours: bool) -> None:
    """Make ``path`` (it holds the database and the keys) readable by its owner only.

    A directory the site creates is made 0700; an existing one is tightened only when it is the
    site's own (``ours``), never a shared directory some VAR_DIR or SQLITE_PATH points into.
    """
    if not path.exists():
        path.mkdir(mode=0o700, parents=True, exist_ok=True)
        ours = True
    if ours:
        path.chmod(0o700)


def env_bool(name: str, default: bool) -> bool:
    value = os.environ.get(name)
    if value is None or value.strip() == "":
        return default
    if value.strip().lower() in {"1", "true", "yes", "on"}:
        return True
    if value.strip().lower() in {"0", "false", "no", "off"}:
        return False
    raise ImproperlyConfigured(f"{name} must be true or false, not {value!r}")


def env_list(name: str, default: list[str]) -> list[str]:
    value = os.environ.get(name)
    if value is None:
        return default
    return [item.strip() for item in value.split(",") if item.strip()]


def read_secret(name: str) -> str:
    """A secret from ``NAME`` or the file named by ``NAME_FILE``; only DEBUG may lack it."""
    if value := os.environ.get(name, "").strip():
        return value
    if path := os.environ.get(f"{name}_FILE", "").strip():
        try:
            return Path(path).read_text().strip()
        except OSError as exc:
            raise ImproperlyConfigured(f"{name}_FILE {path!r} cannot be read: {exc}") from exc
    if DEBUG:
        # Development only: a value that is useless anywhere else, never used with DEBUG off.
        return f"insecure-development-{name.lower()}-only-for-debug"
    raise ImproperlyConfigured(
        f"{name} (or {name}_FILE) must be set when DEBUG is off. "
        f"`make run` generates one into var/{name.lower()}."
    )


DEBUG = env_bool("DEBUG", False)
SECRET_KEY = read_secret("SECRET_KEY")
# Serials are stored as HMACs under their own key, so rotating SECRET_KEY orphans none of them.
SERIAL_HMAC_KEY = read_secret("SERIAL_HMAC_KEY")
# The daily challenge's dice are drawn under their own key (games/daily/dice.py): whoever holds
# it knows every day's dice, so it is kept like the others and never rotated (past days change).
DAILY_DICE_KEY = read_secret("DAILY_DICE_KEY")
ALLOWED_HOSTS = env_list("ALLOWED_HOSTS", ["localhost", "127.0.0.1", "[::1]"])
CSRF_TRUSTED_ORIGINS = env_list("CSRF_TRUSTED_ORIGINS", [])

# HTTPS: on in production unless explicitly off (as `make run` does for plain http on localhost).
HTTPS = env_bool("HTTPS", not DEBUG)
SECURE_SSL_REDIRECT = HTTPS
SESSION_COOKIE_SECURE = HTTPS
CSRF_COOKIE_SECURE = HTTPS
SECURE_HSTS_SECONDS = int(os.environ.get("SECURE_HSTS_SECONDS", 31536000 if HTTPS else 0))
SECURE_HSTS_INCLUDE_SUBDOMAINS = HTTPS
SECURE_HSTS_PRELOAD = HTTPS
if env_bool("TRUST_X_FORWARDED_PROTO", False):
    SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
SECURE_REFERRER_POLICY = "same-origin"
SECURE_CROSS_ORIGIN_OPENER_POLICY = "same-origin"
X_FRAME_OPTIONS = "DENY"
SESSION_COOKIE_HTTPONLY = True
CSRF_COOKIE_HTTPONLY = False  # htmx reads the token from the page, not the cookie

SECURE_CSP = {
    "default-src": [CSP.SELF],
    "script-src": [CSP.SELF, CSP.NONCE],
    "style-src": [CSP.SELF],
    "img-src": [CSP.SELF, "data:"],
    "font-src": [CSP.SELF],
    "connect-src": [CSP.SELF],
    "form-action": [CSP.SELF],
    "frame-ancestors": [CSP.NONE],
    "base-uri": [CSP.NONE],
    "object-src": [CSP.NONE],
}

INSTALLED_APPS = [
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "whitenoise.runserver_nostatic",
    "django.contrib.staticfiles",
    "django_htmx",
    "axes",
    # The task queue in the database (django.tasks' backend below): manage.py run_tasks.
    "django_tasks_db",
    "accounts",
    "games",
    "yahtzee_site",  # the site's own system checks (yahtzee_site.checks)
]

MIDDLEWARE = [
    # Logs once when TRUSTED_PROXY_COUNT contradicts the headers requests arrive with.
    "accounts.middleware.ProxyHeadersCheck",
    "django.middleware.security.SecurityMiddleware",
    # HTML goes out compressed (static files come precompressed from WhiteNoise). Compression
    # next to secrets invites BREACH; here the only secret in a page is the CSRF token, which
    # Django masks afresh in every response, and GZipMiddleware pads each response with random
    # bytes ("Heal the BREACH"), so repeated requests reveal nothing by their length.
    "yahtzee_site.compression.GZipMiddleware",
    "django.middleware.csp.ContentSecurityPolicyMiddleware",
    "whitenoise.middleware.WhiteNoiseMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    # A redirect to the log-in page, whoever made it, kept under 2 KB (a long next= left out).
    "yahtzee_site.login_redirect.ShortLoginRedirect",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "django_htmx.middleware.HtmxMiddleware",
    # Last, as django-axes asks: it turns a locked-out login into its 429 page.
    "axes.middleware.AxesMiddleware",
]

ROOT_URLCONF = "yahtzee_site.urls"
WSGI_APPLICATION = "yahtzee_site.wsgi.application"
# The game's streams of changes (games/play/stream.py) are served by an ASGI server: `make run`
# and deploy/ run this one with gunicorn's uvicorn worker.
ASGI_APPLICATION = "yahtzee_site.asgi.application"

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [BASE_DIR / "templates"],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.request",
                "django.template.context_processors.csp",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
                "accounts.context_processors.options",
            ],
        },
    },
    # The game screen and the dashboard (their htmx answers, and their pages' bodies inside the
    # layout, {% jinja_page %}): Jinja2 draws their loops (the card's rows, the dice, the
    # players' cards, the dashboard's lines) faster.
    {
        "BACKEND": "django.template.backends.jinja2.Jinja2",
        "DIRS": [BASE_DIR / "templates" / "jinja2"],
        "APP_DIRS": False,
        "OPTIONS": {
            "environment": "games.templatetags.jinja.environment",
            "autoescape": True,
            # Lines of a fragment's source may be laid out for reading: a block tag's own line
            # draws nothing, and "-" marks join the lines drawn without spaces.
            "trim_blocks": True,
            "lstrip_blocks": True,
        },
    },
]

# --- Database: SQLite by default (WAL, IMMEDIATE writes, busy timeout); DATABASE_URL wins. ---
SQLITE_PATH = Path(os.environ.get("SQLITE_PATH", VAR_DIR / "db.sqlite3"))
# A commit copies the log back into the database only past this many pages (SQLite's default:
# 1,000): a served process does it between requests instead (yahtzee_site.wal).
SQLITE_AUTOCHECKPOINT_PAGES = 10_000
SQLITE_OPTIONS = {
    "transaction_mode": "IMMEDIATE",
    "timeout": 20,
    "init_command": (
        "PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL; PRAGMA foreign_keys=ON; "
        f"PRAGMA wal_autocheckpoint={SQLITE_AUTOCHECKPOINT_PAGES};"
    ),
}
# Connections persist across requests (a SQLite open with its PRAGMAs costs as much as a query).
DB_CONN_MAX_AGE = 600
if database_url := os.environ.get("DATABASE_URL", "").strip():
    DATABASES = {
        "default": dj_database_url.parse(
            database_url, conn_max_age=DB_CONN_MAX_AGE, conn_health_checks=True
        )
    }
    if DATABASES["default"]["ENGINE"] == "django.db.backends.sqlite3":
        DATABASES["default"]["OPTIONS"] = SQLITE_OPTIONS
else:
    private_dir(SQLITE_PATH.parent, ours=SQLITE_PATH.parent == BASE_DIR / "var")
    DATABASES = {
        "default": {
            "ENGINE": "django.db.backends.sqlite3",
            "NAME": str(SQLITE_PATH),
            "OPTIONS": SQLITE_OPTIONS,
            "CONN_MAX_AGE": DB_CONN_MAX_AGE,
        }
    }
DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"
# How many machines (gunicorn nodes behind one proxy) serve this site. SQLite is a file on one
# machine: a second node would write another file, and players would see their games vanish
# as the proxy alternates. So several nodes need a database server (DATABASE_URL=postgres://…).
NODES = int(os.environ.get("NODES", "1"))
if NODES < 1:
    raise ImproperlyConfigured(f"NODES must be at least 1, not {NODES}.")
if NODES > 1 and DATABASES["default"]["ENGINE"] == "django.db.backends.sqlite3":
    raise ImproperlyConfigured(
        f"NODES={NODES} but the database is SQLite, a file on one machine: every node would "
        "keep games of its own. Set DATABASE_URL to a PostgreSQL server shared by all nodes "
        "(and REDIS_URL to a shared Redis), or NODES=1."
    )

# --- Cache: local memory by default; REDIS_URL shares it across workers and nodes. ---
CACHES: dict[str, dict[str, Any]]
if redis_url := os.environ.get("REDIS_URL", "").strip():
    CACHES = {
        # django-redis keeps its connection pools once per process; Django's own makes them
        # anew for every request under ASGI, and a game's stream is a request of half an hour:
        # 3,000 streams held 6,002 idle connections, pooled 7 (tests/site/test_redis_cache.py).
        "default": {"BACKEND": "django_redis.cache.RedisCache", "LOCATION": redis_url}
    }
    # A shared cache can front the session table (one query less per page). Not with the
    # per-process local-memory cache: a session ended in one worker would live on in another.
    SESSION_ENGINE = "django.contrib.sessions.backends.cached_db"
else:
    CACHES = {"default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache"}}
# A game's version is published in the cache only where every worker sees the same cache.
GAME_VERSIONS_IN_CACHE = bool(redis_url)
# Where a game's changes are told to the open streams of it on every node (Redis pub/sub):
# REDIS_URL's Redis, or LIVE_REDIS_URL's; without either, to those of this process only
# (games/play/broadcast.py).
LIVE_REDIS_URL = os.environ.get("LIVE_REDIS_URL", "").strip() or redis_url
# Streams one account may hold open in one process (tabs, devices): one account cannot take a
# node's streams for itself; past it, its pages ask every second instead.
LIVE_STREAMS_PER_ACCOUNT = int(os.environ.get("LIVE_STREAMS_PER_ACCOUNT", "50"))
# Streams of tournaments' standings one client address may hold open in one process without
# logging in (anyone with a tournament's link may watch it); past it, its pages ask every 5 s.
STANDINGS_STREAMS_PER_ADDRESS = int(os.environ.get("STANDINGS_STREAMS_PER_ADDRESS", "8"))
# When each player's page of a game last checked for news (``games.play.live.saw_page``): the
# turn mail goes only to a player with no page open. Every worker must see it, so without
# Redis it is kept in files on this machine (written at most every few seconds per page).
# With Redis it is the shared cache itself (its keys are its own), so the update check reads it
# in the same round trip as the game's version.
CACHES["presence"] = (
    CACHES["default"]
    if redis_url
    else {
        "BACKEND": "yahtzee_site.presence_cache.PresenceFileCache",
        "LOCATION": str(VAR_DIR / "presence"),
        "OPTIONS": {"MAX_ENTRIES": 100_000},
    }
)

# --- Slow work off the request: Django's Tasks framework (yahtzee_site.tasking). ---
# The queue lives in the site's database; `manage.py run_tasks` (started by `make run`, a service
# of its own in deploy/) runs what it holds. A task left running longer than TASK_LEASE seconds
# by a worker that is gone is run again (every task of the site's is idempotent).
TASKS = {"default": {"BACKEND": "django_tasks_db.DatabaseBackend"}}
TASK_LEASE = int(os.environ.get("TASK_LEASE", "900"))

# --- Accounts, trial and serials ---
SERIAL_ATTEMPTS_PER_ACCOUNT = int(os.environ.get("SERIAL_ATTEMPTS_PER_ACCOUNT", "5"))
SERIAL_ATTEMPTS_PER_ADDRESS = int(os.environ.get("SERIAL_ATTEMPTS_PER_ADDRESS", "20"))
# Accounts one address (an IPv6 /64) may create in 24 hours: a household signs up, a script
# farming trial games does not.
SIGNUPS_PER_ADDRESS = int(os.environ.get("SIGNUPS_PER_ADDRESS", "5"))
# Where a trial player buys a serial ("How to get a serial number" links there); without one
# the page says to ask the site's operator, at SITE_CONTACT_EMAIL when that is set.
SERIAL_STORE_URL = os.environ.get("SERIAL_STORE_URL", "").strip()
SITE_CONTACT_EMAIL = os.environ.get("SITE_CONTACT_EMAIL", "").strip()
# How many reverse proxies in front of the site append to X-Forwarded-For; 0 trusts none of it.
TRUSTED_PROXY_COUNT = int(os.environ.get("TRUSTED_PROXY_COUNT", "0"))
# Where the admin answers. The default stays admin/: a path in a public repository is no
# secret, and the admin's log-in is guarded like every other (django-axes, strong passwords);
# an operator may still move it to keep scanners out of the logs.
ADMIN_PATH = os.environ.get("ADMIN_PATH", "admin/").strip().strip("/") + "/"
if ADMIN_PATH == "/":
    raise ImproperlyConfigured("ADMIN_PATH must not be empty: the front page lives at /.")

AUTH_USER_MODEL = "accounts.User"
LOGIN_URL = "accounts:login"
LOGIN_REDIRECT_URL = "games:dashboard"
LOGOUT_REDIRECT_URL = "home"
AUTHENTICATION_BACKENDS = [
    "axes.backends.AxesStandaloneBackend",
    "django.contrib.auth.backends.ModelBackend",
]
# Login failures are limited per username and address, in the database (all workers and nodes).
AXES_FAILURE_LIMIT = int(os.environ.get("LOGIN_FAILURE_LIMIT", "5"))
AXES_COOLOFF_TIME = 1  # hour
AXES_LOCKOUT_PARAMETERS = [["username", "ip_address"]]
AXES_RESET_ON_SUCCESS = True
# A whole IPv6 /64 counts as one address, as for the serial and sign-up limits.
AXES_CLIENT_IP_CALLABLE = "accounts.client_ip.client_address_key"
AXES_LOCKOUT_TEMPLATE = "accounts/locked_out.html"
AXES_VERBOSE = False
AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
    {"NAME": "django.contrib.auth.password_validation.NumericPasswordValidator"},
]

# --- E-mail: SMTP when EMAIL_HOST is set; the console only in development or when allowed. ---
# The site mails activation and password-reset links: in production without SMTP they would go
# nowhere, so it refuses to start unless EMAIL_CONSOLE_OK says the console is meant.
EMAIL_CONSOLE_OK = env_bool("EMAIL_CONSOLE_OK", False)
if email_host := os.environ.get("EMAIL_HOST", "").strip():
    MAILERS = {
        "default": {
            "BACKEND": "django.core.mail.backends.smtp.EmailBackend",
            "OPTIONS": {
                "host": email_host,
                "port": int(os.environ.get("EMAIL_PORT", "587")),
                "username": os.environ.get("EMAIL_HOST_USER", ""),
                "password": os.environ.get("EMAIL_HOST_PASSWORD", ""),
                "use_tls": env_bool("EMAIL_USE_TLS", True),
            },
        }
    }
else:
    if not DEBUG and not EMAIL_CONSOLE_OK:
        raise ImproperlyConfigured(
            "EMAIL_HOST must be set when DEBUG is off: the site mails activation and "
            "password-reset links. To have them written to the console instead (a trial run "
            "on one machine, as `make run` does), set EMAIL_CONSOLE_OK=1."
        )
    MAILERS = {"default": {"BACKEND": "django.core.mail.backends.console.EmailBackend"}}
# The console was asked for explicitly: Django's deploy check against it has been answered.
SILENCED_SYSTEM_CHECKS = ["mail.E001"] if EMAIL_CONSOLE_OK else []
DEFAULT_FROM_EMAIL = os.environ.get("DEFAULT_FROM_EMAIL", "Yahtzee <noreply@localhost>")
# The site's address as mail links to it (a turn mail is sent where no request says it). Unset,
# it is guessed: the first allowed host, over https unless HTTPS is off, which knows no port
# nor a proxy's path; production says so (yahtzee_site.checks), and `make run` sets it.
SITE_URL = os.environ.get("SITE_URL", "").strip().rstrip("/")
SITE_URL_GUESSED = not SITE_URL
SITE_URL = SITE_URL or (
    f"{'https' if HTTPS else 'http'}://{ALLOWED_HOSTS[0] if ALLOWED_HOSTS else 'localhost'}"
)
# The shared secret the mail provider's bounce webhook sends (``Authorization: Bearer …``);
# without it the webhook answers 404 and bounces are marked with ``manage.py mark_bounced``.
MAIL_WEBHOOK_SECRET = os.environ.get("MAIL_WEBHOOK_SECRET", "").strip()

LANGUAGE_CODE = "en-us"
TIME_ZONE = os.environ.get("TIME_ZONE", "UTC")
USE_I18N = True
USE_TZ = True

STATIC_URL = "static/"
STATIC_ROOT = Path(os.environ.get("STATIC_ROOT", BASE_DIR / "staticfiles"))
STATICFILES_DIRS = [BASE_DIR / "static"]
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {
        "BACKEND": (
            "django.contrib.staticfiles.storage.StaticFilesStorage"
            if DEBUG
            else "whitenoise.storage.CompressedManifestStaticFilesStorage"
        )
    },
}

LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "handlers": {"console": {"class": "logging.StreamHandler"}},
    "root": {"handlers": ["console"], "level": os.environ.get("LOG_LEVEL", "INFO")},
    "loggers": {
        # Request bodies never reach the logs; 4xx warnings are noise for a game with 409s.
        "django.request": {"level": "ERROR"},
        "axes": {"level": "WARNING"},
    },
}
