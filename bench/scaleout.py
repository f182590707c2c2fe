"""The scale-out scenario: nginx (with ``deploy/proxy_headers.conf``) in front of gunicorn nodes
(``deploy/gunicorn.conf.py``) on loopback ports, all on this process's database and cache, and
client processes that log in and play whole solo games through the proxy, so their requests
alternate between the nodes. Two nodes on PostgreSQL (with Redis), one on SQLite (``NODES``).

It checks what one node would guarantee: a session made on one node is honoured on the other,
a trial account starts exactly its trial games, and the update check (an ``ETag`` revalidated)
answers 304 only while the game is unchanged, whichever node answers. Afterwards every game is
replayed from its ``Move`` log through ``games.rules`` and compared with the stored cards,
totals and ``Score`` rows. The fault run is the same while a gunicorn worker is SIGKILLed every
few seconds: every acknowledged move must be in the log, every game still playable.
"""

from __future__ import annotations

import http.client
import multiprocessing
import os
import random
import re
import secrets
import shutil
import signal
import subprocess
import tempfile
import threading
import time
from collections.abc import Iterator, Sequence
from contextlib import ExitStack, contextmanager
from dataclasses import dataclass, field, replace
from pathlib import Path
from urllib.parse import urlencode

from django.conf import settings
from django.db import connection, connections

from accounts import serials
from accounts.models import TRIAL_GAMES, User
from bench import fill, http_scenario, load
from bench.output import BenchError, Console
from bench.scenarios import allowed_host
from games import rules, store
from games.errors import GameError
from games.models import Game, GameStatus, Move, Score, Seat
from games.moves import ReplayMismatch
from games.play import actions as play
from games.store import replay

PREFIX = f"{fill.PREFIX}scale-"
PASSWORD = "scale-out-bench-password-7"
DEPLOY = Path(__file__).resolve().parent.parent / "deploy"
FRONT, ROLL, SCORE, GAME_PAGE, UPDATE_CHECK, NEW_GAME = (
    "front", "roll", "score", "game_page", "update_check", "new_game",
)  # fmt: skip
TITLES = {
    FRONT: "Front page (signed in)",
    ROLL: "Roll (htmx)",
    SCORE: "Score (htmx)",
    GAME_PAGE: "Game page after a move",
    UPDATE_CHECK: "Update check, 304",
    NEW_GAME: "New game",
}
EXPECTED = {UPDATE_CHECK: 304, NEW_GAME: 302, "login": 302, "join": 302, "start": 302}
KILLED = 502  # nginx's answer when the worker serving a request was killed under it
HTMX = {"HX-Request": "true"}


def nodes_for(vendor: str) -> int:
    """Two nodes on a database server; SQLite is a file on one machine, so one node."""
    return 1 if vendor == "sqlite" else 2


# --- nginx -----------------------------------------------------------------------------------


def nginx_binary() -> str | None:
    return shutil.which("nginx") or next(
        (p for p in ("/usr/sbin/nginx",) if os.access(p, os.X_OK)), None
    )


def nginx_config(folder: Path, *, port: int, upstreams: Sequence[int]) -> str:
    """A whole nginx configuration for the bench: deploy's proxy headers, loopback only."""
    for temp in ("body", "proxy", "fastcgi", "uwsgi", "scgi"):
        (folder / temp).mkdir(exist_ok=True)
    servers = "".join(
        f"        server 127.0.0.1:{p} max_fails=3 fail_timeout=5s;\n" for p in upstreams
    )
    mime = "include /etc/nginx/mime.types;" if Path("/etc/nginx/mime.types").exists() else ""
    # As root, nginx's workers would drop to "nobody", who may not enter the 0700 var/.
    user = "user root;" if os.geteuid() == 0 else ""
    return f"""{user}
worker_processes 1;
daemon off;
pid {folder}/nginx.pid;
error_log {folder}/error.log warn;
events {{ worker_connections 1024; }}
http {{
    {mime}
    access_log off;
    client_body_temp_path {folder}/body;
    proxy_temp_path {folder}/proxy;
    fastcgi_temp_path {folder}/fastcgi;
    uwsgi_temp_path {folder}/uwsgi;
    scgi_temp_path {folder}/scgi;
    upstream yahtzee_nodes {{
{servers}    }}
    server {{
        listen 127.0.0.1:{port};
        location /static/ {{
            alias {settings.STATIC_ROOT}/;
            gzip_static on;
            expires max;
        }}
        location / {{
            proxy_pass http://yahtzee_nodes;
            include {DEPLOY / "proxy_headers.conf"};
            proxy_next_upstream error timeout http_502;
            add_header X-Bench-Node $upstream_addr always;
        }}
    }}
}}
"""


