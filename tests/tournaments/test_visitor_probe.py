"""Nothing reveals a running tournament's dice (issue 38): a crawler over every page a visitor can
reach, as a logged-out visitor, as the other entrant and as an unrelated account.

The world: a listed tournament under way with two entrants. Alice has finished her game, scoring
each turn on its first roll, so no second or third roll of any turn was thrown by her; Bob is in
his second turn, two rolls thrown, one left. The faces nobody has thrown yet are worked out here
from ``games.tournaments.dice`` under the test's site key: every roll of the tournament with a
position no entrant threw, and Bob's next roll under every hold he could choose. A page gives
them away when a dice-describing fragment of its text (a list "5, 1, 6, 3, 6", five screen-reader
labels "Die 1 shows five" …, five drawn dice, five ``data-face``) equals one of those rolls and is
explained neither by dice already thrown nor by the site's fixed examples (the front page's, the
help page's). A deliberately leaky page, reached only through a link the crawl must follow, shows
that the check fails when it should.

The crawl starts from each entry point a visitor has and follows every same-site link and GET
form (``href``, ``src``, ``hx-get``, ``action``, ``data-*-url``, ``data-*-stream``; never logout,
a POST form or a static file), opening the streams it finds for their first events. Each page:
never a 500; no tournament game's analysis, replay, share or card image answered 200; the perfect
bot's total neither worked out nor asked for. Once the tournament ends, the same crawl reaches the
finished game's replay."""

from __future__ import annotations

import asyncio
import itertools
import re
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from html.parser import HTMLParser
from pathlib import Path
from typing import Any
from urllib.parse import urlencode, urljoin, urlsplit

import pytest
from asgiref.sync import async_to_sync
from django.conf import settings
from django.http import HttpRequest, HttpResponse
from django.tasks import Task
from django.test import AsyncClient, Client, override_settings
from django.urls import Resolver404, path, resolve, reverse
from django.utils.html import escape

from accounts.models import User
from games import advice, rules, store
from games.home import views as home
from games.models import Game, Move, MoveAction
from games.play import actions as play
from games.rules.dice import FACE_NAMES
from games.templatetags.dice import die_face
from games.tournaments import dice, perfect, services
from games.tournaments.models import Tournament
from tests.factories import client_for, make_user
from tests.tournaments.tournament_support import faces_thrown, started_with
from yahtzee_site import urls as site_urls

# The streams are read on threads of their own: they must see what the test wrote.
pytestmark = pytest.mark.django_db(transaction=True)

KEY = "visitor-probe-dice-key"
LIMIT = 300
"""The most pages one crawl fetches (the site has far fewer a visitor reaches)."""
STREAM_WAIT = 0.3
"""Seconds a stream is listened to for a further event after its first."""

SEALED_ROUTES = {
    "games:analysis",
    "games:replay",
    "games:share",
    "games:withdraw",
    "shared",
    "shared_card",
}
"""The pages that show a finished game's dice: none may answer 200 for a tournament's game
while the tournament runs."""

SKIPPED = ("/static/", "/accounts/logout/", "/" + settings.ADMIN_PATH)
"""Never fetched: files that are the same for every tournament, the way out, the admin."""

Faces = tuple[int, ...]


# --- The world ---------------------------------------------------------------------------------


@dataclass
class World:
    tournament: Tournament
    alice: User
    bob: User
    eve: User
    finished: Game
    playing: Game


def roll(user: User, game: Game, held: tuple[bool, ...] | None = None) -> None:
    game.refresh_from_db()
    play.roll_dice(game_id=game.pk, user=user, version=game.version, held=held)


def score_best(user: User, game: Game) -> None:
    """Score the dice in the box worth most now (first of equals)."""
    game.refresh_from_db()
    match = store.match_of(game)
    sheet = match.sheets[0]
    assert match.turn.dice is not None
    moves = rules.legal_moves(sheet.kind, match.turn.dice, sheet.cards)
    (column, box), _ = max(moves.items(), key=lambda item: item[1])
    play.score_box(game_id=game.pk, user=user, version=game.version, box=box.value, column=column)


