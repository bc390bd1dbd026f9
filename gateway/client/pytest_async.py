"""The asyncio fixture of the pytest plugin, registered by it only where pytest-asyncio runs.

``agentmail_async_identity`` (function scope): a fresh :class:`~gateway.client.AsyncIdentity` on
an :class:`~gateway.client.AsyncGateway` of its own (closed after the test), deleted after the
test whatever its outcome (kept under ``--agentmail-keep``). It runs in the event loop that
pytest-asyncio's ``asyncio_default_fixture_loop_scope`` names (by default the test's own), so
awaiting it never blocks an app served in that loop, as the blocking ``agentmail_identity`` would.

    async def test_signup(agentmail, agentmail_async_identity):
        await signup(agentmail_async_identity.address)
        assert await agentmail_async_identity.wait_for_code(timeout=30)
"""

from __future__ import annotations

import contextlib
from collections.abc import AsyncIterator
from typing import TYPE_CHECKING

import pytest
import pytest_asyncio

from gateway.client.pytest_plugin import KEPT, creation_failed, label_for, where_kept

if TYPE_CHECKING:
    from gateway.client.aio import AsyncIdentity
    from gateway.client.embedded import SessionGateway

__all__ = ["agentmail_async_identity"]


@pytest_asyncio.fixture
async def agentmail_async_identity(
    agentmail: SessionGateway, request: pytest.FixtureRequest
) -> AsyncIterator[AsyncIdentity]:
    """A fresh identity for this async test (label: its node id), deleted afterwards even if the test failed."""
    from gateway.client.aio import AsyncGateway
    from gateway.client.errors import GatewayError, NotFound

    async with AsyncGateway(agentmail.url, agentmail._token) as gw:
        try:
            identity = await gw.create_identity(label=label_for(request.node.nodeid))
        except GatewayError as exc:
            creation_failed(agentmail, exc)
        try:
            yield identity
        finally:
            if request.config.getoption("agentmail_keep"):
                request.node.user_properties.append((KEPT, (identity.address, where_kept(request, agentmail))))
            else:
                with contextlib.suppress(NotFound):  # the test deleted it itself
                    await identity.delete()
