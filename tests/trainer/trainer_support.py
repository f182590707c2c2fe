"""Finished games with their move logs, played through the one door, for the trainer's tests."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime

from accounts.models import User
from games import rules
from games.models import Game
from games.play import actions as play
from games.tables import services as tables
from tests.factories import roll_now, score_now

Turn = tuple[Sequence[Sequence[int]], Sequence[Sequence[bool]], str]
"""One turn as played: the dice after each roll, the dice held before each re-roll, the box."""


def play_turn(game: Game, player: User, rolls: Sequence[Sequence[int]], holds, box: str) -> None:
    roll_now(game, player, *rolls[0])
    for held, dice in zip(holds, rolls[1:], strict=True):
        fresh = [d for d, h in zip(dice, held, strict=True) if not h]
        game.refresh_from_db()
        play.roll_dice(
            game_id=game.pk,
            user=player,
            version=game.version,
            held=list(held),
            dice_source=lambda n, fresh=fresh: tuple(fresh[:n]),
        )
    score_now(game, player, box)


def one_roll_turns(first: Sequence[str]) -> list[Turn]:
    """Thirteen one-roll turns: five 6s scored in ``first[0]``, then 1 2 3 4 6 in each box
    left, in card order."""
    turns: list[Turn] = [([(6, 6, 6, 6, 6)], [], first[0])]
    for box in rules.CATEGORIES:
        if box.value not in first:
            turns.append(([(1, 2, 3, 4, 6)], [], box.value))
    return turns


def finished_game(
    player: User, turns: Sequence[Turn], *, finished_at: datetime | None = None
) -> Game:
    """A Classic game alone played to its end turn by turn; ``finished_at`` sets its end."""
    game = tables.start_game(owner=player)
    for rolls, holds, box in turns:
        play_turn(game, player, rolls, holds, box)
    game.refresh_from_db()
    assert game.status == "finished", game.status
    if finished_at is not None:
        Game.objects.filter(pk=game.pk).update(finished_at=finished_at)
        game.refresh_from_db()
    return game


def hasty_game(host: User, **options) -> Game:
    """A Classic game started with ``options`` (guests, computers) and played to its end by
    the host for everyone at their screen: one roll a turn, the first open box the rules allow
    (many costly decisions)."""
    from games import store

    game = tables.start_game(owner=host, **options)
    while True:
        table = store.load(game_id=game.pk, user=host)
        match = table.match()
        if match.is_over:
            break
        on_turn = match.on_turn
        assert on_turn is not None
        version = table.game.version
        if match.computer_on_turn:
            play.play_computer(game_id=game.pk, user=host, version=version)
        elif not match.turn.has_rolled:
            play.roll_dice(game_id=game.pk, user=host, version=version, held=None)
        else:
            assert match.turn.dice is not None
            sheet = match.sheets[on_turn]
            box = next(iter(rules.column_scores(match.turn.dice, sheet.cards[0], sheet.kind)))
            play.score_box(game_id=game.pk, user=host, version=version, box=box, column=0)
    game.refresh_from_db()
    return game
