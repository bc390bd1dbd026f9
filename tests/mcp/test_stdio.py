"""agentmail-mcp end to end: the SDK's stdio client, the installed console script, a real gateway, real SMTP."""

from __future__ import annotations

import asyncio
import json
import os
import shutil
import stat
from typing import Any

import anyio
import pytest
from mcp import Client

from mcp_server.untrusted import NOTICE
from tests.conftest import ADMIN_TOKEN, DOMAIN, RunningGateway, make_message
from tests.mcp.conftest import SCRIPT, McpEnv, mcp_client

TOOLS = {
    "create_identity",
    "list_identities",
    "delete_identity",
    "list_messages",
    "get_message",
    "wait_for_message",
    "get_verification_code",
    "delete_message",
    "send_message",
    "reply_to_message",
    "forward_message",
    "list_threads",
    "get_thread",
    "search_messages",
    "get_attachment",
}
CONTENT_TOOLS = {
    "list_messages",
    "get_message",
    "wait_for_message",
    "get_verification_code",
    "list_threads",
    "get_thread",
    "search_messages",
    "get_attachment",
}


def _error_text(result: Any) -> str:
    assert result.is_error, result
    return "\n".join(block.text for block in result.content if block.type == "text")


async def _create(env: McpEnv, client: Client, **arguments: Any) -> str:
    result = await env.call(client, "create_identity", **arguments)
    assert not result.is_error, result
    address: str = result.structured_content["address"]
    return address


def _code_mail(
    to: str, code: str, subject: str = "Your sign-in code", sender: str = "App <noreply@example.com>"
) -> Any:
    return make_message(
        to=to,
        sender=sender,
        subject=subject,
        text=f"Hi,\n\nYour verification code is {code}. It expires in 10 minutes.\n"
        f"Or confirm here: https://app.example.com/verify?t=abc{code}\n",
    )


async def _waiters(gateway: RunningGateway, count: int) -> None:
    await gateway.gw.hub.wait_for_count(lambda n: n == count, timeout=20)


def test_the_console_script_is_installed() -> None:
    assert SCRIPT.exists(), "pip install -e . puts agentmail-mcp beside this Python"


async def test_lists_every_tool_with_description_and_schemas(mcp_env: McpEnv) -> None:
    async with mcp_client(mcp_env) as client:
        tools = {tool.name: tool for tool in (await client.list_tools()).tools}
    assert set(tools) == TOOLS
    for name, tool in tools.items():
        assert tool.description and len(tool.description) > 40, name
        assert tool.input_schema["type"] == "object", name
        assert tool.output_schema is not None and tool.output_schema["type"] == "object", name
        assert tool.annotations is not None, name
        if name in CONTENT_TOOLS:
            assert "untrusted" in tool.description.lower(), name
    assert set(tools["wait_for_message"].input_schema["properties"]) == {
        "address",
        "timeout",
        "sender",
        "subject",
        "since",
    }
    assert tools["wait_for_message"].input_schema["properties"]["timeout"]["maximum"] == 600
    assert tools["get_message"].input_schema["properties"]["format"]["enum"] == ["text", "html"]
    assert tools["list_messages"].annotations.read_only_hint is True
    assert tools["delete_message"].annotations.destructive_hint is True
    # The query language is taught where a query is taken: the tool and its parameter.
    search = tools["search_messages"]
    for taught in ("from:/to:", "@domain", "has:attachment|code|link", "is:seen|unseen", "before:/after:", "OR"):
        assert taught in search.description and taught in search.input_schema["properties"]["query"]["description"]
    assert search.input_schema["properties"]["query"]["maxLength"] == 1000
    assert search.annotations is not None and search.annotations.read_only_hint is True
    assert set(tools["get_attachment"].input_schema["properties"]) == {"address", "message_id", "attachment_id"}
    assert "binary content is not returned" in tools["get_attachment"].description


