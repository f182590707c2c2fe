"""`manage.py bench`: fill a bench database with finished games, then time the high-score and
statistics pages against the trivial page and, unless ``--no-http``, the game's requests under
load over HTTP against the front page. The work lives in the top-level ``bench`` package;
this command only reads the flags and calls ``bench.run``."""

from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

import bench
from bench.daily import ATTEMPTS as DAILY_ATTEMPTS
from bench.lobby import GAMES as LOBBY_GAMES
from bench.quickplay import ARRIVALS as QUICK_ARRIVALS
from bench.quickplay import WAITING as QUICK_WAITING


class Command(BaseCommand):
    help = (
        "Fill the database with bench players and finished games (unless it holds enough), "
        "then time the high-score and statistics pages against the trivial page, and the "
        "game's requests over HTTP (gunicorn) against the front page."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        defaults = bench.Options()
        parser.add_argument("--games", type=int, default=defaults.games)
        parser.add_argument("--players", type=int, default=defaults.players)
        parser.add_argument(
            "--requests", type=int, default=defaults.requests, help="timed requests per page"
        )
        parser.add_argument("--warmup", type=int, default=None, help="untimed rounds first")
        parser.add_argument("--refill", action="store_true", help="delete bench data, fill anew")
        parser.add_argument(
            "--force", action="store_true", help="run on a database with non-bench accounts"
        )
        parser.add_argument("--seed", type=int, default=defaults.seed)
        parser.add_argument("--json", dest="json_path", default=None, help="results file")
        parser.add_argument("--explain", action="store_true", help="print the query plans")
        parser.add_argument(
            "--no-fail",
            action="store_true",
            help="report a page over its limits but exit 0 all the same",
        )
        parser.add_argument(
            "--no-http",
            dest="http",
            action="store_false",
            help="skip the HTTP scenario (gunicorn under load from client processes)",
        )
        parser.add_argument(
            "--http-seconds", type=float, default=defaults.http_seconds, help="its timed seconds"
        )
        parser.add_argument(
            "--http-clients", type=int, default=defaults.http_clients, help="client processes"
        )
        parser.add_argument(
            "--streams",
            type=int,
            default=defaults.streams,
            help=f"idle game streams held through the HTTP scenario, and the most watchers of a "
            f"move (default {defaults.streams:,}); 0: no streams",
        )

        parser.add_argument(
            "--no-scaleout",
            dest="scaleout",
            action="store_false",
            help="skip the scale-out scenario (nginx in front of gunicorn nodes, whole games)",
        )
        parser.add_argument(
            "--no-strategy",
            dest="strategy",
            action="store_false",
            help="skip perfect play's figures (table build and load, hints, analysis, simulation)",
        )
        parser.add_argument(
            "--no-faults",
            dest="faults",
            action="store_false",
            help="skip the scale-out fault run (gunicorn workers SIGKILLed under load)",
        )
        parser.add_argument(
            "--scaleout-seconds",
            type=float,
            default=defaults.scaleout_seconds,
            help="the scale-out runs' timed seconds",
        )
        parser.add_argument(
            "--scaleout-clients",
            type=int,
            default=defaults.scaleout_clients,
            help="the scale-out runs' client processes",
        )

        parser.add_argument(
            "--lobby-games",
            type=int,
            default=None,
            help=f"games waiting with seats open in the lobby, as many again closed (default "
            f"{LOBBY_GAMES:,}, fewer if the players cannot host them all); 0: none",
        )
        parser.add_argument(
            "--daily-attempts",
            type=int,
            default=None,
            help=f"finished attempts on today's daily challenge board, one bench account each "
            f"(default {DAILY_ATTEMPTS:,}, or ten a player with fewer players); 0: none",
        )
        parser.add_argument(
            "--rated-players",
            type=int,
            default=defaults.rated_players,
            help="accounts rated this season, their table timed (written once, kept); 0: none",
        )
        parser.add_argument(
            "--rating-moves",
            type=int,
            default=defaults.rating_moves,
            help="last scorings of rated games timed with the rating and as many without; 0: none",
        )
        parser.add_argument(
            "--quickplay-waiting",
            type=int,
            default=QUICK_WAITING,
            help=f"accounts waiting in quick play when the arrivals are timed (default "
            f"{QUICK_WAITING:,}); 0: no quick-play figure",
        )
        parser.add_argument(
            "--quickplay-arrivals",
            type=int,
            default=QUICK_ARRIVALS,
            help=f"arrivals timed, one after another (default {QUICK_ARRIVALS:,})",
        )
        parser.add_argument(
            "--quickplay-only",
            action="store_true",
            help="time quick play's pairing alone (no fill, no other scenario)",
        )
        parser.add_argument(
            "--no-tournament",
            dest="tournament",
            action="store_false",
            help="skip the tournament under watch (its players' turns, its standings' watchers)",
        )
        parser.add_argument(
            "--tournament-players",
            type=int,
            default=defaults.tournament_players,
            help=f"players entered in the tournament, each with their game begun (default "
            f"{defaults.tournament_players:,}, its most)",
        )
        parser.add_argument(
            "--tournament-watchers",
            type=int,
            default=defaults.tournament_watchers,
            help=f"anonymous watchers holding its standings stream (default "
            f"{defaults.tournament_watchers:,})",
        )
        parser.add_argument(
            "--tournament-moves",
            type=int,
            default=defaults.tournament_moves,
            help=f"turns (a roll, a score) timed with the watchers held, each another player's, "
            f"and as many without (default {defaults.tournament_moves:,})",
        )
        parser.add_argument(
            "--tournament-only",
            action="store_true",
            help="time the tournament under watch alone (no fill, no other scenario)",
        )
        parser.add_argument(
            "--page",
            dest="pages",
            action="append",
            default=[],
            metavar="KEY",
            help="time only this in-process page (and the trivial and plain ones); repeatable",
        )

    def handle(self, *args: Any, **opts: Any) -> None:
        try:
            options = bench.Options(
                games=opts["games"],
                players=opts["players"],
                requests=opts["requests"],
                warmup=opts["warmup"],
                refill=opts["refill"],
                force=opts["force"],
                seed=opts["seed"],
                json_path=opts["json_path"],
                explain=opts["explain"],
                no_fail=opts["no_fail"],
                http=opts["http"],
                http_seconds=opts["http_seconds"],
                http_clients=opts["http_clients"],
                streams=opts["streams"],
                scaleout=opts["scaleout"],
                scaleout_seconds=opts["scaleout_seconds"],
                scaleout_clients=opts["scaleout_clients"],
                faults=opts["faults"],
                strategy=opts["strategy"],
                lobby_games=opts["lobby_games"],
                daily_attempts=opts["daily_attempts"],
                pages=tuple(opts["pages"]),
                rated_players=opts["rated_players"],
                rating_moves=opts["rating_moves"],
                quickplay_waiting=opts["quickplay_waiting"],
                quickplay_arrivals=opts["quickplay_arrivals"],
                quickplay_only=opts["quickplay_only"],
                tournament=opts["tournament"],
                tournament_players=opts["tournament_players"],
                tournament_watchers=opts["tournament_watchers"],
                tournament_moves=opts["tournament_moves"],
                tournament_only=opts["tournament_only"],
            )
            bench.run(options, bench.Console(self.stdout, self.stderr, self.style))
        except bench.BenchError as exc:
            raise CommandError(str(exc)) from exc
