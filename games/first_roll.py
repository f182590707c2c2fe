"""Who goes first (RULES.md): every player throws all five dice once, shown to all; the highest
total starts; players tied for it throw again among themselves. Computer players throw at once;
the host throws for the guests at their screen."""

from __future__ import annotations

from accounts.models import User
from games import live, rules, selectors, turn_marks
from games.errors import NotYourTurn
from games.models import Game, Move, MoveAction, PlayerKind
from games.selectors import SeatedGame
from yahtzee_site import prepared


def is_rolling(game: Game) -> bool:
    return game.is_in_progress and bool(game.contenders)


def begin(seated: SeatedGame) -> None:
    """Start the draw among every seat (a game of one needs none). Call before saving."""
    game = seated.game
    if not game.roll_for_first or len(seated.seats) < 2:
        return
    match = rules.Match.start(game.rules_kind, len(seated.seats), roll_for_first=True)
    _keep(seated, _throw_for_computers(seated, match))


def _throw(
    seated: SeatedGame, match: rules.Match, index: int, dice_source: rules.DiceSource
) -> rules.Match:
    """Seat ``index`` throws for first through the Match (which settles the draw when it
    can); the throw is logged as a move of its own."""
    after, thrown = match.roll_for_first(index, dice_source)
    game = seated.game
    game.version += 1  # each throw is a move of its own in the log
    prepared.insert(
        Move(
            game=game,
            seat=seated.seats[index],
            seq=game.version,
            round=0,
            action=MoveAction.FIRST,
            dice=list(thrown.dice),
        )
    )
    return after


def _throw_for_computers(
    seated: SeatedGame, match: rules.Match, dice_source: rules.DiceSource = rules.system_dice
) -> rules.Match:
    """Computer players throw at once, again after each tie they are in."""
    while waiting := [
        s
        for s in match.contenders
        if seated.seats[s].player_kind == PlayerKind.COMPUTER and match.can_roll_for_first(s)
    ]:
        match = _throw(seated, match, waiting[0], dice_source)
    return match


def _keep(seated: SeatedGame, match: rules.Match) -> None:
    """Put the draw as the Match has it into the game row: who is still in it and their dice,
    or, once decided, who goes first (and is on turn)."""
    game = seated.game
    game.contenders = list(match.contenders)
    game.first_rolls = {
        str(s): list(dice) for s, dice in enumerate(match.first_rolls) if dice is not None
    }
    if match.phase is rules.MatchPhase.PLAYING:
        assert match.first is not None
        game.first_seat = game.current_seat = match.first


@prepared.atomic
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
    match = seated.match()
    for index in mine:
        match = _throw(seated, match, index, dice_source)
    _keep(seated, _throw_for_computers(seated, match))
    turn_marks.mark(seated)
    game.save(
        update_fields=["contenders", "first_rolls", "first_seat", "current_seat", "version",
                       "updated_at"]
    )  # fmt: skip
    live.publish(game)
    return seated
