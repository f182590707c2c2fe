# One command to serve the site, one to test it; each sets up what it needs first.
SHELL := /bin/bash
.DEFAULT_GOAL := help

VENV := .venv
BIN := $(VENV)/bin
HOST ?= 127.0.0.1
PORT ?= 8000
WORKERS ?= 2

# The first Python >= 3.12 found: PYTHON=... wins, then python3.13/3.12 on PATH, then pyenv's.
PYENV_ROOT ?= $(HOME)/.pyenv
PYTHON ?= $(shell for c in python3.14 python3.13 python3.12 python3 \
	$$(ls -d $(PYENV_ROOT)/versions/3.1[2-9]*/bin/python3 2>/dev/null | sort -rV); do \
	p=$$(command -v $$c 2>/dev/null) || continue; \
	$$p -c 'import sys; sys.exit(sys.version_info < (3, 12))' 2>/dev/null && { echo $$p; break; }; done)

# Where mail links to (the turn mail's game, unsubscribe and options links): where `make run`
# serves, unless SITE_URL is set (the name other machines reach this one by, a proxy in front).
# HOST 0.0.0.0 or :: listens everywhere, which is no address to link to: localhost instead.
LINK_HOST = $(if $(filter 0.0.0.0 ::,$(HOST)),localhost,$(if $(findstring :,$(HOST)),[$(HOST)],$(HOST)))
SITE_URL ?= http://$(LINK_HOST):$(PORT)

# One machine, plain http on localhost: mail (activation, password reset) goes to the console.
RUN_ENV := DEBUG=0 HTTPS=0 EMAIL_CONSOLE_OK=1 SECRET_KEY_FILE=var/secret_key \
	SERIAL_HMAC_KEY_FILE=var/serial_hmac_key DAILY_DICE_KEY_FILE=var/daily_dice_key \
	SITE_URL='$(SITE_URL)'

.PHONY: help run dev test test-postgres fuzz bench lint mutation migrate strategy clean check-python

help:
	@echo "make run    - set up and serve the site on http://$(HOST):$(PORT)"
	@echo "make test   - set up and run every test"
	@echo "make test-postgres - the suite (no browser) on PostgreSQL at POSTGRES_URL"
	@echo "make strategy - compute the perfect-play table (make run does it first)"
	@echo "make dev    - Django's development server with DEBUG on"
	@echo "make fuzz   - the site's fuzzer, longer than in make test (FUZZ_REQUESTS, FUZZ_SEED)"
	@echo "make bench  - fill a million games, time the high-score pages and the game over HTTP"
	@echo "make lint   - ruff, mypy"
	@echo "make mutation - mutation testing of the rules, the Match, the store and its Move rows, serials, licensing (slow; not in CI)"

check-python:
	@if [ -z "$(PYTHON)" ]; then \
		echo "error: Python 3.12 or newer is needed (Django 6.1). Install it, or run make PYTHON=/path/to/python3.12" >&2; \
		exit 1; fi

$(BIN)/python: | check-python
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip

$(VENV)/.runtime: requirements.txt | $(BIN)/python
	$(BIN)/pip install --quiet -r requirements.txt
	touch $@

$(VENV)/.dev: requirements.txt requirements-dev.txt | $(BIN)/python
	$(BIN)/pip install --quiet -r requirements-dev.txt
	touch $@ $(VENV)/.runtime

# Secrets generated once, never committed (var/ is ignored). var/ holds them and the database
# (password hashes): its owner alone may enter it (settings and a connection hook keep it so).
var/secret_key var/serial_hmac_key var/daily_dice_key: | $(BIN)/python
	install -d -m 0700 var
	umask 077 && $(BIN)/python -c "import secrets; print(secrets.token_urlsafe(50))" > $@

migrate: $(VENV)/.runtime var/secret_key var/serial_hmac_key var/daily_dice_key
	umask 077 && $(RUN_ENV) $(BIN)/python manage.py migrate --noinput

