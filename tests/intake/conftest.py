"""Every async intake test runs on each event loop `serve` can run on: the stdlib one and uvloop.

uvloop is a dependency wherever it has wheels (pyproject.toml's marker); where it is not
importable the tests run on the stdlib loop alone, and `tests/test_serve.py` fails if that
happens on a platform the marker installs it for.
"""

from __future__ import annotations

import asyncio
import importlib
from collections.abc import Callable

import pytest


def loop_factories() -> dict[str, Callable[[], asyncio.AbstractEventLoop]]:
    """Name → new-loop factory for each loop available here (`asyncio` always)."""
    factories: dict[str, Callable[[], asyncio.AbstractEventLoop]] = {"asyncio": asyncio.new_event_loop}
    try:
        uvloop = importlib.import_module("uvloop")
    except ImportError:
        return factories
    factories["uvloop"] = uvloop.new_event_loop
    return factories


def pytest_asyncio_loop_factories(
    config: pytest.Config, item: pytest.Item
) -> dict[str, Callable[[], asyncio.AbstractEventLoop]]:
    """pytest-asyncio's hook: each async test in this folder once per loop, ids `[asyncio]`, `[uvloop]`."""
    return loop_factories()
