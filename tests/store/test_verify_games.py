"""`manage.py verify_games`: every game's log replays to its stored state, or the command fails
naming the game that does not."""

from __future__ import annotations

from io import StringIO

import pytest
from django.core.management import CommandError, call_command

from games import rules
from games.models import Move
from games.tables import services
from tests.factories import finished_game, put_match, roll_now, score_now


def run(*args: str) -> str:
    out = StringIO()
    call_command("verify_games", *args, stdout=out)
    return out.getvalue()


def test_games_played_replay_to_their_state_and_games_without_a_log_are_counted_apart(
    player, make_user
) -> None:
    game = services.start_game(owner=player, guests=["Ann"])
    roll_now(game, player, 2, 2, 2, 5, 5)
    score_now(game, player, "full_house")  # Ann on turn, Alice's box still undoable
    roll_now(game, player, 1, 2, 3, 4, 6)
    finished_game(make_user("bob"), 200)  # rows only, as the bench fills them
    services.open_game(owner=player, invites=1)  # waiting: no state, not counted

    out = run()

    assert "Replayed 1 game(s) from their logs; 1 kept without a log" in out
    assert "Every one ends as its stored state." in out


def test_a_state_its_log_does_not_reach_is_named(player) -> None:
    game = services.start_game(owner=player)
    roll_now(game, player, 6, 6, 6, 6, 1)
    put_match(game, turn=rules.Turn(dice=(6, 6, 6, 6, 6), rolls_used=1))  # not what was thrown

    with pytest.raises(CommandError, match=rf"^1 game\(s\) differ.*\ngame {game.pk}: .*\['turn'\]"):
        run()
    assert "Replayed 0 game(s)" in run("--game", "999999")  # only the games asked for


def test_a_log_the_rules_refuse_is_named(player) -> None:
    game = services.start_game(owner=player)
    roll_now(game, player, 3, 3, 3, 3, 3)
    Move.objects.filter(game=game).update(roll_number=2)  # a second roll with no first

    with pytest.raises(CommandError, match=rf"game {game.pk}: Move 1 \(roll\)"):
        run()