def build(settings: Any) -> World:
    settings.DAILY_DICE_KEY = KEY
    alice, bob = make_user("alice", display_name="Alice"), make_user("bob", display_name="Bob")
    eve = make_user("eve", display_name="Eve")
    tournament = started_with(alice, bob, name="Probe cup")
    finished = services.play(user=alice, token=tournament.token)
    while not store.match_of(finished).is_over:  # each turn scored on its first roll
        roll(alice, finished)
        score_best(alice, finished)
        finished.refresh_from_db()
    playing = services.play(user=bob, token=tournament.token)
    roll(bob, playing)
    score_best(bob, playing)
    roll(bob, playing)
    roll(bob, playing, held=(True, True, False, False, False))  # turn 2, one roll left
    tournament.refresh_from_db()
    finished.refresh_from_db()
    playing.refresh_from_db()
    assert tournament.is_running
    return World(tournament, alice, bob, eve, finished, playing)


# --- The secret: faces nobody has thrown -------------------------------------------------------


def key() -> bytes:
    return settings.DAILY_DICE_KEY.encode()


def thrown(world: World) -> dict[tuple[int, int, int], int]:
    """(turn, roll, position) -> face, for every die an entrant has thrown."""
    return {
        (round, roll_number, position): face
        for game in (world.finished, world.playing)
        for round, roll_number, position, face in faces_thrown(game)
    }


def next_roll(world: World, held: tuple[bool, ...]) -> Faces:
    """Bob's next roll, were he to hold ``held`` of his dice."""
    match = store.match_of(world.playing)
    turn = match.turn
    assert turn.dice is not None and turn.rolls_left > 0
    roll_number = turn.rolls_used + 1
    return tuple(
        turn.dice[p]
        if held[p]
        else dice.face(key(), world.tournament.pk, match.round, roll_number, p)
        for p in range(rules.DICE_COUNT)
    )


def secret_rolls(world: World) -> set[Faces]:
    """Every roll whose faces show a die nobody has thrown: each roll of the tournament's turns
    with an unthrown position, and Bob's next under each hold he may choose."""
    seen = thrown(world)
    tid, kind = world.tournament.pk, world.tournament.rules_kind
    secret = set()
    for round, roll_number in itertools.product(range(1, kind.rounds + 1), (1, 2, 3)):
        positions = range(rules.DICE_COUNT)
        if any((round, roll_number, p) not in seen for p in positions):
            secret.add(tuple(dice.face(key(), tid, round, roll_number, p) for p in positions))
    match = store.match_of(world.playing)
    round, roll_number = match.round, match.turn.rolls_used + 1
    for held in itertools.product((False, True), repeat=rules.DICE_COUNT):
        free = [p for p in range(rules.DICE_COUNT) if not held[p]]
        if free and any((round, roll_number, p) not in seen for p in free):
            secret.add(next_roll(world, held))
    return secret


def thrown_rolls(world: World) -> set[Faces]:
    """The dice as each thrown roll left them: what the pages may show, by design."""
    return {
        tuple(move.dice)
        for move in Move.objects.filter(
            game__in=[world.finished, world.playing], action=MoveAction.ROLL
        )
    }


ROOT = Path(__file__).resolve().parents[2]


def fixed_examples() -> set[Faces]:
    """Dice the site's own code and templates write out (the front page's and help page's
    pictures, docstrings' examples): the same whatever the tournament."""
    found: set[Faces] = set()
    for folder in ("games", "accounts", "templates", "yahtzee_site"):
        for file in (ROOT / folder).rglob("*"):
            if file.suffix in {".py", ".html"}:
                text = file.read_text(errors="replace")
                found |= set(comma_lists(text))
                for digits in re.findall(r'"([1-6]{5})"', text):
                    found.add(tuple(int(c) for c in digits))
    return found


