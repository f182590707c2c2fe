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

RUN_ENV := DEBUG=0 HTTPS=0 SECRET_KEY_FILE=var/secret_key SERIAL_HMAC_KEY_FILE=var/serial_hmac_key

.PHONY: help run dev test test-postgres bench lint mutation migrate clean check-python

help:
	@echo "make run    - set up and serve the site on http://$(HOST):$(PORT)"
	@echo "make test   - set up and run every test"
	@echo "make test-postgres - the suite (no browser) on PostgreSQL at POSTGRES_URL"
	@echo "make dev    - Django's development server with DEBUG on"
	@echo "make bench  - fill a million games and time the high-score pages (SQLite, PostgreSQL)"
	@echo "make lint   - ruff, mypy"
	@echo "make mutation - mutation testing of the rules, serials and licensing (slow; not in CI)"

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

# Secrets generated once, never committed (var/ is ignored).
var/secret_key var/serial_hmac_key: | $(BIN)/python
	mkdir -p var
	umask 077 && $(BIN)/python -c "import secrets; print(secrets.token_urlsafe(50))" > $@

migrate: $(VENV)/.runtime var/secret_key var/serial_hmac_key
	$(RUN_ENV) $(BIN)/python manage.py migrate --noinput

run: migrate
	$(RUN_ENV) $(BIN)/python manage.py collectstatic --noinput --verbosity 0
	@echo "Serving on http://$(HOST):$(PORT)  (Ctrl-C to stop)"
	$(RUN_ENV) $(BIN)/gunicorn yahtzee_site.wsgi --bind $(HOST):$(PORT) --workers $(WORKERS) \
		--access-logfile - --forwarded-allow-ips=""

dev: $(VENV)/.runtime
	DEBUG=1 $(BIN)/python manage.py migrate --noinput
	DEBUG=1 $(BIN)/python manage.py runserver $(HOST):$(PORT)

test: $(VENV)/.dev
	$(BIN)/python -m pytest $(PYTEST_ARGS)

# The same suite against PostgreSQL (DATABASE_URL), less the browser journeys.
POSTGRES_URL ?= postgres://postgres@127.0.0.1:5432/test
test-postgres: $(VENV)/.dev
	DATABASE_URL=$(POSTGRES_URL) $(BIN)/python -m pytest -m "not browser" $(PYTEST_ARGS)

# A million finished games in a separate database, then the high-score and statistics pages
# timed next to a trivial page: on SQLite, then on PostgreSQL when one answers at BENCH_POSTGRES_URL.
# Pages render as in production (DEBUG off), so they need the static files' manifest: the bench
# collects its own, into a STATIC_ROOT of its own, and runs from a fresh clone.
BENCH_ENV := DEBUG=0 HTTPS=0 SECRET_KEY=bench-only SERIAL_HMAC_KEY=bench-only LOG_LEVEL=WARNING \
	STATIC_ROOT=$(CURDIR)/var/bench-static
BENCH_POSTGRES_URL ?= postgres://postgres@127.0.0.1:5432/yahtzee_bench
bench: $(VENV)/.dev
	mkdir -p var
	$(BENCH_ENV) $(BIN)/python manage.py collectstatic --noinput -v0
	$(BENCH_ENV) SQLITE_PATH=var/bench.sqlite3 $(BIN)/python manage.py migrate -v0
	$(BENCH_ENV) SQLITE_PATH=var/bench.sqlite3 $(BIN)/python manage.py bench $(BENCH_ARGS)
	@if $(BIN)/python -c "import psycopg, sys; u = sys.argv[1]; base, name = u.rsplit('/', 1); \
		c = psycopg.connect(base + '/postgres', autocommit=True, connect_timeout=3); \
		c.execute('SELECT 1 FROM pg_database WHERE datname = %s', (name,)).fetchone() \
		or c.execute('CREATE DATABASE ' + name)" "$(BENCH_POSTGRES_URL)" 2>/dev/null; then \
		$(BENCH_ENV) DATABASE_URL=$(BENCH_POSTGRES_URL) $(BIN)/python manage.py migrate -v0 && \
		$(BENCH_ENV) DATABASE_URL=$(BENCH_POSTGRES_URL) $(BIN)/python manage.py bench $(BENCH_ARGS); \
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
