"""Webhooks end to end: real SMTP in, a real gateway, a real HTTP receiver that verifies what it gets.

Signatures are checked on the receiving side with an independent implementation: the
`standardwebhooks` package for `v1`, the specification's Ed25519 algorithm (with
`cryptography`) for `v1a`.
"""

from __future__ import annotations

import asyncio
import base64
import itertools
import json
import logging
import time
from collections.abc import Callable
from typing import Any

import pytest
from cryptography.exceptions import InvalidSignature
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PublicKey
from standardwebhooks.webhooks import Webhook, WebhookVerificationError

from gateway.config import Settings
from tests.conftest import RunningGateway, make_message, run_gateway
from tests.outbound.capture import CaptureServer
from tests.webhooks.conftest import ALLOW, HOOKED, recorded
from tests.webhooks.receiver import Call, Receiver


async def create_hook(gateway: RunningGateway, address: str, token: str | None, **body: Any) -> dict[str, Any]:
    client = gateway.http if token is None else gateway.client(token)
    try:
        response = await client.post(f"/v1/identities/{address}/webhooks", json=body)
    finally:
        if client is not gateway.http:
            await client.aclose()
    assert response.status_code == 201, response.text
    created: dict[str, Any] = response.json()
    return created


async def calls(receiver: Receiver, condition: Callable[[list[Call]], bool], timeout: float = 30) -> list[Call]:
    return await asyncio.to_thread(receiver.wait_for, condition, timeout)


def ed25519_valid(public_key: str, call: Call) -> bool:
    """The spec's v1a check: an Ed25519 signature over `id.timestamp.body` with the `whpk_` key."""
    key = Ed25519PublicKey.from_public_bytes(base64.b64decode(public_key.removeprefix("whpk_")))
    signed = f"{call.headers['webhook-id']}.{call.headers['webhook-timestamp']}.".encode() + call.body
    for entry in call.headers["webhook-signature"].split():
        version, _, signature = entry.partition(",")
        if version != "v1a":
            continue
        try:
            key.verify(base64.b64decode(signature), signed)
        except InvalidSignature:
            continue
        return True
    return False


async def test_a_received_mail_is_posted_signed_with_its_summary_as_the_list_route_gives_it(
    hooked: RunningGateway, receiver: Receiver
) -> None:
    address, token = await hooked.create_identity("hooked")
    hook = await create_hook(hooked, address, token, url=receiver.url, description="ci")
    assert hook["secret"].startswith("whsec_") and hook["events"] == ["message.received"]
    await hooked.send(make_message(to=address, subject="Your code", text="Your code is 482913."), [address])
    (call,) = await calls(receiver, lambda c: len(c) >= 1)
    payload = Webhook(hook["secret"]).verify(call.body, call.headers)  # an independent verifier
    listed = (await hooked.messages(address, token))["messages"][0]
    assert payload == {
        "type": "message.received",
        "timestamp": payload["timestamp"],
        "address": address,
        "message": listed,
    }
    assert listed["codes"][0]["value"] == "482913" and listed["thread_id"]
    assert call.headers["content-type"] == "application/json"
    assert call.headers["webhook-id"].startswith("msg_")
    # The receiver's library refuses a tampered body and a stale timestamp.
    with pytest.raises(WebhookVerificationError):
        Webhook(hook["secret"]).verify(call.body.replace(b"482913", b"482914"), call.headers)
    stale = {**call.headers, "webhook-timestamp": str(int(time.time()) - 3600)}
    with pytest.raises(WebhookVerificationError):
        Webhook(hook["secret"]).verify(call.body, stale)


async def test_v1a_signatures_verify_with_the_public_key_and_fail_when_tampered(
    hooked: RunningGateway, receiver: Receiver
) -> None:
    address, token = await hooked.create_identity("signed")
    hook = await create_hook(hooked, address, token, url=receiver.url, signing="v1a")
    # The private signing key never leaves the gateway: the receiver needs only the public key.
    assert hook["secret"] is None and hook["public_key"].startswith("whpk_")
    async with hooked.client(token) as client:  # the public key stays readable; the secret never again
        read = (await client.get(f"/v1/identities/{address}/webhooks/{hook['id']}")).json()
    assert read["public_key"] == hook["public_key"] and "secret" not in read
    await hooked.send(make_message(to=address), [address])
    (call,) = await calls(receiver, lambda c: len(c) >= 1)
    assert ed25519_valid(hook["public_key"], call)
    tampered = Call(call.path, call.headers, call.body + b" ", call.at, call.status)
    assert not ed25519_valid(hook["public_key"], tampered)


