"""A version 1 data directory (marks keyed by Maildir copy) upgrades with every mark kept."""

from __future__ import annotations

import contextlib
import sqlite3
import stat
from collections.abc import Callable

from gateway.config import Settings
from tests.conftest import DOMAIN, make_message, run_gateway

NO_MESSAGE_ID = (
    f"From: shop@example.com\r\nTo: alice@{DOMAIN}\r\nSubject: three\r\n\r\nNo Message-ID here.\r\n"
).encode()


def downgrade_to_version_1(settings: Settings) -> None:
    """Rewrite the store as version 1 kept it: marks by the copy each identity was granted."""
    store = sqlite3.connect(settings.data_dir / "identities.db")
    index = sqlite3.connect(settings.data_dir / "index.db")
    rows = store.execute(
        "SELECT m.identity_id, i.local_part, m.message_key, m.seen, m.deleted FROM marks m"
        " JOIN identities i ON i.id = m.identity_id"
    ).fetchall()
    store.execute("DELETE FROM marks")
    for identity_id, local, key, seen, deleted in rows:
        (copy_id,) = index.execute(
            "SELECT copy_id FROM grants WHERE address = ? AND message_key = ?", (f"{local}@{DOMAIN}", key)
        ).fetchone()
        store.execute(
            "INSERT INTO marks (identity_id, message_key, seen, deleted) VALUES (?, ?, ?, ?)",
            (identity_id, copy_id, seen, deleted),
        )
    # What versions 2 to 6 added.
    for table in ("webhook_attempts", "webhook_deliveries", "webhooks", "deliveries", "outbox"):
        store.execute(f"DROP TABLE {table}")
    store.execute("ALTER TABLE identities DROP COLUMN send_scope")
    store.execute("ALTER TABLE tokens DROP COLUMN send")
    store.execute("DROP INDEX marks_by_retirement")
    store.execute("ALTER TABLE marks DROP COLUMN retired_at")
    store.execute("ALTER TABLE marks RENAME COLUMN message_key TO message_id")
    for table in ("claims", "rate_events", "ui_sessions"):
        store.execute(f"DROP TABLE {table}")
    for column in ("reused", "fence_generation", "fence_id"):
        store.execute(f"ALTER TABLE identities DROP COLUMN {column}")
    store.execute("UPDATE meta SET value = '1' WHERE key = 'schema_version'")
    store.commit()
    store.close()
    index.close()


async def test_version_1_marks_survive_the_upgrade_and_an_index_rebuild(
    make_settings: Callable[..., Settings],
) -> None:
    settings = make_settings()
    alice, bob = f"alice@{DOMAIN}", f"bob@{DOMAIN}"
    async with run_gateway(settings) as gateway:
        _, alice_token = await gateway.create_identity("alice")
        _, bob_token = await gateway.create_identity("bob")
        await gateway.send(make_message(to=alice, subject="one"), [alice])
        await gateway.send(make_message(to=[alice, bob], subject="two"), [alice, bob])
        await gateway.gw.source.store([(b"", NO_MESSAGE_ID)])  # type: ignore[attr-defined]
        await gateway.settled()
        ids = {m["subject"]: m["id"] for m in (await gateway.messages(alice, alice_token))["messages"]}
        async with gateway.client(alice_token) as client:
            for read in ("one", "three"):
                assert (await client.get(f"/v1/identities/{alice}/messages/{ids[read]}")).status_code == 200
            assert (await client.delete(f"/v1/identities/{alice}/messages/{ids['two']}")).status_code == 204

    downgrade_to_version_1(settings)
    for suffix in ("", "-wal", "-shm"):  # and the index is gone: it is rebuilt from the Maildir
        (settings.data_dir / f"index.db{suffix}").unlink(missing_ok=True)

    async with run_gateway(settings) as gateway:
        await gateway.settled()
        listing = (await gateway.messages(alice, alice_token))["messages"]
        assert {m["subject"]: m["seen"] for m in listing} == {"three": True, "one": True}
        assert await gateway.subjects(bob, bob_token) == ["two"]  # bob's copy was never deleted
    backup = settings.data_dir / "identities.db.v1.bak"
    assert stat.S_IMODE(backup.stat().st_mode) == 0o600
    with contextlib.closing(sqlite3.connect(backup)) as old:
        assert old.execute("SELECT value FROM meta WHERE key = 'schema_version'").fetchone() == ("1",)
