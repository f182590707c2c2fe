"""The scale-out scenario: nginx (with ``deploy/proxy_headers.conf``) in front of gunicorn nodes
(``deploy/gunicorn.conf.py``) on loopback ports, all on this process's database and cache, and
client processes that log in and play whole solo games through the proxy, so their requests
alternate between the nodes. Two nodes on PostgreSQL (with Redis), one on SQLite (``NODES``).

It checks what one node would guarantee: a session made on one node is honoured on the other,
a trial account starts exactly its trial games, and the update check (an ``ETag`` revalidated)
answers 304 only while the game is unchanged, whichever node answers. Afterwards every game is
replayed from its ``Move`` log through ``games.rules`` and compared with the stored cards,
totals and ``Score`` rows. The fault run is the same while a gunicorn worker is SIGKILLed every
few seconds: every acknowledged move must be in the log, every game still playable.

- ``proxy``: nginx, configured and run for the bench
- ``players``: the client processes (solo players, two-player tables, the limits)
- ``scenario``: the players made, the nodes and the proxy served, the run and the fault run
- ``checks``: the replay and the other checks afterwards
- ``summary``: the figures, the JSON section, the problems, the printed lines
"""

from bench.scaleout.proxy import nginx_binary
from bench.scaleout.scenario import PREFIX, nodes_for, run
from bench.scaleout.summary import Run, print_run, problems, section

__all__ = ["PREFIX", "Run", "nginx_binary", "nodes_for", "print_run", "problems", "run", "section"]
