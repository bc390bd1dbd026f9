"""Long waits are re-armed in segments: the server in-process (the SDK's in-memory client), short segments."""

from __future__ import annotations

from pathlib import Path

import anyio
import httpx
import pytest
from mcp import Client

import mcp_server.server
from gateway.client import AsyncGateway
from mcp_server.server import build_server
from tests.conftest import make_message
from tests.mcp.conftest import McpEnv


async def test_a_wait_longer_than_a_segment_is_re_armed_until_the_mail_comes(
    mcp_env: McpEnv, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    gateway = mcp_env.gateway
    monkeypatch.setattr(mcp_server.server, "PROGRESS_SECONDS", 0.1)
    waits: list[httpx.URL] = []
    seen: list[float] = []
    mailed = False

    async def record(request: httpx.Request) -> None:
        if request.url.path.endswith("/wait"):
            waits.append(request.url)

    server = build_server(
        str(gateway.http.base_url),
        mcp_env.provisioner_token,
        tmp_path / "tokens.json",
        event_hooks={"request": [record]},
        wait_segment=0.3,
    )

    async with Client(server) as client:
        created = await client.call_tool("create_identity", {})
        address = created.structured_content["address"]

        async def on_progress(value: float, total: float | None, message: str | None) -> None:
            nonlocal mailed
            seen.append(value)
            # Mail only once three HTTP waits have timed out and a fourth is armed (counted, not timed).
            if len(waits) >= 4 and not mailed:
                mailed = True
                await gateway.send(make_message(to=address, subject="late", text="code 612345"), [address])

        with anyio.fail_after(30):
            result = await client.call_tool(
                "wait_for_message", {"address": address, "timeout": 20}, progress_callback=on_progress
            )
    assert not result.is_error, result
    assert result.structured_content["message"]["subject"] == "late"
    assert len(waits) >= 4, waits
    assert all(float(url.params["timeout"]) <= 0.3 for url in waits), waits
    assert seen == sorted(seen) and all(0 < v <= 20 for v in seen)


async def test_one_http_wait_never_asks_for_more_than_fifty_seconds(mcp_env: McpEnv) -> None:
    gateway = mcp_env.gateway
    address, token = await gateway.create_identity()
    asked: list[httpx.URL] = []

    async def record(request: httpx.Request) -> None:
        asked.append(request.url)

    async with httpx.AsyncClient(base_url=gateway.http.base_url, event_hooks={"request": [record]}) as http:
        me = AsyncGateway(str(gateway.http.base_url), mcp_env.provisioner_token, http=http).identity(address, token)
        async with anyio.create_task_group() as tasks:
            tasks.start_soon(lambda: me.next_message(600))
            await gateway.gw.hub.wait_for_count(lambda n: n == 1, timeout=20)
            tasks.cancel_scope.cancel()  # a cancelled call drops the request: the gateway lets go
        await gateway.gw.hub.wait_for_count(lambda n: n == 0, timeout=20)
    (url,) = asked
    assert url.params["timeout"] == "50.0"