async def test_wait_for_message_returns_the_mail_with_its_code(mcp_env: McpEnv) -> None:
    gateway = mcp_env.gateway
    async with mcp_client(mcp_env) as client:
        address = await _create(mcp_env, client, label="signup test")
        assert address.endswith(f"@{DOMAIN}")
        async with anyio.create_task_group() as tasks:
            results: list[Any] = []

            async def wait() -> None:
                results.append(await mcp_env.call(client, "wait_for_message", address=address, timeout=30))

            tasks.start_soon(wait)
            await _waiters(gateway, 1)  # the wait is open before the mail exists
            await gateway.send(_code_mail(address, "482913"), [address])
        (result,) = results
    assert not result.is_error, result
    message = result.structured_content["message"]
    assert message["codes"][0]["value"] == "482913"
    assert message["links"][0]["url"] == "https://app.example.com/verify?t=abc482913"
    assert message["subject"] == "Your sign-in code"
    assert "482913" in message["body"] and message["format"] == "text"
    assert result.structured_content["notice"] == NOTICE
    text = result.content[0].text
    assert NOTICE in text
    begin, end = text.index("<<<BEGIN UNTRUSTED EMAIL CONTENT"), text.index("<<<END UNTRUSTED EMAIL CONTENT")
    assert begin < text.index("482913") < end, "the mail sits inside the untrusted block"


async def test_get_verification_code_end_to_end(mcp_env: McpEnv) -> None:
    gateway = mcp_env.gateway
    async with mcp_client(mcp_env) as client:
        address = await _create(mcp_env, client)
        # An older code, already read: a re-requested code must never be answered with it.
        await gateway.send(_code_mail(address, "111111", "Old code"), [address])
        first = await mcp_env.call(client, "get_verification_code", address=address, timeout=10)
        assert first.structured_content["code"] == "111111"
        await gateway.send(_code_mail(address, "739204", "New code", "Shop <no-reply@shop.example>"), [address])
        result = await mcp_env.call(client, "get_verification_code", address=address, timeout=10, sender="shop.example")
    assert not result.is_error, result
    out = result.structured_content
    assert out["code"] == "739204"
    assert out["link"] == "https://app.example.com/verify?t=abc739204"
    assert out["subject"] == "New code" and out["message_id"]
    assert out["notice"] == NOTICE and NOTICE in result.content[0].text
    assert "739204" in result.content[0].text


async def test_a_timeout_says_nothing_arrived(mcp_env: McpEnv) -> None:
    async with mcp_client(mcp_env) as client:
        address = await _create(mcp_env, client)
        result = await mcp_env.call(client, "wait_for_message", address=address, timeout=0)
    assert "nothing matching arrived" in _error_text(result)


async def test_unknown_address_and_other_identities_mail_are_tool_errors(mcp_env: McpEnv) -> None:
    gateway = mcp_env.gateway
    other, _ = await gateway.create_identity("someone-else")
    await gateway.send(_code_mail(other, "555000"), [other])
    (other_mail,) = (await gateway.messages(other))["messages"]
    async with mcp_client(mcp_env) as client:
        mine = await _create(mcp_env, client)
        unknown = await mcp_env.call(client, "list_messages", address=f"nobody@{DOMAIN}")
        assert "holds no token for" in _error_text(unknown)
        # Another identity's message id on my own address: the gateway's 404, as a tool error.
        cross = await mcp_env.call(client, "get_message", address=mine, message_id=other_mail["id"])
        assert "HTTP 404" in _error_text(cross)
        bad = await mcp_env.call(client, "get_message", address=mine, message_id="../../etc/passwd")
        assert _error_text(bad)
        invalid = await mcp_env.call(client, "wait_for_message", address=mine, timeout=601)
        assert "timeout" in _error_text(invalid)
        # The server is still up and answering after all that.
        listed = await mcp_env.call(client, "list_messages", address=mine)
        assert not listed.is_error and listed.structured_content["messages"] == []
    assert "555000" not in "".join(mcp_env.seen)


async def test_a_provisioner_token_reaches_no_identity_it_did_not_create(mcp_env: McpEnv) -> None:
    gateway = mcp_env.gateway
    victim, victim_token = await gateway.create_identity("victim")
    await gateway.send(_code_mail(victim, "990011"), [victim])
    (victim_mail,) = (await gateway.messages(victim))["messages"]
    async with mcp_client(mcp_env) as client:
        await _create(mcp_env, client)
        listed = await mcp_env.call(client, "list_identities")
        assert victim not in {i["address"] for i in listed.structured_content["identities"]}
        for tool, arguments in [
            ("list_messages", {}),
            ("get_message", {"message_id": victim_mail["id"]}),
            ("wait_for_message", {"timeout": 0}),
            ("get_verification_code", {"timeout": 0}),
            ("delete_message", {"message_id": victim_mail["id"]}),
            ("delete_identity", {}),
        ]:
            result = await mcp_env.call(client, tool, address=victim, **arguments)
            assert result.is_error, (tool, result)
    assert "990011" not in "".join(mcp_env.seen)
    assert victim not in mcp_env.stored_tokens()
    # The victim is untouched: still there, its mail unread and not deleted.
    (still,) = (await gateway.messages(victim, victim_token))["messages"]
    assert still["id"] == victim_mail["id"] and still["seen"] is False


