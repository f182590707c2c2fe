"""The scale-out scenario's client processes (no Django here: the address, a name and a
password): players who log in through the proxy and play whole solo games, two players at an
online game, and the limits (trial, serials, logins), each request through ``bench.client``."""

from __future__ import annotations

import re
import secrets
import time
from dataclasses import dataclass, field, replace

from accounts.models import TRIAL_GAMES
from bench.client import HTMX, Client, Recorder, Response, Sample
from bench.streams import Listener, StreamPlan
from bench.turns import (
    Recovery,
    Seat,
    Step,
    can_roll,
    game_id_from,
    game_over,
    play_turn,
    version_of,
)

PASSWORD = "scale-out-bench-password-7"
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
PUSHED_WITHIN = 10.0  # seconds a turn may take to reach the other player's stream (a node's
# stream worker killed meanwhile: the stream comes back through the other node)


@dataclass(frozen=True)
class Plan:
    port: int
    host_header: str
    username: str
    seconds: float
    csrf_cookie: str
    partner: str = ""  # set: this process plays online games, hosting this player
    warmup_seconds: float = 1.0
    streams: bool = False  # each online player's page holds the game's stream through nginx


@dataclass
class Played:
    """What one client process saw."""

    samples: list[Sample] = field(default_factory=list)
    acknowledged: list[tuple[int, int]] = field(default_factory=list)  # (game, version) of a 200
    nodes: dict[str, int] = field(default_factory=dict)  # requests answered per node
    finished_games: int = 0
    stale_304s: int = 0  # an update check that said "unchanged" for a game that had moved
    session_lost: int = 0  # a signed-in page that came back signed out
    trial_games: int | None = None  # games the trial player could start (trial client only)
    online_games: int = 0  # two-player games opened, joined and started over HTTP
    serial_refused_at: int | None = None  # the wrong serial first answered 429 (limits client)
    locked_out: bool = False  # the right password refused after the failure limit
    pushed_ms: list[float] = field(default_factory=list)  # a turn's end on the other's stream
    push_missed: int = 0  # turns the other player's stream never told (within PUSHED_WITHIN)
    stream_reconnects: int = 0  # streams broken (a worker killed) and opened again


_CSRF_INPUT = re.compile(r'name="csrfmiddlewaretoken" value="([^"]+)"')


