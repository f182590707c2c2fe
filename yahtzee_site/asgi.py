"""ASGI entry point: the game's streams of changes (``games/play/stream.py``), and under
``make run`` every other page too. Served by gunicorn with ``yahtzee_site.asgi_worker``."""

import os
import warnings

from django.core.asgi import get_asgi_application

from yahtzee_site import checks, collector, wal

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "yahtzee_site.settings")

# WhiteNoise answers a static file with a synchronous iterator, which Django's ASGI handler
# reads whole before sending, with a warning each time: the files are small, and behind nginx
# (deploy/) they never reach the site at all.
warnings.filterwarnings(
    "ignore", message="StreamingHttpResponse must consume synchronous iterators", category=Warning
)

application = get_asgi_application()
collector.settle()  # the loaded site is never collected again (see the module)
wal.settle()  # SQLite's log checkpointed between requests, not in one
checks.say_at_start()  # gunicorn runs no system checks
