"""Mail to other domains through the gateway's outbox: a real Postfix relaying to a capturing server.

Sent with the REST API from an identity allowed to reach anyone; what arrives behind the relay
is checked byte for byte; a relay that is down is retried from the durable outbox until it takes
the mail, exactly once, also across a SIGKILL of the gateway.
"""

from __future__ import annotations

import asyncio
import email
import re
import time
from collections.abc import Callable, Iterator
from email.policy import default
from pathlib import Path
from typing import Any

import pytest

from gateway.config import Settings
from tests.conftest import ADMIN_TOKEN, DOMAIN, RunningGateway, run_gateway
from tests.mailstack import MailStack, running_stack
from tests.outbound.capture import CaptureServer
from tests.serve import ServeProcess, wait_until

EXTERNAL = "external.test"
SUBJECT = "会议纪要：下周产品发布的安排与预算审批"  # noqa: RUF001 (Chinese punctuation)
DISPLAY_NAME = "Planner, Team Lead"


@pytest.fixture(scope="module")
def capture() -> Iterator[CaptureServer]:
    with CaptureServer() as server:
        yield server


@pytest.fixture(scope="module")
def relay_stack(capture: CaptureServer) -> Iterator[MailStack]:
    yield from running_stack(domain=DOMAIN, relay_domain=EXTERNAL, relay_port=capture.port)


@pytest.fixture
def captured(capture: CaptureServer) -> CaptureServer:
    """The capture server, emptied and answering 250 to everything."""
    capture.handler.messages.clear()
    capture.handler.rcpt_replies.clear()
    return capture


async def delivery_of(gateway: RunningGateway, address: str, token: str, copy_id: str) -> list[dict[str, Any]]:
    async with gateway.client(token) as client:
        response = await client.get(f"/v1/identities/{address}/messages/{copy_id}")
    assert response.status_code == 200, response.text
    found: list[dict[str, Any]] = response.json()["delivery"]
    return found


async def until_delivery(
    gateway: RunningGateway, address: str, token: str, copy_id: str, done: Callable[[list[dict[str, Any]]], bool]
) -> list[dict[str, Any]]:
    """The sent message's delivery once `done` holds of it (bounded: the outbox retries in seconds here)."""
    deadline = time.monotonic() + 60
    while True:
        states = await delivery_of(gateway, address, token, copy_id)
        if done(states) or time.monotonic() > deadline:
            return states
        await asyncio.sleep(0.2)  # polling what another process (the relay) did, bounded by the deadline


async def test_external_mail_goes_through_postfix_with_our_headers(
    make_settings: Callable[..., Settings], relay_stack: MailStack, captured: CaptureServer
) -> None:
    assert relay_stack.relay_url is not None
    async with run_gateway(make_settings(relay_url=relay_stack.relay_url)) as gateway:
        address, token = await gateway.create_identity("planner", send="any")
        local, _ = await gateway.create_identity("teammate")
        async with gateway.client(token) as client:
            response = await client.post(
                f"/v1/identities/{address}/send",
                json={
                    "to": [f"bob@{EXTERNAL}", local],
                    "subject": SUBJECT,
                    "text": "见附件。",
                    "from_name": DISPLAY_NAME,
                },
            )
        assert response.status_code == 201, response.text
        sent = response.json()
        (arrived,) = await asyncio.to_thread(captured.handler.wait_for, 1)  # the gateway runs on this loop
        assert arrived.rcpt_tos == (f"bob@{EXTERNAL}",)  # the local recipient was never relayed
        assert arrived.mail_from == address
        header_block = arrived.data.partition(b"\r\n\r\n")[0]
        assert b"\n" not in header_block.replace(b"\r\n", b"")  # CRLF only
        message = email.message_from_bytes(arrived.data, policy=default)
        assert message["Message-ID"] == sent["message_id"]
        assert message["From"].addresses[0].display_name == DISPLAY_NAME
        assert message["From"].addresses[0].addr_spec == address
        assert message["Subject"] == SUBJECT
        subject_lines = re.search(rb"\r\nSubject: (.*?)\r\n(?=\S)", arrived.data, re.DOTALL)
        assert subject_lines is not None
        for line in (b"Subject: " + subject_lines[1]).split(b"\r\n"):
            assert len(line) <= 78 and line.isascii()  # folded encoded words, never raw UTF-8
        states = await until_delivery(
            gateway, address, token, sent["id"], lambda s: any(d["status"] == "relayed" for d in s)
        )
        assert {(d["address"], d["status"]) for d in states} == {(f"bob@{EXTERNAL}", "relayed"), (local, "delivered")}
        assert await gateway.gw.store.outbox.pending() == 0
    assert len(captured.handler.messages) == 1


