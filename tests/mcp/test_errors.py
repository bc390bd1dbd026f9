"""Tool errors from gateways and proxies that misbehave; the server in-process (the SDK's in-memory client)."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import httpx
from mcp import Client
from mcp_types import CallToolResult

from mcp_server.server import build_server
from mcp_server.tokens import TokenFile, scope_key
from tests.conftest import make_message
from tests.mcp.conftest import McpEnv

URL = "http://gw.test"
ADDRESS = "me@agents.test"
SCOPE = scope_key(URL, "am_prov")


def _server(tmp_path: Path, handler: Callable[[httpx.Request], httpx.Response]) -> tuple[Client, TokenFile]:
    tokens = TokenFile(tmp_path / "tokens.json")
    tokens.put(SCOPE, ADDRESS, "am_old")
    server = build_server(URL, "am_prov", tokens.path, transport=httpx.MockTransport(handler))
    return Client(server), tokens


def _text(result: CallToolResult) -> str:
    assert result.is_error, result
    return "\n".join(block.text for block in result.content if block.type == "text")


async def test_a_401_that_is_not_the_gateways_keeps_the_token(tmp_path: Path) -> None:
    # A proxy in front asking for its own login says nothing about the identity's token.
    client, tokens = _server(tmp_path, lambda _: httpx.Response(401, text="<html>401 Authorization Required</html>"))
    async with client:
        result = await client.call_tool("list_messages", {"address": ADDRESS})
    assert "HTTP 401" in _text(result)
    assert tokens.get(SCOPE, ADDRESS) == "am_old"


async def test_the_gateways_401_forgets_only_the_token_that_failed(tmp_path: Path) -> None:
    store = TokenFile(tmp_path / "tokens.json")

    def handler(request: httpx.Request) -> httpx.Response:
        if request.headers["authorization"] == "Bearer am_old":
            # Meanwhile another server re-created the address and stored its new token.
            store.put(SCOPE, ADDRESS, "am_new")
        return httpx.Response(401, json={"error": "unauthorized", "detail": "unknown or revoked token"})

    client, tokens = _server(tmp_path, handler)
    async with client:
        first = await client.call_tool("list_messages", {"address": ADDRESS})
        assert "no longer accepts" in _text(first)
        assert tokens.get(SCOPE, ADDRESS) == "am_new", "the new token was not the one refused"
        second = await client.call_tool("list_messages", {"address": ADDRESS})
    assert "no longer accepts" in _text(second)
    assert tokens.get(SCOPE, ADDRESS) is None


async def test_a_503_says_when_to_retry(tmp_path: Path) -> None:
    body = {"error": "mail_unavailable", "detail": "the mailbox cannot be reached", "retry_after_sec": 5}
    client, _ = _server(tmp_path, lambda _: httpx.Response(503, json=body, headers={"Retry-After": "5"}))
    async with client:
        result = await client.call_tool("get_message", {"address": ADDRESS, "message_id": "m1"})
    assert "the mailbox cannot be reached" in _text(result) and "retry in 5 s" in _text(result)


async def test_a_proxy_error_page_is_a_tool_error_with_its_status(tmp_path: Path) -> None:
    client, tokens = _server(tmp_path, lambda _: httpx.Response(502, text="<html>Bad Gateway</html>"))
    async with client:
        result = await client.call_tool("wait_for_message", {"address": ADDRESS, "timeout": 0})
    text = _text(result)
    assert "HTTP 502" in text and text != "Error executing tool wait_for_message", "not an unexpected crash"
    assert tokens.get(SCOPE, ADDRESS) == "am_old"


async def test_delete_message_dot_dot_never_deletes_the_identity(mcp_env: McpEnv, tmp_path: Path) -> None:
    gateway = mcp_env.gateway
    server = build_server(str(gateway.http.base_url), mcp_env.provisioner_token, tmp_path / "tokens.json")
    async with Client(server) as client:
        address = (await client.call_tool("create_identity", {})).structured_content["address"]
        await gateway.send(make_message(to=address, subject="kept", text="code 424242"), [address])
        for message_id in ("..", "."):
            deleted = await client.call_tool("delete_message", {"address": address, "message_id": message_id})
            assert "HTTP 404" in _text(deleted), message_id
            read = await client.call_tool("get_message", {"address": address, "message_id": message_id})
            assert "HTTP 404" in _text(read), message_id
        listed = await client.call_tool("list_messages", {"address": address})
    assert not listed.is_error, listed
    assert [m["subject"] for m in listed.structured_content["messages"]] == ["kept"]


async def test_a_503_during_a_wait_is_re_armed_after_retry_after(tmp_path: Path) -> None:
    calls: list[str] = []
    message = {
        "id": "m1",
        "from": "App <a@example.com>",
        "to": [ADDRESS],
        "subject": "code",
        "size": 10,
        "received_at": "2026-12-01T00:00:00Z",
        "seen": False,
        "text": "code 123456",
        "html": None,
        "codes": [{"value": "123456", "context": "code 123456", "source": "text"}],
        "links": [],
        "headers": [],
        "attachments": [],
        "truncated": False,
    }

    def handler(request: httpx.Request) -> httpx.Response:
        calls.append(request.url.path)
        if len(calls) == 1:  # Dovecot restarting: the gateway says when to come back
            body = {"error": "mail_unavailable", "detail": "the mailbox cannot be reached"}
            return httpx.Response(503, json=body, headers={"Retry-After": "0.2"})
        return httpx.Response(200, json=message)

    client, _ = _server(tmp_path, handler)
    async with client:
        result = await client.call_tool("get_verification_code", {"address": ADDRESS, "timeout": 30})
    assert not result.is_error, result
    assert result.structured_content["code"] == "123456"
    assert calls == [f"/v1/identities/{ADDRESS}/wait"] * 2


async def test_no_provisioner_token_is_a_clear_tool_error_before_any_call(tmp_path: Path) -> None:
    asked: list[httpx.Request] = []

    def handler(request: httpx.Request) -> httpx.Response:
        asked.append(request)
        return httpx.Response(500)

    server = build_server(URL, None, tmp_path / "tokens.json", transport=httpx.MockTransport(handler))
    async with Client(server) as client:
        result = await client.call_tool("create_identity", {})
    assert "AGENTMAIL_TOKEN is not set" in _text(result)
    assert asked == []
