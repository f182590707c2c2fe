"""The address a request came from, trusting proxy headers only as far as configured."""

from __future__ import annotations

import ipaddress

from django.conf import settings
from django.http import HttpRequest


def _valid(address: str) -> bool:
    try:
        ipaddress.ip_address(address)
    except ValueError:
        return False
    return True


def client_ip(request: HttpRequest) -> str:
    """The client's address: ``REMOTE_ADDR``, or, behind ``TRUSTED_PROXY_COUNT`` proxies, the
    address the outermost trusted proxy saw (counted from the right of ``X-Forwarded-For``).

    Entries further left were written by the client itself and are never believed, so a spoofed
    header cannot pick its own address.
    """
    remote = request.META.get("REMOTE_ADDR", "") or "0.0.0.0"
    proxies = settings.TRUSTED_PROXY_COUNT
    if proxies <= 0:
        return remote
    hops = [hop.strip() for hop in request.META.get("HTTP_X_FORWARDED_FOR", "").split(",")]
    hops = [hop for hop in hops if hop]
    if len(hops) < proxies:
        return remote
    candidate = hops[-proxies]
    return candidate if _valid(candidate) else remote


def client_network(address: str) -> str:
    """The block a per-address limit counts: the IPv4 address itself, or an IPv6 /64.

    This is the one definition of "one client address" for every limit of the site (serial
    look-ups, sign-ups, log-ins): one IPv6 client usually holds a whole /64 and could otherwise
    rotate through it.
    """
    try:
        ip = ipaddress.ip_address(address)
    except ValueError:
        return address
    if ip.version == 6 and ip.ipv4_mapped is None:
        return str(ipaddress.ip_network(f"{ip}/64", strict=False))
    return str(ip.ipv4_mapped or ip) if ip.version == 6 else str(ip)


def client_address_key(request: HttpRequest) -> str:
    """The client's address as the limits count it, written as an address (django-axes keeps it
    in an IP address column): IPv4 as is, an IPv6 address as the first address of its /64."""
    network = client_network(client_ip(request))
    return network.removesuffix("/64")