# --- Fragments of a page that describe dice ----------------------------------------------------

_COMMA_RUN = re.compile(r"(?<![\d.])[1-6](?:\s*,\s*[1-6])+(?![\d.])")
_DIE_LABEL = re.compile(r"Die ([1-5]) shows (" + "|".join(FACE_NAMES) + ")")
_SVG = re.compile(r'<svg class="die-face".*?</svg>', re.S)
_TAG = re.compile(r"<[^>]*>")
_DATA_FACE = re.compile(r'data-face="([1-6])"')


def windows(values: list[int]) -> Iterator[Faces]:
    for start in range(len(values) - rules.DICE_COUNT + 1):
        yield tuple(values[start : start + rules.DICE_COUNT])


def comma_lists(text: str) -> Iterator[Faces]:
    for run in _COMMA_RUN.finditer(text):
        yield from windows([int(v) for v in re.findall(r"[1-6]", run.group())])


def die_labels(text: str) -> Iterator[Faces]:
    """Five consecutive labels "Die 1 shows …" to "Die 5 shows …"."""
    labels = [(int(n), FACE_NAMES.index(name) + 1) for n, name in _DIE_LABEL.findall(text)]
    for start in range(len(labels) - rules.DICE_COUNT + 1):
        run = labels[start : start + rules.DICE_COUNT]
        if [n for n, _ in run] == [1, 2, 3, 4, 5]:
            yield tuple(face for _, face in run)


def drawn_dice(text: str) -> Iterator[Faces]:
    """Five dice drawn one after another (the SVG faces: a face is its number of pips) in one
    group: nothing but markup (and a die's "Held") between them. Dice drawn apart, such as the
    help page's examples one after another, are not read as one roll."""
    group: list[int] = []
    end = 0
    for svg in _SVG.finditer(text):
        between = _TAG.sub("", text[end : svg.start()]).replace("Held", "").strip()
        if between:
            yield from windows(group)
            group = []
        group.append(svg.group().count("die-pip"))
        end = svg.end()
    yield from windows(group)


def fragments(text: str) -> set[Faces]:
    """Every five faces the text describes, in any of the ways the site describes dice."""
    return {
        *comma_lists(text),
        *die_labels(text),
        *drawn_dice(text),
        *windows([int(v) for v in _DATA_FACE.findall(text)]),
    }


# --- The crawler -------------------------------------------------------------------------------


