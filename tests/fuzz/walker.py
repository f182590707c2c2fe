"""What the fuzzer sends: every URL pattern of the site with real and hostile values in its
parameters, every method, the forms the pages really show (harvested from them, then bent),
hostile query strings, bodies and headers. Pure: it makes ``Request`` values from a seeded
``random.Random``; ``test_fuzz`` sends them."""

from __future__ import annotations

import json
import random
import re
import uuid
from collections.abc import Iterator
from dataclasses import dataclass, field
from datetime import timedelta
from html.parser import HTMLParser
from urllib.parse import quote, urlencode, urlsplit

from django.urls import URLPattern, URLResolver, get_resolver
from django.urls.resolvers import RegexPattern, RoutePattern
from django.utils import timezone

from tests.fuzz.world import PERSONAS, World

METHODS = ("GET", "POST", "HEAD", "PUT", "PATCH", "DELETE", "OPTIONS")

HOSTILE_NUMBERS = (
    "0", "1", "-1", "9223372036854775807", "9223372036854775808", "18446744073709551616",
    "abc", "١٢", "²", "①", "1.0", "1e3", "0x10", " 1", "9" * 40, "%00",
)  # fmt: skip
"""Ids and numbers no page would send: past int64, other scripts' digits, signs, text."""

HOSTILE_TEXT = (
    "", "x", "\x00", "<script>alert(1)</script>", "' OR 1=1 --", "%", "%%", "a" * 4096,
    "\u202eecilA", "=?utf-8?q?Alice?=", "\r\nX-Injected: yes", "../../etc/passwd", "😀" * 50,
    "\uffff", "true", "false", "on", "null", "[]", "{}",
)  # fmt: skip

VALUES = (
    *HOSTILE_NUMBERS, *HOSTILE_TEXT, "2", "4", "5", "13", "0.1", "0.5", "10", "1e999999",
    "-1e999999", "NaN", "Infinity", "9" * 5000, "classic", "triple", "aces", "chance",
    "yahtzee", "sixes", "chance:1", "aces:2", "aces:9", "perfect", "good", "beginner",
    "#1d6b3c", "#zzzzzz", "Europe/Paris", "Mars/Olympus", "2026-02-30", "2026-11", "2026-13",
    "0000-00", "9999-12",
)  # fmt: skip
"""Values for any field or query parameter."""

SWEPT_VALUES = ("", "-1", "²", "١٢", "9" * 5000, "1e999999", "\x00", "a" * 4096)
"""What the sweep puts in each field of each kind of form, one field at a time."""

DAYS = ("0001-01-01", "9999-12-31", "2026-02-30", "0000-00-00", "1821-03-04", "2026-13-01")

QUERY_NAMES = (
    "open", "done", "step", "since", "kind", "next", "page", "q", "o", "p", "all", "day",
    "position", "e", "_changelist_filters", "held", "box", "version", "format", "season",
)  # fmt: skip

HEADERS = (
    {"HX-Request": "true"},
    {"HX-Request": "false"},
    {"HX-Request": "true", "HX-Target": "game", "HX-Trigger": "x" * 300},
    {"If-None-Match": '"abc"'},
    {"If-None-Match": "W/" + "x" * 5000},
    {"If-None-Match": "*"},
    {"Last-Event-ID": "²"},
    {"Last-Event-ID": "9" * 5000},
    {"Range": "bytes=0-1,5-"},
    {"Accept-Language": "xx-" + "y" * 300},
    {"X-Forwarded-For": "not-an-address, ::::, 300.1.1.1"},
    {"Referer": "javascript:alert(1)"},
    {"HX-Current-URL": "http://evil.example/"},
)


@dataclass(frozen=True)
class Route:
    """A URL pattern as a template: ``play/{game_id}/start/`` and its parameters."""

    template: str
    params: tuple[str, ...]
    name: str


@dataclass
class Form:
    """A form as a page shows it: where it goes, how, and the fields it would send."""

    persona: str
    method: str
    action: str
    fields: list[tuple[str, str]]
    unticked: list[tuple[str, str]] = field(default_factory=list)
    """Boxes the page shows unticked: a user may tick them."""
    buttons: list[tuple[str, str]] = field(default_factory=list)
    """Named submit buttons: a submission sends the one pressed, if any."""

    def pressed(self, rng: random.Random) -> list[tuple[str, str]]:
        """The fields sent when one of the buttons (or none) is pressed."""
        button = rng.choice([None, *self.buttons])
        return self.fields + ([button] if button else [])

    def presses(self) -> list[list[tuple[str, str]]]:
        """The fields sent by each kind of button (each name once), and by none."""
        first = {name: (name, value) for name, value in reversed(self.buttons)}
        return [self.fields] + [[*self.fields, button] for button in first.values()]


