"""The bench clears its own accounts and games before filling again, and only those: every row
that points at a bench game or seat (a shared card too) goes first."""

from __future__ import annotations

import io

import pytest
from django.core.management.base import OutputWrapper
from django.core.management.color import no_style

from bench import fill
from bench.output import Console
from games.models import Game, Seat
from games.review.sharing import share_card
from tests.factories import finished_game, make_user


def _console() -> Console:
    return Console(OutputWrapper(io.StringIO()), OutputWrapper(io.StringIO()), no_style())


@pytest.mark.parametrize("others", [False, True], ids=["bench alone", "beside other accounts"])
@pytest.mark.django_db(transaction=True)
def test_clearing_removes_bench_games_with_their_shared_cards(others) -> None:
    bench_player = make_user(f"{fill.PREFIX}sharer", display_name="Bench Sharer")
    shared = finished_game(bench_player, 250)
    share_card(user=bench_player, game_id=shared.game_id, position=0)
    kept = finished_game(make_user("alice", display_name="Alice"), 200) if others else None

    fill.clear(_console())

    assert not Game.objects.filter(pk=shared.game_id).exists()
    assert not Seat.objects.filter(game_id=shared.game_id).exists()
    if kept is not None:
        assert Game.objects.filter(pk=kept.game_id).exists()
