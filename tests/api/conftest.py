"""Every API test runs twice: on the embedded source and on a real Postfix + Dovecot.

`make_settings` (and so the `gateway` fixture and any `run_gateway` a test starts itself)
points at the session's mail stack when the test's `source` is `imap`.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from gateway.config import Settings
from tests.conftest import mailstack_settings


@pytest.fixture(params=["local", "imap"])
def source(request: pytest.FixtureRequest) -> str:
    """Which mail source the test's gateways run on."""
    return str(request.param)


@pytest.fixture
def make_settings(
    tmp_path: Path, source: str, request: pytest.FixtureRequest, base_make_settings: Callable[..., Settings]
) -> Callable[..., Settings]:
    """The shared factory, plus the mail stack's settings for `imap` runs."""
    if source == "local":
        return base_make_settings
    overrides = mailstack_settings(request.getfixturevalue("mailstack"))

    def make(**more: Any) -> Settings:
        return base_make_settings(**{**overrides, **more})

    return make
