"""The benchmark: fill a bench database with finished games, time pages against it, report.

``manage.py bench`` is the door: it turns its flags into ``Options`` and calls ``run``.

- ``cards``: plausible finished score cards, built and totalled by ``games.rules``
- ``fill``: the bench accounts, games, seats and scores, written straight into the tables
- ``tables``: the fast writes, index drop and rebuild, and statistics under ``fill``
- ``scenarios``: what is timed in this process (the pages)
- ``http_scenario``: the site under load over HTTP (its sessions, the run, the targets);
  ``http_players``: its players and their games; ``load``: its client processes and the maths;
  ``http_queries``: each type's queries counted;
  ``follow``: a move to the other player's page; ``serve``: gunicorn for these scenarios
- ``client``: the one HTTP client of every client process (cookies, CSRF, timing, samples);
  ``turns``: the one turn (roll, roll, score) and the one reading of the game's answers
- ``scaleout`` (a package): nginx (``deploy/``) in front of gunicorn nodes, players logging in
  and playing whole solo and online games through it, the replay of every game from its log,
  the fault run
- ``quickplay``: quick play's pairing among a crowd waiting, arrivals timed until seated
- ``tournament``: a tournament of 1,000 players under 1,000 watchers of its standings stream,
  each score's reach to every watcher and the moves' ratios with the watchers and without
- ``report``: the figures, the limits, the printed table and ``var/bench-<vendor>.json``
- ``runner``: one run, from the safety check to the verdict
"""

from bench.output import BenchError, Console
from bench.runner import Options, run

__all__ = ["BenchError", "Console", "Options", "run"]