# The perfect-play table (var/strategy): computed in about a second, skipped when a valid one exists.
strategy: $(VENV)/.runtime var/secret_key var/serial_hmac_key var/daily_dice_key
	$(RUN_ENV) $(BIN)/python manage.py build_strategy

# One ASGI server for everything (pages, moves and the games' streams of changes), and beside it
# the task worker (mail, grading, the trainer's harvest: manage.py run_tasks), as a user's
# machine wants it. Without REDIS_URL a move is told to the streams of its own process only,
# so one worker serves all; with REDIS_URL, WORKERS of them (deploy/ splits pages and streams).
# Games that finished before accuracy was graded, or that no page asked to grade, are graded
# first (quick when there are none: an index holds only those).
run: migrate strategy
	$(RUN_ENV) $(BIN)/python manage.py grade_games
	$(RUN_ENV) $(BIN)/python manage.py collectstatic --noinput --verbosity 0
	@echo "Serving on http://$(HOST):$(PORT), mail linking to $(SITE_URL)  (Ctrl-C to stop)"
	@workers=$(WORKERS); if [ -z "$$REDIS_URL" ]; then workers=1; \
		echo "No REDIS_URL: one worker, so that every open page hears every move."; fi; \
	umask 077; $(RUN_ENV) $(BIN)/python manage.py run_tasks --verbosity 1 & tasks=$$!; \
	trap 'kill $$tasks 2>/dev/null; wait $$tasks 2>/dev/null' EXIT; \
	$(RUN_ENV) $(BIN)/gunicorn yahtzee_site.asgi --worker-class yahtzee_site.asgi_worker.Worker \
		--bind $(HOST):$(PORT) --workers $$workers --access-logfile - --forwarded-allow-ips=""

dev: $(VENV)/.runtime
	install -d -m 0700 var
	DEBUG=1 $(BIN)/python manage.py migrate --noinput
	@DEBUG=1 $(BIN)/python manage.py run_tasks --verbosity 1 & tasks=$$!; \
	trap 'kill $$tasks 2>/dev/null; wait $$tasks 2>/dev/null' EXIT; \
	DEBUG=1 $(BIN)/python manage.py runserver $(HOST):$(PORT)

test: $(VENV)/.dev
	$(BIN)/python -m pytest $(PYTEST_ARGS)

# The same suite against PostgreSQL (DATABASE_URL), less the browser journeys.
POSTGRES_URL ?= postgres://postgres@127.0.0.1:5432/test
test-postgres: $(VENV)/.dev
	DATABASE_URL=$(POSTGRES_URL) $(BIN)/python -m pytest -m "not browser" $(PYTEST_ARGS)

# The fuzzer (tests/fuzz/) with a larger budget than the suite's 1,500 drawn requests, on SQLite
# and then on PostgreSQL when one answers at POSTGRES_URL. A failure prints its requests; the
# same FUZZ_SEED sends them again.
FUZZ_REQUESTS ?= 30000
FUZZ_SEED ?= $(shell date +%s)
fuzz: $(VENV)/.dev
	FUZZ_REQUESTS=$(FUZZ_REQUESTS) FUZZ_SEED=$(FUZZ_SEED) $(BIN)/python -m pytest tests/fuzz -q -s
	@if $(BIN)/python -c "import psycopg, sys; psycopg.connect(sys.argv[1], connect_timeout=3)" \
		"$(POSTGRES_URL)" 2>/dev/null; then \
		DATABASE_URL=$(POSTGRES_URL) FUZZ_REQUESTS=$(FUZZ_REQUESTS) FUZZ_SEED=$(FUZZ_SEED) \
			$(BIN)/python -m pytest tests/fuzz -q -s; \
	else echo "PostgreSQL not reachable at $(POSTGRES_URL): its fuzz run is skipped."; fi