@contextmanager
def nginx(binary: str, *, port: int, upstreams: Sequence[int]) -> Iterator[None]:
    with tempfile.TemporaryDirectory(prefix="bench-nginx-") as name:
        folder = Path(name)
        conf = folder / "nginx.conf"
        conf.write_text(nginx_config(folder, port=port, upstreams=upstreams))
        check = subprocess.run(
            [binary, "-t", "-p", str(folder), "-c", str(conf)], capture_output=True, text=True
        )
        if check.returncode != 0:
            raise BenchError(f"nginx refused the bench configuration: {check.stderr.strip()}")
        server = subprocess.Popen(
            [binary, "-p", str(folder), "-c", str(conf)],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
            start_new_session=True,
        )
        try:
            deadline = time.monotonic() + 10
            while not answers(port, "/healthz"):
                if server.poll() is not None or time.monotonic() > deadline:
                    log = (
                        (folder / "error.log").read_text()
                        if (folder / "error.log").exists()
                        else ""
                    )
                    raise BenchError(f"nginx did not start on port {port}: {log.strip()}")
                time.sleep(0.1)
            yield
        finally:
            server.send_signal(signal.SIGQUIT)
            try:
                server.wait(timeout=10)
            except subprocess.TimeoutExpired:
                server.kill()
                server.wait()


def answers(port: int, path: str) -> bool:
    try:
        conn = http.client.HTTPConnection("127.0.0.1", port, timeout=2)
        conn.request("GET", path, headers={"Host": allowed_host()})
        ok = conn.getresponse().status == 200
        conn.close()
        return ok
    except OSError:
        return False


# --- The players ------------------------------------------------------------------------------


def clear() -> None:
    """Delete the scenario's players and their games (as ``http_scenario.clear`` does)."""
    players = User.objects.filter(username__startswith=PREFIX)
    for game in Game.objects.filter(owner__in=players):
        game.delete()
    players.delete()


def prepare(clients: int) -> tuple[list[tuple[str, str]], str]:
    """A registered player per client, and a partner for every other client (who plays online
    games with it); one trial player (address confirmed); all with the same password."""
    clear()
    names = []
    for n in range(clients):
        pair = [f"{PREFIX}{n}", f"{PREFIX}{n}-guest" if n % 2 else ""]
        for name in filter(None, pair):
            user = http_scenario.registered_player(name, f"Scale Player {name[len(PREFIX) :]}")
            user.set_password(PASSWORD)
            user.save(update_fields=["password"])
        names.append((pair[0], pair[1]))
    trial = User.objects.create_user(
        username=f"{PREFIX}trial", display_name="Scale Trial", email="", password=PASSWORD
    )
    trial.email_confirmed = True
    trial.save(update_fields=["email_confirmed"])
    User.objects.create_user(
        username=f"{PREFIX}trial-locked", display_name="Scale Locked", password=PASSWORD
    )
    return names, trial.username


# --- One client process (no Django here: the address, a name and a password) ------------------


@dataclass(frozen=True)
class Plan:
    port: int
    host_header: str
    username: str
    seconds: float
    csrf_cookie: str
    partner: str = ""  # set: this process plays online games, hosting this player
    warmup_seconds: float = 1.0


@dataclass
class Played:
    """What one client process saw."""

    samples: list[load.Sample] = field(default_factory=list)
    acknowledged: list[tuple[int, int]] = field(default_factory=list)  # (game, version) of a 200
    nodes: dict[str, int] = field(default_factory=dict)  # requests answered per node
    finished_games: int = 0
    stale_304s: int = 0  # an update check that said "unchanged" for a game that had moved
    session_lost: int = 0  # a signed-in page that came back signed out
    trial_games: int | None = None  # games the trial player could start (trial client only)
    online_games: int = 0  # two-player games opened, joined and started over HTTP
    serial_refused_at: int | None = None  # the wrong serial first answered 429 (limits client)
    locked_out: bool = False  # the right password refused after the failure limit


_ROLL_BUTTON = re.compile(r"<button[^>]*data-roll[^>]*>")


def can_roll(page: str) -> bool:
    """Whether the game partial offers its viewer the Roll button (enabled)."""
    found = _ROLL_BUTTON.search(page)
    # "hx-disabled-elt" is another attribute: only a bare "disabled" disables the button.
    return found is not None and re.search(r"\sdisabled[\s>]", found[0]) is None


_CSRF_INPUT = re.compile(r'name="csrfmiddlewaretoken" value="([^"]+)"')


