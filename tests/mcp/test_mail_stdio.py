"""Two-way mail through agentmail-mcp end to end: the SDK's stdio client, the console script, a real gateway.

Two identities the server made write to each other on the gateway's own domain; the server
never sends from an identity it did not create.
"""

from __future__ import annotations

from typing import Any

from mcp import Client

from mcp_server.untrusted import NOTICE
from tests.conftest import DOMAIN
from tests.mcp.conftest import McpEnv, mcp_client


async def _create(env: McpEnv, client: Client, **arguments: Any) -> dict[str, Any]:
    result = await env.call(client, "create_identity", **arguments)
    assert not result.is_error, result
    out: dict[str, Any] = result.structured_content or {}
    return out


def _ok(result: Any) -> dict[str, Any]:
    assert not result.is_error, result
    out: dict[str, Any] = result.structured_content
    return out


def _text(result: Any) -> str:
    return "\n".join(block.text for block in result.content if block.type == "text")


def _error_text(result: Any) -> str:
    assert result.is_error, result
    return _text(result)


def _fenced(text: str, *inside: str) -> None:
    begin, end = text.index("<<<BEGIN UNTRUSTED EMAIL CONTENT"), text.index("<<<END UNTRUSTED EMAIL CONTENT")
    assert text.index(NOTICE) < begin
    for words in inside:
        assert begin < text.index(words) < end, words


async def test_two_agents_write_reply_and_share_a_thread(mcp_env: McpEnv) -> None:
    async with mcp_client(mcp_env) as client:
        planner = (await _create(mcp_env, client, local_part="planner"))["address"]
        worker = await _create(mcp_env, client, local_part="worker")
        assert worker["send"] == "local", "the default scope is shown"

        sent = _ok(
            await mcp_env.call(
                client,
                "send_message",
                address=worker["address"],
                to=[planner],
                subject="Task 7 done",
                text="All green.",
            )
        )
        assert sent["accepted"] == [planner] and sent["rejected"] == [] and sent["message_id"]

        got = _ok(await mcp_env.call(client, "wait_for_message", address=planner, timeout=30))["message"]
        assert worker["address"] in got["sender"] and got["subject"] == "Task 7 done" and "All green." in got["body"]

        answer = _ok(
            await mcp_env.call(client, "reply_to_message", address=planner, message_id=got["id"], text="Thanks!")
        )
        assert answer["accepted"] == [worker["address"]]
        back = _ok(await mcp_env.call(client, "wait_for_message", address=worker["address"], timeout=30))["message"]
        assert back["subject"] == "Re: Task 7 done" and "Thanks!" in back["body"]
        assert back["thread_id"]

        listed = await mcp_env.call(client, "list_threads", address=worker["address"])
        (thread,) = _ok(listed)["threads"]
        assert thread["subject"].endswith("Task 7 done") and thread["thread_id"] == back["thread_id"]
        _fenced(_text(listed), "Task 7 done")

        one = await mcp_env.call(client, "get_thread", address=worker["address"], thread_id=thread["thread_id"])
        messages = _ok(one)["messages"]
        assert [m["direction"] for m in messages] == ["sent", "received"]
        assert messages[1]["id"] == back["id"]
        _fenced(_text(one), "Task 7 done", back["id"])

        forwarded = _ok(
            await mcp_env.call(
                client, "forward_message", address=planner, message_id=got["id"], to=[worker["address"]], note="FYI"
            )
        )
        assert forwarded["accepted"] == [worker["address"]]
        fwd = _ok(await mcp_env.call(client, "wait_for_message", address=worker["address"], timeout=30))["message"]
        assert fwd["subject"] == "Fwd: Task 7 done" and "FYI" in fwd["body"]

        mine = _ok(await mcp_env.call(client, "list_messages", address=worker["address"], direction="sent"))
        assert [m["subject"] for m in mine["messages"]] == ["Task 7 done"]
        assert mine["messages"][0]["direction"] == "sent"
    tokens = set(mcp_env.stored_tokens().values()) | {mcp_env.provisioner_token}
    for text in mcp_env.seen:
        for token in tokens:
            assert token not in text


async def test_it_never_sends_from_an_identity_it_did_not_create(mcp_env: McpEnv) -> None:
    gateway = mcp_env.gateway
    stranger, _ = await gateway.create_identity("stranger")  # made by the admin, not by this server
    async with mcp_client(mcp_env) as client:
        target = (await _create(mcp_env, client))["address"]
        result = await mcp_env.call(
            client, "send_message", address=stranger, to=[target], subject="Hi", text="Obey the mail."
        )
        assert f"holds no token for {stranger}" in _error_text(result)
        replied = await mcp_env.call(client, "reply_to_message", address=stranger, message_id="1", text="x")
        assert "holds no token" in _error_text(replied)
    assert (await gateway.messages(stranger, direction="all"))["messages"] == []
    assert (await gateway.messages(target, direction="all"))["messages"] == [], "nothing was sent"


async def test_scopes_refuse_what_they_do_not_reach_and_nothing_is_sent(mcp_env: McpEnv) -> None:
    async with mcp_client(mcp_env) as client:
        local = (await _create(mcp_env, client))["address"]
        mute = await _create(mcp_env, client, send="none")
        assert mute["send"] == "none"
        peer = (await _create(mcp_env, client))["address"]

        outside = await mcp_env.call(
            client, "send_message", address=local, to=[peer, "someone@example.com"], subject="Hi", text="x"
        )
        assert "recipient_refused" in _error_text(outside) and "HTTP 422" in _error_text(outside)
        muted = await mcp_env.call(client, "send_message", address=mute["address"], to=[peer], subject="Hi", text="x")
        assert "recipient_refused" in _error_text(muted)

        wide = await mcp_env.call(client, "create_identity", send="any")  # this provisioner was made with `local`
        assert wide.is_error, "only the admin's grant gives `any`"
    assert (await mcp_env.gateway.messages(peer, direction="all"))["messages"] == []
    assert peer.endswith(f"@{DOMAIN}")
