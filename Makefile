# Two commands on a fresh machine: `make run` and `make test`. See README.md.
PYTHON ?= python3
VENV := .venv
PY := $(VENV)/bin/python
STAMP := $(VENV)/.installed-stamp
HOST ?= 127.0.0.1
PORT ?= 8000

.PHONY: install run test bench lint demo clean messages screenshots

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
	$(VENV)/bin/ruff format --check .
	$(VENV)/bin/lint-imports

# docs/*.png for the README: a throwaway demo database and server on SHOT_PORT, four screenshots.
SHOT_PORT ?= 8765
SHOT_DB := $(CURDIR)/.screenshots.sqlite3
screenshots: install
	rm -f $(SHOT_DB)
	DATABASE_URL=sqlite:///$(SHOT_DB) $(PY) manage.py migrate --noinput -v0
	DATABASE_URL=sqlite:///$(SHOT_DB) $(PY) manage.py seed_demo --players 400 --seed 2026
	DATABASE_URL=sqlite:///$(SHOT_DB) $(PY) manage.py rate_demo
	DATABASE_URL=sqlite:///$(SHOT_DB) $(PY) manage.py runserver 127.0.0.1:$(SHOT_PORT) --noreload & \
	  server=$$!; trap "kill $$server" EXIT; \
	  for i in $$(seq 1 50); do $(PY) -c "import urllib.request as u; u.urlopen('http://127.0.0.1:$(SHOT_PORT)/')" 2>/dev/null && break; sleep 0.3; done; \
	  $(PY) docs/screenshots.py http://127.0.0.1:$(SHOT_PORT) docs
	rm -f $(SHOT_DB)

# The German and French catalogues of the public pages (locale/): extract, then compile the .mo
# files that are committed (needs GNU gettext: apt-get install gettext).
messages: install
	$(PY) manage.py makemessages -l de -l fr --no-obsolete $(MESSAGE_IGNORES)
	$(PY) manage.py compilemessages -i .venv

MESSAGE_IGNORES := -i ".venv/*" -i "tests/*" -i "templates/admin/*" -i "*/admin/*" \
	-i "*/management/*" -i "*/migrations/*" -i "ratings/engines/*" -i "ratings/systems/*/runner.py" \
	-i "ratings/services/*" -i "federation/demo/*" -i "tournaments/services.py" \
	-i "tournaments/egf_import.py" -i "tournaments/formats/*" -i "federation/permissions.py" \
	-i "federation/login_throttle.py" -i "staticfiles/*"

clean:
	rm -rf $(VENV) db.sqlite3 staticfiles .pytest_cache
