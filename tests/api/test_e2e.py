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


async def test_codes_and_links_on_summaries_and_messages(gateway: RunningGateway) -> None:
    address, token = await gateway.create_identity("codes")
    html = (
        "<html><body><p>Your verification code is <b>G-<span>77</span><span>4102</span></b></p>"
        '<p><a href="https://auth.example.com/verify?token=abc&amp;sig=x%2Fy">Verify your email</a></p>'
        '<p><a href="https://news.example.com/unsubscribe">Unsubscribe</a></p></body></html>'
    )
    await gateway.send(make_message(to=address, subject="Confirm your account", text="", html=html), [address])
    listing = await gateway.messages(address, token)
    summary = listing["messages"][0]
    assert summary["codes"][0]["value"] == "G-774102"
    assert summary["codes"][0]["source"] == "html"
    assert summary["links"][0]["url"] == "https://auth.example.com/verify?token=abc&sig=x%2Fy"
    assert all("unsubscribe" not in link["url"] for link in summary["links"])
    async with gateway.client(token) as client:
        full = (await client.get(f"/v1/identities/{address}/messages/{summary['id']}")).json()
    assert full["codes"] == summary["codes"] and full["links"] == summary["links"]
