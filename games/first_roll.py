"""Who goes first (RULES.md): every player throws all five dice once, shown to all; the highest
total starts; players tied for it throw again among themselves. Computer players throw at once;
the host throws for the guests at their screen."""

from __future__ import annotations

from django.db import transaction

from accounts.models import User
from games import live, rules, selectors
from games.errors import NotYourTurn
from games.models import Game, Move, MoveAction, PlayerKind
from games.selectors import SeatedGame


def is_rolling(game: Game) -> bool:
    return game.is_in_progress and bool(game.contenders)


def begin(seated: SeatedGame) -> None:
    """Start the draw among every seat (a game of one needs none). Call before saving."""
    game = seated.game
    if not game.roll_for_first or len(seated.seats) < 2:
        return
    game.contenders, game.first_rolls = list(range(len(seated.seats))), {}
    _throw_for_computers(seated)
    _settle(seated)


def _throw(seated: SeatedGame, index: int, dice_source: rules.DiceSource) -> None:
    game, seat = seated.game, seated.seats[index]
    dice = rules.validate_dice(dice_source(rules.DICE_COUNT))
    game.first_rolls = {**game.first_rolls, str(index): list(dice)}
    game.version += 1  # each throw is a move of its own in the log
    Move.objects.create(
        game=game,
        seat=seat,
        seq=game.version,
        round=0,
        action=MoveAction.FIRST,
        dice=list(dice),
    )


def _throw_for_computers(
    seated: SeatedGame, dice_source: rules.DiceSource = rules.system_dice
) -> None:
    for index in seated.game.contenders:
        if seated.seats[index].player_kind == PlayerKind.COMPUTER:
            _throw(seated, index, dice_source)


def _settle(seated: SeatedGame) -> None:
    """Once every contender has thrown: one highest total starts; a tie throws again."""
    game = seated.game
    thrown = {int(i): sum(dice) for i, dice in game.first_rolls.items()}
    if any(i not in thrown for i in game.contenders):
        return
    best = max(thrown[i] for i in game.contenders)
    tied = [i for i in game.contenders if thrown[i] == best]
    if len(tied) > 1:
        game.contenders, game.first_rolls = tied, {}
        _throw_for_computers(seated)
        _settle(seated)
        return
    game.contenders, game.first_seat, game.current_seat = [], tied[0], tied[0]


@transaction.atomic
def roll_for_first(
    *, game_id: int, user: User, version: int, dice_source: rules.DiceSource = rules.system_dice
) -> SeatedGame:
    """Throw for every contender seat ``user`` plays (their own; the host's guests too)."""
    seated = selectors.seated_game(game_id=game_id, user=user, lock=True)
    game = seated.game
    game.require_in_play(version)
    if not game.contenders:
        raise rules.IllegalMove("Who goes first is already decided.")
    mine = [
        i
        for i in game.contenders
        if str(i) not in game.first_rolls and seated.seats[i].played_by(user.pk)
    ]
    if not mine:
        raise NotYourTurn("You have rolled for first: the others roll now.")
    for index in mine:
        _throw(seated, index, dice_source)
    _settle(seated)
    game.save(
        update_fields=["contenders", "first_rolls", "first_seat", "current_seat", "version",
                       "updated_at"]
    )  # fmt: skip
    live.publish(game)
    return seated