class _Links(HTMLParser):
    """Same-site addresses a page leads to: links, sources, htmx GETs, GET forms (their
    fields as shown), the live pages' addresses; streams apart."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.pages: list[tuple[str, bool]] = []  # (address, asked as htmx asks)
        self.streams: list[str] = []
        self._form: tuple[str, list[tuple[str, str]]] | None = None

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        found = {name: value or "" for name, value in attrs}
        for name, value in found.items():
            if name in {"href", "src"}:
                self.pages.append((value, False))
            elif name == "hx-get" or (name.startswith("data-") and name.endswith("-url")):
                self.pages.append((value, True))
            elif name.startswith("data-") and name.endswith("-stream"):
                self.streams.append(value)
        if tag == "form":
            if found.get("method", "get").lower() == "get":
                self._form = (found.get("action", ""), [])
        elif tag in {"input", "select"} and self._form is not None and found.get("name"):
            chosen = found.get("type") not in {"submit", "checkbox", "radio"} or "checked" in found
            if chosen:
                self._form[1].append((found["name"], found.get("value", "")))

    def handle_endtag(self, tag: str) -> None:
        if tag == "form" and self._form is not None:
            action, fields = self._form
            self.pages.append((action, False))
            if fields:
                self.pages.append((f"{action.split('?')[0]}?{urlencode(fields)}", False))
            self._form = None


@dataclass
class Page:
    url: str
    status: int
    text: str
    came_from: str
    route: str = ""


@dataclass
class Crawl:
    who: str
    pages: dict[tuple[str, bool], Page] = field(default_factory=dict)
    streams: dict[str, Page] = field(default_factory=dict)

    def reached(self, url: str) -> Page | None:
        return self.pages.get((url, False)) or self.pages.get((url, True))

    def everything(self) -> Iterable[Page]:
        return [*self.pages.values(), *self.streams.values()]


def _same_site(base: str, address: str) -> str | None:
    address = address.strip()
    if not address or address.startswith(("#", "javascript:", "mailto:", "data:")):
        return None
    parts = urlsplit(urljoin("http://testserver" + base, address))
    if parts.netloc != "testserver":
        return None
    url = parts.path + (f"?{parts.query}" if parts.query else "")
    if url.startswith(SKIPPED):
        return None
    return url


def _route(url: str) -> str:
    try:
        match = resolve(urlsplit(url).path)
    except Resolver404:
        return ""
    return match.view_name


def crawl(who: str, client: Client, entries: Iterable[str], limit: int = LIMIT) -> Crawl:
    result = Crawl(who)
    queue: list[tuple[str, bool, str]] = [(url, False, "(entry)") for url in entries]
    while queue and len(result.pages) < limit:
        url, htmx, came_from = queue.pop(0)
        if (url, htmx) in result.pages:
            continue
        headers = {"HX-Request": "true"} if htmx else {}
        response = client.get(url, headers=headers)
        text = response.content.decode(errors="replace") if not response.streaming else ""
        page = Page(url, response.status_code, text, came_from, _route(url))
        result.pages[(url, htmx)] = page
        if "html" not in response.get("Content-Type", ""):
            continue
        links = _Links()
        links.feed(text)
        for address, as_htmx in links.pages:
            if (found := _same_site(url, address)) is not None:
                queue.append((found, as_htmx, url))
        for address in links.streams:
            found = _same_site(url, address)
            if found is not None and found not in result.streams:
                result.streams[found] = read_stream(client, found, came_from=url)
    return result


def read_stream(client: Client, url: str, *, came_from: str) -> Page:
    """A stream opened as the page opens it (the same session), read for its first events."""
    reader = AsyncClient()
    reader.cookies = client.cookies

    async def listen() -> Page:
        response = await reader.get(url)
        if not response.streaming:
            return Page(url, response.status_code, response.content.decode(), came_from)
        chunks = aiter(response.streaming_content)
        text = ""
        try:
            text += (await asyncio.wait_for(anext(chunks), 5)).decode()  # the first event
            while True:
                text += (await asyncio.wait_for(anext(chunks), STREAM_WAIT)).decode()
        except (TimeoutError, StopAsyncIteration):
            pass
        finally:
            await chunks.aclose()  # type: ignore[attr-defined]
        return Page(url, response.status_code, text, came_from, _route(url))

    return async_to_sync(listen)()


# --- What each page must not do ----------------------------------------------------------------


def leaks(crawled: Crawl, secret: set[Faces], explained: set[Faces]) -> list[str]:
    """Each page's fragments that give away a face nobody has thrown."""
    hidden = secret - explained
    return [
        f"{crawled.who}: {page.url} (from {page.came_from}) shows {faces}"
        for page in crawled.everything()
        for faces in sorted(fragments(page.text) & hidden)
    ]


def failures(crawled: Crawl, world: World) -> list[str]:
    """500s, and a tournament game's dice served while it runs."""
    games = {str(world.finished.pk), str(world.playing.pk)}
    wrong = []
    for page in crawled.everything():
        if page.status >= 500:
            wrong.append(f"{crawled.who}: {page.url} answered {page.status}")
        if page.route in SEALED_ROUTES and page.status == 200:
            wrong.append(f"{crawled.who}: {page.url} served a game's dice while it runs")
        if page.route in SEALED_ROUTES and not games & set(page.url.split("/")):
            wrong.append(f"{crawled.who}: {page.url} is a game the world does not hold")
    return wrong