class Player:
    """One player's browser, reduced: cookies, the CSRF token, the proxy's address."""

    def __init__(self, plan: Plan) -> None:
        self.plan = plan
        self.cookies = {plan.csrf_cookie: secrets.token_hex(16)}
        self.played = Played()
        self.recording = False

    def request(
        self,
        kind: str,
        method: str,
        url: str,
        *,
        form: dict[str, object] | None = None,
        headers: dict[str, str] | None = None,
        retry: bool = False,
    ) -> tuple[int, dict[str, str], str]:
        """One request; with ``retry``, sent again (up to five times) while a killed worker
        cuts it off: for reads, and for writes whose repetition does no harm."""
        for _ in range(5 if retry else 1):
            status, answer, text = self._send(kind, method, url, form=form, headers=headers)
            if status != KILLED:
                break
        return status, answer, text

    def _send(
        self,
        kind: str,
        method: str,
        url: str,
        *,
        form: dict[str, object] | None,
        headers: dict[str, str] | None,
    ) -> tuple[int, dict[str, str], str]:
        sent = {
            "Host": self.plan.host_header,
            "Cookie": "; ".join(f"{k}={v}" for k, v in self.cookies.items()),
            "Accept": "text/html",
            **(headers or {}),
        }
        body = None
        if form is not None:
            body = urlencode(form, doseq=True).encode()
            sent["Content-Type"] = "application/x-www-form-urlencoded"
            sent["X-CSRFToken"] = self.cookies[self.plan.csrf_cookie]
        started = time.perf_counter()
        conn = http.client.HTTPConnection("127.0.0.1", self.plan.port, timeout=60)
        try:
            conn.request(method, url, body=body, headers=sent)
            response = conn.getresponse()
            raw = response.read()
        except (http.client.HTTPException, OSError):
            # The answer broke off mid-way (its worker was killed while nginx passed it on):
            # to the player, as cut off as a 502, and nothing acknowledged.
            if self.recording:
                self.played.samples.append(load.Sample(kind, KILLED, time.perf_counter() - started))
            return KILLED, {}, ""
        finally:
            conn.close()
        seconds = time.perf_counter() - started
        if self.recording:
            self.played.samples.append(load.Sample(kind, response.status, seconds))
        for name, value in response.getheaders():
            if name.lower() == "set-cookie":
                key, _, rest = value.partition("=")
                self.cookies[key.strip()] = rest.split(";", 1)[0]
        node = response.getheader("X-Bench-Node", "?")
        self.played.nodes[node] = self.played.nodes.get(node, 0) + 1
        answer = {k.lower(): v for k, v in response.getheaders()}
        return response.status, answer, raw.decode(errors="replace")

    def log_in(self, *, password: str = PASSWORD, expect: int | None = 302) -> int:
        status, _, page = self.request("login_page", "GET", "/accounts/login/", retry=True)
        found = _CSRF_INPUT.search(page)
        if status != 200 or not found:
            raise RuntimeError(f"the login page answered {status}")
        form = {
            "username": self.plan.username,
            "password": password,
            "csrfmiddlewaretoken": found[1],
        }
        status, _, _ = self.request("login", "POST", "/accounts/login/", form=form, retry=True)
        if expect is not None and status != expect:
            raise RuntimeError(f"logging in answered {status}, not {expect}")
        return status

    def signed_in(self) -> bool:
        """False only for a page that came back signed out (other answers count as errors)."""
        status, _, page = self.request(FRONT, "GET", "/", retry=True)
        return status != 200 or "Log out" in page

    def new_game(self) -> int:
        # A start cut off may have made a game nobody plays: harmless, and replayed like any.
        status, headers, _ = self.request(
            NEW_GAME, "POST", "/play/new/", form={"kind": "classic"}, retry=True
        )
        game_id = load.game_id_from(headers.get("location", ""))
        if status != 302 or game_id is None:
            raise RuntimeError(f"starting a game answered {status} ({headers.get('location')})")
        return game_id

    def game_page(self, game_id: int, etag: str, kind: str) -> tuple[int, str, str]:
        status, headers, page = self.request(
            kind,
            "GET",
            f"/play/{game_id}/",
            headers=HTMX | ({"If-None-Match": etag} if etag else {}),
            retry=True,
        )
        return status, headers.get("etag", etag), page

    def turn(self, game_id: int, version: int) -> tuple[int | None, bool]:
        """Two rolls and a score in an online game: the version after it, and whether the game
        is over; ``None`` when the turn could not be played (then a new game is opened)."""
        rolls, boxes = 0, []
        for _ in range(12):
            if rolls < 2:
                held = ["0", "1"] if rolls else []
                status, _, page = self.request(
                    ROLL, "POST", f"/play/{game_id}/roll/",
                    form={"version": version, "held": held}, headers=HTMX,
                )  # fmt: skip
                if status == 200 and (found := load.version_of(page)) is not None:
                    self.played.acknowledged.append((game_id, found))
                    version, boxes, rolls = found, load.open_boxes(page), rolls + 1
                    continue
            else:
                status, _, page = self.request(
                    SCORE, "POST", f"/play/{game_id}/score/",
                    form={"version": version, "box": boxes[0]}, headers=HTMX,
                )  # fmt: skip
                if status == 200 and (found := load.version_of(page)) is not None:
                    self.played.acknowledged.append((game_id, found))
                    return found, load.game_over(page)
            # Cut off: read where the game stands. Neither a box to fill nor a roll to make
            # means the turn has passed: the score went through before the cut.
            status, _, page = self.game_page(game_id, "", "resync")
            now = load.version_of(page)
            if status != 200 or now is None or load.game_over(page):
                return None, False
            version, boxes = now, load.open_boxes(page)
            if not boxes and not can_roll(page):
                return now, False
            rolls = 2 if boxes else 0
        return None, False

    def trial(self) -> int:
        """Start games until the trial says no; how many started."""
        started = 0
        for _ in range(TRIAL_GAMES + 2):
            status, headers, _ = self.request(
                NEW_GAME, "POST", "/play/new/", form={"kind": "classic"}
            )
            if status == 302 and load.game_id_from(headers.get("location", "")) is not None:
                started += 1
        return started

    def play(self) -> Played:
        """Whole solo games until the time is up: two rolls and a score a turn, an update check
        after each score (200 with the new version, then 304 with it)."""
        plan, played = self.plan, self.played
        self.log_in()
        if not self.signed_in():
            played.session_lost += 1
        game_id = self.new_game()
        status, etag, page = self.game_page(game_id, "", GAME_PAGE)
        version, boxes, rolls = load.version_of(page) or 0, load.open_boxes(page), 0
        warm_until = time.perf_counter() + plan.warmup_seconds
        end = warm_until + plan.seconds
        while (now := time.perf_counter()) < end:
            self.recording = now >= warm_until
            if not self.signed_in():
                played.session_lost += 1
            if rolls < 2:
                held = ["0", "1"] if rolls else []
                status, _, page = self.request(
                    ROLL, "POST", f"/play/{game_id}/roll/",
                    form={"version": version, "held": held}, headers=HTMX,
                )  # fmt: skip
                if status == 200 and (found := load.version_of(page)) is not None:
                    played.acknowledged.append((game_id, found))
                    version, boxes, rolls = found, load.open_boxes(page), rolls + 1
                    continue
            else:
                status, _, page = self.request(
                    SCORE, "POST", f"/play/{game_id}/score/",
                    form={"version": version, "box": boxes[0]}, headers=HTMX,
                )  # fmt: skip
                if status == 200 and (found := load.version_of(page)) is not None:
                    played.acknowledged.append((game_id, found))
                    if load.game_over(page):
                        played.finished_games += 1
                        game_id, etag, version, boxes, rolls = self.new_game(), "", 0, [], 0
                        continue
                    # The game moved on: the old tag must not answer 304, on either node.
                    status, new_etag, page = self.game_page(game_id, etag, GAME_PAGE)
                    if status == 304:
                        played.stale_304s += 1
                    etag, version, rolls = new_etag, load.version_of(page) or found, 0
                    self.game_page(game_id, etag, UPDATE_CHECK)
                    continue
            # Refused or cut off (a killed worker): read where the game stands, go on from there.
            status, etag, page = self.game_page(game_id, "", "resync")
            if load.game_over(page):
                game_id, etag, version, boxes, rolls = self.new_game(), "", 0, [], 0
                continue
            version = load.version_of(page) or version
            boxes = load.open_boxes(page)
            rolls = 2 if boxes else 0
        return played