async def test_the_admin_token_is_refused(mcp_env: McpEnv) -> None:
    async with mcp_client(mcp_env, mcp_env.params(AGENTMAIL_TOKEN=ADMIN_TOKEN)) as client:
        result = await mcp_env.call(client, "create_identity")
    assert "provisioner token" in _error_text(result)
    assert mcp_env.stored_tokens() == {}


async def test_token_file_is_private_and_no_result_or_log_carries_a_token(mcp_env: McpEnv) -> None:
    gateway = mcp_env.gateway
    async with mcp_client(mcp_env) as client:
        first = await _create(mcp_env, client, local_part="tokencheck")
        second = await _create(mcp_env, client, ttl_seconds=3600)
        await gateway.send(_code_mail(first, "246810"), [first])
        for tool, arguments in [
            ("list_identities", {}),
            ("list_messages", {"address": first}),
            ("wait_for_message", {"address": first, "timeout": 5}),
            ("list_messages", {"address": second}),
            ("delete_identity", {"address": second}),
        ]:
            result = await mcp_env.call(client, tool, **arguments)
            assert not result.is_error, (tool, result)
    mode = stat.S_IMODE(os.stat(mcp_env.token_file).st_mode)
    assert mode == 0o600, oct(mode)
    assert stat.S_IMODE(os.stat(mcp_env.token_file.parent).st_mode) == 0o700
    tokens = mcp_env.stored_tokens()
    assert set(tokens) == {first}, "a deleted identity's token is forgotten"
    secrets = [tokens[first], mcp_env.provisioner_token]
    # The second identity's token is gone from the file; it must not have leaked either.
    visible = "\n".join(mcp_env.seen) + mcp_env.errlog.read_text()
    assert "246810" in visible  # the check below looks at real output
    for secret in secrets:
        assert secret not in visible
    assert "am_" not in "\n".join(mcp_env.seen), "no token-shaped string in any result"


async def test_a_later_run_reads_the_identity_with_only_its_address(mcp_env: McpEnv) -> None:
    gateway = mcp_env.gateway
    async with mcp_client(mcp_env) as client:
        address = await _create(mcp_env, client)
    html = "<p>Your code is <b>313131</b></p><script>alert(1)</script>"
    await gateway.send(make_message(to=address, subject="html", text="Your code is 313131", html=html), [address])
    await gateway.send(_code_mail(address, "414141", "text only"), [address])
    async with mcp_client(mcp_env) as client:  # a new server process, same config folder
        listed = await mcp_env.call(client, "list_messages", address=address)
        newest, oldest = listed.structured_content["messages"]
        assert oldest["codes"][0]["value"] == "313131" and newest["codes"][0]["value"] == "414141"
        raw = await mcp_env.call(client, "get_message", address=address, message_id=oldest["id"], format="html")
        plain = await mcp_env.call(client, "get_message", address=address, message_id=newest["id"], format="html")
        deleted = await mcp_env.call(client, "delete_message", address=address, message_id=oldest["id"])
        after = await mcp_env.call(client, "list_messages", address=address)
    # Agents get the HTML exactly as sent (humans get it sanitized at /ui), fenced as untrusted.
    assert raw.structured_content["message"]["format"] == "html"
    assert raw.structured_content["message"]["body"].rstrip("\n") == html  # the email package ends parts with a newline
    assert NOTICE in raw.content[0].text
    # No HTML part: the text, and the result says which it is.
    assert plain.structured_content["message"]["format"] == "text"
    assert "no HTML part" in plain.content[0].text
    assert not deleted.is_error
    assert [m["id"] for m in after.structured_content["messages"]] == [newest["id"]]


