"""Tournaments built and played in tests: a registered host, entrants, a game played to its
end through the one door (any kind: the bot chooses the column too)."""

from __future__ import annotations

import random
from typing import Any

from django.test import TestCase
from django.utils import timezone

from accounts import licensing
from accounts.models import Serial, SerialBatch, User
from games import advice, rules, store, strategy
from games.models import Game
from games.play import actions as play
from games.tournaments import services
from games.tournaments.models import Tournament
from tests.factories import make_user

_serials = iter(range(10**6))


def registered(username: str) -> User:
    """An account with a live serial (``licensing.licence_of(user).registered``)."""
    user = make_user(username)
    Serial.objects.create(
        batch=SerialBatch.objects.get_or_create(name="shop")[0],
        digest=licensing.serial_digest(f"TEST-{next(_serials)}-{username}"),
        last4="0000",
        redeemed_by=user,
        redeemed_at=timezone.now(),
    )
    return user


def opened(host: User | None = None, **fields: object) -> Tournament:
    fields.setdefault("name", "Friday dice")
    fields.setdefault("listed", True)
    return services.open_tournament(host=host or registered(f"host{next(_serials)}"), **fields)  # type: ignore[arg-type]


def started_with(*players: User, **fields: Any) -> Tournament:
    """A tournament the players have joined, started by its host."""
    tournament = opened(**fields)
    assert tournament.host is not None
    for player in players:
        services.join(user=player, token=tournament.token)
    services.start(user=tournament.host, token=tournament.token)
    tournament.refresh_from_db()
    return tournament


def bot(name: str, seed: int = 0, kind: rules.GameKind = rules.CLASSIC) -> strategy.Bot:
    return strategy.make_bot(name, advice.advisor(kind), random.Random(seed))


def play_out(
    user: User, game: Game | int, decide: str = "perfect", moves: int | None = None
) -> store.SeatedGame:
    """Play ``user``'s solo game to its end (or ``moves`` moves) through the door, with what
    each commit starts run at once (grading)."""
    game_id = game if isinstance(game, int) else game.pk
    chooser = bot(decide, kind=Game.objects.get(pk=game_id).rules_kind)
    with TestCase.captureOnCommitCallbacks(execute=True):
        done = 0
        while True:
            table = store.load(game_id=game_id, user=user)
            match = table.match()
            if match.is_over or (moves is not None and done >= moves):
                return table
            decided = chooser.decide(match.sheets[0], match.turn)
            version = table.game.version
            if isinstance(decided, strategy.RollDice):
                held = decided.held if match.turn.has_rolled else None
                play.roll_dice(game_id=game_id, user=user, version=version, held=held)
            else:
                play.score_box(
                    game_id=game_id,
                    user=user,
                    version=version,
                    box=decided.box.value,
                    column=decided.column,
                )
            done += 1


def score_a_turn(user: User, game: Game | int, decide: str = "perfect", seed: int = 0) -> None:
    """``user`` plays one turn of their solo game through the door, to its scoring (what each
    commit starts runs as it would: at once in tests)."""
    game_id = game if isinstance(game, int) else game.pk
    chooser = bot(decide, seed, Game.objects.get(pk=game_id).rules_kind)
    while True:
        table = store.load(game_id=game_id, user=user)
        match = table.match()
        decided = chooser.decide(match.sheets[0], match.turn)
        version = table.game.version
        if isinstance(decided, strategy.RollDice):
            held = decided.held if match.turn.has_rolled else None
            play.roll_dice(game_id=game_id, user=user, version=version, held=held)
            continue
        play.score_box(
            game_id=game_id,
            user=user,
            version=version,
            box=decided.box.value,
            column=decided.column,
        )
        return


def faces_thrown(game: Game) -> list[tuple[int, int, int, int]]:
    """Each die thrown in ``game``, from its log: (round, roll, position, face)."""
    thrown = []
    round = 1
    for event in store.replay(game).log:
        if isinstance(event, rules.Rolled):
            for position, (die, kept) in enumerate(zip(event.dice, event.held, strict=True)):
                if not kept:
                    thrown.append((round, event.roll_number, position, die))
        elif isinstance(event, rules.Scored):
            round += 1
        elif isinstance(event, rules.Undone):
            round -= 1
    return thrown
