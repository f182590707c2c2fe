"""The computer's turns, through the same door as a person's: lock the game, ask the rules,
save, log. One step at a time (a roll, or a hold and a roll, or a box), so a person can follow
it; the page asks for the next step (no worker ever waits), or for all of them at once.
"""

from __future__ import annotations

import random

from accounts.models import User
from games import advice, selectors, strategy
from games.errors import GameNotInProgress
from games.models import GameStatus, PlayerKind
from games.services import roll_for_seat_on_turn, score_for_seat_on_turn
from games.store import SeatedGame
from yahtzee_site import prepared


def on_turn(seated: SeatedGame) -> bool:
    """Whether a computer player is to move."""
    game = seated.game
    return (
        game.is_in_progress
        and not game.contenders
        and seated.current.player_kind == PlayerKind.COMPUTER
    )


@prepared.atomic
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
    match = seated.match()
    action = bot.decide(match.sheets[game.current_seat], match.turn)
    if isinstance(action, strategy.RollDice):
        return roll_for_seat_on_turn(seated, held=action.held)
    return score_for_seat_on_turn(seated, box=action.box, column=action.column)
