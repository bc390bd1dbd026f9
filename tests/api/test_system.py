"""The public routes: `/health` and `/ready` for probes, `/schema` the OpenAPI document, all without a token."""

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
    "ready",
    "waitForMessage",
    "streamMessages",
    "getOpenApiDocument",
}


async def test_health_needs_no_token(gateway: RunningGateway) -> None:
    async with gateway.client(None) as anonymous:
        response = await anonymous.get("/health")
    assert response.status_code == 200
    assert response.json() == {"status": "ok", "source": gateway.gw.source.kind, "mailbox": "ok"}


async def test_ready_needs_no_token_and_a_gateway_alone_is_its_reader(gateway: RunningGateway) -> None:
    async with gateway.client(None) as anonymous:
        response = await anonymous.get("/ready")
    assert response.status_code == 200
    assert response.json() == {"status": "ready", "role": "reader", "database": "ok", "reason": None}


async def test_ready_stays_ready_while_the_index_is_rebuilt_and_not_once_the_sync_stopped(
    gateway: RunningGateway, monkeypatch: pytest.MonkeyPatch
) -> None:
    # A rebuild is every gateway's state at once (one index): a load balancer must keep them.
    monkeypatch.setattr(type(gateway.gw.roles), "rebuilding", property(lambda self: True))
    async with gateway.client(None) as anonymous:
        assert (await anonymous.get("/ready")).status_code == 200
        sync = gateway.gw.roles.sync_task
        assert sync is not None
        sync.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await sync
        response = await anonymous.get("/ready")
    assert response.status_code == 503
    body = response.json()
    assert (body["status"], body["database"]) == ("not ready", "ok")
    assert "no longer indexes" in body["reason"]


async def test_health_fails_once_the_sync_stopped(gateway: RunningGateway) -> None:
    sync = gateway.gw.roles.sync_task
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
    open_paths = set()
    for path, operations in document["paths"].items():
        for method, operation in operations.items():
            responses = operation["responses"]
            if "security" in operation:  # overrides the bearer default: only the open ones
                assert operation["security"] == [], (method, path)
                open_paths.add(path)
                continue
            assert {"400", "401", "429", "503"} <= set(responses), (method, path)
            for status, response in responses.items():
                if status >= "400":
                    assert response["content"]["application/json"]["schema"] == error, (method, path, status)
            # When to come back: always on a 429, on a 503 when the outage is passing.
            assert responses["429"]["headers"]["Retry-After"]["required"] is True, (method, path)
            assert responses["503"]["headers"]["Retry-After"]["required"] is False, (method, path)
    assert open_paths == {"/health", "/ready", "/schema"}
    assert set(document["paths"]["/health"]["get"]["responses"]) == {"200", "503"}


async def test_schema_describes_each_operation_for_a_client_reader(gateway: RunningGateway) -> None:
    async with gateway.client(None) as anonymous:
        document = (await anonymous.get("/schema")).json()
    summaries = set()
    for path, operations in document["paths"].items():
        for method, operation in operations.items():
            where = (method, path)
            # Litestar's fallback summary is the handler's name ("Create", "Wait"): a sentence has a space.
            assert " " in operation["summary"], where
            summaries.add(operation["summary"])
            assert len(operation["description"]) >= 60, where
            for parameter in operation.get("parameters", []):
                assert len(parameter.get("description", "")) >= 20, (*where, parameter["name"])
            for status, response in operation["responses"].items():
                # Litestar's defaults are HTTP's reason phrases ("Request fulfilled, document follows").
                assert not response["description"].startswith(("Request fulfilled", "Document created")), (
                    *where,
                    status,
                )
    assert len(summaries) == sum(len(ops) for ops in document["paths"].values())  # no two alike
    wait = document["paths"]["/v1/identities/{address}/wait"]["get"]
    timeout = next(p for p in wait["parameters"] if p["name"] == "timeout")
    assert (timeout["schema"]["minimum"], timeout["schema"]["maximum"]) == (0, 600)


async def test_schema_media_types_of_the_stream_and_the_raw_message(gateway: RunningGateway) -> None:
    async with gateway.client(None) as anonymous:
        paths = (await anonymous.get("/schema")).json()["paths"]
    events = paths["/v1/identities/{address}/events"]["get"]["responses"]["200"]["content"]
    raw = paths["/v1/identities/{address}/messages/{message_id}/raw"]["get"]["responses"]["200"]["content"]
    assert set(events) == {"text/event-stream"}
    assert raw == {"message/rfc822": {"schema": {"type": "string", "format": "binary"}}}


async def test_schema_json_and_browser_views(gateway: RunningGateway) -> None:
    async with gateway.client(None) as anonymous:
        as_file = await anonymous.get("/schema/openapi.json")
        browser = await anonymous.get("/schema/docs")
        root = await anonymous.get("/schema")
    assert as_file.status_code == 200 and as_file.json() == root.json()
    assert browser.status_code == 200 and browser.headers["content-type"].startswith("text/html")
    for operation_id in OPERATIONS:
        assert f'id="{operation_id}">' in browser.text
    assert "JSON body: <code>CreateIdentityIn</code>" in browser.text
    assert "Seconds to wait, 0 to 600" in browser.text  # the parameters' meaning, not only their names


async def test_schema_pages_run_no_script_and_load_nothing_from_elsewhere(gateway: RunningGateway) -> None:
    async with gateway.client(None) as anonymous:
        answers = [await anonymous.get(f"/schema{p}") for p in ("", "/openapi.json", "/docs", "/swagger", "/x")]
    swagger = answers[3]
    assert swagger.status_code == 404  # Swagger UI (scripts from a public CDN) is not served
    for response in answers:
        policy = dict(d.strip().split(" ", 1) for d in response.headers["content-security-policy"].split(";"))
        assert policy["default-src"] == "'none'" and "script-src" not in policy, response.url
        assert response.headers["x-content-type-options"] == "nosniff"
    page = answers[2].text.lower()
    assert "<script" not in page and "http://" not in page and "https://" not in page and "//" not in page
