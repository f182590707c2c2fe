"""The computer's turns, through the same door as a person's: lock the game, ask the rules,
save, log. One step at a time (a roll, or a hold and a roll, or a box), so a person can follow
it; the page asks for the next step (no worker ever waits), or for all of them at once.
"""

from __future__ import annotations

import random
from dataclasses import replace

from django.db import transaction

from accounts.models import User
from games import advice, rules, selectors, strategy
from games.errors import GameNotInProgress
from games.models import GameStatus, PlayerKind
from games.selectors import SeatedGame
from games.services import TURN_FIELDS, _end_turn, _log, _save_game, scoring_of


def on_turn(seated: SeatedGame) -> bool:
    """Whether a computer player is to move."""
    game = seated.game
    return (
        game.is_in_progress
        and not game.contenders
        and seated.current.player_kind == PlayerKind.COMPUTER
    )


@transaction.atomic
def play(*, game_id: int, user: User, version: int, to_the_end: bool = False) -> SeatedGame:
    """Play the computer's next step, or with ``to_the_end`` every step until a person is on
    turn (or the game is over). A request made against an older version does nothing: the
    pages of several players may ask for the same step at once."""
    seated = selectors.seated_game(game_id=game_id, user=user, lock=True)
    game = seated.game
    if game.status != GameStatus.IN_PROGRESS:
        raise GameNotInProgress("This game is over.")
    while on_turn(seated) and game.version == version:
        seated = _step(seated)
        version = game.version
        if not to_the_end:
            break
    return seated


def _step(seated: SeatedGame) -> SeatedGame:
    game, seat = seated.game, seated.current
    # Seeded by the game and its version: a replay of the same position decides the same.
    rng = random.Random(f"{game.pk}:{game.version}")
    bot = strategy.make_bot(seat.bot or "good", advice.advisor(), rng)
    sheet, turn = seat.sheet(game.rules_kind), game.turn()
    action = bot.decide(sheet, turn)
    if isinstance(action, strategy.RollDice):
        if turn.has_rolled:
            turn = rules.hold(turn, action.held)
        turn, record = rules.roll(turn, rules.system_dice)
        game.set_turn(turn)
        game.undo = None  # new dice are seen: the last scoring is final
        _save_game(game, *TURN_FIELDS)
        _log(game, seat, game.round, record)
        return replace(seated, record=record, actor=game.current_seat)
    played_round, actor = game.round, game.current_seat
    after, scored = seated.match().score(game.current_seat, action.box, action.column)
    scoring = scoring_of(scored)
    _end_turn(seated, after)
    _log(game, seat, played_round, scoring)
    return replace(seated, record=scoring, actor=actor)
