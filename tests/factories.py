"""What tests build and read, in one place: players, clients, scripted dice, moves, page text.

Fixtures in ``tests/conftest.py`` hand these out; tests may import them directly too.
"""

from __future__ import annotations

import dataclasses
import itertools
import random
import re
from collections.abc import Callable, Iterator, Sequence
from datetime import datetime
from html.parser import HTMLParser
from typing import Any

from django.db import transaction
from django.test import Client
from django.utils import timezone

from accounts.models import User
from games import advice, rules, store, strategy
from games.models import Game, GameStatus, PlayerKind, Score, Seat
from games.play import actions as play
from games.rules import actions, codec

PASSWORD = "dice-roll-full-house-42"
"""Every ``make_user`` player's password."""

HTMX = {"HX-Request": "true"}
"""The header htmx sends with every request: ``client.post(url, data, headers=HTMX)``."""

_numbers: Iterator[int] = itertools.count(1)


def make_user(username: str | None = None, **fields: Any) -> User:
    """A player with unique name and confirmed e-mail; any field can be given, the password is
    PASSWORD."""
    username = username or f"player{next(_numbers)}"
    fields.setdefault("display_name", username.title())
    fields.setdefault("email", f"{username}@example.com")
    fields.setdefault("email_confirmed", True)  # as after opening the link mailed at sign-up
    password = fields.pop("password", PASSWORD)
    return User.objects.create_user(username=username, password=password, **fields)


def client_for(user: User, **defaults: Any) -> Client:
    """A test client logged in as ``user`` (``defaults`` as for ``Client``, e.g. REMOTE_ADDR)."""
    client = Client(**defaults)
    client.force_login(user)
    return client


class ScriptedDice:
    """A dice source that hands out the values it was given, in order, as many as asked."""

    def __init__(self, *values: int) -> None:
        self.values = list(values)
        self.asked: list[int] = []

    def __call__(self, n: int) -> tuple[int, ...]:
        self.asked.append(n)
        taken, self.values = self.values[:n], self.values[n:]
        assert len(taken) == n, "the script ran out of dice"
        return tuple(taken)


class ScriptedThrows:
    """A dice source that hands out whole prepared throws, checking each has the dice asked."""

    def __init__(self, *throws: Sequence[int]) -> None:
        self.throws = [tuple(throw) for throw in throws]
        self.asked: list[int] = []

    def __call__(self, n: int) -> tuple[int, ...]:
        self.asked.append(n)
        throw = self.throws.pop(0)
        assert len(throw) == n, f"the test scripted {len(throw)} dice but {n} were thrown"
        return throw


def roll_now(
    game: Game, user: User, *dice: int, held: Sequence[bool] | None = None
) -> store.SeatedGame:
    """Roll scripted ``dice`` in ``game`` as ``user``, at the game's current version."""
    game.refresh_from_db()
    return play.roll_dice(
        game_id=game.pk,
        user=user,
        version=game.version,
        held=held,
        dice_source=ScriptedDice(*dice),
    )


def score_now(game: Game, user: User, box: str, column: int = 0) -> store.SeatedGame:
    """Score ``box`` in ``game`` as ``user``, at the game's current version."""
    game.refresh_from_db()
    return play.score_box(game_id=game.pk, user=user, version=game.version, box=box, column=column)


def match_of(game: Game | int) -> rules.Match:
    """The match ``game`` keeps now (read again from its row)."""
    return store.match_of(Game.objects.get(pk=getattr(game, "pk", game)))


def sheet_of(game: Game | int, position: int = 0) -> rules.Sheet:
    """The sheet of the seat at ``position`` in ``game`` now."""
    return match_of(game).sheets[position]


def cards_of(game: Game | int, position: int = 0) -> list[dict[str, int]]:
    """The card (a mapping of box to points per column) of the seat at ``position`` now."""
    return [dict(card) for card in sheet_of(game, position).cards]


def put_match(game: Game, **changes: Any) -> rules.Match:
    """Put ``changes`` to its match straight into ``game``'s state, for tests that start from a
    position no play reached (no move logged, the version unchanged). The match put."""
    match = dataclasses.replace(match_of(game), **changes)
    Game.objects.filter(pk=game.pk).update(state=codec.to_state(match), round=match.round)
    game.refresh_from_db()
    return match


