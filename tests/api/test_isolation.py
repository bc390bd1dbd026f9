"""Recipient isolation through the whole stack: real SMTP in, the REST API out.

Each identity sees a message only when a whitelisted recipient header holds exactly its
address (DESIGN.md, "Exact recipients"). Every case sends real mail through the embedded
intake, so the stamping, the sync, the index and the API are all on the path.
"""

from __future__ import annotations

from collections.abc import Sequence

import pytest

from gateway.store import Filters, Identity
from tests.conftest import DOMAIN, RunningGateway, assert_error, make_message


def at(local: str) -> str:
    return f"{local}@{DOMAIN}"


# --- one message, several recipients ---------------------------------------------------


async def test_two_bcc_recipients_each_see_the_message(gateway: RunningGateway) -> None:
    alice, alice_token = await gateway.create_identity("alice")
    bob, bob_token = await gateway.create_identity("bob")
    carol, carol_token = await gateway.create_identity("carol")

    # Neither address is in the headers: only the envelope (stamped as Delivered-To) names them.
    await gateway.send(make_message(to="undisclosed-recipients:;", subject="Blind copy"), [alice, bob])

    assert await gateway.subjects(alice, alice_token) == ["Blind copy"]
    assert await gateway.subjects(bob, bob_token) == ["Blind copy"]
    assert await gateway.subjects(carol, carol_token) == []


async def test_to_and_cc_copies_appear_once_each_and_go_when_both_delete(gateway: RunningGateway) -> None:
    alice, alice_token = await gateway.create_identity("alice")
    bob, bob_token = await gateway.create_identity("bob")

    await gateway.send(make_message(to=alice, cc=bob, subject="Shared"), [alice, bob])
    assert len(await gateway.mailbox_ids()) == 2  # one stamped copy per envelope recipient

    alice_listing = await gateway.messages(alice, alice_token)
    bob_listing = await gateway.messages(bob, bob_token)
    assert [m["subject"] for m in alice_listing["messages"]] == ["Shared"]
    assert [m["subject"] for m in bob_listing["messages"]] == ["Shared"]

    async with gateway.client(alice_token) as client:
        message_id = alice_listing["messages"][0]["id"]
        assert (await client.delete(f"/v1/identities/{alice}/messages/{message_id}")).status_code == 204
    assert await gateway.subjects(alice, alice_token) == []
    assert await gateway.subjects(bob, bob_token) == ["Shared"]
    assert len(await gateway.mailbox_ids()) == 2  # bob still sees it: nothing is expunged

    async with gateway.client(bob_token) as client:
        message_id = bob_listing["messages"][0]["id"]
        assert (await client.delete(f"/v1/identities/{bob}/messages/{message_id}")).status_code == 204
    assert await gateway.subjects(bob, bob_token) == []
    assert (await gateway.mailbox_ids()) == []  # nobody sees it any more: every copy is gone
    assert await gateway.gw.store.index.count() == 0


async def test_bcc_copy_deleted_by_one_recipient_stays_for_the_other(gateway: RunningGateway) -> None:
    alice, alice_token = await gateway.create_identity("alice")
    bob, bob_token = await gateway.create_identity("bob")
    await gateway.send(make_message(to="undisclosed-recipients:;", subject="Blind copy"), [alice, bob])

    message_id = (await gateway.messages(alice, alice_token))["messages"][0]["id"]
    async with gateway.client(alice_token) as client:
        assert (await client.delete(f"/v1/identities/{alice}/messages/{message_id}")).status_code == 204
    assert await gateway.subjects(bob, bob_token) == ["Blind copy"]
    assert len(await gateway.mailbox_ids()) == 2


# --- headers and addresses that never grant ---------------------------------------------

