"""Sending, replying, forwarding and threads through both client twins, against a real gateway.

Agent to agent on the gateway's own domain: the recipient's `wait` returns what the sender
sent, with nothing mocked between them. The asyncio twin runs in the test's loop; the
blocking one in a worker thread, as a test suite's own thread would call it.
"""

from __future__ import annotations

import asyncio
import email
import email.policy
from collections.abc import Awaitable, Callable
from email.message import EmailMessage
from typing import TypeVar

import pytest

from gateway.client import (
    AsyncGateway,
    AuthError,
    File,
    Gateway,
    InvalidRequest,
    RateLimited,
)
from gateway.config import Settings
from tests.conftest import ADMIN_TOKEN, DOMAIN, RunningGateway, run_gateway

T = TypeVar("T")
WAIT = 30.0


async def eventually(read: Callable[[], Awaitable[T]], holds: Callable[[T], bool], what: str, timeout: float = 20) -> T:
    """`read()` again until `holds` its answer (the index adds a sent copy a moment after the 201); bounded."""
    deadline = asyncio.get_running_loop().time() + timeout
    while True:
        found = await read()
        if holds(found):
            return found
        if asyncio.get_running_loop().time() > deadline:
            raise AssertionError(f"timed out after {timeout} s waiting for {what}; last: {found!r}")
        await asyncio.sleep(0.05)


def parsed(raw: bytes) -> EmailMessage:
    message = email.message_from_bytes(raw, policy=email.policy.default)
    assert isinstance(message, EmailMessage)
    return message


async def test_agent_to_agent_send_reply_and_one_thread_each(gateway: RunningGateway) -> None:
    async with AsyncGateway(str(gateway.http.base_url), ADMIN_TOKEN) as gw:
        alice = await gw.create_identity("alice")
        bob = await gw.create_identity("bob")
        assert alice.send_scope == "local", "the default scope: our own domain"

        sent = await alice.send(bob.address, subject="Plan for Friday", text="Shall we meet at ten?")
        assert (sent.accepted, sent.rejected) == ([bob.address], [])
        assert sent.message_id.startswith("<") and sent.message_id.endswith(">")

        got = await bob.wait(timeout=WAIT)
        assert alice.address in got.from_ and got.subject == "Plan for Friday"
        assert "Shall we meet at ten?" in got.text and got.direction == "received"
        headers = {h.name.lower(): h.value for h in got.headers}
        assert headers["message-id"] == sent.message_id

        answer = await bob.reply(got.id, text="Yes, ten is fine.")
        assert answer.accepted == [alice.address]
        back = await alice.wait(timeout=WAIT)
        assert bob.address in back.from_ and back.subject == "Re: Plan for Friday"
        assert "Yes, ten is fine." in back.text
        raw = parsed(await alice.raw(back.id))
        assert raw["In-Reply-To"] == sent.message_id and sent.message_id in raw["References"]

        (mine,) = await eventually(alice.threads, lambda t: len(t) == 1 and t[0].message_count == 2, "alice's thread")
        thread = await alice.thread(mine.thread_id)
        assert [m.direction for m in thread.messages] == ["sent", "received"], "oldest first, both ways"
        assert thread.messages[1].id == back.id and thread.thread_id == mine.thread_id == back.thread_id
        for who in (alice.address, bob.address):
            assert any(who in p.lower() for p in mine.participants), (who, mine.participants)

        (theirs,) = await eventually(bob.threads, lambda t: len(t) == 1 and t[0].message_count == 2, "bob's thread")
        assert theirs.thread_id != mine.thread_id, "threads are per identity"

        # Sent mail is listed only when asked for, and only to its sender.
        (copy,) = await eventually(
            lambda: alice.messages(direction="sent"), lambda found: len(found) == 1, "alice's sent copy"
        )
        assert copy.direction == "sent" and copy.subject == "Plan for Friday" and copy.thread_id == mine.thread_id
        if sent.id is not None:
            assert copy.id == sent.id
        assert [m.id for m in await alice.messages()] == [back.id], "received is the default"
        assert {m.id for m in await alice.messages(direction="all")} == {back.id, copy.id}
        whole = await alice.get(copy.id)
        assert whole.direction == "sent"
        assert [(d.address, d.status) for d in whole.delivery] == [(bob.address, "delivered")]