async def test_servers_with_different_provisioner_tokens_never_share_identities(mcp_env: McpEnv) -> None:
    gateway = mcp_env.gateway
    response = await gateway.http.post("/v1/tokens", json={"scope": "provision", "label": "other agent"})
    other = mcp_env.params(AGENTMAIL_TOKEN=response.json()["token"])
    async with mcp_client(mcp_env) as client:
        address = await _create(mcp_env, client)
    await gateway.send(_code_mail(address, "626262"), [address])
    # Same machine, same config folder, another agent configured with its own provisioner token.
    async with mcp_client(mcp_env, other) as client:
        listed = await mcp_env.call(client, "list_identities")
        read = await mcp_env.call(client, "list_messages", address=address)
    assert listed.structured_content["identities"] == []
    assert "holds no token for" in _error_text(read)
    assert "626262" not in "".join(mcp_env.seen)


async def test_a_rotated_token_is_a_clear_error_and_forgotten(mcp_env: McpEnv) -> None:
    gateway = mcp_env.gateway
    async with mcp_client(mcp_env) as client:
        address = await _create(mcp_env, client)
        response = await gateway.http.post(f"/v1/identities/{address}/rotate")
        assert response.status_code == 200
        result = await mcp_env.call(client, "list_messages", address=address)
    assert "no longer accepts" in _error_text(result)
    assert address not in mcp_env.stored_tokens()


async def test_a_wait_reports_progress_and_cancelling_it_releases_the_gateway_wait(mcp_env: McpEnv) -> None:
    gateway = mcp_env.gateway
    progress: list[tuple[float, float | None]] = []
    got_progress = anyio.Event()

    async def on_progress(value: float, total: float | None, message: str | None) -> None:
        progress.append((value, total))
        assert message is not None and "waiting for mail" in message
        got_progress.set()

    async with mcp_client(mcp_env) as client:
        address = await _create(mcp_env, client)
        call = asyncio.create_task(
            client.call_tool("wait_for_message", {"address": address, "timeout": 300}, progress_callback=on_progress)
        )
        await _waiters(gateway, 1)
        with anyio.fail_after(20):
            await got_progress.wait()  # the first notification comes after PROGRESS_SECONDS
        call.cancel()  # the client gives up: the SDK sends notifications/cancelled
        with pytest.raises(asyncio.CancelledError):
            await call
        await _waiters(gateway, 0)  # the gateway's wait ended at once, not at its timeout
        # The mail that comes next is not held by a dead claim: a new wait gets it.
        await gateway.send(_code_mail(address, "808080"), [address])
        result = await mcp_env.call(client, "get_verification_code", address=address, timeout=10)
    assert progress[0][1] == 300 and 0 < progress[0][0] < 300
    assert result.structured_content["code"] == "808080"


@pytest.mark.timeout(240)
async def test_uvx_from_the_source_tree_starts_the_server(mcp_env: McpEnv) -> None:
    """What the README tells MCP clients to run: `uvx --from <path> agentmail-mcp`."""
    uvx = shutil.which("uvx") or str(SCRIPT.parent / "uvx")
    assert os.path.exists(uvx), "uv is a dev dependency: pip install -e '.[dev]' puts uvx here"
    root = str(SCRIPT.parents[2] if (SCRIPT.parents[2] / "pyproject.toml").exists() else os.getcwd())
    env = {
        "UV_CACHE_DIR": str(mcp_env.config_home.parent / "uv-cache"),
        # The machine's trust store: CI may reach the package index through a TLS-inspecting proxy.
        "UV_SYSTEM_CERTS": "1",
    }
    passed_on = ("HOME", "PATH", "SSL_CERT_FILE", "HTTPS_PROXY", "HTTP_PROXY", "NO_PROXY", "UV_INDEX_URL")
    env |= {name: os.environ[name] for name in passed_on if name in os.environ}
    params = mcp_env.params((uvx, "--from", root, "agentmail-mcp"), **env)
    async with mcp_client(mcp_env, params) as client:
        tools = {tool.name for tool in (await client.list_tools()).tools}
        address = await _create(mcp_env, client)
    assert tools == TOOLS
    assert address in mcp_env.stored_tokens()
    assert json.loads(mcp_env.token_file.read_text())["version"] == 1
