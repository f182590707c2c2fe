"""A turn played over HTTP, as the bench's clients play every one: roll, roll again holding the
first two dice, score the first box offered. And the one reading of the game's answers (the
version, the open boxes, whether the game is over) the clients go by.

``Seat`` makes one move at a time (the load interleaves other requests between them);
``play_turn`` makes a whole turn. Nothing here touches Django or the database.
"""

from __future__ import annotations

import re
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Literal

from bench.client import HTMX, Client, Response

ROLL, SCORE = "roll", "score"
HOLD = ("0", "1")  # the dice a second roll keeps
MOVES_A_TURN = 12  # at most, retries included, before play_turn gives up

# --- Reading the answers ---------------------------------------------------------------------

_VERSION = re.compile(r'name="version" value="(\d+)"')
_BOX = re.compile(r'name="box" value="([^"]+)"')
_FORM_CLASS = re.compile(r'<form id="game" class="([^"]*)"')
_GAME_URL = re.compile(r"/play/(\d+)/$")
_ROLL_BUTTON = re.compile(r"<button[^>]*data-roll[^>]*>")


def version_of(html: str) -> int | None:
    """The game's version in an answer (the hidden ``version`` field, in or out of band)."""
    found = _VERSION.search(html)
    return int(found[1]) if found else None


def open_boxes(html: str) -> list[str]:
    """The values of the score buttons an answer offers (``box`` or ``box:column``)."""
    return _BOX.findall(html)


def game_over(html: str) -> bool:
    """Whether a game partial shows a game that is no longer live (finished or abandoned)."""
    found = _FORM_CLASS.search(html)
    return found is not None and "is-live" not in found[1].split()


def game_id_from(location: str) -> int | None:
    """The game a ``/play/<id>/`` redirect points at."""
    found = _GAME_URL.search(location)
    return int(found[1]) if found else None


def can_roll(page: str) -> bool:
    """Whether the game partial offers its viewer the Roll button (enabled)."""
    found = _ROLL_BUTTON.search(page)
    # "hx-disabled-elt" is another attribute: only a bare "disabled" disables the button.
    return found is not None and re.search(r"\sdisabled[\s>]", found[0]) is None


# --- Moves -------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Step:
    """One move sent: its answer as read, and when it left and was read."""

    move: str  # ROLL or SCORE
    status: int
    version: int | None  # the version a 200 shows (None: refused, cut off, or none shown)
    boxes: tuple[str, ...]  # the boxes it offers
    over: bool  # the game is no longer live
    sent: float  # perf_counter before the request
    acked: float  # perf_counter once the answer was read
    response: Response

    @property
    def ok(self) -> bool:
        return self.version is not None

    @property
    def seconds(self) -> float:
        return self.response.seconds


class Seat:
    """A player's moves in one game: the version to send, the rolls made this turn, the boxes
    the last roll offered. A move that is answered moves the seat on; one refused leaves it."""

    def __init__(
        self,
        client: Client,
        game_id: int,
        version: int = 0,
        *,
        kinds: tuple[str, str] = (ROLL, SCORE),
    ) -> None:
        self.client, self.game_id, self.version = client, game_id, version
        self.roll_kind, self.score_kind = kinds  # what the requests are recorded as
        self.rolls = 0
        self.boxes: list[str] = []

    @property
    def next_move(self) -> str:
        return ROLL if self.rolls < 2 else SCORE

    def roll(self) -> Step:
        """Roll: all five dice on a turn's first roll, then keeping the first two."""
        held = list(HOLD) if self.rolls else []
        step = self._send(ROLL, self.roll_kind, {"version": self.version, "held": held})
        if step.version is not None:
            self.version, self.boxes, self.rolls = step.version, list(step.boxes), self.rolls + 1
        return step

    def score(self) -> Step:
        """Score the first box the last roll offered."""
        box = self.boxes[0] if self.boxes else ""
        step = self._send(SCORE, self.score_kind, {"version": self.version, "box": box})
        if step.version is not None:
            self.version, self.boxes, self.rolls = step.version, [], 0
        return step

    def move(self) -> Step:
        return self.roll() if self.next_move == ROLL else self.score()

    def catch_up(self, page: str) -> None:
        """Go on from the game as ``page`` shows it: its version (when shown), and the score
        next when it offers boxes, else a first roll."""
        shown = version_of(page)
        self.version = shown if shown is not None else self.version
        self.boxes = open_boxes(page)
        self.rolls = 2 if self.boxes else 0

    def _send(self, move: str, kind: str, form: dict[str, object]) -> Step:
        sent = time.perf_counter()
        answer = self.client.post(kind, f"/play/{self.game_id}/{move}/", form, headers=HTMX)
        text = answer.text if answer.status == 200 else ""
        version = version_of(text) if text else None
        acked = time.perf_counter()
        boxes = tuple(open_boxes(text))
        return Step(move, answer.status, version, boxes, game_over(text), sent, acked, answer)


# --- A whole turn ------------------------------------------------------------------------------


@dataclass(frozen=True)
class Turn:
    version: int | None  # after the score; None: the turn could not be played
    over: bool  # the score ended the game
    steps: tuple[Step, ...]  # every move sent, in order, with its timing


# What to do after a move was refused or cut off: try the next move (the seat caught up with
# the game), stop as the turn has passed (the score went through), or give the turn up.
Recovery = Literal["again", "passed", "lost"]


def play_turn(
    seat: Seat,
    *,
    before: Callable[[str], None] | None = None,
    after: Callable[[Step], None] | None = None,
    recover: Callable[[Seat], Recovery] | None = None,
) -> Turn:
    """Roll, roll holding two dice, score the first open box; ``before`` is called with each
    move's name before it is sent, ``after`` with each move answered. Without ``recover`` the
    first move refused ends the turn unplayed."""
    steps: list[Step] = []
    for _ in range(MOVES_A_TURN):
        if before is not None:
            before(seat.next_move)
        step = seat.move()
        steps.append(step)
        if after is not None:
            after(step)
        if step.ok:
            if step.move == SCORE:
                return Turn(step.version, step.over, tuple(steps))
            continue
        recovery = recover(seat) if recover is not None else "lost"
        if recovery == "passed":
            return Turn(seat.version, False, tuple(steps))
        if recovery == "lost":
            break
    return Turn(None, False, tuple(steps))