class Player:
    """One player's browser, reduced: a ``bench.client.Client`` to the proxy (the cookies, the
    CSRF token), recording into ``played`` (shared by the players of one process)."""

    def __init__(self, plan: Plan, played: Played | None = None) -> None:
        self.plan = plan
        self.played = played if played is not None else Played()
        recorder = Recorder(
            samples=self.played.samples, tally_header="X-Bench-Node", tally=self.played.nodes
        )
        self.client = Client(
            "127.0.0.1",
            plan.port,
            host_header=plan.host_header,
            cookies={plan.csrf_cookie: secrets.token_hex(16)},
            csrf_cookie=plan.csrf_cookie,
            timeout=60,
            # An answer broken off mid-way (its worker killed while nginx passed it on): to the
            # player, as cut off as a 502, and nothing acknowledged.
            cut_off=KILLED,
            recorder=recorder,
        )

    @property
    def recording(self) -> bool:
        return self.client.recorder.recording

    @recording.setter
    def recording(self, value: bool) -> None:
        self.client.recorder.recording = value

    def request(
        self,
        kind: str,
        method: str,
        url: str,
        *,
        form: dict[str, object] | None = None,
        headers: dict[str, str] | None = None,
        retry: bool = False,
    ) -> Response:
        """One request; with ``retry``, sent again (up to five times) while a killed worker
        cuts it off: for reads, and for writes whose repetition does no harm."""
        for _ in range(5 if retry else 1):
            answer = self.client.request(kind, method, url, form=form, headers=headers)
            if answer.status != KILLED:
                break
        return answer

    def listen(self, game_id: int, since: int) -> Listener:
        """This player's page's stream of the game, open (and reopened) until closed."""
        cookie = "; ".join(f"{k}={v}" for k, v in self.client.cookies.items())
        plan = StreamPlan("127.0.0.1", self.plan.port, self.plan.host_header, cookie)
        listener = Listener(plan, game_id, since)
        listener.start()
        return listener

    def log_in(self, *, password: str = PASSWORD, expect: int | None = 302) -> int:
        page = self.request("login_page", "GET", "/accounts/login/", retry=True)
        found = _CSRF_INPUT.search(page.text)
        if page.status != 200 or not found:
            raise RuntimeError(f"the login page answered {page.status}")
        form = {
            "username": self.plan.username,
            "password": password,
            "csrfmiddlewaretoken": found[1],
        }
        status = self.request("login", "POST", "/accounts/login/", form=form, retry=True).status
        if expect is not None and status != expect:
            raise RuntimeError(f"logging in answered {status}, not {expect}")
        return status

    def signed_in(self) -> bool:
        """False only for a page that came back signed out (other answers count as errors)."""
        page = self.request(FRONT, "GET", "/", retry=True)
        return page.status != 200 or "Log out" in page.text

    def new_game(self) -> int:
        # A start cut off may have made a game nobody plays: harmless, and replayed like any.
        answer = self.request(NEW_GAME, "POST", "/play/new/", form={"kind": "classic"}, retry=True)
        location = answer.headers.get("location", "")
        game_id = game_id_from(location)
        if answer.status != 302 or game_id is None:
            raise RuntimeError(f"starting a game answered {answer.status} ({location or None})")
        return game_id

    def game_page(self, game_id: int, etag: str, kind: str) -> tuple[int, str, str]:
        page = self.request(
            kind,
            "GET",
            f"/play/{game_id}/",
            headers=HTMX | ({"If-None-Match": etag} if etag else {}),
            retry=True,
        )
        return page.status, page.headers.get("etag", etag), page.text

    def acknowledge(self, seat: Seat, step: Step) -> None:
        """A move answered with the version it made: it must be in the game's log."""
        if step.version is not None:
            self.played.acknowledged.append((seat.game_id, step.version))

    def turn(self, game_id: int, version: int) -> tuple[int | None, bool]:
        """Two rolls and a score in an online game: the version after it, and whether the game
        is over; ``None`` when the turn could not be played (then a new game is opened)."""
        seat = Seat(self.client, game_id, version)
        done = play_turn(seat, after=lambda step: self.acknowledge(seat, step), recover=self.resync)
        return done.version, done.over

    def resync(self, seat: Seat) -> Recovery:
        """Cut off: read where the game stands. Neither a box to fill nor a roll to make means
        the turn has passed: the score went through before the cut."""
        status, _, page = self.game_page(seat.game_id, "", "resync")
        if status != 200 or version_of(page) is None or game_over(page):
            return "lost"
        seat.catch_up(page)
        return "passed" if not seat.boxes and not can_roll(page) else "again"

    def trial(self) -> int:
        """Start games until the trial says no; how many started."""
        started = 0
        for _ in range(TRIAL_GAMES + 2):
            answer = self.request(NEW_GAME, "POST", "/play/new/", form={"kind": "classic"})
            if (
                answer.status == 302
                and game_id_from(answer.headers.get("location", "")) is not None
            ):
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
        seat = Seat(self.client, game_id, version_of(page) or 0)
        warm_until = time.perf_counter() + plan.warmup_seconds
        end = warm_until + plan.seconds
        while (now := time.perf_counter()) < end:
            self.recording = now >= warm_until
            if not self.signed_in():
                played.session_lost += 1
            step = seat.move()
            self.acknowledge(seat, step)
            if step.ok and step.move == ROLL:
                continue
            if step.ok and step.over:
                played.finished_games += 1
                seat, etag = Seat(self.client, self.new_game()), ""
                continue
            if step.ok:
                # The game moved on: the old tag must not answer 304, on either node.
                status, new_etag, page = self.game_page(seat.game_id, etag, GAME_PAGE)
                if status == 304:
                    played.stale_304s += 1
                etag, seat.version = new_etag, version_of(page) or seat.version
                self.game_page(seat.game_id, etag, UPDATE_CHECK)
                continue
            # Refused or cut off (a killed worker): read where the game stands, go on from there.
            status, etag, page = self.game_page(seat.game_id, "", "resync")
            if game_over(page):
                seat, etag = Seat(self.client, self.new_game()), ""
                continue
            seat.catch_up(page)
        return played


