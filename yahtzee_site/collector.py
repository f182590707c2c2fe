"""Python's garbage collector set for a long-lived worker, once the site is loaded.

Everything loaded at start (modules, URL patterns, templates, the app registry: about 100,000
objects) lives as long as the worker, yet every full collection walked it again (55-77 ms each,
counted in the bench's gunicorn workers), and the young generation was collected every 2,000
allocations, about once every few requests. ``settle`` collects once, moves what is left into
the permanent generation (``gc.freeze``: never walked again), and collects the young generation
five times less often. Measured with ``make bench``'s HTTP scenario on SQLite, two runs each,
alternated with and without: the front page 8.40 -> 6.95 ms, a roll 8.71 -> 7.04 ms, the 304
3.66 -> 2.95 ms (means). Cycles are still collected, only later; memory grows by the young
objects kept between collections (a few megabytes at most).
"""

from __future__ import annotations

import gc

YOUNG_THRESHOLD = 10_000  # allocations between young collections (Python's default: 2,000)
OLDER_THRESHOLDS = (20, 20)  # young collections per older one, and so on (default: 10, 10)


def settle() -> None:
    """Call once the application is loaded, in each worker process."""
    gc.collect()
    gc.freeze()
    gc.set_threshold(YOUNG_THRESHOLD, *OLDER_THRESHOLDS)
