"""Say loudly, once per process, when the proxy setting contradicts the requests that arrive.

Every limit of the site counts the client's address (``accounts.client_ip``). With
``TRUSTED_PROXY_COUNT=0`` behind a proxy, every client has the proxy's address, so the limits
would count the whole site as one client; with a count higher than the proxies really in front,
a client could pick its own address. Start-up cannot see either mistake, the first request can.

It logs an error rather than refusing the request: a client may send ``X-Forwarded-For``
itself (a corporate proxy does), and refusing it would turn an operator's mistake into an
outage for players. The log line names the setting to fix.
"""

from __future__ import annotations

import ipaddress
import logging
from collections.abc import Callable

from django.conf import settings
from django.http import HttpRequest, HttpResponse

logger = logging.getLogger("accounts.proxy")

_reported: set[str] = set()

BEHIND_UNCOUNTED_PROXY = (
    "TRUSTED_PROXY_COUNT is 0, but a request from %s (a private address) carries "
    "X-Forwarded-For: the site seems to sit behind a proxy, and every client then counts as "
    "the proxy's address for the log-in, sign-up and serial limits. Set TRUSTED_PROXY_COUNT "
    "to the number of proxies in front of the site."
)
FEWER_HOPS_THAN_PROXIES = (
    "TRUSTED_PROXY_COUNT is %d, but a request from %s carries %d X-Forwarded-For entries: "
    "either it reached the site around its proxy, or fewer proxies stand in front than the "
    "setting says (then a client could choose the address the limits count)."
)


def _private(address: str) -> bool:
    try:
        ip = ipaddress.ip_address(address)
    except ValueError:
        return False
    return ip.is_private or ip.is_loopback


def _report_once(kind: str, message: str, *args: object) -> None:
    if kind not in _reported:
        _reported.add(kind)
        logger.error(message, *args)


def check_proxy_headers(request: HttpRequest) -> None:
    """Report (once per process) a request whose headers contradict ``TRUSTED_PROXY_COUNT``."""
    proxies = settings.TRUSTED_PROXY_COUNT
    remote = request.META.get("REMOTE_ADDR", "")
    forwarded = request.META.get("HTTP_X_FORWARDED_FOR")
    if proxies <= 0:
        if forwarded is not None and _private(remote):
            _report_once("uncounted", BEHIND_UNCOUNTED_PROXY, remote)
        return
    hops = [hop for hop in (forwarded or "").split(",") if hop.strip()]
    if len(hops) < proxies:
        _report_once("fewer", FEWER_HOPS_THAN_PROXIES, proxies, remote, len(hops))


class ProxyHeadersCheck:
    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        check_proxy_headers(request)
        return self.get_response(request)