NOT_GRANTED = [
    # (owner: an identity that must see it, or None; viewer: an identity that must not;
    #  envelope recipient; To header; extra headers; subject)
    pytest.param("fox-k7d2", "k7d2", "fox-k7d2", "fox-k7d2", [], "Hi", id="name-is-a-suffix-of-recipient"),
    pytest.param("k7d2", "fox-k7d2", "k7d2", "k7d2", [], "Hi", id="name-is-a-superstring-of-recipient"),
    pytest.param(None, "alice", "alice+x", "alice+x", [], "Hi", id="plus-tag-is-another-address"),
    pytest.param("mallory", "alice", "mallory", f'"{at("alice")}" <{at("mallory")}>', [], "Hi", id="display-name"),
    pytest.param("mallory", "alice", "mallory", "mallory", [("Reply-To", at("alice"))], "Hi", id="reply-to"),
    pytest.param("mallory", "alice", "mallory", "mallory", [], f"For {at('alice')}", id="subject"),
    pytest.param("mallory", "alice", "mallory", "mallory", [("Resent-To", at("alice"))], "Hi", id="resent-to"),
    pytest.param("mallory", "alice", "mallory", "mallory", [("Resent-Cc", at("alice"))], "Hi", id="resent-cc"),
    pytest.param("mallory", "alice", "mallory", "mallory", [("X-Alice", at("alice"))], "Hi", id="other-x-header"),
    pytest.param("mallory", "alice", "mallory", "mallory", [("Sender", at("alice"))], "Hi", id="sender"),
]


@pytest.mark.parametrize(("owner", "viewer", "rcpt", "to", "headers", "subject"), NOT_GRANTED)
async def test_header_does_not_grant(
    gateway: RunningGateway,
    owner: str | None,
    viewer: str,
    rcpt: str,
    to: str,
    headers: Sequence[tuple[str, str]],
    subject: str,
) -> None:
    viewer_address, viewer_token = await gateway.create_identity(viewer)
    if owner is not None:
        owner_address, owner_token = await gateway.create_identity(owner)
    to_header = to if "@" in to else at(to)

    await gateway.send(make_message(to=to_header, subject=subject, headers=headers), [at(rcpt)])

    assert await gateway.subjects(viewer_address, viewer_token) == []
    if owner is not None:
        assert await gateway.subjects(owner_address, owner_token) == [subject]


async def test_plus_tag_name_cannot_be_created(gateway: RunningGateway) -> None:
    assert_error(await gateway.http.post("/v1/identities", json={"local_part": "alice+x"}), 422)


@pytest.mark.parametrize(
    ("rcpt", "to"),
    [
        pytest.param("nobody", at("ALICE").upper(), id="upper-case-to-header"),
        pytest.param("nobody", "Alice@Agents.Test", id="mixed-case-to-header"),
        pytest.param("ALICE", "undisclosed-recipients:;", id="upper-case-envelope"),
    ],
)
async def test_addresses_compare_case_insensitively(gateway: RunningGateway, rcpt: str, to: str) -> None:
    alice, alice_token = await gateway.create_identity("alice")
    await gateway.send(make_message(to=to, subject="Shouted"), [f"{rcpt}@{DOMAIN.upper()}"])
    assert await gateway.subjects(alice, alice_token) == ["Shouted"]


async def test_catchall_address_never_grants(gateway: RunningGateway) -> None:
    catchall = gateway.settings.catchall
    assert catchall == at("catchall")
    # Its local part is reserved: nobody can become the catch-all.
    assert_error(await gateway.http.post("/v1/identities", json={"local_part": "catchall"}), 422, "invalid_local_part")

    alice, alice_token = await gateway.create_identity("alice")
    await gateway.send(make_message(to=catchall, subject="To the catch-all"), [catchall])
    await gateway.send(make_message(to=alice, cc=catchall, subject="Alice and the catch-all"), [catchall])

    assert await gateway.gw.store.index.count() == 2
    as_catchall = Identity(0, catchall, "catchall", 0.0, None, None, None)  # what no identity can be
    assert await gateway.gw.store.index.listing(as_catchall, Filters(since_ts=0), limit=10) == []
    # The Delivered-To of the catch-all grants nothing; alice's To header does.
    assert await gateway.subjects(alice, alice_token) == ["Alice and the catch-all"]


async def test_mail_for_another_identity_is_404_on_own_path(gateway: RunningGateway) -> None:
    alice, alice_token = await gateway.create_identity("alice")
    bob, _ = await gateway.create_identity("bob")
    await gateway.send(make_message(to=bob, subject="For Bob"), [bob])
    bobs_id = (await gateway.mailbox_ids())[0]

    async with gateway.client(alice_token) as client:
        base = f"/v1/identities/{alice}/messages/{bobs_id}"
        assert_error(await client.get(base), 404)
        assert_error(await client.get(f"{base}/raw"), 404)
        assert_error(await client.patch(base, json={"seen": True}), 404)
        assert_error(await client.delete(base), 404)
    assert await gateway.subjects(bob) == ["For Bob"]
