"""The public routes: `/health` for probes and `/schema`, the OpenAPI document, both without a token."""

from __future__ import annotations

import asyncio
import contextlib
import sqlite3
import time
from collections.abc import Sequence

import httpx
import pytest

from gateway import sync as sync_module
from gateway.store import CopyRecord
from tests.conftest import DOMAIN, RunningGateway, make_message

OPERATIONS = {
    "createIdentity",
    "listIdentities",
    "rotateIdentityToken",
    "deleteIdentity",
    "listMessages",
    "getMessage",
    "markMessage",
    "getRawMessage",
    "deleteMessage",
    "createToken",
    "listTokens",
    "deleteToken",
    "health",
}


async def test_health_needs_no_token(gateway: RunningGateway) -> None:
    async with gateway.client(None) as anonymous:
        response = await anonymous.get("/health")
    assert response.status_code == 200
    assert response.json() == {"status": "ok", "source": gateway.gw.source.kind, "mailbox": "ok"}


async def test_health_fails_once_the_sync_stopped(gateway: RunningGateway) -> None:
    sync = gateway.gw.sync_task
    assert sync is not None
    sync.cancel()  # what a crash of the indexing task looks like from outside
    with contextlib.suppress(asyncio.CancelledError):
        await sync
    async with gateway.client(None) as anonymous:
        response = await anonymous.get("/health")
    assert response.status_code == 503
    assert response.json()["status"] == "failing"


async def test_health_fails_while_catching_up_keeps_failing(
    gateway: RunningGateway, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(sync_module, "RETRY_DELAYS", (0.01,), raising=False)
    index = gateway.gw.store.index
    real_add = index.add
    broken = True

    async def add(records: Sequence[CopyRecord]) -> None:
        if broken:
            raise sqlite3.OperationalError("database is locked")
        await real_add(records)

    monkeypatch.setattr(index, "add", add)
    # A batch that cannot be indexed calls for a catch-up, which fails, and is retried.
    await gateway.gw.source.deliver(make_message(to=f"x@{DOMAIN}").as_bytes(), [f"x@{DOMAIN}"])
    async with gateway.client(None) as anonymous:
        assert await _health_becomes(anonymous, "failing") == 503  # a supervisor restarts it
        broken = False
        assert await _health_becomes(anonymous, "ok") == 200  # the retries go on, and mend it


async def _health_becomes(client: httpx.AsyncClient, status: str) -> int:
    """Poll /health until it reports `status` (a generous bound: it is a matter of retries)."""
    deadline = time.monotonic() + 15
    while True:
        response = await client.get("/health")
        if response.json()["status"] == status or time.monotonic() > deadline:
            assert response.json()["status"] == status, response.text
            return int(response.status_code)
        await asyncio.sleep(0.02)


async def test_schema_is_the_openapi_document_without_a_token(gateway: RunningGateway) -> None:
    async with gateway.client(None) as anonymous:
        response = await anonymous.get("/schema")
    assert response.status_code == 200, response.text
    assert "json" in response.headers["content-type"]
    document = response.json()
    assert document["openapi"].startswith("3.")
    assert document["info"]["title"] == "agentmail-gateway"
    paths = document["paths"]
    assert {"/v1/identities", "/v1/identities/{address}/messages", "/v1/tokens", "/health"} <= set(paths)
    operation_ids = {op["operationId"] for item in paths.values() for op in item.values() if "operationId" in op}
    assert operation_ids >= OPERATIONS


async def test_schema_documents_the_token_and_every_error(gateway: RunningGateway) -> None:
    async with gateway.client(None) as anonymous:
        document = (await anonymous.get("/schema")).json()
    assert document["components"]["securitySchemes"]["bearer"] == {
        "type": "http",
        "scheme": "bearer",
        "description": document["components"]["securitySchemes"]["bearer"]["description"],
    }
    assert document["security"] == [{"bearer": []}]
    error = {"$ref": "#/components/schemas/ErrorBody"}
    assert set(document["components"]["schemas"]["ErrorBody"]["required"]) == {"error", "detail"}
    for path, operations in document["paths"].items():
        for method, operation in operations.items():
            responses = operation["responses"]
            if path == "/health":
                assert operation["security"] == [{}] and set(responses) == {"200", "503"}
                continue
            assert {"400", "401", "429", "503"} <= set(responses), (method, path)
            for status, response in responses.items():
                if status >= "400":
                    assert response["content"]["application/json"]["schema"] == error, (method, path, status)


async def test_schema_json_and_browser_views(gateway: RunningGateway) -> None:
    async with gateway.client(None) as anonymous:
        as_file = await anonymous.get("/schema/openapi.json")
        browser = await anonymous.get("/schema/swagger")
        root = await anonymous.get("/schema")
    assert as_file.status_code == 200 and as_file.json() == root.json()
    assert browser.status_code == 200 and browser.headers["content-type"].startswith("text/html")
