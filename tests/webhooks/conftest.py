"""The webhook tests' shared parts: a real loopback receiver, and a gateway allowed to call it."""

from __future__ import annotations

from collections.abc import AsyncIterator, Callable, Iterator
from typing import Any

import pytest

from gateway.config import Settings
from tests.conftest import RunningGateway, run_gateway
from tests.webhooks.receiver import Receiver

ALLOW = "127.0.0.1/32"
HOOKED: dict[str, Any] = {"webhook_allow": ALLOW, "webhook_retry_first": "0.05"}
"""Loopback receivers allowed, retries fast (the schedule scaled down 100 times)."""


@pytest.fixture
def receiver() -> Iterator[Receiver]:
    with Receiver() as r:
        yield r


@pytest.fixture
async def hooked(make_settings: Callable[..., Settings]) -> AsyncIterator[RunningGateway]:
    """A gateway that may call loopback receivers, retrying fast."""
    async with run_gateway(make_settings(**HOOKED)) as gateway:
        yield gateway