def entries(world: World) -> list[str]:
    token = world.tournament.token
    return [
        reverse("home"),
        reverse("tournaments:list"),
        reverse("tournaments:page", args=[token]),
        reverse("help"),
        reverse("high_scores"),
        reverse("ratings:season"),
        reverse("ratings:all_time"),
        *(reverse("player", args=[u.public_id]) for u in (world.alice, world.bob)),
        *(
            reverse("watching:tournament_game", args=[token, g.pk])
            for g in (world.finished, world.playing)
        ),
        reverse("daily:today"),
        reverse("games:dashboard"),
        reverse("my_stats"),
    ]


def perfect_shown(total: int) -> re.Pattern[str]:
    """The perfect bot's ``total`` as a page would say it: after the word "perfect"."""
    return re.compile(rf"[Pp]erfect\b.{{0,300}}(?<!\d){total}(?!\d)", re.S)


def sealed_pages(world: World) -> list[str]:
    """The addresses of the games' dice, typed in rather than found: no page links them yet."""
    return [
        url
        for game in (world.finished, world.playing)
        for url in (
            reverse("games:analysis", args=[game.pk, 0]),
            reverse("games:replay", args=[game.pk, 0]),
            reverse("games:replay", args=[game.pk, 0]) + "?step=3",
            reverse("games:share", args=[game.pk, 0]),
        )
    ]


def visitors(world: World) -> dict[str, Client]:
    return {
        "visitor": Client(),
        "the other entrant": client_for(world.bob),
        "an unrelated account": client_for(world.eve),
    }


