"""`manage.py verify_games`: play every game's ``Move`` log again through the rules and check
it comes out as the game's stored state (``Game.state``), after a migration of the stored
games (0029 moved them into that column) or whenever in doubt. Reads only; fails, naming the
games, when one differs or its log does not replay.

A game that has a state but no log (rows written without play, as the bench's fill writes
its finished games) is counted apart: there is nothing to replay it from.
"""

from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from games import store
from games.models import Game, Move
from games.moves import ReplayMismatch
from games.rules import codec

CHUNK = 500
SHOWN = 20


def comparable(state: dict[str, Any]) -> dict[str, Any]:
    """``state`` as far as the columns before migration 0029 kept it: of the scoring an undo
    would take back, its seat, column, box, points and dice (the columns kept no Yahtzee
    bonus, Joker or upper bonus of it; no rule reads them again)."""
    if "scored" not in state:
        return state
    return state | {"scored": state["scored"][:5]}


class Command(BaseCommand):
    help = "Replay every game's log through the rules and check it ends as the game's state."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--game", type=int, action="append", help="only this game (repeat)")

    def handle(self, *args: Any, **options: Any) -> None:
        games = Game.objects.exclude(state__isnull=True).order_by("pk")
        if options["game"]:
            games = games.filter(pk__in=options["game"])
        logged = set(Move.objects.filter(game__in=games).values_list("game_id", flat=True))
        replayed, unlogged, wrong = 0, 0, []
        for game in games.iterator(chunk_size=CHUNK):
            if game.pk not in logged:
                unlogged += 1
                continue
            replayed += 1
            stored: dict[str, Any] = game.state or {}  # none: excluded above
            try:
                again = codec.to_state(store.replay(game))
            except ReplayMismatch as refused:
                wrong.append(f"game {game.pk}: {refused}")
                continue
            if comparable(again) != comparable(stored):
                differ = sorted(k for k in again.keys() | stored.keys()
                                if again.get(k) != stored.get(k))  # fmt: skip
                wrong.append(f"game {game.pk}: its log ends elsewhere than its state ({differ})")
        self.stdout.write(
            f"Replayed {replayed} game(s) from their logs; {unlogged} kept without a log "
            "(nothing to replay)."
        )
        if wrong:
            shown = "\n".join(wrong[:SHOWN])
            more = f"\n... and {len(wrong) - SHOWN} more" if len(wrong) > SHOWN else ""
            raise CommandError(f"{len(wrong)} game(s) differ from their logs:\n{shown}{more}")
        self.stdout.write("Every one ends as its stored state.")