_JOIN = re.compile(r"/play/join/([\w-]+)/")


class Table:
    """Two players at one online game, each with a session of their own: the host opens the
    game with one invitation, the guest joins by its link, the host starts; then turn by turn,
    the waiting player's update check answering 304 until the other has scored."""

    def __init__(self, plan: Plan) -> None:
        self.host = Player(plan)
        self.guest = Player(replace(plan, username=plan.partner))
        self.guest.played = self.host.played  # one record for the table

    def open(self) -> int:
        host, guest = self.host, self.guest
        status, headers, _ = host.request(
            NEW_GAME, "POST", "/play/new/", form={"kind": "classic", "invites": 1}, retry=True
        )
        game_id = load.game_id_from(headers.get("location", ""))
        if status != 302 or game_id is None:
            raise RuntimeError(f"opening an online game answered {status}")
        self.host.played.online_games += 1
        status, _, page = host.request("room", "GET", f"/play/{game_id}/", retry=True)
        token = _JOIN.search(page)
        if status != 200 or token is None:
            raise RuntimeError(f"the waiting room answered {status} with no invitation link")
        status, _, _ = guest.request("join", "POST", f"/play/join/{token[1]}/", form={}, retry=True)
        if status != 302:
            raise RuntimeError(f"joining answered {status}")
        status, _, _ = host.request("start", "POST", f"/play/{game_id}/start/", form={}, retry=True)
        if status != 302:
            raise RuntimeError(f"starting the online game answered {status}")
        return game_id

    def play(self) -> Played:
        plan, played = self.host.plan, self.host.played
        for player in (self.host, self.guest):
            player.log_in()
        warm_until = time.perf_counter() + plan.warmup_seconds
        end = warm_until + plan.seconds
        while time.perf_counter() < end:
            game_id = self.open()
            tags = {}
            for player in (self.host, self.guest):
                _, tags[id(player)], page = player.game_page(game_id, "", GAME_PAGE)
            seats, turn = (self.host, self.guest), 0
            version = load.version_of(page) or 0
            while (now := time.perf_counter()) < end:
                for player in seats:
                    player.recording = now >= warm_until
                mover, waiter = seats[turn % 2], seats[(turn + 1) % 2]
                # The waiting player's check: nothing has changed yet.
                waiter.game_page(game_id, tags[id(waiter)], UPDATE_CHECK)
                moved, over = mover.turn(game_id, version)
                if moved is None:
                    break  # cut off for good: a new game
                version = moved
                # The other player's check after the move: the game has changed.
                status, tags[id(waiter)], page = waiter.game_page(
                    game_id, tags[id(waiter)], GAME_PAGE
                )
                if status == 304:
                    played.stale_304s += 1
                _, tags[id(mover)], _ = mover.game_page(game_id, tags[id(mover)], GAME_PAGE)
                if over:
                    played.finished_games += 1
                    break
                turn += 1
        return played