def put_sheet(
    game: Game, cards: Sequence[dict[str, int]], *, position: int = 0, yahtzee_bonuses: int = 0
) -> rules.Match:
    """Put a card (one mapping per column) straight into the seat at ``position``. Its Yahtzees
    are those the card shows: a 50 in a YAHTZEE box and each bonus."""
    match = match_of(game)
    yahtzees = sum(c.get("yahtzee") == rules.YAHTZEE_POINTS for c in cards) + yahtzee_bonuses
    sheet = rules.Sheet(
        kind=match.kind,
        cards=tuple(dict(c) for c in cards),
        yahtzee_bonuses=yahtzee_bonuses,
        yahtzees=yahtzees,
    )
    sheets = tuple(sheet if p == position else s for p, s in enumerate(match.sheets))
    return put_match(game, sheets=sheets)


def fill_card(game: Game, card: dict[str, int], yahtzee_bonuses: int = 0) -> None:
    """Put a score card straight into a solo game, for tests that start mid-game.

    Its Yahtzees are those the card shows: a 50 in the YAHTZEE box and each bonus.
    """
    put_sheet(game, [card], yahtzee_bonuses=yahtzee_bonuses)


def finished_game(
    user: User,
    total: int,
    *,
    when: datetime | None = None,
    kind: str = rules.CLASSIC.key,
    yahtzees: int = 0,
    upper_bonuses: int = 0,
    computer: bool = False,
    cards: list[dict[str, int]] | None = None,
) -> Score:
    """A finished one-seat game with its high-score row, as if played to ``total``."""
    when = when or timezone.now()
    columns = rules.KINDS[kind].columns
    cards = cards or [{"chance": 20}, *([{}] * (columns - 1))]
    sheet = rules.Sheet(kind=rules.KINDS[kind], cards=tuple(cards), yahtzees=yahtzees)
    ended = rules.Match(
        kind=sheet.kind,
        sheets=(sheet,),
        states=(rules.SeatState.PLAYING,),
        host=0,
        phase=rules.MatchPhase.FINISHED,
        first=0,
        current=None,
        first_rolls=(None,),
        players=(None if computer else 0,),
    )
    game = Game.objects.create(
        owner=user,
        kind=kind,
        status=GameStatus.FINISHED,
        finished_at=when,
        state=codec.to_state(ended),
    )
    seat = Seat.objects.create(
        game=game,
        position=0,
        user=None if computer else user,
        player_kind=PlayerKind.COMPUTER if computer else PlayerKind.HUMAN,
        display_name="Robo" if computer else user.display_name,
        grand_total=total,
    )
    return Score.objects.create(
        seat=seat,
        game=game,
        kind=kind,
        player_kind=seat.player_kind,
        user=seat.user,
        display_name=seat.display_name,
        grand_total=total,
        upper_bonuses=upper_bonuses,
        yahtzees=yahtzees,
        finished_at=when,
    )


class _Text(HTMLParser):
    def __init__(self) -> None:
        super().__init__()
        self.parts: list[str] = []

    def handle_data(self, data: str) -> None:
        self.parts.append(data)


def page_text(page: Any) -> str:
    """The words a person reads on a page (a response or HTML), tags dropped, spaces collapsed."""
    html = page if isinstance(page, str) else page.content.decode()
    parser = _Text()
    parser.feed(html)
    return re.sub(r"\s+", " ", " ".join(parser.parts)).strip()


def play_out(
    game: Game,
    user: User,
    *,
    bot: str = "perfect",
    seed: int = 0,
    until: Callable[[rules.Match], bool] = lambda match: False,
) -> store.SeatedGame:
    """Play ``game`` to its end (or until ``until`` says so of its match) through the door
    every move takes: the seats ``user`` plays (their own, their guests') and the seats of other
    accounts (as those accounts) as the computer player ``bot`` would, on seeded dice; the
    computer players' seats step by step. The table as it then stands."""
    rng = random.Random(seed)
    dice = strategy.seeded_dice(random.Random(f"dice-{seed}"))
    while True:
        table = store.load(game_id=game.pk, user=user)
        match, version = table.match(), table.game.version
        if table.game.status != GameStatus.IN_PROGRESS or until(match):
            return table
        if match.computer_on_turn:
            play.play_computer(game_id=game.pk, user=user, version=version)
            continue
        seat = match.on_turn
        assert seat is not None
        mover = table.seats[seat].user or user  # a guest's moves are the host's
        by = table.position_of(mover)
        decided = strategy.make_bot(bot, advice.advisor(match.kind), rng).decide(
            match.sheets[seat], match.turn
        )
        action: rules.Action
        if isinstance(decided, strategy.RollDice):
            action = actions.Roll(by, decided.held if match.turn.has_rolled else None)
        else:
            action = actions.Score(by, decided.box, decided.column)
        with transaction.atomic():
            play.act(
                game_id=game.pk, user=mover, version=version, choose=_chosen(action), dice=dice
            )


def _chosen(action: rules.Action) -> play.Choose:
    return lambda *_: action