_JOIN = re.compile(r"/play/join/([\w-]+)/")


class Table:
    """Two players at one online game, each with a session of their own: the host opens the
    game with one invitation, the guest joins by its link, the host starts; then turn by turn,
    the waiting player's update check answering 304 until the other has scored."""

    def __init__(self, plan: Plan) -> None:
        self.host = Player(plan)
        # One record for the table.
        self.guest = Player(replace(plan, username=plan.partner), self.host.played)

    def open(self) -> int:
        host, guest = self.host, self.guest
        opened = host.request(
            NEW_GAME, "POST", "/play/new/", form={"kind": "classic", "invites": 1}, retry=True
        )
        game_id = game_id_from(opened.headers.get("location", ""))
        if opened.status != 302 or game_id is None:
            raise RuntimeError(f"opening an online game answered {opened.status}")
        self.host.played.online_games += 1
        room = host.request("room", "GET", f"/play/{game_id}/", retry=True)
        token = _JOIN.search(room.text)
        if room.status != 200 or token is None:
            raise RuntimeError(f"the waiting room answered {room.status} with no invitation link")
        joined = guest.request("join", "POST", f"/play/join/{token[1]}/", form={}, retry=True)
        if joined.status != 302:
            raise RuntimeError(f"joining answered {joined.status}")
        status = host.request(
            "start", "POST", f"/play/{game_id}/start/", form={}, retry=True
        ).status
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
            seats = (self.host, self.guest)
            version = version_of(page) or 0
            streams = {id(p): p.listen(game_id, version) for p in seats} if plan.streams else {}
            try:
                self.turns(game_id, version, seats, tags, streams, warm_until, end)
            finally:
                for listener in streams.values():
                    listener.close()
                    played.stream_reconnects += listener.reconnects
        return played

    def turns(
        self,
        game_id: int,
        version: int,
        seats: tuple[Player, Player],
        tags: dict[int, str],
        streams: dict[int, Listener],
        warm_until: float,
        end: float,
    ) -> None:
        """Turn after turn until the game ends or the time is up."""
        played, turn = self.host.played, 0
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
            if streams:  # the other player's page hears of the turn by its stream
                acked = time.perf_counter()
                heard = streams[id(waiter)].heard_by(moved, PUSHED_WITHIN)
                if heard is None:
                    played.push_missed += 1
                elif waiter.recording:
                    played.pushed_ms.append(max(0.0, heard - acked) * 1000)
            # The other player's check after the move: the game has changed.
            status, tags[id(waiter)], _page = waiter.game_page(game_id, tags[id(waiter)], GAME_PAGE)
            if status == 304:
                played.stale_304s += 1
            _, tags[id(mover)], _ = mover.game_page(game_id, tags[id(mover)], GAME_PAGE)
            if over:
                played.finished_games += 1
                break
            turn += 1


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
        player.request(
            "serial", "POST", "/accounts/serial/", form={"serial": unknown_serial}
        ).status
        for _ in range(serial_limit + 1)
    ]
    played.serial_refused_at = statuses.index(429) + 1 if 429 in statuses else None
    stranger = Player(replace(plan, username=plan.username + "-locked"))
    for _ in range(login_limit):
        stranger.log_in(password="not-the-password", expect=None)
    played.locked_out = stranger.log_in(expect=None) == 429
    return played
