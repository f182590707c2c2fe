"""A ``TRUSTED_PROXY_COUNT`` that contradicts the requests is reported, once per process.

Behind a proxy with the count at 0, every client would share the proxy's address and one noisy
client would spend everybody's tries; a count higher than the proxies in front lets a client
choose its address. Neither shows at start-up, so the first contradicting request is logged.
"""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from django.test import Client
from pytest_django import Settings

from accounts import middleware

PROXY = "10.0.0.5"


@pytest.fixture(autouse=True)
def _nothing_reported_yet() -> Iterator[None]:
    middleware._reported.clear()
    yield
    middleware._reported.clear()


def errors(caplog: pytest.LogCaptureFixture) -> list[str]:
    return [r.getMessage() for r in caplog.records if r.name == "accounts.proxy"]


def test_forwarded_requests_from_a_private_address_with_no_proxy_counted_are_reported(
    settings: Settings, caplog: pytest.LogCaptureFixture, db: None
) -> None:
    settings.TRUSTED_PROXY_COUNT = 0

    Client().get("/help/", REMOTE_ADDR=PROXY, HTTP_X_FORWARDED_FOR="198.51.100.23")

    (message,) = errors(caplog)
    assert "TRUSTED_PROXY_COUNT is 0" in message
    assert PROXY in message


def test_it_is_reported_once_not_on_every_request(
    settings: Settings, caplog: pytest.LogCaptureFixture, db: None
) -> None:
    settings.TRUSTED_PROXY_COUNT = 0

    for _ in range(3):
        Client().get("/help/", REMOTE_ADDR=PROXY, HTTP_X_FORWARDED_FOR="198.51.100.23")

    assert len(errors(caplog)) == 1


def test_the_request_is_still_answered(settings: Settings, db: None) -> None:
    settings.TRUSTED_PROXY_COUNT = 0

    response = Client().get("/help/", REMOTE_ADDR=PROXY, HTTP_X_FORWARDED_FOR="198.51.100.23")

    assert response.status_code == 200


def test_a_client_on_the_internet_sending_the_header_itself_is_no_contradiction(
    settings: Settings, caplog: pytest.LogCaptureFixture, db: None
) -> None:
    settings.TRUSTED_PROXY_COUNT = 0

    # (Python counts the documentation ranges as private, so a real public address here.)
    Client().get("/help/", REMOTE_ADDR="93.184.216.34", HTTP_X_FORWARDED_FOR="192.0.2.1")

    assert errors(caplog) == []


def test_a_direct_request_when_a_proxy_is_counted_is_reported(
    settings: Settings, caplog: pytest.LogCaptureFixture, db: None
) -> None:
    settings.TRUSTED_PROXY_COUNT = 1

    Client().get("/help/", REMOTE_ADDR="198.51.100.23")

    (message,) = errors(caplog)
    assert "TRUSTED_PROXY_COUNT is 1" in message


def test_requests_that_match_the_setting_are_not_reported(
    settings: Settings, caplog: pytest.LogCaptureFixture, db: None
) -> None:
    settings.TRUSTED_PROXY_COUNT = 1
    Client().get("/help/", REMOTE_ADDR=PROXY, HTTP_X_FORWARDED_FOR="198.51.100.23")
    settings.TRUSTED_PROXY_COUNT = 0
    Client().get("/help/", REMOTE_ADDR="198.51.100.23")

    assert errors(caplog) == []
