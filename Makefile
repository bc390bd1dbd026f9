# The two commands: `make run` starts the gateway, `make test` runs every check.
# `make test-fast` is the inner loop: no real mail stack, PostgreSQL, browser or spawned processes.
PYTHON ?= python3
VENV ?= .venv
PY := $(VENV)/bin/python

.PHONY: setup run test test-fast lint bench dist lock clean

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
	$(PY) bench/send.py
	$(PY) bench/soak.py
	$(PY) bench/webhooks.py
	$(PY) bench/extract.py
	$(PY) bench/ingest.py
	$(PY) bench/rebuild.py
	$(PY) bench/replicas.py

# A wheel of the whole distribution (gateway/ and mcp_server/) in dist/: `pip install dist/*.whl`.
dist: setup
	$(PY) -m pip wheel --no-deps --wheel-dir dist .

# The image's pinned dependencies (docker/requirements.lock), re-resolved from pyproject.toml.
lock: setup
	$(VENV)/bin/uv pip compile pyproject.toml --extra postgres --universal --python-version 3.11 --generate-hashes \
	  --quiet --output-file docker/requirements.lock

clean:
	rm -rf $(VENV) dist .pytest_cache .mypy_cache .ruff_cache .hypothesis
