"""WSGI entry point, served by gunicorn."""

import os

from django.core.wsgi import get_wsgi_application

from yahtzee_site import checks, collector, wal

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "yahtzee_site.settings")

application = get_wsgi_application()
collector.settle()  # the loaded site is never collected again (see the module)
wal.settle()  # SQLite's log checkpointed between requests, not in one
checks.say_at_start()  # gunicorn runs no system checks