def drive(plan: Plan) -> Played:
    return Table(plan).play() if plan.partner else Player(plan).play()


def drive_trial(plan: Plan, *, unknown_serial: str, login_limit: int, serial_limit: int) -> Played:
    """The limits, each request through the proxy (so alternating nodes): the trial's games;
    then wrong serials until refused; then, for another account, wrong passwords until the
    right one is refused too."""
    player = Player(plan)
    player.log_in()
    played = player.played
    played.trial_games = player.trial()
    statuses = [
        player.request("serial", "POST", "/accounts/serial/", form={"serial": unknown_serial})[0]
        for _ in range(serial_limit + 1)
    ]
    played.serial_refused_at = statuses.index(429) + 1 if 429 in statuses else None
    stranger = Player(replace(plan, username=plan.username + "-locked"))
    for _ in range(login_limit):
        stranger.log_in(password="not-the-password", expect=None)
    played.locked_out = stranger.log_in(expect=None) == 429
    return played


# --- The checks afterwards ---------------------------------------------------------------------


@dataclass(frozen=True)
class Replay:
    games: int
    finished: int
    moves: int
    mismatches: list[str]


def replay_games(usernames: Sequence[str]) -> Replay:
    """Every game of these players played again from its ``Move`` log through ``rules.Match``
    (``games.replay``): each move's outcome, each seat's cards, bonuses and total, and one
    ``Score`` row per finished seat (none for a game in play) must come out as stored."""
    games = Game.objects.filter(owner__username__in=usernames).order_by("pk")
    mismatches: list[str] = []
    finished = moves = 0
    for game in games:
        scores = {s.seat_id: s for s in Score.objects.filter(game=game)}
        finished += game.status == GameStatus.FINISHED
        moves += Move.objects.filter(game=game).count()
        try:
            match = replay(game)  # every move through rules.Match, each outcome checked
        except ReplayMismatch as exc:
            mismatches.append(f"game {game.pk}: {exc}")
            continue
        for seat in Seat.objects.filter(game=game).order_by("position"):
            sheet = match.sheets[seat.position]
            if [dict(c) for c in sheet.cards] != seat.cards or (
                sheet.yahtzee_bonuses != seat.yahtzee_bonuses
            ):
                mismatches.append(f"game {game.pk} seat {seat.position}: card differs from its log")
            score = scores.pop(seat.pk, None)
            if game.status == GameStatus.FINISHED and not seat.resigned:
                if seat.grand_total != sheet.grand_total:
                    mismatches.append(
                        f"game {game.pk}: total {seat.grand_total} ≠ {sheet.grand_total}"
                    )
                if score is None or score.grand_total != sheet.grand_total:
                    mismatches.append(f"game {game.pk}: Score row missing or wrong")
            elif score is not None:
                mismatches.append(f"game {game.pk}: a Score row for a game not finished")
        if scores:
            mismatches.append(f"game {game.pk}: Score rows for no seat of its own")
    return Replay(games=len(games), finished=finished, moves=moves, mismatches=mismatches)


