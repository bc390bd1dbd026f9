"""The public routes: `/health` for probes and `/schema`, the OpenAPI document, both without a token."""

from __future__ import annotations

import asyncio
import contextlib

from tests.conftest import RunningGateway

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
    error = {"$ref": "#/components/schemas/ErrorOut"}
    assert set(document["components"]["schemas"]["ErrorOut"]["required"]) == {"error", "detail"}
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
