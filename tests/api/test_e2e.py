"""End to end: real SMTP into the embedded intake, read back through the REST API."""

from __future__ import annotations

from tests.conftest import DOMAIN, RunningGateway, make_message


async def test_mail_reaches_exactly_its_identity(gateway: RunningGateway) -> None:
    alice, alice_token = await gateway.create_identity("alice")
    bob, bob_token = await gateway.create_identity("bob")
    assert alice == f"alice@{DOMAIN}"

    await gateway.send(make_message(to=alice, subject="For Alice", text="Your code is 123456"), [alice])
    await gateway.send(make_message(to=bob, subject="For Bob"), [bob])

    async with gateway.client(alice_token) as client:
        listing = (await client.get(f"/v1/identities/{alice}/messages")).json()
        assert [m["subject"] for m in listing["messages"]] == ["For Alice"]
        summary = listing["messages"][0]
        assert summary["to"] == [alice]
        assert summary["seen"] is False
        assert listing["next_before_id"] is None

        full = (await client.get(f"/v1/identities/{alice}/messages/{summary['id']}")).json()
        assert "Your code is 123456" in full["text"]
        assert {"name": "Delivered-To", "value": alice} in full["headers"]
        assert full["seen"] is True

        raw = await client.get(f"/v1/identities/{alice}/messages/{summary['id']}/raw")
        assert raw.headers["content-type"].startswith("message/rfc822")
        assert raw.content.startswith(b"Return-Path: <sender@example.com>\r\nDelivered-To: " + alice.encode())

    async with gateway.client(bob_token) as client:
        listing = (await client.get(f"/v1/identities/{bob}/messages")).json()
        assert [m["subject"] for m in listing["messages"]] == ["For Bob"]
