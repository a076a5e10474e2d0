# Two commands on a fresh machine: `make run` and `make test`. See README.md.
PYTHON ?= python3
VENV := .venv
PY := $(VENV)/bin/python
STAMP := $(VENV)/.installed-stamp
HOST ?= 127.0.0.1
PORT ?= 8000

.PHONY: install run test bench lint demo clean

$(STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip
	$(PY) -m pip install --quiet -e ".[test]"
	touch $(STAMP)

install: $(STAMP)

# Sets up the embedded SQLite database with demo data (first time only), rates and publishes it,
# and serves the site. Admin logins are printed before the server starts.
run: install
	$(PY) manage.py migrate --noinput
	$(PY) manage.py seed_demo --if-empty
	$(PY) manage.py rate_demo
	$(PY) manage.py demo_logins
	$(PY) manage.py runserver $(HOST):$(PORT)

test: install
	$(PY) -m pytest

# make bench ONLY=iccf runs one benchmark (names: the bench_*.py modules in tests/benchmarks).
bench: install
	$(PY) -m tests.benchmarks.run $(ONLY)

lint: install
	$(VENV)/bin/ruff check .
	$(VENV)/bin/lint-imports

clean:
	rm -rf $(VENV) db.sqlite3 staticfiles .pytest_cache