@dataclass(frozen=True)
class Request:
    persona: str
    method: str
    path: str
    data: dict[str, object] | bytes | str | None = None
    content_type: str | None = None
    headers: dict[str, str] = field(default_factory=dict)
    csrf: bool = False
    """Sent as a browser would, the CSRF check enforced (the test client skips it otherwise)."""

    def describe(self) -> str:
        body = self.data
        if isinstance(body, dict):
            shown = {k: (v if len(str(v)) < 40 else f"{str(v)[:20]}…({len(str(v))})") for k, v in
                     list(body.items())[:8]}  # fmt: skip
            summary = f" fields={shown}{' …' if len(body) > 8 else ''}"
        elif body:
            summary = f" body={len(body)} bytes of {self.content_type}"
        else:
            summary = ""
        path = self.path if len(self.path) < 200 else self.path[:200] + "…"
        checked = " (CSRF checked)" if self.csrf else ""
        headers = list(self.headers)
        return f"{self.persona}{checked}: {self.method} {path}{summary} headers={headers}"


# --- The site's URL patterns -------------------------------------------------------------------

_GROUP = re.compile(r"\(\?P<(\w+)>")
_ROUTE_PARAM = re.compile(r"<(?:\w+:)?(\w+)>")


def routes() -> list[Route]:
    """Every URL pattern of the site (the admin's included), as templates."""
    found: list[Route] = []

    def walk(resolver: URLResolver, prefix: str) -> None:
        for entry in resolver.url_patterns:
            part = _template(entry.pattern)
            if isinstance(entry, URLResolver):
                walk(entry, prefix + part)
            elif isinstance(entry, URLPattern):
                template = prefix + part
                params = tuple(re.findall(r"{(\w+)}", template))
                found.append(Route(template, params, str(entry.name)))

    walk(get_resolver(), "/")
    return found


def _template(pattern: object) -> str:
    if isinstance(pattern, RoutePattern):
        return _ROUTE_PARAM.sub(lambda m: "{" + m.group(1) + "}", str(pattern))
    assert isinstance(pattern, RegexPattern)
    text = str(pattern).removeprefix("^").removesuffix("$")
    out, i = [], 0
    while i < len(text):
        if (m := _GROUP.match(text, i)) is not None:
            depth, j = 1, m.end()
            while depth:
                depth += {"(": 1, ")": -1}.get(text[j], 0)
                j += 1
            out.append("{" + m.group(1) + "}")
            i = j
        else:
            out.append(text[i])
            i += 1
    return "".join(out).replace("\\", "")


def real_values(world: World) -> dict[str, list[str]]:
    """The values a real user could put in each parameter."""
    today = timezone.localdate()
    users = world.users
    return {
        "game_id": [str(g.pk) for g in world.games.values()],
        "position": ["0", "1"],
        "invitation_id": [str(i) for i in world.invitations],
        "position_id": [str(p) for p in world.positions],
        "token": [
            t
            for key in ("join", "unsubscribe", "shared", "password_token", "watch")
            for t in world.tokens[key]
        ],
        "uidb64": world.tokens["uidb64"],
        "public_id": world.tokens["public_id"],
        "day": [str(today), str(today - timedelta(days=1)), str(today - timedelta(days=30))],
        "object_id": [str(u.pk) for u in users.values()],
        "content_type_id": ["1", "6"],
        "id": [str(users["host"].pk)],
        "app_label": ["accounts", "auth", "axes"],
        "url": ["accounts/user/", "nothing/here/"],
    }


def hostile_values(name: str) -> tuple[str, ...]:
    if name == "day":
        return DAYS + HOSTILE_NUMBERS[:4]
    if name == "public_id":
        return (str(uuid.UUID(int=0)), str(uuid.uuid4()), "nope", "١" * 32)
    if name in {"token", "uidb64", "url"}:
        return (*HOSTILE_TEXT[:12], "A" * 300)
    return HOSTILE_NUMBERS


def fill(route: Route, values: dict[str, str]) -> str:
    path = route.template
    for name in route.params:
        path = path.replace("{" + name + "}", quote(values[name], safe=""), 1)
    return path


# --- Forms harvested from the pages ------------------------------------------------------------


