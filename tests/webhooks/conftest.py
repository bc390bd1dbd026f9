"""The webhook tests' shared parts: a real loopback receiver, and a gateway allowed to call it."""

from __future__ import annotations

import asyncio
import time
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


async def recorded(gateway: RunningGateway, webhook_id: str, count: int) -> list[dict[str, Any]]:
    """The webhook's deliveries once `count` of them are finished (the worker records an outcome just
    after the receiver answered: polled, bounded)."""
    deadline = time.monotonic() + 30
    while True:
        found: list[dict[str, Any]] = (
            await gateway.http.get(f"/v1/webhooks/{webhook_id}/deliveries", params={"limit": 200})
        ).json()["deliveries"]
        if sum(d["status"] != "queued" for d in found) >= count or time.monotonic() > deadline:
            return found
        await asyncio.sleep(0.02)  # polling the worker's record, bounded by the deadline