async def test_the_blocking_client_sends_attachments_replies_to_all_and_forwards(gateway: RunningGateway) -> None:
    url = str(gateway.http.base_url)

    def scenario() -> None:
        with Gateway(url, ADMIN_TOKEN) as gw:
            a, b, c, d = (gw.create_identity(name) for name in ("ann", "ben", "cat", "dan"))
            receipt = b"total: 42 EUR\n"
            a.send(
                [b.address],
                cc=c.address,
                subject="Receipt",
                text="See attached.",
                attachments=[("receipt.txt", receipt), File("data.bin", b"\x00\x01\xff", "application/x-test")],
                headers={"X-Job": "7"},
                from_name="Ann, the agent",
            )
            got = b.wait(timeout=WAIT)
            assert sorted((x.filename, x.size) for x in got.attachments) == [("data.bin", 3), ("receipt.txt", 14)]
            mail = parsed(b.raw(got.id))
            parts = {p.get_filename(): p for p in mail.iter_attachments()}
            assert parts["receipt.txt"].get_content() == receipt.decode()
            assert parts["data.bin"].get_content_type() == "application/x-test"
            assert parts["data.bin"].get_payload(decode=True) == b"\x00\x01\xff"
            assert mail["X-Job"] == "7"
            assert mail["From"].addresses[0].display_name == "Ann, the agent"
            assert mail["From"].addresses[0].addr_spec == a.address
            assert c.wait(timeout=WAIT).subject == "Receipt"

            everyone = b.reply(got.id, text="Thanks, all.", all=True)
            assert sorted(everyone.accepted) == sorted([a.address, c.address]), "reply-all, never the identity itself"
            assert a.wait(timeout=WAIT).subject == c.wait(timeout=WAIT).subject == "Re: Receipt"

            onward = b.forward(got.id, d.address, text="FYI, the receipt.")
            assert onward.accepted == [d.address]
            seen = d.wait(timeout=WAIT)
            assert seen.subject == "Fwd: Receipt" and "FYI, the receipt." in seen.text
            assert "receipt.txt" in {x.filename for x in seen.attachments}, "the original's attachments go along"

    await asyncio.wait_for(asyncio.to_thread(scenario), 120)


async def test_refusals_are_the_clients_errors_and_nothing_is_sent(gateway: RunningGateway) -> None:
    response = await gateway.http.post("/v1/tokens", json={"scope": "provision", "label": "client test"})
    provisioner = response.json()["token"]
    url = str(gateway.http.base_url)
    async with AsyncGateway(url, ADMIN_TOKEN) as gw, AsyncGateway(url, provisioner) as prov:
        me = await gw.create_identity("sender")
        peer = await gw.create_identity("peer")
        mute = await gw.create_identity("mute", send="none")
        assert mute.send_scope == "none"

        with pytest.raises(InvalidRequest) as outside:  # `local`: our domain only, and all or nothing
            await me.send([peer.address, "someone@example.com"], subject="Hi", text="x")
        assert outside.value.status == 422 and outside.value.error == "recipient_refused"
        assert "someone@example.com" in outside.value.detail

        with pytest.raises(InvalidRequest) as muted:
            await mute.send(peer.address, text="x")
        assert muted.value.status == 422 and muted.value.error == "recipient_refused"

        for bad in ({"subject": "Hi\r\nBcc: peer@" + DOMAIN}, {"reply_to": "a@x.example\nBcc: b@x.example"}):
            with pytest.raises(InvalidRequest) as injected:
                await me.send(peer.address, text="x", **bad)  # type: ignore[arg-type]
            assert injected.value.status == 422

        with pytest.raises(AuthError) as provisioners:  # a provisioner never sends
            await prov.identity(me.address, provisioner).send(peer.address, text="x")
        assert provisioners.value.status == 403

        with pytest.raises((AuthError, InvalidRequest)):  # `any` is the admin's to grant
            await prov.create_identity(send="any")
        assert (await gw.create_identity("wide", send="any")).send_scope == "any"

        assert await me.messages(direction="sent") == []
        assert await mute.messages(direction="sent") == []
        assert await peer.messages(direction="all") == [], "nothing reached anyone"
        for shown in (str(outside.value), repr(outside.value), str(provisioners.value)):
            assert provisioner not in shown and ADMIN_TOKEN not in shown and me.token not in shown


async def test_over_the_hourly_limit_a_send_raises_rate_limited_with_retry_after(
    make_settings: Callable[..., Settings],
) -> None:
    async with (
        run_gateway(make_settings(send_per_hour=2)) as gateway,
        AsyncGateway(str(gateway.http.base_url), ADMIN_TOKEN, retry_for=0) as gw,
    ):
        me = await gw.create_identity("busy")
        peer = await gw.create_identity("quiet")
        for n in range(2):
            await me.send(peer.address, subject=f"Mail {n}", text="x")
        with pytest.raises(RateLimited) as caught:
            await me.send(peer.address, subject="One too many", text="x")
        assert caught.value.status == 429 and caught.value.error == "rate_limited"
        assert caught.value.retry_after is not None and caught.value.retry_after > 0
        subjects = {
            m.subject for m in await eventually(lambda: peer.messages(), lambda found: len(found) == 2, "both mails")
        }
        assert subjects == {"Mail 0", "Mail 1"}
