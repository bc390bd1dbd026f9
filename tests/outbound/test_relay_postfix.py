"""relay() through a real Postfix (the test stack in relay mode) to a capturing server behind it.

Postfix relays `external.test` to the capture server on loopback, as the mailserver container
relays to the Internet. What arrives must be our message: our Message-ID, the From with a
display name holding a comma, and a Chinese subject folded and encoded as policy.SMTP made it.
"""

from __future__ import annotations

import email
import re
from collections.abc import Iterator
from email.headerregistry import Address
from email.message import EmailMessage
from email.policy import SMTP
from email.policy import default as default_policy

import pytest

from gateway.config import load_settings
from gateway.outbound.relay import RelayConfig, relay
from tests.mailstack import MailStack, running_stack
from tests.outbound.capture import CaptureServer

DOMAIN = "agents.test"
EXTERNAL = "external.test"
SUBJECT = "会议纪要：关于下周产品发布的安排、预算审批以及跨部门协作流程的详细讨论"  # noqa: RUF001 (Chinese punctuation)
DISPLAY_NAME = "Planner, Team Lead"


@pytest.fixture(scope="module")
def capture() -> Iterator[CaptureServer]:
    with CaptureServer() as server:
        yield server


@pytest.fixture(scope="module")
def relay_stack(capture: CaptureServer) -> Iterator[MailStack]:
    yield from running_stack(domain=DOMAIN, relay_domain=EXTERNAL, relay_port=capture.port)


@pytest.fixture
def postfix(relay_stack: MailStack, capture: CaptureServer) -> RelayConfig:
    """The stack's Postfix as the gateway would configure it (from AGENTMAIL_RELAY_URL), capture emptied."""
    relay_stack.wait_queue_empty()
    capture.handler.messages.clear()
    capture.handler.rcpt_replies.clear()
    assert relay_stack.relay_url is not None
    config = RelayConfig.from_settings(
        load_settings({"AGENTMAIL_DOMAIN": DOMAIN, "AGENTMAIL_RELAY_URL": relay_stack.relay_url}, env_file=None)
    )
    assert config is not None and not config.require_tls  # loopback: no STARTTLS needed
    return config


def build(message_id: str, to: list[str]) -> bytes:
    msg = EmailMessage(policy=SMTP)
    msg["From"] = Address(display_name=DISPLAY_NAME, addr_spec=f"planner@{DOMAIN}")
    msg["To"] = ", ".join(to)
    msg["Subject"] = SUBJECT
    msg["Message-ID"] = message_id
    msg["Date"] = "Wed, 02 Dec 2026 08:00:00 +0000"
    msg.set_content("下周见。\nSee you next week.\n")
    return msg.as_bytes()


def header_block(raw: bytes, name: bytes) -> bytes:
    """A header's exact bytes, folded continuation lines included."""
    match = re.search(rb"(?mi)^" + name + rb":.*\r\n(?:[ \t].*\r\n)*", raw)
    assert match is not None, name
    return match.group(0)


async def test_postfix_relays_our_exact_message(postfix: RelayConfig, capture: CaptureServer) -> None:
    message_id = "<relay-through-postfix.1@agents.test>"
    rcpts = [f"alice@{EXTERNAL}", f"bob@{EXTERNAL}"]
    raw = build(message_id, rcpts)
    results = await relay(postfix, envelope_from=f"planner@{DOMAIN}", recipients=rcpts, raw=raw, helo=f"gw.{DOMAIN}")
    assert [(r.address, r.ok) for r in results] == [(a, True) for a in rcpts]
    assert all(r.detail.startswith("250 2.0.0 Ok: queued as ") for r in results)

    (got,) = capture.handler.wait_for(1)
    assert got.mail_from == f"planner@{DOMAIN}"
    assert sorted(got.rcpt_tos) == rcpts
    # Postfix only prepends its Received: header; every byte of ours is there, in order.
    assert got.data.endswith(raw), got.data[:2000]
    assert got.data[: -len(raw)].startswith(b"Received: from ")
    for name in (b"Message-ID", b"From", b"Subject"):
        assert header_block(got.data, name) == header_block(raw, name)
    # ...and those bytes are right: folded below 78 columns, encoded words, the comma quoted.
    assert all(len(line) <= 78 for line in header_block(raw, b"Subject").split(b"\r\n"))
    assert header_block(raw, b"Subject").startswith(b"Subject: =?utf-8?")
    assert header_block(raw, b"From") == f'From: "{DISPLAY_NAME}" <planner@{DOMAIN}>\r\n'.encode()

    parsed = email.message_from_bytes(got.data, policy=default_policy)
    assert parsed["Message-ID"] == message_id
    assert parsed["Subject"] == SUBJECT
    (sender,) = parsed["From"].addresses
    assert (sender.display_name, sender.addr_spec) == (DISPLAY_NAME, f"planner@{DOMAIN}")
    assert parsed.get_content().replace("\r\n", "\n") == "下周见。\nSee you next week.\n"


async def test_a_refusal_behind_postfix_is_postfix_s_business(postfix: RelayConfig, capture: CaptureServer) -> None:
    # Postfix takes the message for every recipient at once; what the server behind it says
    # later (here: 450 for one) Postfix retries itself. The relay's answer is what we record.
    capture.handler.rcpt_replies[f"busy@{EXTERNAL}"] = "450 4.2.1 busy"
    rcpts = [f"busy@{EXTERNAL}", f"carol@{EXTERNAL}"]
    raw = build("<relay-through-postfix.2@agents.test>", rcpts)
    results = await relay(postfix, envelope_from=f"planner@{DOMAIN}", recipients=rcpts, raw=raw, helo=f"gw.{DOMAIN}")
    assert all(r.ok for r in results)
    (got,) = capture.handler.wait_for(1)
    assert got.rcpt_tos == (f"carol@{EXTERNAL}",)
    capture.handler.rcpt_replies.clear()  # the server recovers: Postfix's retry delivers the other
    got_later = capture.handler.wait_for(2)[1]
    assert got_later.rcpt_tos == (f"busy@{EXTERNAL}",)
    assert got_later.data.endswith(raw)


async def test_our_own_domain_still_goes_to_the_mailbox_and_nothing_is_relayed(
    postfix: RelayConfig, relay_stack: MailStack, capture: CaptureServer
) -> None:
    relay_stack.expunge_all()
    raw = build("<relay-through-postfix.3@agents.test>", [f"other@{DOMAIN}"])
    (result,) = await relay(
        postfix, envelope_from=f"planner@{DOMAIN}", recipients=[f"other@{DOMAIN}"], raw=raw, helo=f"gw.{DOMAIN}"
    )
    assert result.ok
    assert relay_stack.wait_for_count(1) == 1
    assert capture.handler.messages == []


async def test_another_outside_domain_is_refused_permanently_and_the_rest_relayed(
    postfix: RelayConfig, capture: CaptureServer
) -> None:
    rcpts = ["x@nowhere.test", f"dave@{EXTERNAL}"]
    raw = build("<relay-through-postfix.4@agents.test>", rcpts)
    results = {
        r.address: r
        for r in await relay(postfix, envelope_from=f"planner@{DOMAIN}", recipients=rcpts, raw=raw, helo=f"gw.{DOMAIN}")
    }
    nowhere = results["x@nowhere.test"]
    assert (nowhere.ok, nowhere.temporary) == (False, False)
    assert nowhere.detail.startswith("550 5.1.1 <x@nowhere.test>: Recipient address rejected")
    assert results[f"dave@{EXTERNAL}"].ok
    assert capture.handler.wait_for(1)[0].rcpt_tos == (f"dave@{EXTERNAL}",)
