"""Real-browser tests: Playwright drives Debian's Chromium against pytest-django's live server.

Every test in this folder is marked ``browser``. Chromium comes from the system
(``apt-get install chromium``), never from Playwright's own download. Without it the tests are
skipped, except on CI (``CI`` set), where a missing browser is a failure.

The helpers at the bottom (``settle``, ``sign_up``, ``log_in``...) are shared by the test
modules of this folder.
"""

from __future__ import annotations

import os
import re
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest
from django.core import mail
from playwright.sync_api import BrowserContext, ConsoleMessage, Page, Response, expect

HERE = Path(__file__).resolve().parent
CHROMIUM = Path("/usr/bin/chromium")
CHROMIUM_MISSING = (
    "Chromium not found: install it with `apt-get install chromium` (as root) "
    "to run the browser tests"
)
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]
from tests.browser.asgi_server import AsgiLiveServer  # noqa: E402
from tests.factories import PASSWORD, make_user  # noqa: E402

# Playwright waits at most this long for one condition; a page of this site answers in ms.
expect.set_options(timeout=10_000)


# --- Collection: mark, and skip or fail without Chromium -------------------------------------


def _in_this_folder(item: pytest.Item) -> bool:
    return HERE in Path(str(item.path)).resolve().parents


@pytest.hookimpl(trylast=True)
def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """Mark the browser tests, and run them after every other test of the session.

    Once Playwright has started, its event loop stays current in the main thread until the
    session ends, and the ORM then needs ``DJANGO_ALLOW_ASYNC_UNSAFE`` (see below). Running the
    browser tests last keeps both away from the other tests, some of which start ``manage.py``
    subprocesses that would inherit the variable (``check --deploy`` rejects it).
    """
    browser_items = [item for item in items if _in_this_folder(item)]
    for item in browser_items:
        item.add_marker(pytest.mark.browser)
        # live_server needs a database that other threads see: real transactions.
        item.add_marker(pytest.mark.django_db(transaction=True))
    others = [item for item in items if not _in_this_folder(item)]
    items[:] = others + browser_items


@pytest.fixture(scope="session", autouse=True)
def _allow_orm_next_to_playwright() -> Iterator[None]:
    """Let the ORM run while Playwright's sync API keeps an event loop running in this thread.

    Otherwise Django takes every ORM call of a test body or fixture for one made from async
    code (``SynchronousOnlyOperation``). Set before Playwright starts (autouse session fixtures
    come first) and removed once the session ends.
    """
    previous = os.environ.get("DJANGO_ALLOW_ASYNC_UNSAFE")
    os.environ["DJANGO_ALLOW_ASYNC_UNSAFE"] = "true"
    yield
    if previous is None:
        os.environ.pop("DJANGO_ALLOW_ASYNC_UNSAFE", None)
    else:
        os.environ["DJANGO_ALLOW_ASYNC_UNSAFE"] = previous


@pytest.fixture(scope="session")
def chromium_path() -> str:
    """The system Chromium; skips the browser tests without it (fails them on CI)."""
    if CHROMIUM.exists():
        return str(CHROMIUM)
    if os.environ.get("CI"):
        pytest.fail(CHROMIUM_MISSING, pytrace=False)
    pytest.skip(CHROMIUM_MISSING)


@pytest.fixture(scope="session", autouse=True)
def _require_chromium(chromium_path: str) -> None:
    """Decide skip/fail before any page, server or database is set up."""


@pytest.fixture(scope="session")
def browser_type_launch_args(
    browser_type_launch_args: dict[str, Any], chromium_path: str
) -> dict[str, Any]:
    return {
        **browser_type_launch_args,
        "executable_path": chromium_path,
        "args": [*browser_type_launch_args.get("args", []), *CHROMIUM_ARGS],
    }


@pytest.fixture(scope="session")
def browser_context_args(browser_context_args: dict[str, Any]) -> dict[str, Any]:
    return {**browser_context_args, "viewport": {"width": 1280, "height": 900}, "locale": "en-US"}


# --- The site and the browser's complaints ------------------------------------------------


@pytest.fixture(scope="session")
def live_server() -> Iterator[AsgiLiveServer]:
    """The site under uvicorn (ASGI), as production serves the game's streams."""
    server = AsgiLiveServer()
    yield server
    server.stop()


@pytest.fixture
def site(live_server: Any, transactional_db: None) -> str:
    """The live server's root URL, without the trailing slash."""
    return str(live_server.url).rstrip("/")


IGNORED = [re.compile(r"favicon", re.IGNORECASE)]


@dataclass
class BrowserProblems:
    """Console errors, CSP violations and uncaught exceptions seen by the watched contexts."""

    seen: list[str] = field(default_factory=list)
    allowed: list[re.Pattern[str]] = field(default_factory=lambda: list(IGNORED))
    checked: bool = False

    def watch(self, context: BrowserContext) -> BrowserContext:
        context.on("console", self._on_console)
        context.on("weberror", lambda error: self.seen.append(f"uncaught: {error.error}"))
        return context

    def allow(self, pattern: str) -> None:
        """Expect messages matching ``pattern`` (a regular expression) in this test."""
        self.allowed.append(re.compile(pattern, re.IGNORECASE))

    def _on_console(self, message: ConsoleMessage) -> None:
        text = message.text
        location = message.location.get("url", "") if message.location else ""
        worrying = message.type == "error" or "Content Security Policy" in text
        if worrying and not any(p.search(text) or p.search(location) for p in self.allowed):
            self.seen.append(f"console.{message.type}: {text} ({location})")

    def assert_none(self) -> None:
        self.checked = True
        assert self.seen == [], "the browser reported problems:\n" + "\n".join(self.seen)


