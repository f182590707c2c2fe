"""What a tournament's standings cost at its largest: a tournament of ``MAX_PLAYERS`` entrants,
their games part-played, then the standings read and rendered as every stream of it is sent
them (``games.tournaments.stream.read``), and as the page draws them, timed. Also what grading
an entrant's decisions so far costs (``games.tournaments.grading``), Classic and Triple.

    SQLITE_PATH=var/standings.sqlite3 DEBUG=1 python manage.py migrate -v0
    SQLITE_PATH=var/standings.sqlite3 DEBUG=1 python manage.py shell -c \
        "from bench import standings; standings.main()"

Its games are a few played through the door (on the tournament's dice, by the perfect bot, to
different depths) and copied: reading a copied game's row costs what reading its original does.
"""

from __future__ import annotations

import functools
import os
import statistics
import time
from collections.abc import Callable

import django


def timed(run: Callable[[], object], times: int) -> tuple[float, float]:
    """The median and the slowest of ``times`` runs, in milliseconds."""
    took = []
    for _ in range(times):
        started = time.perf_counter()
        run()
        took.append((time.perf_counter() - started) * 1000)
    return statistics.median(took), max(took)


def main() -> None:
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "yahtzee_site.settings")
    django.setup()
    from django.db import connection
    from django.test.utils import CaptureQueriesContext
    from django.utils import timezone

    from accounts.models import User
    from games.models import Game, Seat
    from games.rules import codec
    from games.tournaments import grading, selectors, services, stream
    from games.tournaments.models import MAX_PLAYERS, Entry, Tournament
    from tests.tournaments.tournament_support import play_out, registered, started_with

    Tournament.objects.filter(name__startswith="bench-standings").delete()
    User.objects.filter(username__startswith="bench-st-").delete()

    for kind in ("classic", "triple"):
        players = [registered(f"bench-st-{kind}-{i}") for i in range(3)]
        tournament = started_with(*players, kind=kind, name=f"bench-standings-{kind}")
        for player, moves in zip(players, (10, 40, None), strict=True):
            game = services.play(user=player, token=tournament.token)
            play_out(player, game, moves=moves)
        played = list(Game.objects.filter(tournament=tournament).order_by("pk"))
        if kind == "classic":
            models = played
        for game in played:
            assert game.state is not None
            boxes = sum(len(card) for card in codec.sheet_of(game.state, 0).cards)
            median, most = timed(functools.partial(grading.grade_so_far, game.pk), 5)
            print(f"grade so far, {kind}, {boxes} boxes filled: {median:.1f} ms (most {most:.1f})")

    tournament = Tournament.objects.create(
        name="bench-standings-1000", kind="classic", token="bench-standings-1000", cap=MAX_PLAYERS,
        entrants=MAX_PLAYERS, started_at=timezone.now(),
    )  # fmt: skip
    users = User.objects.bulk_create(
        User(username=f"bench-st-{i}", display_name=f"Player {i}", display_name_key=f"player {i}")
        for i in range(MAX_PLAYERS)
    )
    games = Game.objects.bulk_create(
        Game(
            kind="classic",
            status=models[i % 3].status,
            owner=user,
            state=models[i % 3].state,
            version=models[i % 3].version,
            tournament=tournament,
        )
        for i, user in enumerate(users)
    )
    Seat.objects.bulk_create(
        Seat(game=game, position=0, user=user, display_name=user.display_name)
        for game, user in zip(games, users, strict=True)
    )
    Entry.objects.bulk_create(
        Entry(
            tournament=tournament,
            user=user,
            display_name=user.display_name,
            game=game,
            accuracy=90 + i % 10,
            graded_turns=i % 13,
        )
        for i, (user, game) in enumerate(zip(users, games, strict=True))
    )
    print(f"{MAX_PLAYERS:,} entrants, their games part-played:")
    with CaptureQueriesContext(connection) as queries:
        selectors.board(tournament)
    print(f"  queries per read: {len(queries)}")
    median, most = timed(lambda: selectors.board(tournament), 20)
    print(f"  read (selectors.board): {median:.1f} ms (most {most:.1f})")
    median, most = timed(lambda: stream.read(tournament.pk), 20)
    print(f"  read + render, as pushed (stream.read): {median:.1f} ms (most {most:.1f})")
    size = len(stream.read(tournament.pk)["pushed"].event)  # type: ignore[index]
    print(f"  one event: {size / 1024:.0f} KiB")
    tournament.ended_at = timezone.now()
    tournament.save(update_fields=["ended_at"])
    median, most = timed(lambda: stream.read(tournament.pk), 20)
    print(f"  over: read + render (stream.read): {median:.1f} ms (most {most:.1f})")


if __name__ == "__main__":
    main()