def missing_acknowledged(acknowledged: Sequence[tuple[int, int]]) -> int:
    """Acknowledged moves (a 200 with the version the move made) with no ``Move`` row."""
    logged = set(
        Move.objects.filter(game_id__in={g for g, _ in acknowledged}).values_list("game_id", "seq")
    )
    return sum(1 for pair in set(acknowledged) if pair not in logged)


def unplayable(usernames: Sequence[str]) -> int:
    """Games in play that refuse a roll by their player (each then rolled once, in process)."""
    refused = 0
    for game in Game.objects.filter(owner__username__in=usernames, status=GameStatus.IN_PROGRESS):
        seat = Seat.objects.select_related("user").get(game=game, position=game.current_seat)
        assert seat.user is not None
        try:
            if game.rolls_used < rules.MAX_ROLLS:
                play.roll_dice(game_id=game.pk, user=seat.user, version=game.version)
            else:
                match = store.load(game_id=game.pk, user=seat.user).match()
                box = next(b for b in rules.CATEGORIES if match.can_score(seat.position, b))
                play.score_box(game_id=game.pk, user=seat.user, version=game.version, box=box)
        except (rules.IllegalMove, GameError, StopIteration):
            refused += 1
    return refused


def integrity() -> str:
    if connection.vendor != "sqlite":
        return "n/a"
    with connection.cursor() as cursor:
        cursor.execute("PRAGMA integrity_check")
        return str(cursor.fetchone()[0])


# --- The run --------------------------------------------------------------------------------


@dataclass(frozen=True)
class Run:
    """One run (plain or with faults) as the report shows it."""

    fault: bool
    nodes: int
    workers: int
    clients: int
    seconds: float
    samples: list[load.Sample]
    node_split: dict[str, int]
    finished_games: int
    online_games: int
    acknowledged: int
    missing: int
    stale_304s: int
    session_lost: int
    trial_games: int
    trial_used: int
    serial_refused_at: int | None
    locked_out: bool
    kills: int
    replay: Replay
    unplayable: int
    integrity: str
    locked: int  # "database is locked" in the nodes' logs

    @property
    def unexpected(self) -> dict[str, int]:
        """Unexpected answers by request type and status (under faults, a cut-off is expected)."""
        allowed = {KILLED} if self.fault else set()
        found: dict[str, int] = {}
        for s in self.samples:
            if s.status != EXPECTED.get(s.kind, 200) and s.status not in allowed:
                key = f"{s.kind} {s.status}"
                found[key] = found.get(key, 0) + 1
        return found

    @property
    def errors(self) -> int:
        return sum(self.unexpected.values())


def worker_pids(master: int) -> list[int]:
    try:
        return [int(p) for p in Path(f"/proc/{master}/task/{master}/children").read_text().split()]
    except OSError:
        return []


def killer(masters: Sequence[int], every: float, stop: threading.Event, kills: list[int]) -> None:
    """SIGKILL one worker of one of our gunicorn masters every ``every`` seconds."""
    rng = random.Random(7)
    while not stop.wait(every):
        pids = [pid for master in masters for pid in worker_pids(master)]
        if pids:
            pid = rng.choice(pids)
            try:
                os.kill(pid, signal.SIGKILL)
                kills.append(pid)
            except ProcessLookupError:
                pass