class _Forms(HTMLParser):
    def __init__(self, persona: str, page: str) -> None:
        super().__init__(convert_charrefs=True)
        self.persona, self.page = persona, page
        self.forms: list[Form] = []
        self.links: set[str] = set()
        self._open: Form | None = None
        self._select: str | None = None

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        a = {k: v or "" for k, v in attrs}
        for key in ("href", "hx-get"):
            if a.get(key, "").startswith("/"):
                self.links.add(a[key])
        if tag == "form":
            self._open = Form(
                self.persona, a.get("method", "get").upper(), a.get("action") or self.page, []
            )
            self.forms.append(self._open)
        elif "hx-post" in a and self._open is None:
            self.forms.append(Form(self.persona, "POST", a["hx-post"], []))
        if self._open is None:
            return
        name = a.get("name")
        if tag == "input" and name:
            if a.get("type") in {"checkbox", "radio"} and "checked" not in a:
                self._open.unticked.append((name, a.get("value", "on")))
                return
            self._open.fields.append((name, a.get("value", "")))
        elif tag == "button" and name:
            self._open.buttons.append((name, a.get("value", "")))
        elif tag == "textarea" and name:
            self._open.fields.append((name, ""))
        elif tag == "select" and name:
            self._select = name
        elif tag == "option" and self._select and "selected" in a:
            self._open.fields.append((self._select, a.get("value", "")))

    def handle_endtag(self, tag: str) -> None:
        if tag == "form":
            self._open = None
        elif tag == "select":
            self._select = None


def harvest(persona: str, page: str, html: str) -> tuple[list[Form], set[str]]:
    """The forms and same-site links of a page ``persona`` was shown at ``page``."""
    parser = _Forms(persona, urlsplit(page).path)
    parser.feed(html)
    return parser.forms, parser.links


# --- Requests ------------------------------------------------------------------------------------


