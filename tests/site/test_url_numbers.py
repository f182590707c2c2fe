"""Numbers in the site's addresses: one too big for a database column is no such page (404).

SQLite's driver refuses an integer past 2**63 - 1 with ``OverflowError`` where a read skips
Django's range handling, which answered 500. A link's secret is the characters the site makes
them of (PostgreSQL refuses a NUL in a string it is asked to compare: a 500). The routes are
found by walking the URL configuration, so a new route with a number is covered without editing
a list.
"""

from __future__ import annotations

import re
from collections.abc import Iterator

import pytest
from django.urls import URLPattern, URLResolver, get_resolver, resolve
from django.urls.exceptions import Resolver404
from django.urls.resolvers import RoutePattern

LARGEST = 2**63 - 1  # the widest integer column any of our databases holds (bigint, SQLite)
TOO_BIG = (str(LARGEST + 1), "99999999999999999999999")
PLACEHOLDER = re.compile(r"<(?:(?P<converter>[^>:]+):)?(?P<name>[^>]+)>")


def _routes(
    patterns: list[URLPattern | URLResolver] | None = None, prefix: str = ""
) -> Iterator[tuple[str, list[str]]]:
    """Every route of the site with a number in it, as (route, names of its numbers)."""
    for entry in get_resolver().url_patterns if patterns is None else patterns:
        if not isinstance(entry.pattern, RoutePattern):
            continue  # a regular expression (the admin's index): no converters to speak of
        route = prefix + str(entry.pattern)
        if isinstance(entry, URLResolver):
            yield from _routes(entry.url_patterns, route)
            continue
        numbers = [
            name for name, converter in entry.pattern.converters.items() if _is_number(converter)
        ]
        if numbers:
            yield "/" + route, numbers


def _is_number(converter: object) -> bool:
    try:
        return isinstance(converter.to_python("0"), int)
    except ValueError:
        return False  # a uuid, say


def _named(route: str) -> str:
    """The route with its converters left out: ``/play/<game_id>/``."""
    return PLACEHOLDER.sub(lambda number: f"<{number['name']}>", route)


def _address(route: str, values: dict[str, str]) -> str:
    """The route with ``values`` for its numbers, and a valid link's secret ("x") for any
    other placeholder (a tournament's token beside a game's number)."""
    return PLACEHOLDER.sub(lambda found: values.get(found["name"], "x"), route)


def _addresses(route: str, numbers: list[str], fits: str) -> Iterator[str]:
    """The route with each of its numbers in turn too big, the others ``fits``."""
    for name in numbers:
        for too_big in TOO_BIG:
            yield _address(route, {other: fits for other in numbers} | {name: too_big})


ROUTES = list(_routes())


def test_the_walk_finds_the_game_routes():
    found = {_named(route) for route, _ in ROUTES}

    assert {"/play/<game_id>/", "/play/<game_id>/roll/", "/play/<game_id>/score/"} <= found
    assert "/play/<game_id>/analysis/<position>/" in found
    assert "/play/<game_id>/invitations/<invitation_id>/revoke/" in found


@pytest.mark.parametrize(("route", "numbers"), ROUTES, ids=[_named(r) for r, _ in ROUTES])
def test_no_route_takes_a_number_past_what_a_column_holds(route, numbers):
    for address in _addresses(route, numbers, fits="1"):
        with pytest.raises(Resolver404):
            resolve(address)
    # The largest that fits is still taken (as a number), so no real id is ever refused.
    largest = _address(route, {name: str(LARGEST) for name in numbers})
    taken = resolve(largest).kwargs
    assert {name: taken[name] for name in numbers} == {name: LARGEST for name in numbers}


@pytest.mark.parametrize("method", ["get", "post"])
def test_every_address_with_a_huge_number_answers_404(method, alice_client, game):
    alice_client.raise_request_exception = False  # a 500 is counted, not raised
    answers = {}
    for route, numbers in ROUTES:
        for address in _addresses(route, numbers, fits=str(game.pk)):
            answers[address] = getattr(alice_client, method)(address).status_code

    assert answers, "no route with a number was found"
    assert {address: status for address, status in answers.items() if status != 404} == {}


@pytest.mark.parametrize("token", ["%00", "a%00b", "%E2%80%AE", "..", "x" * 65, "a b"])
def test_an_invitation_link_of_characters_no_link_has_is_no_page(alice_client, token) -> None:
    response = alice_client.get(f"/play/join/{token}/")

    assert response.status_code == 404
    assert "There is nothing here" in response.text