def run_once(*, seconds: float, clients: int, fault: bool, binary: str, console: Console) -> Run:
    nodes = nodes_for(connection.vendor)
    pairs, trial_name = prepare(clients)
    usernames = [u for u, _ in pairs]
    ports = [http_scenario.free_port() for _ in range(nodes)]
    proxy = http_scenario.free_port()
    env = {"NODES": str(nodes), "TRUSTED_PROXY_COUNT": "1", "TRUST_X_FORWARDED_PROTO": "1"}
    config = DEPLOY / "gunicorn.conf.py"
    logs = [Path(settings.BASE_DIR) / "var" / f"bench-gunicorn-{p}.log" for p in ports]
    connections.close_all()
    kills: list[int] = []
    with ExitStack() as stack:
        servers = [
            stack.enter_context(http_scenario.gunicorn(p, workers=None, config=config, env=env))
            for p in ports
        ]
        stack.enter_context(nginx(binary, port=proxy, upstreams=ports))
        workers = sum(len(worker_pids(s.pid)) for s in servers)
        host, csrf = allowed_host(), str(settings.CSRF_COOKIE_NAME)
        trial = drive_trial(
            Plan(port=proxy, host_header=host, username=trial_name, seconds=0, csrf_cookie=csrf),
            unknown_serial=serials.display(serials.new_serial()),
            login_limit=settings.AXES_FAILURE_LIMIT,
            serial_limit=settings.SERIAL_ATTEMPTS_PER_ACCOUNT,
        )
        stop = threading.Event()
        thread = threading.Thread(
            target=killer, args=([s.pid for s in servers], 3.0, stop, kills), daemon=True
        )
        plans = [
            Plan(
                port=proxy,
                host_header=host,
                username=u,
                seconds=seconds,
                csrf_cookie=csrf,
                partner=partner,
            )
            for u, partner in pairs
        ]
        try:
            with multiprocessing.get_context("fork").Pool(clients) as pool:
                # The clients are forked first: the killer's thread is never copied into them.
                if fault:
                    thread.start()
                per_client = pool.map(drive, plans)
                # Let the clients exit by themselves: the pool's terminate() would SIGTERM them,
                # and a client forked with this run's SIGTERM handler can hang on the pool's lock.
                pool.close()
                pool.join()
        finally:
            stop.set()
            if fault:
                thread.join()
    locked = sum(
        log.read_text(errors="replace").count("database is locked") for log in logs if log.exists()
    )
    acknowledged = [pair for p in per_client for pair in p.acknowledged]
    split: dict[str, int] = {}
    for p in per_client:
        for node, n in p.nodes.items():
            split[node] = split.get(node, 0) + n
    replay = replay_games(usernames)
    result = Run(
        fault=fault,
        nodes=nodes,
        workers=workers,
        clients=clients,
        seconds=seconds,
        samples=[s for p in per_client for s in p.samples],
        node_split=split,
        finished_games=sum(p.finished_games for p in per_client),
        online_games=sum(p.online_games for p in per_client),
        acknowledged=len(acknowledged),
        missing=missing_acknowledged(acknowledged),
        stale_304s=sum(p.stale_304s for p in per_client),
        session_lost=sum(p.session_lost for p in per_client),
        trial_games=trial.trial_games or 0,
        serial_refused_at=trial.serial_refused_at,
        locked_out=trial.locked_out,
        trial_used=User.objects.get(username=trial_name).trial_games_used,
        kills=len(kills),
        replay=replay,
        unplayable=unplayable(usernames),
        integrity=integrity(),
        locked=locked,
    )
    clear()
    return result


def _stop(signum: int, frame: object) -> None:
    raise SystemExit(128 + signum)


def run(*, seconds: float, clients: int, faults: bool, console: Console) -> list[Run]:
    """The plain run, then (``faults``) the fault run; none, with a message, without nginx."""
    binary = nginx_binary()
    if binary is None:
        console.line(
            "Scale-out scenario skipped: nginx is not installed "
            "(apt-get install nginx-light; --no-scaleout skips it quietly)."
        )
        return []
    nodes = nodes_for(connection.vendor)
    runs = []
    # A SIGTERM unwinds like Ctrl-C: the nodes and nginx (sessions of their own) are stopped.
    main = threading.current_thread() is threading.main_thread()
    previous = signal.signal(signal.SIGTERM, _stop) if main else None
    try:
        for fault in (False, True) if faults else (False,):
            faulty = " with faults (a worker SIGKILLed every 3 s)" if fault else ""
            console.line(
                f"Scale-out scenario{faulty}: nginx in front of {nodes} gunicorn node(s) "
                "(deploy/gunicorn.conf.py), "
                f"{clients} client processes playing whole games, {seconds:g} s ..."
            )
            try:
                runs.append(
                    run_once(
                        seconds=seconds,
                        clients=clients,
                        fault=fault,
                        binary=binary,
                        console=console,
                    )
                )
            finally:
                clear()
            print_run(runs[-1], console)
    finally:
        if main:
            signal.signal(signal.SIGTERM, previous)
    return runs


# --- The report ------------------------------------------------------------------------------


def figures(run: Run) -> dict[str, dict[str, float]]:
    by_kind: dict[str, list[load.Sample]] = {}
    for sample in run.samples:
        by_kind.setdefault(sample.kind, []).append(sample)
    result = {}
    for kind in [k for k in TITLES if k in by_kind]:
        seconds = [s.seconds for s in by_kind[kind]]
        expected = EXPECTED.get(kind, 200)
        result[kind] = {
            "requests": len(seconds),
            "rate": len(seconds) / run.seconds,
            "p50_ms": load.percentile(seconds, 0.50) * 1000,
            "p95_ms": load.percentile(seconds, 0.95) * 1000,
            "p99_ms": load.percentile(seconds, 0.99) * 1000,
            "errors": sum(
                1
                for s in by_kind[kind]
                if s.status != expected and not (run.fault and s.status == KILLED)
            ),
            "cut_off": sum(1 for s in by_kind[kind] if run.fault and s.status == KILLED),
        }
    return result


