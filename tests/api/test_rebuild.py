"""The index is a cache: delete it, restart, and every identity sees what it saw, marks intact."""

from __future__ import annotations

from collections.abc import Callable

from gateway.config import Settings
from tests.conftest import DOMAIN, make_message, run_gateway


async def test_index_rebuilds_from_the_mailbox_and_marks_survive(make_settings: Callable[..., Settings]) -> None:
    settings = make_settings()
    alice, bob = f"alice@{DOMAIN}", f"bob@{DOMAIN}"
    async with run_gateway(settings) as gateway:
        _, alice_token = await gateway.create_identity("alice")
        await gateway.create_identity("bob")
        await gateway.send(make_message(to=alice, subject="one"), [alice])
        # "two" reaches bob too: alice's delete then only hides it (no expunge), so after
        # the rebuild only her deleted mark keeps it hidden.
        await gateway.send(make_message(to=[alice, bob], subject="two"), [alice, bob])
        await gateway.send(make_message(to=[alice, bob], subject="both"), [alice, bob])
        before = await gateway.messages(alice, alice_token)
        ids = {m["subject"]: m["id"] for m in before["messages"]}
        async with gateway.client(alice_token) as client:
            assert (await client.get(f"/v1/identities/{alice}/messages/{ids['one']}")).status_code == 200
            assert (await client.delete(f"/v1/identities/{alice}/messages/{ids['two']}")).status_code == 204

    for suffix in ("", "-wal", "-shm"):
        (settings.data_dir / f"index.db{suffix}").unlink(missing_ok=True)

    async with run_gateway(settings, keep_mailbox=True) as gateway:
        await gateway.settled()
        after = await gateway.messages(alice, alice_token)
        assert {m["subject"]: (m["id"], m["seen"]) for m in after["messages"]} == {
            "one": (ids["one"], True),
            "both": (ids["both"], False),
        }
        assert await gateway.subjects(bob) == ["both", "two"]
