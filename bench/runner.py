"""One bench run from start to end: check the database is a bench one, fill it unless it holds
enough, time the scenarios, report, and fail when a gated page is over its limits."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from django.conf import settings
from django.db import connection

from bench import (
    daily,
    fill,
    http_players,
    http_scenario,
    lobby,
    printout,
    quickplay,
    ratings,
    report,
    scaleout,
    scenarios,
    strategy_figures,
    tables,
    tournament,
)
from bench.output import BenchError, Console
from games.models import Score
from games.tables.waiting import MAX_WAITING_GAMES
from games.tournaments.models import MAX_PLAYERS


@dataclass(frozen=True)
class Options:
    """What ``manage.py bench`` was asked for (its flags, one for one)."""

    games: int = 1_000_000
    players: int = 10_000
    requests: int = 300  # timed requests per page
    warmup: int | None = None  # untimed rounds first (queries counted); None: a tenth
    refill: bool = False  # delete the bench data and fill anew
    force: bool = False  # run on a database holding other accounts
    seed: int = 2026
    json_path: str | None = None  # None: var/bench-<vendor>.json
    explain: bool = False  # print the query plans
    no_fail: bool = False  # report a page over its limits but end without an error
    http: bool = True  # the HTTP scenario: gunicorn, client processes, every request type
    http_seconds: float = 40.0  # its timed seconds (after a second of warm-up)
    http_clients: int = 2  # its client processes (as many as gunicorn's workers: no queueing)
    # Idle streams held through the HTTP scenario's load (and the most watchers of one move's
    # cost); 0 measures no streams.
    streams: int = 10_000
    scaleout: bool = True  # nginx in front of gunicorn nodes, whole games, replayed afterwards
    scaleout_seconds: float = 20.0
    scaleout_clients: int = 4
    faults: bool = True  # the scale-out run again while workers are SIGKILLed
    strategy: bool = True  # perfect play: table build and load, hints, analysis, simulation
    # Games waiting with seats open (as many again closed); 0: none. None: lobby.GAMES, or as many
    # as the players may host (MAX_WAITING_GAMES each) when they are too few.
    lobby_games: int | None = None
    # Finished attempts on today's daily board; 0: none. None: daily.ATTEMPTS, or ten a player
    # when the players are fewer than a tenth of that (a small run stays small).
    daily_attempts: int | None = None
    pages: tuple[str, ...] = ()  # time only these in-process pages (and the yardsticks)
    # Rated play: accounts rated this season (their table timed, gated); 0: none. And pairs of
    # last scorings of rated games timed with the rating and without; 0: none.
    rated_players: int = ratings.PLAYERS
    rating_moves: int = ratings.ENDING_PAIRS
    # Quick play's pairing: accounts waiting, then arrivals timed one by one; 0 waiting: none.
    quickplay_waiting: int = quickplay.WAITING
    quickplay_arrivals: int = quickplay.ARRIVALS
    quickplay_only: bool = False  # run that alone: no fill, no other scenario
    # A tournament under watch (issue 38): its players, the watchers of its standings, the turns
    # timed with them held (and as many without); ``tournament_only`` runs it alone.
    tournament_players: int = tournament.PLAYERS
    tournament_watchers: int = tournament.WATCHERS
    tournament_moves: int = tournament.MOVES
    tournament_only: bool = False
    tournament: bool = True  # last: below it, ``tournament`` in this class is this flag

    def __post_init__(self) -> None:
        if self.games < self.players or self.players < 1:
            raise BenchError("--games must be at least --players, and --players at least 1.")
        if self.daily_attempts is not None and self.daily_attempts < 0:
            raise BenchError("--daily-attempts cannot be negative.")
        if self.lobby_games is not None and not 0 <= self.lobby_games <= self.lobby_room:
            raise BenchError(
                f"--lobby-games must be between 0 and {MAX_WAITING_GAMES} x --players (each "
                "bench player hosts at most that many waiting games)."
            )
        if self.quickplay_waiting < 0 or self.quickplay_arrivals < 1:
            raise BenchError("--quickplay-waiting cannot be negative, nor --quickplay-arrivals 0.")
        if self.streams < 0:
            raise BenchError("--streams cannot be negative.")
        if self.rated_players < 0 or self.rating_moves < 0:
            raise BenchError("--rated-players and --rating-moves cannot be negative.")
        if self.http_seconds <= 0 or self.http_clients < 1:
            raise BenchError("--http-seconds must be positive, and --http-clients at least 1.")
        if not 1 <= self.tournament_players <= MAX_PLAYERS:
            raise BenchError(f"--tournament-players must be between 1 and {MAX_PLAYERS:,}.")
        if self.tournament_watchers < 1:
            raise BenchError("--tournament-watchers must be at least 1.")
        if not 1 <= self.tournament_moves <= self.tournament_players:
            raise BenchError(
                "--tournament-moves must be between 1 and --tournament-players (each turn timed "
                "is another player's)."
            )
        if self.quickplay_only and self.tournament_only:
            raise BenchError("--quickplay-only and --tournament-only each run alone: choose one.")

    @property
    def lobby_room(self) -> int:
        """The most games the bench players may keep waiting at once."""
        return self.players * MAX_WAITING_GAMES

    @property
    def daily_attempt_count(self) -> int:
        if self.daily_attempts is None:
            return min(daily.ATTEMPTS, self.players * 10)
        return self.daily_attempts

    @property
    def lobby_game_count(self) -> int:
        if self.lobby_games is None:
            return min(lobby.GAMES, self.lobby_room)
        return self.lobby_games

    @property
    def warmup_rounds(self) -> int:
        return self.warmup if self.warmup is not None else max(5, self.requests // 10)


def run(options: Options, console: Console) -> report.Results:
    """Fill (unless the database holds enough), measure, report; the results written.

    Raises ``BenchError`` when the database looks real, or when a gated page is over its limits
    (unless ``no_fail``).
    """
    fill.check_safe(force=options.force)
    printout.print_setup(console)
    if options.quickplay_only:
        return _quickplay_alone(options, console)
    if options.tournament_only:
        return _tournament_alone(options, console)
    http_scenario.flush_shared_cache(console)
    http_players.clear(console)  # what a run killed midway left

    # Never measure without an index the models declare (a fill killed midway drops some).
    tables.restore_indexes(fill.FILLED, console)
    fill_seconds = None
    held = Score.objects.count()
    if options.refill or held < options.games:
        fill_seconds = fill.fill(
            games=options.games, players=options.players, seed=options.seed, console=console
        )
    else:
        console.line(f"Fill skipped: the database holds {held:,} scores (--refill to redo).")
    dataset = scenarios.survey()
    printout.print_dataset(dataset, console)

    # The scenarios: today the pages timed in this process. Another scenario is another step
    # here, measured in its own function and reported in its own section.
    pages = scenarios.in_process_pages(dataset)
    # The lobby: thousands of games waiting, written afresh each run (their seats expire).
    opened = None
    if options.lobby_game_count and (not options.pages or lobby.KEY in options.pages):
        opened = lobby.write(options.lobby_game_count, seed=options.seed, console=console)
        pages.append(lobby.page(dataset, opened))
    # The daily challenge's board: a crowd of attempts today, written afresh (the day moves on).
    crowd = None
    if options.daily_attempt_count and (
        not options.pages or {daily.KEY, daily.MEMBER_KEY} & set(options.pages)
    ):
        crowd = daily.write(options.daily_attempt_count, seed=options.seed, console=console)
        pages.extend(daily.pages(crowd))
    # The season's table of rated players: written once, kept between runs.
    if options.rated_players and (not options.pages or ratings.KEY in options.pages):
        ratings.write_season(options.rated_players, seed=options.seed, console=console)
        pages.append(ratings.season_page())
    pages = scenarios.only(pages, options.pages)
    scenarios.measure(
        pages, requests=options.requests, warmup=options.warmup_rounds, console=console
    )
    scenarios.explain_pages(pages)
    numbers = report.figures(pages)
    failures = report.over_limits(pages, numbers)
    paired = _quickplay(options, console)

    # The move that ends a rated game, with the rating and without; the worker's rating.
    ending = None
    if options.rating_moves:
        ending = ratings.ending(options.rating_moves, console)
        if ending.ratio > ratings.LIMIT:
            failures.append(
                f"the move that ends a rated game took {ending.ratio:.3f}x the same move "
                f"without the rating (limit {ratings.LIMIT:.2f}x)"
            )

    # The HTTP scenario: the site under load from outside, the moves next to the front page,
    # on the fill alone (as every run before the lobby and the daily board were added to the
    # bench measured it): their rows would make every request's tables larger than the fill's.
    http = None
    if options.http:
        if opened is not None:
            lobby.clear(console)
        if crowd is not None:
            daily.clear(console)
        http = http_scenario.run(
            seconds=options.http_seconds,
            clients=options.http_clients,
            seed=options.seed,
            console=console,
            streams=options.streams,
        )

    # The tournament under watch: its own players, node and watchers; a site without the
    # standings stream to measure fails the run at its end, the other figures reported first.
    watched: tournament.Outcome | None = None
    unmeasured = ""
    if options.tournament:
        try:
            watched = _tournament(options, console)
        except BenchError as missing:
            unmeasured = str(missing)
            console.warning(f"Tournament not measured: {unmeasured}")

    # The scale-out scenario: nginx, the nodes, whole games, the replay; then with faults.
    scaled: list[scaleout.Run] = []
    if options.scaleout:
        scaled = scaleout.run(
            seconds=options.scaleout_seconds,
            clients=options.scaleout_clients,
            faults=options.faults,
            console=console,
        )

    results = report.results(
        dataset=dataset,
        fill_seconds=fill_seconds,
        requested={"games": options.games, "players": options.players},
        requests_per_page=options.requests,
        pages=report.page_rows(pages, numbers),
        failures=failures,
        http=report.http_section(http) if http else None,
    )
    if opened is not None:
        results["lobby"] = report.lobby_section(opened, numbers[lobby.KEY])
    if ending is not None:
        results["rating_move"] = ending.as_json()
    printout.print_pages(pages, numbers, results, console)
    if opened is not None:
        printout.print_lobby(opened, numbers, console)
    if paired is not None:
        results[quickplay.KEY] = paired.as_json()
        quickplay.print_outcome(paired, console)
    if http:
        printout.print_http(http, console)
    if watched is not None:
        results[tournament.KEY] = watched.as_json()
        tournament.print_outcome(watched, console)
    if options.explain:
        printout.print_plans(pages, console)
    if scaled:
        results["scaleout"] = [scaleout.section(r) for r in scaled]
    if options.strategy:
        directory = Path(settings.VAR_DIR) / "bench-strategy"
        results["strategy"] = strategy_figures.run(directory, console, seed=options.seed)
        strategy_figures.print_figures(results["strategy"], console)
    path = report.write_json(results, options.json_path)
    console.line(f"Results written to {path}")
    printout.print_verdict(failures, console)
    if failures and not options.no_fail:
        raise BenchError("the top-ten page is over its limits (see above)")
    if http and http.errors and not options.no_fail:
        raise BenchError(f"{http.errors} HTTP request(s) answered with an unexpected status")
    if unmeasured and not options.no_fail:
        raise BenchError(f"the tournament scenario could not run: {unmeasured}")
    scale_problems = [p for r in scaled for p in scaleout.problems(r)]
    if scale_problems and not options.no_fail:
        raise BenchError(f"the scale-out scenario failed: {'; '.join(scale_problems)}")
    return results


def _quickplay(options: Options, console: Console) -> quickplay.Outcome | None:
    if not options.quickplay_waiting:
        return None
    return quickplay.run(
        waiting=options.quickplay_waiting,
        arrivals=options.quickplay_arrivals,
        seed=options.seed,
        console=console,
    )


def _quickplay_alone(options: Options, console: Console) -> report.Results:
    """``--quickplay-only``: quick play's figure by itself, on whatever the database holds."""
    paired = _quickplay(options, console)
    if paired is None:
        raise BenchError("--quickplay-only needs --quickplay-waiting above 0.")
    quickplay.print_outcome(paired, console)
    results: report.Results = {"vendor": connection.vendor, quickplay.KEY: paired.as_json()}
    path = report.write_json(results, options.json_path or _alone_path())
    console.line(f"Results written to {path}")
    if not paired.met and not options.no_fail:
        raise BenchError("quick play's pairing is over its p95 target (see above)")
    return results


def _tournament(options: Options, console: Console) -> tournament.Outcome:
    return tournament.run(
        players=options.tournament_players,
        watchers=options.tournament_watchers,
        moves=options.tournament_moves,
        console=console,
    )


def _tournament_alone(options: Options, console: Console) -> report.Results:
    """``--tournament-only``: the tournament under watch by itself, on whatever the database
    holds (its players are its own)."""
    watched = _tournament(options, console)
    tournament.print_outcome(watched, console)
    results: report.Results = {"vendor": connection.vendor, tournament.KEY: watched.as_json()}
    path = report.write_json(results, options.json_path or _alone_path(tournament.KEY))
    console.line(f"Results written to {path}")
    if not watched.met() and not options.no_fail:
        raise BenchError("the tournament under watch missed a goal (see above)")
    return results


def _alone_path(key: str = quickplay.KEY) -> str:
    var = Path(getattr(settings, "VAR_DIR", Path(settings.BASE_DIR) / "var"))
    return str(var / f"bench-{key}-{connection.vendor}.json")