async def test_a_receiver_that_is_down_gets_every_event_once_up_in_order_after_growing_gaps(
    hooked: RunningGateway, receiver: Receiver, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.DEBUG, logger="gateway")
    address, token = await hooked.create_identity("patient")
    hook = await create_hook(hooked, address, token, url=receiver.url)
    receiver.status = 503
    subjects = [f"mail {n}" for n in range(4)]
    for subject in subjects:
        await hooked.send(make_message(to=address, subject=subject), [address])
    failing = await calls(receiver, lambda c: len(c) >= 4)
    # Only the oldest event is tried while the receiver fails: the later ones wait behind it.
    assert {c.headers["webhook-id"] for c in failing} == {failing[0].headers["webhook-id"]}
    gaps = [b.at - a.at for a, b in itertools.pairwise(failing)]
    assert gaps[2] > gaps[0], gaps
    receiver.status = 200
    await calls(receiver, lambda c: len([x for x in c if x.status == 200]) >= 4)
    accepted = receiver.accepted()
    # In order, each event once (the receiver answered 2xx to each the first time it came up).
    assert [json.loads(c.body)["message"]["subject"] for c in accepted] == subjects
    assert len({c.headers["webhook-id"] for c in accepted}) == 4
    assert accepted[0].headers["webhook-id"] == failing[0].headers["webhook-id"]
    page = await recorded(hooked, hook["id"], 4)
    assert [d["status"] for d in page] == ["delivered"] * 4
    first = page[-1]
    assert first["attempts"] >= 5 and first["last_status_code"] == 200
    detail = await hooked.http.get(f"/v1/webhooks/{hook['id']}/deliveries/{first['id']}")
    assert detail.status_code == 200 and hook["secret"] not in detail.text
    codes = [a["status_code"] for a in detail.json()["attempt_log"]]
    assert codes[0] == 200 and set(codes[1:]) == {503}
    # The worker logged every attempt, by webhook id: never the URL (receivers keep secrets in theirs)
    # nor the signing secret.
    assert hook["id"] in caplog.text and f":{receiver.port}/" not in caplog.text
    assert hook["secret"] not in caplog.text and hook["secret"].removeprefix("whsec_") not in caplog.text


async def test_a_rebuilt_index_sends_nothing_again_and_mail_after_it_goes_out(
    make_settings: Callable[..., Settings], receiver: Receiver
) -> None:
    settings = make_settings(webhook_allow=ALLOW, webhook_retry_first="0.05")
    async with run_gateway(settings) as gateway:
        address, token = await gateway.create_identity("rebuilt")
        hook = await create_hook(gateway, address, token, url=receiver.url)
        for n in range(3):
            await gateway.send(make_message(to=address, subject=f"before {n}"), [address])
        await calls(receiver, lambda c: len(c) >= 3)
    for suffix in ("", "-wal", "-shm"):  # the index is a cache: gone, it is rebuilt from the mailbox
        (settings.data_dir / f"index.db{suffix}").unlink(missing_ok=True)
    async with run_gateway(settings, keep_mailbox=True) as gateway:
        await gateway.settled()
        await gateway.send(make_message(to=address, subject="after"), [address])
        done = await calls(receiver, lambda c: len(c) >= 4)
        # The rebuild walked every grant again; the deliveries' ids kept the three from going out twice.
        page = (await gateway.http.get(f"/v1/webhooks/{hook['id']}/deliveries")).json()["deliveries"]
    subjects = [json.loads(c.body)["message"]["subject"] for c in done]
    assert subjects == ["before 0", "before 1", "before 2", "after"]
    assert len(page) == 4 and len(receiver.calls) == 4


async def test_a_recipient_the_relay_refuses_for_good_is_announced_as_delivery_failed(
    make_settings: Callable[..., Settings], receiver: Receiver
) -> None:
    with CaptureServer() as relay:
        relay.handler.rcpt_replies["nobody@external.test"] = "550 5.1.1 No such user here"
        settings = make_settings(**HOOKED, relay_url=f"smtp://127.0.0.1:{relay.port}")
        async with run_gateway(settings) as gateway:
            address, token = await gateway.create_identity("bounced", send="any")
            hook = await create_hook(gateway, address, token, url=receiver.url, events=["message.delivery_failed"])
            async with gateway.client(token) as client:
                sent = await client.post(
                    f"/v1/identities/{address}/send", json={"to": ["nobody@external.test"], "text": "hello"}
                )
            assert sent.status_code == 201, sent.text
            (call,) = await calls(receiver, lambda c: len(c) >= 1)
    payload = Webhook(hook["secret"]).verify(call.body, call.headers)
    assert payload["type"] == "message.delivery_failed" and payload["address"] == address
    assert payload["message_id"] == sent.json()["message_id"] and payload["recipient"] == "nobody@external.test"
    assert "550" in payload["detail"]