@pytest.fixture
def enqueued(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """The names of the tasks enqueued during the test (each still runs as it would)."""
    names: list[str] = []
    real = Task.enqueue

    def spy(self: Task[Any, Any], *args: Any, **kwargs: Any) -> Any:
        names.append(self.name)
        return real(self, *args, **kwargs)

    monkeypatch.setattr(Task, "enqueue", spy)
    return names


# --- The leaky double: proof that the probe can fail -------------------------------------------

LEAKS: dict[str, World] = {}
"""The running world, for the leaky pages (set by their test)."""
SHOWN = ("words", "drawn", "labels")
"""The ways a leaky page shows the roll to come: the watch page's words ("Roll 3: 5, 1, …"),
the dice as drawn, the screen reader's labels."""


def leaky_help(request: HttpRequest) -> HttpResponse:
    """The help page, with links to the leaky pages at its end (nothing else leads there)."""
    response = home.help_page(request)
    for shown in SHOWN:
        response.content += f'<p><a href="/probe/{shown}/">What comes next</a></p>'.encode()
    return response


def next_roll_page(request: HttpRequest, shown: str) -> HttpResponse:
    """A page that shows Bob's next roll (his dice held as they are), ``shown`` one way."""
    world = LEAKS["world"]
    faces = next_roll(world, store.match_of(world.playing).turn.held)
    if shown == "words":
        body = f"<p>Roll 3: {rules.describe_dice(faces)}</p>"
    elif shown == "drawn":
        body = "".join(f'<span class="die">{die_face(face)}</span>' for face in faces)
    else:
        body = "".join(
            f'<span aria-label="{escape(rules.describe_die(n, v, held=False))}"></span>'
            for n, v in enumerate(faces, start=1)
        )
    return HttpResponse(f"<!doctype html><title>Next</title>{body}")


urlpatterns = [
    path("help/", leaky_help, name="help"),
    path("probe/<str:shown>/", next_roll_page, name="probe_next_roll"),
    *site_urls.urlpatterns,
]
"""The site's URLs, but for a help page that links to pages showing what is to come."""


# --- The tests ---------------------------------------------------------------------------------


def test_the_probe_catches_a_page_that_shows_a_roll_to_come(settings: Any) -> None:
    world = build(settings)
    secret, explained = secret_rolls(world), thrown_rolls(world) | fixed_examples()
    leaked = next_roll(world, store.match_of(world.playing).turn.held)
    assert leaked in secret and leaked not in explained
    LEAKS["world"] = world

    with override_settings(ROOT_URLCONF=__name__):
        crawled = crawl("visitor", Client(), [reverse("home")])

    for shown in SHOWN:
        page = crawled.reached(f"/probe/{shown}/")
        assert page is not None and page.came_from == reverse("help")
    assert leaks(crawled, secret, explained) == [
        f"visitor: /probe/{shown}/ (from {reverse('help')}) shows {leaked}" for shown in SHOWN
    ]


def test_no_page_a_visitor_reaches_reveals_the_dice(settings: Any, enqueued: list[str]) -> None:
    world = build(settings)
    secret, explained = secret_rolls(world), thrown_rolls(world) | fixed_examples()
    # At least the second and third rolls of every turn: Alice threw none, Bob a part of one.
    assert len(secret - explained) >= 2 * world.tournament.rules_kind.rounds - 2
    token = world.tournament.token
    watch = [
        reverse("watching:tournament_game", args=[token, g.pk])
        for g in (world.finished, world.playing)
    ]
    moves_before = Move.objects.count()
    best = perfect.total_on(
        key(), world.tournament.pk, world.tournament.rules_kind, advice.advisor()
    )
    perfect_line = perfect_shown(best)

    for who, client in visitors(world).items():
        crawled = crawl(who, client, entries(world) + sealed_pages(world))

        assert failures(crawled, world) == []
        for url in sealed_pages(world):  # 302: to the login page; 405: a POST alone
            assert crawled.pages[url, False].status in {302, 404, 405, 409}, (who, url)
        assert leaks(crawled, secret, explained) == []
        assert [p.url for p in crawled.everything() if perfect_line.search(p.text)] == []
        # The crawl reached what it set out to: else it would pass by seeing nothing.
        assert len(crawled.pages) < LIMIT, who  # and saw the whole site a visitor reaches
        for url in [reverse("tournaments:page", args=[token]), reverse("help"), *watch]:
            found = crawled.reached(url)
            assert found is not None and found.status == 200, (who, url)
        live = reverse("watching:tournament_stream", args=[token, world.playing.pk])
        assert crawled.streams[live].status == 200, who
        assert "event: ready" in crawled.streams[live].text, who

    world.tournament.refresh_from_db()
    assert world.tournament.perfect_total is None
    assert "work_out_perfect" not in " ".join(enqueued)
    assert Move.objects.count() == moves_before  # no page a visitor reaches plays a move


def test_once_over_the_crawl_finds_the_finished_games_replay(
    settings: Any, enqueued: list[str]
) -> None:
    world = build(settings)
    assert world.tournament.host is not None
    services.end(user=world.tournament.host, token=world.tournament.token)
    # The standings link each finished game's replay by the tournament's own address (anyone
    # with its link may see it once over, a private tournament's visitor too).
    replay = reverse("tournaments:replay", args=[world.tournament.token, world.finished.pk])
    standings = reverse("tournaments:page", args=[world.tournament.token])

    for who, client in visitors(world).items():
        crawled = crawl(who, client, entries(world))

        assert [p.url for p in crawled.everything() if p.status >= 500] == [], who
        page = crawled.reached(replay)
        assert page is not None and page.status == 200, who
        assert page.came_from.startswith("/tournaments/t/"), who  # linked by the standings
    world.tournament.refresh_from_db()
    assert "work_out_perfect" in " ".join(enqueued)  # the spy sees it: ended, now it runs
    total = world.tournament.perfect_total
    assert total == perfect.total_on(key(), world.tournament.pk, rules.CLASSIC, advice.advisor())
    # Once over the final standings say it, as the probe above would have caught earlier.
    final = crawled.reached(standings)
    assert total is not None and final is not None and perfect_shown(total).search(final.text)