# A million finished games in a separate database, then the high-score and statistics pages
# timed next to a trivial page: on SQLite, then on PostgreSQL when one answers at BENCH_POSTGRES_URL.
# Pages render as in production (DEBUG off), so they need the static files' manifest: the bench
# collects its own, into a STATIC_ROOT of its own, and runs from a fresh clone. Then the game
# over HTTP: gunicorn under load from client processes, every request type interleaved, against
# the front page (BENCH_ARGS=--no-http skips it; --http-seconds N sets its length). Then the
# scale-out scenario (bench/scaleout.py): nginx in front of gunicorn nodes, whole games, a replay of
# every game, and a fault run killing workers (--no-scaleout skips it, --no-faults the fault run).
# And a tournament of 1,000 players watched by 1,000 holding its standings stream (bench/tournament.py:
# --no-tournament skips it, --tournament-only runs it alone).
BENCH_ENV := DEBUG=0 HTTPS=0 EMAIL_CONSOLE_OK=1 SECRET_KEY=bench-only SERIAL_HMAC_KEY=bench-only DAILY_DICE_KEY=bench-only LOG_LEVEL=WARNING \
	STATIC_ROOT=$(CURDIR)/var/bench-static
BENCH_POSTGRES_URL ?= postgres://postgres@127.0.0.1:5432/yahtzee_bench
# The PostgreSQL bench shares sessions and game versions in Redis when one answers here (a
# database number of the bench's own: the bench flushes it).
BENCH_REDIS_URL ?= redis://127.0.0.1:6379/11
bench: $(VENV)/.dev
	install -d -m 0700 var
	@command -v nginx >/dev/null 2>&1 || [ -x /usr/sbin/nginx ] || { \
		if [ "$$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then \
			echo "Installing nginx-light (Debian) for the scale-out scenario ..."; \
			export DEBIAN_FRONTEND=noninteractive; apt-get update -qq && \
			apt-get install -y -qq --no-install-recommends nginx-light >/dev/null || \
			echo "nginx could not be installed: the scale-out scenario will be skipped."; \
		else echo "nginx is not installed (and this is not root to install it): the scale-out scenario will be skipped."; fi; }
	$(BENCH_ENV) $(BIN)/python manage.py collectstatic --noinput -v0
	$(BENCH_ENV) SQLITE_PATH=var/bench.sqlite3 $(BIN)/python manage.py migrate -v0
	$(BENCH_ENV) SQLITE_PATH=var/bench.sqlite3 $(BIN)/python manage.py bench $(BENCH_ARGS)
	@if $(BIN)/python -c "import psycopg, sys; u = sys.argv[1]; base, name = u.rsplit('/', 1); \
		c = psycopg.connect(base + '/postgres', autocommit=True, connect_timeout=3); \
		c.execute('SELECT 1 FROM pg_database WHERE datname = %s', (name,)).fetchone() \
		or c.execute('CREATE DATABASE ' + name)" "$(BENCH_POSTGRES_URL)" 2>/dev/null; then \
		redis=$$($(BIN)/python -c "import redis, sys; \
			redis.Redis.from_url(sys.argv[1], socket_connect_timeout=2).ping()" \
			"$(BENCH_REDIS_URL)" 2>/dev/null && echo "REDIS_URL=$(BENCH_REDIS_URL)") || \
			echo "Redis not reachable at $(BENCH_REDIS_URL): PostgreSQL bench without it."; \
		$(BENCH_ENV) DATABASE_URL=$(BENCH_POSTGRES_URL) $(BIN)/python manage.py migrate -v0 && \
		$(BENCH_ENV) DATABASE_URL=$(BENCH_POSTGRES_URL) env $$redis \
			$(BIN)/python manage.py bench $(BENCH_ARGS); \
	else echo "PostgreSQL not reachable at $(BENCH_POSTGRES_URL): its bench is skipped."; fi

lint: $(VENV)/.dev
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .
	DEBUG=1 $(BIN)/mypy

# Mutation testing (tools/mutate.py): each module's mutants run against its tests in a private
# copy of the repository, two at a time; prints the survivors and a score per module.
# MUTATE_ARGS="accounts/serials.py --jobs 1" narrows it.
mutation: $(VENV)/.dev
	$(BIN)/python tools/mutate.py $(MUTATE_ARGS)

clean:
	rm -rf $(VENV) staticfiles .pytest_cache .hypothesis
