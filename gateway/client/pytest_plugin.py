"""pytest plugin `agentmail`: registered by the `pytest11` entry point, so installing the distribution is enough.

Its options come first; the fixtures build on :mod:`gateway.client`.
"""

from __future__ import annotations

import pytest

__all__ = ["pytest_addoption"]


def pytest_addoption(parser: pytest.Parser) -> None:
    group = parser.getgroup("agentmail", "agentmail-gateway: an address per test")
    group.addoption(
        "--agentmail-url",
        default=None,
        help="the gateway the agentmail fixtures use (default: AGENTMAIL_URL, else an embedded one per session)",
    )
    group.addoption(
        "--agentmail-keep",
        action="store_true",
        default=False,
        help="keep the identities the fixtures create (their addresses are listed at the end)",
    )
