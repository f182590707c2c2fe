"""Helpers for the licensing tests: known serials, and threads that start together."""

from __future__ import annotations

import threading
from collections.abc import Callable
from typing import Any

from django.db import connection
from django.urls import reverse

from accounts import serials

SERIAL_URL = reverse("accounts:serial")
DASHBOARD_URL = reverse("games:dashboard")
NEW_GAME_URL = reverse("games:new")
ADDRESS = "203.0.113.7"


def serial_from(body: str) -> str:
    """The canonical serial with these 19 symbols and its check symbol."""
    return body + serials.check_symbol(body)


# Holds 0 and 1, so the look-alikes O, I and L can be typed for them.
KNOWN = serial_from("0123456789ABCDEFG01")
OTHER = serial_from("HJKMNPQRSTVWXYZ0110")
NOBODYS = serial_from("ZZZZZYYYYYXXXXXWWWW")  # valid check symbol, never stocked


def typo_of(canonical: str, position: int = 7) -> str:
    """``canonical`` with one symbol changed: the check symbol no longer fits."""
    wrong = serials.ALPHABET[(serials.VALUE[canonical[position]] + 1) % 32]
    return canonical[:position] + wrong + canonical[position + 1 :]


def run_together(count: int, action: Callable[[int], Any]) -> list[Any]:
    """Run ``action(i)`` in ``count`` threads released at the same instant; their results.

    Each thread has its own database connection, closed when it ends. An exception in a thread
    is returned as its result, so the test can say what went wrong.
    """
    barrier = threading.Barrier(count)
    results: list[Any] = [None] * count

    def run(i: int) -> None:
        try:
            barrier.wait(timeout=30)
            results[i] = action(i)
        except Exception as exc:
            results[i] = exc
        finally:
            connection.close()

    threads = [threading.Thread(target=run, args=(i,)) for i in range(count)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=60)
    assert not any(thread.is_alive() for thread in threads), "a thread hung"
    return results
