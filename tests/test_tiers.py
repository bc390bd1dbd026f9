"""The test tiers (markers dovecot, postgres, browser, stdio) that tests/conftest.py gives from what a test needs."""

from __future__ import annotations

import subprocess
from typing import Any

import pytest

from tests.conftest import TIER_FIXTURES, TIER_NAMES, _referenced_names, tiers_of

# Compiled at run time, so that this module's own code refers to none of these names
# (it would otherwise be in the stdio tier itself).
SAMPLE = """
import subprocess, sys

def spawn_python():
    subprocess.Popen([sys.executable, "-c", "pass"])

class Launcher:
    def launch(self):
        spawn_python()

def nested():
    def inner():
        Launcher().launch()
    inner()
"""


def test_names_are_found_through_nested_functions_helpers_and_classes() -> None:
    namespace: dict[str, Any] = {"__name__": "tests.sample"}
    exec(compile(SAMPLE, __file__, "exec"), namespace)  # as if written here, under tests/
    names = _referenced_names([namespace["nested"]])
    assert {"Popen", "executable"} <= names
    assert names & TIER_NAMES["stdio"]


def test_library_code_is_not_followed() -> None:
    def calls_a_library() -> None:
        pytest.importorskip("json")

    # pytest's own body mentions many names; none of them may make this test a tier.
    assert _referenced_names([calls_a_library]) == {"pytest", "importorskip"}
    library_spawner = vars(subprocess)["run"]  # (by key: naming it here would put this test in the stdio tier)
    assert "Popen" in library_spawner.__code__.co_names
    assert _referenced_names([library_spawner]) == set()


def test_a_test_needing_nothing_is_in_no_tier(request: pytest.FixtureRequest) -> None:
    assert tiers_of(request.node) == set()
    assert not [m for m in request.node.iter_markers() if m.name in TIER_NAMES]


def test_every_tier_is_a_registered_marker(pytestconfig: pytest.Config) -> None:
    registered = {line.split(":", 1)[0] for line in pytestconfig.getini("markers")}
    assert set(TIER_NAMES) == set(TIER_FIXTURES) == {"dovecot", "postgres", "browser", "stdio"}
    assert set(TIER_NAMES) <= registered
