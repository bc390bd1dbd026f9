# The two commands: `make run` starts the gateway, `make test` runs every check.
# `make test-fast` is the inner loop: no real mail stack, PostgreSQL, browser or spawned processes.
PYTHON ?= python3
VENV ?= .venv
PY := $(VENV)/bin/python

.PHONY: setup run test test-fast lint bench clean

$(VENV)/.installed: pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(PY) -m pip install -q --upgrade pip
	$(PY) -m pip install -q -e '.[dev]'
	touch $@

setup: $(VENV)/.installed

run: setup
	$(VENV)/bin/agentmail-gateway serve

lint: setup
	$(PY) -m ruff check gateway mcp_server tests bench corpus
	$(PY) -m mypy

test: lint
	$(PY) -m pytest

# The tiers are markers that tests/conftest.py gives from the fixtures a test uses.
test-fast: setup
	$(PY) -m pytest -m "not dovecot and not postgres and not browser and not stdio" -x -q

bench: setup
	$(PY) bench/run.py
	$(PY) bench/dovecot.py
	$(PY) bench/mcp_stdio.py
	$(PY) bench/client.py
	$(PY) bench/soak.py

clean:
	rm -rf $(VENV) .pytest_cache .mypy_cache .ruff_cache .hypothesis
