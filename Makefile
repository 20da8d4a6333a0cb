# Two commands for a newcomer: `make run` and `make test`. Both set up everything.
PYTHON ?= $(shell command -v python3.11 || command -v python3)
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

.PHONY: run test test-cluster bench lint format worker clean

$(STAMP): requirements.txt
	test -d $(VENV) || $(PYTHON) -m venv $(VENV)
	$(BIN)/pip install --quiet --disable-pip-version-check -r requirements.txt
	touch $(STAMP)

# axe-core and Lighthouse (package.json), for the browser audit: the accessibility test
# injects axe-core; `python -m bench.lighthouse` runs Lighthouse; masto.js and megalodon,
# the JavaScript clients api/tests/js drives. Only when missing or stale.
# (The static files are collected by the tests' and the launcher's own setup.)
NODE_STAMP := node_modules/.package-lock.json
$(NODE_STAMP): package-lock.json
	npm ci --no-audit --no-fund --loglevel=error
	touch $@
test test-cluster: $(NODE_STAMP)

run: $(STAMP)
	$(BIN)/python -m socialsite.launcher

# The suite on TEST_WORKERS parallel pytest-xdist workers, each with its own Redis server
# and test database (socialsite/testing/plugin.py); TEST_WORKERS=0 runs it in one process.
# 2 is the fastest on a 2-core machine (docs/contributing.md has the figures).
TEST_WORKERS ?= 2
XDIST = -n $(TEST_WORKERS) --dist worksteal

test: $(STAMP)
	$(BIN)/python -m pytest $(XDIST) $(PYTEST_ARGS)

# The same suite on a throwaway 3-master Redis Cluster (one for each worker), with
# PostgreSQL as the ORM database where Debian's postgresql is installed (one server for
# every worker; SQLite otherwise, said in the header).
test-cluster: $(STAMP)
	$(BIN)/python -m pytest --redis-cluster $(XDIST) $(PYTEST_ARGS)

# Speed and memory figures, each beside a baseline from the same run (see README).
bench: $(STAMP)
	$(BIN)/python -m bench $(BENCH_ARGS)

# Every main page at 390 and 1280 px wide, from a throwaway site, into var/screenshots/.
.PHONY: screenshots
screenshots: $(STAMP)
	$(BIN)/python -m bench.screenshots $(SCREENSHOTS_ARGS)

# ruff, then mypy over the apps (which packages and how strictly: pyproject.toml).
lint: $(STAMP)
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .
	$(BIN)/mypy

format: $(STAMP)
	$(BIN)/ruff check --fix .
	$(BIN)/ruff format .

clean:
	rm -rf $(VENV) var