def section(run: Run) -> dict[str, object]:
    """The run for the JSON results."""
    return {
        "fault": run.fault,
        "nodes": run.nodes,
        "workers": run.workers,
        "clients": run.clients,
        "seconds": run.seconds,
        "requests_per_second": len(run.samples) / run.seconds,
        "types": figures(run),
        "node_split": run.node_split,
        "errors": run.errors,
        "finished_games": run.finished_games,
        "online_games": run.online_games,
        "unexpected": run.unexpected,
        "acknowledged_moves": run.acknowledged,
        "missing_moves": run.missing,
        "stale_304s": run.stale_304s,
        "session_lost": run.session_lost,
        "trial_games_started": run.trial_games,
        "trial_games_used": run.trial_used,
        "serial_refused_at": run.serial_refused_at,
        "locked_out": run.locked_out,
        "kills": run.kills,
        "replayed_games": run.replay.games,
        "replayed_moves": run.replay.moves,
        "replay_mismatches": run.replay.mismatches[:20],
        "unplayable_games": run.unplayable,
        "integrity_check": run.integrity,
        "database_locked": run.locked,
    }


def problems(run: Run) -> list[str]:
    """What makes the run fail: anything one node would not do."""
    found = []
    if run.errors:
        found.append(
            f"{run.errors} request(s) answered with an unexpected status: {run.unexpected}"
        )
    if run.missing:
        found.append(f"{run.missing} acknowledged move(s) missing from the log")
    if run.stale_304s:
        found.append(f"{run.stale_304s} update check(s) said unchanged for a changed game")
    if run.session_lost:
        found.append(f"{run.session_lost} signed-in page(s) came back signed out")
    if run.trial_games != TRIAL_GAMES or run.trial_used != TRIAL_GAMES:
        found.append(f"the trial started {run.trial_games} games, counted {run.trial_used}")
    if run.serial_refused_at != settings.SERIAL_ATTEMPTS_PER_ACCOUNT + 1:
        found.append(f"wrong serials were first refused at attempt {run.serial_refused_at}")
    if not run.locked_out:
        found.append("the right password still logged in after the failure limit")
    if run.replay.mismatches:
        found.append(
            f"{len(run.replay.mismatches)} replay mismatch(es): {run.replay.mismatches[:3]}"
        )
    if run.unplayable:
        found.append(f"{run.unplayable} game(s) no longer playable")
    if run.integrity not in ("ok", "n/a"):
        found.append(f"integrity_check: {run.integrity}")
    if run.locked:
        found.append(f'{run.locked} "database is locked" in the nodes\' logs')
    if run.nodes > 1 and len([n for n in run.node_split if n != "?"]) < run.nodes:
        found.append(f"requests did not reach every node: {run.node_split}")
    return found


def print_run(run: Run, console: Console) -> None:
    total = len(run.samples)
    console.line(
        f"  {total:,} requests in {run.seconds:g} s: {total / run.seconds:.1f} req/s "
        "through nginx, "
        f"{run.nodes} node(s), {run.workers} workers; {run.errors} errors"
    )
    console.line(
        f"  {'request':<26}{'n':>7}{'req/s':>8}{'p50 ms':>9}{'p95 ms':>9}{'p99 ms':>9}{'err':>5}"
        + (f"{'cut':>5}" if run.fault else "")
    )
    for kind, f in figures(run).items():
        console.line(
            f"  {TITLES[kind]:<26}{f['requests']:>7.0f}{f['rate']:>8.1f}{f['p50_ms']:>9.1f}"
            f"{f['p95_ms']:>9.1f}{f['p99_ms']:>9.1f}{f['errors']:>5.0f}"
            + (f"{f['cut_off']:>5.0f}" if run.fault else "")
        )
    split = ", ".join(f"{node}: {n}" for node, n in sorted(run.node_split.items()))
    console.line(f"  answered by: {split}")
    console.line(
        f"  sessions lost {run.session_lost}; stale 304s {run.stale_304s}; trial started "
        f"{run.trial_games} games of {TRIAL_GAMES} (counted {run.trial_used}); wrong serial "
        f"refused at attempt {run.serial_refused_at}; locked out after "
        f"{settings.AXES_FAILURE_LIMIT} wrong passwords: {run.locked_out}; "
        f'"database is locked" {run.locked}'
    )
    console.line(
        f"  replayed {run.replay.games} games ({run.replay.finished} finished, "
        f"{run.online_games} of them online two-player games, "
        f"{run.replay.moves} moves): {len(run.replay.mismatches)} mismatches; "
        f"acknowledged moves {run.acknowledged}, missing {run.missing}; "
        f"games unplayable {run.unplayable}; integrity_check {run.integrity}"
        + (f"; workers killed {run.kills}" if run.fault else "")
    )
    for problem in problems(run):
        console.failure(f"  ✗ {problem}")
