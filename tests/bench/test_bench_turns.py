"""The bench's one HTTP client and its one turn, against the site served by Django's live server:
a turn is a roll, a second roll holding two dice, then the first open box scored, each request
timed and recorded; and the client's cookies, CSRF token, cut-offs and kept connection."""

from __future__ import annotations

import http.server
import socket
import threading
from collections.abc import Iterator
from typing import Any
from urllib.parse import urlsplit

import pytest
from django.conf import settings

from accounts.models import User
from bench import http_scenario, turns
from bench.client import Client, Recorder, parse_cookies
from bench.scenarios import allowed_host
from games.models import Move
from games.tables import services

# Committed data: the live server's thread reads the test database through its own connection.
pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture
def site_client(live_server: Any, player: User) -> Client:
    """A client of the live server with the player's session and a CSRF secret, as the HTTP
    scenario makes them; recording from the start."""
    player.confirm_zero = False  # a zero scored at once: the first open box may score nothing
    player.save(update_fields=["confirm_zero"])
    address = urlsplit(live_server.url)
    secret = "a" * 32
    cookie = http_scenario.cookie_header(http_scenario.session_cookie(player), secret)
    return Client(
        str(address.hostname),
        int(address.port or 80),
        host_header=allowed_host(),
        cookies=parse_cookies(cookie),
        csrf_cookie=settings.CSRF_COOKIE_NAME,
        recorder=Recorder(recording=True),
    )


def test_a_turn_is_two_rolls_then_the_first_open_box_scored(
    site_client: Client, player: User
) -> None:
    game = services.start_game(owner=player)
    seat = turns.Seat(site_client, game.pk)

    turn = turns.play_turn(seat)

    assert [step.move for step in turn.steps] == [turns.ROLL, turns.ROLL, turns.SCORE]
    assert [step.status for step in turn.steps] == [200, 200, 200]
    assert [step.version for step in turn.steps] == [1, 2, 3]
    assert turn.version == 3 and not turn.over
    assert all(step.sent < step.acked and step.seconds > 0 for step in turn.steps)
    # Each request recorded under its kind, with its status and its time.
    recorded = site_client.recorder.samples
    assert [(s.kind, s.status) for s in recorded] == [("roll", 200), ("roll", 200), ("score", 200)]
    assert [s.seconds for s in recorded] == [step.seconds for step in turn.steps]
    # What the game logged: all five dice rolled, then two held, then the first box offered.
    logged = list(Move.objects.filter(game=game).order_by("seq"))
    assert [m.action for m in logged] == ["roll", "roll", "score"]
    assert not any(logged[0].held) and logged[1].held == [True, True, False, False, False]
    assert logged[2].box == turn.steps[1].boxes[0].split(":")[0]
    assert (seat.version, seat.rolls, seat.boxes) == (3, 0, [])


def test_a_seat_steps_one_move_at_a_time_under_the_kinds_it_is_given(
    site_client: Client, player: User
) -> None:
    game = services.start_game(owner=player, guests=["Ann"])
    seat = turns.Seat(site_client, game.pk, kinds=("roll6", "score6"))

    moves = [seat.next_move]
    for _ in range(3):
        assert seat.move().ok
        moves.append(seat.next_move)

    assert moves == [turns.ROLL, turns.ROLL, turns.SCORE, turns.ROLL]
    assert [s.kind for s in site_client.recorder.samples] == ["roll6", "roll6", "score6"]


def test_a_refused_move_leaves_the_seat_and_ends_a_turn_without_recovery(
    site_client: Client, player: User
) -> None:
    game = services.start_game(owner=player)
    seat = turns.Seat(site_client, game.pk, version=7)  # not the game's version

    turn = turns.play_turn(seat)

    assert turn.version is None and len(turn.steps) == 1
    assert turn.steps[0].status != 200 and not turn.steps[0].ok
    assert (seat.version, seat.rolls) == (7, 0)


def test_a_turn_recovers_by_catching_up_with_the_game(site_client: Client, player: User) -> None:
    game = services.start_game(owner=player)
    seat = turns.Seat(site_client, game.pk, version=7)

    def recover(seat: turns.Seat) -> turns.Recovery:
        seat.catch_up(site_client.get("resync", f"/play/{seat.game_id}/").text)
        return "again"

    turn = turns.play_turn(seat, recover=recover)

    assert [s.kind for s in site_client.recorder.samples] == [
        "roll", "resync", "roll", "roll", "score",
    ]  # fmt: skip
    assert turn.version == 3


# --- The client alone, against a small server of its own -------------------------------------


class _Echo(http.server.BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"  # keeps connections open
    peers: set[tuple[str, int]] = set()

    def do_POST(self) -> None:
        length = int(self.headers.get("Content-Length", 0))
        body = self.rfile.read(length)
        self.peers.add(self.client_address)
        text = f"{self.headers['Cookie']}|{self.headers.get('X-CSRFToken')}|{body.decode()}"
        data = text.encode()
        self.send_response(200)
        self.send_header("Set-Cookie", "csrftoken=rotated; Path=/")
        self.send_header("Set-Cookie", "extra=1; Path=/")
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)

    def log_message(self, format: str, *args: Any) -> None:
        pass


@pytest.fixture
def echo() -> Iterator[int]:
    _Echo.peers = set()
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), _Echo)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield server.server_address[1]
    server.shutdown()
    server.server_close()


def test_the_client_sends_its_cookies_and_csrf_token_and_keeps_what_it_is_set(echo: int) -> None:
    client = Client(
        "127.0.0.1", echo, host_header="x", cookies={"sessionid": "s", "csrftoken": "t"}
    )

    first = client.post("a", "/", {"version": 3, "held": ["0", "1"]})
    second = client.post("a", "/", {})

    assert first.text == "sessionid=s; csrftoken=t|t|version=3&held=0&held=1"
    assert second.text == "sessionid=s; csrftoken=rotated; extra=1|rotated|"
    assert len(_Echo.peers) == 2  # a connection a request, unless asked to keep it


def test_a_kept_connection_serves_every_request(echo: int) -> None:
    client = Client("127.0.0.1", echo, host_header="x", keep_alive=True)

    for _ in range(3):
        assert client.post("a", "/", {}).status == 200
    client.close()

    assert len(_Echo.peers) == 1


def test_a_broken_connection_is_recorded_as_cut_off_or_raised() -> None:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]  # nothing listens there once closed
    recorder = Recorder(recording=True)
    cut = Client("127.0.0.1", port, host_header="x", cut_off=502, recorder=recorder)

    answer = cut.get("front", "/")

    assert answer.cut_off and answer.status == 502
    assert [(s.kind, s.status) for s in recorder.samples] == [("front", 502)]
    with pytest.raises(OSError):
        Client("127.0.0.1", port, host_header="x").get("front", "/")


def test_parse_cookies_reads_a_cookie_header() -> None:
    assert parse_cookies("a=1; b=x=y;  c=") == {"a": "1", "b": "x=y", "c": ""}
    assert parse_cookies("") == {}
