"""The daily challenge's tests start with nothing kept in the process: perfect play kept by an
earlier test (``services.challenge``) would outlive the rows its test rolled back."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from games.daily import services


@pytest.fixture(autouse=True)
def _nothing_kept() -> Iterator[None]:
    services._kept.cache_clear()
    yield
    services._kept.cache_clear()