@pytest.fixture
def problems() -> Iterator[BrowserProblems]:
    found = BrowserProblems()
    yield found
    if not found.checked:
        found.assert_none()


@pytest.fixture
def context(
    new_context: Callable[..., BrowserContext], problems: BrowserProblems
) -> BrowserContext:
    return problems.watch(new_context())


@pytest.fixture
def no_js_page(new_context: Callable[..., BrowserContext], problems: BrowserProblems) -> Page:
    return problems.watch(new_context(java_script_enabled=False)).new_page()


# --- Shared steps ------------------------------------------------------------------------------

SETTLED = """() => !document.querySelector(
  '.htmx-request, .htmx-swapping, .htmx-settling, .htmx-added')"""


def settle(page: Page) -> None:
    """Wait until htmx has no request in flight and has finished swapping and settling."""
    page.wait_for_function(SETTLED)


def post(page: Page, path_part: str, action: Callable[[], object]) -> Response:
    """Do ``action``, wait for the POST to a URL containing ``path_part`` and for htmx to settle."""
    with page.expect_response(
        lambda r: r.request.method == "POST" and path_part in r.url
    ) as answer:
        action()
    response = answer.value
    settle(page)
    return response


def assert_assets_loaded(page: Page, *, first_page: bool = True) -> None:
    """The stylesheets applied and htmx runs: the static files are served.

    On the first page of a browser context every static file came over the network, so its
    status is checked too; later pages may take them from the cache.
    """
    sheets = page.evaluate("() => [...document.styleSheets].map(s => [s.href, s.cssRules.length])")
    assert len(sheets) == 1, sheets  # one stylesheet blocks the first paint, not four
    assert all(rules > 0 for _, rules in sheets), sheets
    assert page.evaluate("() => typeof window.htmx") == "object"
    # The stylesheet really applies: the skip link sits off screen.
    assert (
        page.evaluate("() => getComputedStyle(document.querySelector('.skip-link')).position")
        == "absolute"
    )
    if not first_page:
        return
    statics = page.evaluate(
        """() => performance.getEntriesByType('resource')
            .filter(e => e.name.includes('/static/'))
            .map(e => [e.name.split('/static/')[1], e.responseStatus])"""
    )
    loaded = {name for name, status in statics if status == 200}
    assert {"css/site.css", "js/site.js"} <= loaded, statics
    assert any(name.startswith("django_htmx/htmx") for name in loaded), statics


def sign_up(
    page: Page, site: str, username: str, display_name: str, *, confirm: bool = True
) -> None:
    """Sign up through the form; then, unless ``confirm`` is off, open the link mailed to the
    new address (trial games wait for it) and come back to the games page."""
    page.goto(f"{site}/accounts/signup/")
    page.fill("#id_username", username)
    page.fill("#id_display_name", display_name)
    page.fill("#id_email", f"{username}@example.com")
    page.fill("#id_password1", PASSWORD)
    page.fill("#id_password2", PASSWORD)
    page.get_by_role("button", name="Sign up").click()
    expect(page).to_have_url(f"{site}/play/")
    expect(page.get_by_role("heading", level=1)).to_have_text(f"Hello, {display_name}")
    if confirm:
        confirm_email(page, site, f"{username}@example.com")
        page.goto(f"{site}/play/")


def confirm_email(page: Page, site: str, address: str) -> None:
    """Open the confirmation link mailed to ``address``, as its owner would from the inbox.

    The tests' mailer keeps mail in ``django.core.mail.outbox``, in this process, where the
    live server runs too.
    """
    sent = [m for m in getattr(mail, "outbox", []) if address in m.to]
    links = [re.search(r"https?://[^/\s]+(/accounts/confirm/\S+/)", m.body) for m in sent]
    found = [link.group(1) for link in links if link]
    assert found, f"no confirmation link was mailed to {address}"
    page.goto(site + found[-1])
    expect(page.get_by_role("heading", level=1)).to_have_text("Your e-mail address is confirmed")


def make_player(username: str, display_name: str) -> Any:
    return make_user(username, display_name=display_name)


def log_in(page: Page, site: str, username: str) -> None:
    page.goto(f"{site}/accounts/login/")
    page.fill("#id_username", username)
    page.fill("#id_password", PASSWORD)
    page.get_by_role("button", name="Log in").click()
    expect(page).to_have_url(f"{site}/play/")


def start_game(page: Page, site: str) -> int:
    """From the dashboard, start a classic game; the id of the new game."""
    page.get_by_role("button", name="Start a game of Classic Yahtzee").click()
    expect(page).to_have_url(re.compile(rf"^{re.escape(site)}/play/\d+/$"))
    expect(page.locator(".game-round")).to_have_text(re.compile(r"Round\s+1\s+of\s+13"))
    return int(page.url.rstrip("/").rsplit("/", 1)[1])