class Walker:
    """Requests drawn from the routes, the harvested forms and the world's values."""

    def __init__(self, world: World, rng: random.Random) -> None:
        self.world, self.rng = world, rng
        self.routes = routes()
        self.real = real_values(world)
        self.forms: list[Form] = []
        self.field_names: set[str] = set(QUERY_NAMES)

    def seeds(self) -> list[str]:
        """Every route filled with real values (each combination once, at most a few each)."""
        paths: list[str] = []
        for route in self.routes:
            for _ in range(2 if route.params else 1):
                values = {n: self.rng.choice(self.real.get(n) or ["1"]) for n in route.params}
                paths.append(fill(route, values))
        return sorted(set(paths))

    def sweep(self) -> Iterator[Request]:
        """The requests every run sends, whatever the seed: each form a page showed, sent as it
        was by every persona and at every game; each hostile value in each parameter of each
        route, read and posted; each odd body at a page and at no page."""
        games = self.real["game_id"]
        for form in self.forms:
            data = _data(form.pressed(self.rng))
            for persona in PERSONAS:
                if form.method == "POST":
                    yield Request(persona, "POST", form.action, data)
            if (m := _GAME_IN_PATH.match(form.action)) is not None and form.method == "POST":
                for game in games:  # a page of one game posting to another: a stale tab
                    action = form.action[: m.start(1)] + game + form.action[m.end(1) :]
                    yield Request(form.persona, "POST", action, data)
        for form in self._distinct_forms():
            for sent in form.presses():
                every = sent + form.unticked
                for i, (name, _) in enumerate(every):
                    if name == "csrfmiddlewaretoken":
                        continue
                    for value in SWEPT_VALUES:
                        fields = [*every[:i], (name, value), *every[i + 1 :]]
                        if form.method == "POST":
                            yield Request(form.persona, "POST", form.action, _data(fields))
                        else:
                            query = "?" + urlencode(fields)
                            yield Request(form.persona, "GET", form.action + query)
        for route in self.routes:
            if route.template.startswith(_ADMIN):
                continue
            for name in route.params:
                for value in hostile_values(name):
                    values = {n: self.real.get(n, ["1"])[0] for n in route.params} | {name: value}
                    path = fill(route, values)
                    yield Request("host", "GET", path)
                    yield Request("host", "POST", path, {"version": "1"})
        for path in ("/nothing-here/", "/accounts/login/", fill(self.routes[0], {})):
            for persona in ("visitor", "host"):
                for odd in range(7):
                    yield self._odd_body(persona, path, odd)

    def _distinct_forms(self) -> list[Form]:
        """One form of each kind the pages show: the same address (its numbers aside), method
        and fields."""
        kinds: dict[tuple[str, str, tuple[str, ...]], Form] = {}
        for form in self.forms:
            names = sorted(name for name, _ in form.fields + form.buttons + form.unticked)
            key = (form.method, re.sub(r"[0-9]+", "N", form.action), tuple(names))
            kinds.setdefault(key, form)
        return list(kinds.values())

    def learn(self, forms: list[Form]) -> None:
        self.forms.extend(forms)
        self.field_names.update(name for form in forms for name, _ in form.fields + form.unticked)

    def next(self) -> Request:
        roll = self.rng.random()
        if roll < 0.35 and self.forms:
            return self._bent_form()
        if roll < 0.85:
            return self._on_a_route()
        return self._odd()

    def _persona(self) -> str:
        return self.rng.choice(PERSONAS)

    def _value(self) -> str:
        return self.rng.choice(VALUES)

    def _path(self) -> str:
        route = self.rng.choice(self.routes)
        values = {}
        for name in route.params:
            real = self.real.get(name) or []
            hostile = self.rng.random() < 0.3 or not real
            values[name] = self.rng.choice(hostile_values(name) if hostile else real)
        path = fill(route, values)
        if self.rng.random() < 0.3:
            names = self.rng.sample(sorted(self.field_names), k=self.rng.randint(1, 3))
            path += "?" + urlencode([(n, self._value()) for n in names])
        return path

    def _fields(self) -> dict[str, object]:
        names = self.rng.sample(sorted(self.field_names), k=self.rng.randint(0, 5))
        data: dict[str, object] = {n: self._value() for n in names}
        if self.rng.random() < 0.2:
            data[self.rng.choice(sorted(self.field_names))] = [self._value(), self._value()]
        return data

    def _headers(self) -> dict[str, str]:
        return dict(self.rng.choice(HEADERS)) if self.rng.random() < 0.4 else {}

    def _on_a_route(self) -> Request:
        method = self.rng.choices(METHODS, weights=(45, 35, 5, 4, 4, 4, 3))[0]
        data = self._fields() if method in {"POST", "PUT", "PATCH"} else None
        content_type = None if method == "POST" or data is None else "application/json"
        body: dict[str, object] | str | None = data
        if content_type is not None:
            body = json.dumps(data)
        return Request(self._persona(), method, self._path(), body, content_type, self._headers())

    def _bent_form(self) -> Request:
        form = self.rng.choice(self.forms)
        fields = form.pressed(self.rng) + self.rng.sample(
            form.unticked, k=self.rng.randint(0, len(form.unticked))
        )
        bend = self.rng.randrange(5)
        if bend == 0 and fields:  # a field's value replaced
            i = self.rng.randrange(len(fields))
            fields[i] = (fields[i][0], self._value())
        elif bend == 1 and fields:  # a field left out
            fields.pop(self.rng.randrange(len(fields)))
        elif bend == 2:  # a field sent twice, or one the form does not have
            fields.append((self.rng.choice(sorted(self.field_names)), self._value()))
        elif bend == 3:  # every value hostile
            fields = [(name, self._value()) for name, _ in fields]
        data = _data(fields)
        persona = form.persona if self.rng.random() < 0.7 else self._persona()
        path = form.action
        if (m := _GAME_IN_PATH.match(path)) is not None and self.rng.random() < 0.3:
            game = self.rng.choice(self.real["game_id"] + list(HOSTILE_NUMBERS[:6]))
            path = path[: m.start(1)] + game + path[m.end(1) :]
        if form.method == "GET":
            return Request(persona, "GET", path + "?" + urlencode(fields), None, None, {})
        return Request(persona, "POST", path, data, None, self._headers())

    def _odd(self) -> Request:
        path, persona = self._path(), self._persona()
        odd = self.rng.randrange(8)
        if odd == 7:
            headers = dict(self.rng.choice(HEADERS))
            return Request(persona, self.rng.choice(METHODS), path, None, None, headers)
        return self._odd_body(persona, path, odd)

    @staticmethod
    def _odd_body(persona: str, path: str, odd: int) -> Request:
        """One of seven bodies and queries no page sends."""
        if odd == 0:
            data: dict[str, object] = {f"f{i}": "x" for i in range(1500)}
            return Request(persona, "POST", path, data, csrf=True)
        if odd == 1:
            return Request(persona, "POST", path, {"a": "x" * 3_000_000}, csrf=True)
        if odd == 2:
            return Request(persona, "POST", path, b"\xff\xfe=\xff&held=\xc3", _FORM, csrf=True)
        if odd == 3:
            garbage = b"--x\r\ngarbage"
            return Request(persona, "POST", path, garbage, "multipart/form-data", csrf=True)
        if odd == 4:
            body = b"--x\r\nContent-Disposition: form-data\r\n\r\nv\r\n--x--"
            multipart = "multipart/form-data; boundary=x"
            return Request(persona, "POST", path, body, multipart, csrf=True)
        if odd == 5:
            return Request(persona, "GET", path.split("?")[0] + "?q=" + "x" * 4096)
        return Request(persona, "POST", path, "not json", "application/json", csrf=True)


_FORM = "application/x-www-form-urlencoded"
_ADMIN = "/admin/"
_GAME_IN_PATH = re.compile(r"/play/([0-9]+)/")


def _data(fields: list[tuple[str, str]]) -> dict[str, object]:
    """Form fields as the test client sends them (a name given twice sends both values)."""
    data: dict[str, list[str]] = {}
    for name, value in fields:
        data.setdefault(name, []).append(value)
    return dict(data)