async def test_a_refused_recipient_is_recorded_failed_with_the_relays_answer(
    make_settings: Callable[..., Settings], captured: CaptureServer
) -> None:
    captured.handler.rcpt_replies[f"nobody@{EXTERNAL}"] = "550 5.1.1 No such user here"
    settings = make_settings(relay_url=f"smtp://127.0.0.1:{captured.port}")
    async with run_gateway(settings) as gateway:
        address, token = await gateway.create_identity("sender", send="any")
        async with gateway.client(token) as client:
            response = await client.post(
                f"/v1/identities/{address}/send", json={"to": [f"nobody@{EXTERNAL}"], "text": "hello"}
            )
        assert response.status_code == 201, response.text
        states = await until_delivery(
            gateway, address, token, response.json()["id"], lambda s: s[0]["status"] != "queued"
        )
        assert states[0]["status"] == "failed" and "550" in states[0]["detail"]
        assert await gateway.gw.store.outbox.pending() == 0
    assert captured.handler.messages == []


async def test_relay_down_is_retried_until_it_takes_the_mail_once(
    make_settings: Callable[..., Settings], captured: CaptureServer
) -> None:
    captured.stop()  # down: connections refused
    try:
        settings = make_settings(relay_url=f"smtp://127.0.0.1:{captured.port}", relay_retry_first="1s")
        async with run_gateway(settings) as gateway:
            address, token = await gateway.create_identity("patient", send="any")
            async with gateway.client(token) as client:
                response = await client.post(
                    f"/v1/identities/{address}/send", json={"to": [f"bob@{EXTERNAL}"], "text": "retry me"}
                )
            assert response.status_code == 201, response.text
            copy_id = response.json()["id"]
            states = await until_delivery(gateway, address, token, copy_id, lambda s: s[0]["attempts"] >= 2)
            assert states[0]["status"] == "queued" and states[0]["attempts"] >= 2
            assert "refused" in states[0]["detail"] or "connect" in states[0]["detail"]
            captured.start()  # back, on the same port
            states = await until_delivery(gateway, address, token, copy_id, lambda s: s[0]["status"] == "relayed")
            assert states[0]["status"] == "relayed"
            assert await gateway.gw.store.outbox.pending() == 0
        assert len(captured.handler.messages) == 1
    finally:
        if captured._controller is None:
            captured.start()


def test_a_pending_send_survives_sigkill_and_goes_out_once(tmp_path: Path, captured: CaptureServer) -> None:
    captured.stop()
    try:
        env = {"AGENTMAIL_RELAY_URL": f"smtp://127.0.0.1:{captured.port}", "AGENTMAIL_RELAY_RETRY_FIRST": "1s"}
        serve = ServeProcess(tmp_path / "data", tmp_path / "logs", env=env, admin_token=ADMIN_TOKEN)
        with serve, serve.client() as admin:
            made = admin.post("/v1/identities", json={"local_part": "durable", "send": "any"}).json()
            url = f"/v1/identities/{made['address']}"
            with serve.client(made["token"]) as sender:
                response = sender.post(f"{url}/send", json={"to": [f"bob@{EXTERNAL}"], "text": "after a crash"})
                assert response.status_code == 201, response.text
                url += f"/messages/{response.json()['id']}"
                wait_until(lambda: sender.get(url).json()["delivery"][0]["attempts"] >= 1, 30, "a first relay attempt")
            serve.kill()  # SIGKILL: the unsent mail is only in the store now
        captured.start()
        with serve, serve.client(made["token"]) as sender:  # the same data directory and ports, a new process
            wait_until(lambda: sender.get(url).json()["delivery"][0]["status"] == "relayed", 60, "the relay")
        assert len(captured.handler.messages) == 1
        (arrived,) = captured.handler.messages
        assert email.message_from_bytes(arrived.data)["Message-ID"] == response.json()["message_id"]
    finally:
        if captured._controller is None:
            captured.start()
