"""The cache of when each page of a game last checked for news (``games.play.live.saw_page``)
on a machine without Redis: files in ``VAR_DIR/presence``, shared by the workers.

Django's file cache lists its whole folder on every write, to see whether it is full: with a
page writing every few seconds, that would cost more the more people play. Here one write in
``LOOK_EVERY`` looks; a full folder then loses a random third, at worst one spare turn mail.
"""

from __future__ import annotations

import random

from django.core.cache.backends.filebased import FileBasedCache

LOOK_EVERY = 1000


class PresenceFileCache(FileBasedCache):
    def _cull(self) -> None:
        if random.randrange(LOOK_EVERY) == 0:
            super()._cull()  # type: ignore[misc]  # django-stubs leave the private _cull out
