"""The checks after a scale-out run, in this process: every game replayed from its ``Move``
log, every acknowledged move logged, every game in play still playable, the SQLite file whole."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from django.db import connection

from games import rules, store
from games.errors import GameError
from games.models import Game, GameStatus, Move, Score, Seat
from games.moves import ReplayMismatch
from games.play import actions as play
from games.store import replay


@dataclass(frozen=True)
class Replay:
    games: int
    finished: int
    moves: int
    mismatches: list[str]


def replay_games(usernames: Sequence[str]) -> Replay:
    """Every game of these players played again from its ``Move`` log through ``rules.Match``
    (``games.replay``): each move's outcome, each seat's cards, bonuses and total, and one
    ``Score`` row per finished seat (none for a game in play) must come out as stored."""
    games = Game.objects.filter(owner__username__in=usernames).order_by("pk")
    mismatches: list[str] = []
    finished = moves = 0
    for game in games.exclude(status=GameStatus.WAITING):  # a waiting game has no match yet
        scores = {s.seat_id: s for s in Score.objects.filter(game=game)}
        finished += game.status == GameStatus.FINISHED
        moves += Move.objects.filter(game=game).count()
        try:
            match = replay(game)  # every move through rules.Match, each outcome checked
        except ReplayMismatch as exc:
            mismatches.append(f"game {game.pk}: {exc}")
            continue
        stored = store.match_of(game)
        if (match.phase, match.current, match.turn) != (stored.phase, stored.current, stored.turn):
            mismatches.append(f"game {game.pk}: its state's turn differs from its log")
        for seat in Seat.objects.filter(game=game).order_by("position"):
            sheet = match.sheets[seat.position]
            if sheet != stored.sheets[seat.position]:
                mismatches.append(f"game {game.pk} seat {seat.position}: card differs from its log")
            score = scores.pop(seat.pk, None)
            if game.status == GameStatus.FINISHED and not seat.resigned:
                if seat.grand_total != sheet.grand_total:
                    mismatches.append(
                        f"game {game.pk}: total {seat.grand_total} ≠ {sheet.grand_total}"
                    )
                if score is None or score.grand_total != sheet.grand_total:
                    mismatches.append(f"game {game.pk}: Score row missing or wrong")
            elif score is not None:
                mismatches.append(f"game {game.pk}: a Score row for a game not finished")
        if scores:
            mismatches.append(f"game {game.pk}: Score rows for no seat of its own")
    return Replay(games=len(games), finished=finished, moves=moves, mismatches=mismatches)


def missing_acknowledged(acknowledged: Sequence[tuple[int, int]]) -> int:
    """Acknowledged moves (a 200 with the version the move made) with no ``Move`` row."""
    logged = set(
        Move.objects.filter(game_id__in={g for g, _ in acknowledged}).values_list("game_id", "seq")
    )
    return sum(1 for pair in set(acknowledged) if pair not in logged)


def unplayable(usernames: Sequence[str]) -> int:
    """Games in play that refuse a roll by their player (each then rolled once, in process)."""
    refused = 0
    for game in Game.objects.filter(owner__username__in=usernames, status=GameStatus.IN_PROGRESS):
        seat = Seat.objects.select_related("user").get(game=game, position=game.current_seat)
        assert seat.user is not None
        try:
            if store.match_of(game).turn.rolls_used < rules.MAX_ROLLS:
                play.roll_dice(game_id=game.pk, user=seat.user, version=game.version)
            else:
                match = store.load(game_id=game.pk, user=seat.user).match()
                box = next(b for b in rules.CATEGORIES if match.can_score(seat.position, b))
                play.score_box(game_id=game.pk, user=seat.user, version=game.version, box=box)
        except (rules.IllegalMove, GameError, StopIteration):
            refused += 1
    return refused


def integrity() -> str:
    if connection.vendor != "sqlite":
        return "n/a"
    with connection.cursor() as cursor:
        cursor.execute("PRAGMA integrity_check")
        return str(cursor.fetchone()[0])
