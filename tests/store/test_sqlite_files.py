"""The SQLite engine's files: private, hashed, fail closed, upgraded in place with a backup."""

from __future__ import annotations

import contextlib
import dataclasses
import hmac
import shutil
import sqlite3
import stat
from collections.abc import Sequence
from pathlib import Path

import pytest

from gateway.errors import Conflict, StoreError, StoreUnavailable
from gateway.store import Delivery, OutboxEntry, Store, Webhook, hash_token
from gateway.store.sqlite import open_sqlite
from gateway.store.sqlite.schema import DURABLE_VERSION, INDEX_VERSION
from tests.store.conftest import DOMAIN, Clock, StoreFactory, flip_in_btree


@pytest.fixture
def engine() -> str:
    """These tests read the SQLite files themselves."""
    return "sqlite"


def _open(data: Path, **kw: object) -> Store:
    return open_sqlite(data, domain=DOMAIN, clock=Clock(), **kw)  # type: ignore[arg-type]


def _rows(path: Path, sql: str) -> list[tuple[object, ...]]:
    with contextlib.closing(sqlite3.connect(path)) as conn:
        return conn.execute(sql).fetchall()


def _run(path: Path, *sql: str) -> None:
    with contextlib.closing(sqlite3.connect(path)) as conn:
        for statement in sql:
            conn.execute(statement)
        conn.commit()


async def test_plaintext_tokens_are_never_stored(store: Store, tmp_path: Path) -> None:
    _, token = await store.identities.create("alice")
    _, api = await store.tokens.create_provisioner("ci")
    await store.tokens.set_admin("am_admin-secret-for-the-test-only", origin="configured")
    await store.engine.close()
    for path in (tmp_path / "data").iterdir():
        data = path.read_bytes()
        assert token.encode() not in data and api.encode() not in data and b"am_admin-secret" not in data
    assert (hash_token(token),) in _rows(tmp_path / "data" / "identities.db", "SELECT hash FROM tokens")


async def test_authenticate_uses_constant_time_compare(store: Store, monkeypatch: pytest.MonkeyPatch) -> None:
    _, token = await store.identities.create("alice")
    calls: list[tuple[str, str]] = []
    real = hmac.compare_digest

    def spy(a: str, b: str) -> bool:
        calls.append((a, b))
        return real(a, b)

    monkeypatch.setattr("gateway.store.sqlite.accounts.hmac.compare_digest", spy)
    assert (await store.tokens.authenticate(token)).kind == "identity"
    assert calls == [(hash_token(token), hash_token(token))]


async def test_files_and_dir_are_private(store: Store, tmp_path: Path) -> None:
    data = tmp_path / "data"
    assert stat.S_IMODE(data.stat().st_mode) == 0o700
    for name in ("identities.db", "index.db"):
        assert stat.S_IMODE((data / name).stat().st_mode) == 0o600
    assert sorted(p.name for p in data.iterdir() if not p.name.startswith(("identities.db", "index.db"))) == []


def test_corrupt_store_fails_closed_and_is_left_as_it_was(tmp_path: Path) -> None:
    data = tmp_path / "data"
    data.mkdir()
    (data / "identities.db").write_bytes(b"this is not a database" * 100)
    with pytest.raises(StoreError, match="refusing to start"):
        _open(data)
    assert (data / "identities.db").read_bytes().startswith(b"this is not a database")


def test_empty_store_file_fails_closed(tmp_path: Path) -> None:
    data = tmp_path / "data"
    data.mkdir()
    (data / "identities.db").touch()  # a store is created complete and renamed into place
    with pytest.raises(StoreError, match="empty"):
        _open(data)
    assert (data / "identities.db").read_bytes() == b""


def test_foreign_database_fails_closed(tmp_path: Path) -> None:
    data = tmp_path / "data"
    data.mkdir()
    _run(data / "identities.db", "CREATE TABLE other (x)")
    with pytest.raises(StoreError, match="not ours"):
        _open(data)


def test_unreadable_store_fails_closed(tmp_path: Path) -> None:
    data = tmp_path / "data"
    (data / "identities.db").mkdir(parents=True)  # a directory where the file should be
    with pytest.raises(StoreError):
        _open(data)


async def test_a_newer_schema_is_refused_untouched(open_store: StoreFactory, tmp_path: Path) -> None:
    store = await open_store()
    await store.identities.create("alice")
    await store.engine.close()
    path = tmp_path / "data" / "identities.db"
    _run(path, f"UPDATE meta SET value = '{DURABLE_VERSION + 1}' WHERE key = 'schema_version'")
    before = path.read_bytes()
    with pytest.raises(StoreError, match="newer gateway"):
        await open_store()
    assert path.read_bytes() == before


async def test_a_corrupt_or_outdated_index_is_rebuilt_empty(open_store: StoreFactory, tmp_path: Path) -> None:
    index = tmp_path / "data" / "index.db"
    store = await open_store()
    identity, token = await store.identities.create("alice")
    await store.engine.close()
    index.write_bytes(b"garbage" * 1000)
    store = await open_store()
    assert await store.index.count() == 0 and (await store.tokens.authenticate(token)).identity == identity
    await store.index.set_meta("schema_version", str(INDEX_VERSION - 1))
    await store.engine.close()
    store = await open_store()
    assert await store.index.get_meta("schema_version") == str(INDEX_VERSION)


def _to_version_5(path: Path) -> None:
    """Rewrite a current store as version 5 kept it: no webhooks."""
    _run(
        path,
        "DROP TABLE webhook_attempts",
        "DROP TABLE webhook_deliveries",
        "DROP TABLE webhooks",
        "UPDATE meta SET value = '5' WHERE key = 'schema_version'",
    )


def _to_version_4(path: Path) -> None:
    """Rewrite a current store as version 4 kept it: no send scopes, no outbox."""
    _to_version_5(path)
    _run(
        path,
        "ALTER TABLE identities DROP COLUMN send_scope",
        "ALTER TABLE tokens DROP COLUMN send",
        "DROP TABLE deliveries",
        "DROP TABLE outbox",
        "UPDATE meta SET value = '4' WHERE key = 'schema_version'",
    )


def _to_version_3(path: Path) -> None:
    """Rewrite a current store as version 3 kept it: marks.message_id, no claims or rate events."""
    _to_version_4(path)
    _run(
        path,
        "ALTER TABLE marks RENAME COLUMN message_key TO message_id",
        "DROP INDEX marks_by_retirement",
        "ALTER TABLE marks DROP COLUMN retired_at",
        "DROP INDEX marks_by_key",
        "DROP TABLE claims",
        "DROP TABLE rate_events",
        "CREATE INDEX marks_by_message ON marks (message_id)",
        "UPDATE meta SET value = '3' WHERE key = 'schema_version'",
    )


async def test_version_5_store_upgrades_to_webhooks_with_a_backup(
    open_store: StoreFactory, tmp_path: Path, clock: Clock
) -> None:
    path = tmp_path / "data" / "identities.db"
    store = await open_store()
    a, token = await store.identities.create("a", send_scope="any")
    provisioner, secret = await store.tokens.create_provisioner("ci", send="any")
    await store.outbox.put(
        OutboxEntry("e1", a.id, a.address, "key-1", "<1@d.test>", b"raw", b"copy", (), ("x@far.test",), clock.now)
    )
    await store.engine.close()
    _to_version_5(path)
    assert _rows(path, "SELECT value FROM meta WHERE key = 'schema_version'") == [("5",)]

    store = await open_store()
    assert _rows(path, "SELECT value FROM meta WHERE key = 'schema_version'") == [(str(DURABLE_VERSION),)]
    assert (await store.tokens.authenticate(token)).identity == a
    assert (await store.tokens.authenticate(secret)).send == "any"
    assert await store.outbox.pending() == 1
    assert await store.webhooks.listing() == [] and await store.webhooks.pending() == 0
    hook = Webhook(
        id="wh_1",
        scope="provisioner",
        identity_id=None,
        token_id=provisioner.id,
        url="https://r.test/",
        events=("message.received",),
        description=None,
        signing="v1",
        secret="whsec_x",
        public_key=None,
        created_ts=clock.now,
    )
    await store.webhooks.create(hook)
    await store.webhooks.enqueue([Delivery("msg_1", "wh_1", a.address, "message.received", b"{}", clock.now)])
    assert [d.id for d in await store.webhooks.claim(now=clock.now, lease=60, limit=9, per_webhook=9)] == ["msg_1"]
    await store.tokens.delete_provisioner(provisioner.id)  # the upgraded file cascades too
    assert await store.webhooks.get("wh_1") is None and await store.webhooks.pending() == 0
    backup = path.with_name("identities.db.v5.bak")
    assert stat.S_IMODE(backup.stat().st_mode) == 0o600
    assert _rows(backup, "SELECT value FROM meta WHERE key = 'schema_version'") == [("5",)]
    assert _rows(backup, "SELECT id FROM outbox") == [("e1",)]
    with pytest.raises(sqlite3.OperationalError):  # the backup is the version 5 file, as it was
        _rows(backup, "SELECT id FROM webhooks")
    await store.engine.close()
    again = await open_store()  # upgraded once
    assert await again.outbox.pending() == 1


async def test_version_4_store_upgrades_to_send_scopes_and_an_outbox_with_a_backup(
    open_store: StoreFactory, tmp_path: Path
) -> None:
    path = tmp_path / "data" / "identities.db"
    store = await open_store()
    a, token = await store.identities.create("a")
    await store.identities.create("b", ttl_seconds=600)
    provisioner, secret = await store.tokens.create_provisioner("ci")
    await store.marks.set_seen(a, "key-A", True)
    await store.engine.close()
    _to_version_4(path)
    assert _rows(path, "SELECT value FROM meta WHERE key = 'schema_version'") == [("4",)]

    store = await open_store()
    assert _rows(path, "SELECT value FROM meta WHERE key = 'schema_version'") == [(str(DURABLE_VERSION),)]
    assert {i.local_part: i.send_scope for i in await store.identities.list()} == {"a": "local", "b": "local"}
    assert (await store.tokens.authenticate(token)).identity == dataclasses.replace(a, send_scope="local")
    principal = await store.tokens.authenticate(secret)
    assert (principal.token_id, principal.send) == (provisioner.id, "local")
    assert _rows(path, "SELECT identity_id, message_key, seen FROM marks") == [(a.id, "key-A", 1)]
    assert await store.outbox.pending() == 0
    created, _ = await store.identities.create("c", send_scope="any")
    assert created.send_scope == "any"
    backup = path.with_name("identities.db.v4.bak")
    assert stat.S_IMODE(backup.stat().st_mode) == 0o600
    assert _rows(backup, "SELECT value FROM meta WHERE key = 'schema_version'") == [("4",)]
    assert _rows(backup, "SELECT local_part FROM identities ORDER BY local_part") == [("a",), ("b",)]
    with pytest.raises(sqlite3.OperationalError):  # the backup is the version 4 file, as it was
        _rows(backup, "SELECT send_scope FROM identities")


async def test_version_3_store_upgrades_keeping_marks_tokens_and_sessions(
    open_store: StoreFactory, tmp_path: Path
) -> None:
    path = tmp_path / "data" / "identities.db"
    store = await open_store()
    a, token = await store.identities.create("a")
    await store.marks.set_seen(a, "key-A", True)
    await store.sessions.add("h", token, keep=32)
    await store.engine.close()
    _to_version_3(path)

    store = await open_store()
    assert (await store.tokens.authenticate(token)).identity == a
    assert await store.sessions.get("h", max_age=1e9, idle=1e9) is not None
    assert _rows(path, "SELECT message_key, seen FROM marks") == [("key-A", 1)]
    assert await store.claims.take(a, "key-A", ttl=60)
    assert _rows(path, "SELECT value FROM meta WHERE key = 'schema_version'") == [(str(DURABLE_VERSION),)]


async def test_version_2_store_upgrades_with_a_session_table(open_store: StoreFactory, tmp_path: Path) -> None:
    path = tmp_path / "data" / "identities.db"
    store = await open_store()
    a, token = await store.identities.create("a")
    await store.marks.set_seen(a, "key-A", True)
    await store.engine.close()
    _to_version_3(path)
    _run(path, "DROP TABLE ui_sessions", "UPDATE meta SET value = '2' WHERE key = 'schema_version'")

    store = await open_store()
    assert (await store.tokens.authenticate(token)).identity == a
    await store.sessions.add("h", token, keep=32)
    assert await store.sessions.get("h", max_age=60, idle=60) is not None
    assert _rows(path, "SELECT message_key, seen FROM marks") == [("key-A", 1)]
    assert not path.with_name(f"{path.name}.v1.bak").exists()
    assert _rows(path.with_name(f"{path.name}.v2.bak"), "SELECT value FROM meta WHERE key = 'schema_version'") == [
        ("2",)
    ]  # the release that wrote it refuses the upgraded file: it can be gone back to


async def test_version_1_store_upgrades_marks_to_message_keys(open_store: StoreFactory, tmp_path: Path) -> None:
    path = tmp_path / "data" / "identities.db"
    store = await open_store()
    a, _ = await store.identities.create("a")
    # Marks as a version 1 store kept them: by mailbox copy id.
    await store.marks.set_seen(a, "copy-1", True)
    await store.marks.set_deleted(a, "copy-2")
    await store.marks.set_seen(a, "copy-3", True)  # a second copy of the message of copy-1
    await store.marks.set_seen(a, "gone", True)  # its mail left the mailbox: nothing to map it to
    await store.engine.close()
    _to_version_3(path)
    _run(path, "DROP TABLE ui_sessions")
    for column in ("reused", "fence_generation", "fence_id"):
        _run(path, f"ALTER TABLE identities DROP COLUMN {column}")
    _run(path, "UPDATE meta SET value = '1' WHERE key = 'schema_version'")

    keys = {"copy-1": "key-A", "copy-2": "key-B", "copy-3": "key-A"}
    asked: list[str] = []

    def message_keys(ids: Sequence[str]) -> dict[str, str]:
        asked.extend(ids)
        return {i: keys[i] for i in ids if i in keys}

    store = await open_store(message_keys=message_keys)
    assert (await store.identities.get(f"a@{DOMAIN}")).reused is False
    assert sorted(_rows(path, "SELECT message_key, seen, deleted FROM marks")) == [("key-A", 1, 0), ("key-B", 0, 1)]
    assert sorted(asked) == ["copy-1", "copy-2", "copy-3", "gone"]
    backup = path.with_name(f"{path.name}.v1.bak")
    assert stat.S_IMODE(backup.stat().st_mode) == 0o600
    assert _rows(backup, "SELECT value FROM meta WHERE key = 'schema_version'") == [("1",)]
    await store.engine.close()
    await open_store(message_keys=lambda ids: pytest.fail("asked again"))  # upgraded once


async def test_a_store_locked_by_another_process_answers_store_unavailable(store: Store, tmp_path: Path) -> None:
    other = sqlite3.connect(tmp_path / "data" / "identities.db", isolation_level=None)
    try:
        other.execute("BEGIN EXCLUSIVE")  # as another process (the CLI) mid-write would hold it
        with pytest.raises(StoreUnavailable) as caught:
            await store.identities.create("alice")  # waits out busy_timeout, then gives up
        assert "locked" not in caught.value.detail  # SQLite's own words stay in the log
        other.execute("ROLLBACK")
    finally:
        other.close()
    assert (await store.identities.create("alice"))[0].local_part == "alice"


FIXTURES = Path(__file__).parent / "fixtures"


async def test_a_store_written_by_the_release_before_the_seam_upgrades_with_a_backup(
    open_store: StoreFactory, tmp_path: Path, clock: Clock
) -> None:
    """tests/store/fixtures/v3 was written by that release's own code (commit 8e9819a), not rebuilt by ours."""
    data = tmp_path / "data"
    data.mkdir(mode=0o700)
    shutil.copy(FIXTURES / "v3" / "identities.db", data / "identities.db")
    (data / "identities.db").chmod(0o600)
    tokens = dict(line.split() for line in (FIXTURES / "v3" / "tokens.txt").read_text().splitlines())
    clock.now = 1_800_000_000.0  # when the fixture was written

    store = await open_store()
    assert store.engine.domain == DOMAIN and store.engine.store_id  # bound at its first start here
    alice = (await store.tokens.authenticate(tokens["alice"])).identity
    bob = (await store.tokens.authenticate(tokens["bob"])).identity
    assert alice is not None and alice.label == "old alice" and alice.fence is None
    assert bob is not None and bob.fence == ("gen-7", "0000000042") and bob.expires_ts is not None
    assert (await store.tokens.authenticate(tokens["provisioner"])).kind == "provisioner"
    assert (await store.tokens.authenticate("am_old-admin-token-0123456789")).kind == "admin"
    assert await store.quarantine.until("gone") == clock.now + 3600
    principal = await store.sessions.get("session-hash-1", max_age=1e9, idle=1e9)
    assert principal is not None and principal.identity == alice
    path = data / "identities.db"
    assert sorted(_rows(path, "SELECT identity_id, message_key, seen, deleted FROM marks")) == [
        (alice.id, "key-A", 1, 0),
        (alice.id, "key-B", 0, 1),
        (bob.id, "key-A", 1, 0),
    ]
    indexes = _rows(
        path, "SELECT name FROM sqlite_master WHERE type = 'index' AND tbl_name = 'marks' AND sql IS NOT NULL"
    )
    # Version 3's marks_by_message is not kept as a duplicate of marks_by_key.
    assert sorted(indexes) == [("marks_by_key",), ("marks_by_retirement",)]
    assert _rows(path, "SELECT tbl_name FROM sqlite_master WHERE name = 'identities_name_guard'") == [("identities",)]
    assert await store.claims.take(alice, "key-A", ttl=60)
    assert await store.limits.acquire("k", limit=1, window=60) is None
    backup = path.with_name("identities.db.v3.bak")
    assert stat.S_IMODE(backup.stat().st_mode) == 0o600
    assert _rows(backup, "SELECT value FROM meta WHERE key = 'schema_version'") == [("3",)]
    assert _rows(backup, "SELECT count(*) FROM marks") == [(3,)]
    await store.engine.close()
    again = await open_store()  # upgraded once: the backup is not rewritten, nothing changes
    assert (await again.tokens.authenticate(tokens["alice"])).identity == alice


def test_an_index_that_cannot_be_opened_stops_start_up_clearly(tmp_path: Path) -> None:
    data = tmp_path / "data"
    (data / "index.db").mkdir(parents=True)  # a directory where the cache file should be
    with pytest.raises(StoreError, match="message index"):
        _open(data)
    assert (data / "index.db").is_dir()  # left as it was


# --- damage the start-up check must see, and what a damaged index may never allow -------


def _uncheck(monkeypatch: pytest.MonkeyPatch) -> None:
    """As if the damage happened after the start-up check (a running gateway's disk)."""
    monkeypatch.setattr("gateway.store.sqlite.schema.integrity_problems", lambda conn: [], raising=False)


@pytest.mark.parametrize("btree", ["identities", "sqlite_autoindex_identities_1", "identities_name_guard"])
async def test_one_flipped_byte_in_a_name_stops_start_up(open_store: StoreFactory, tmp_path: Path, btree: str) -> None:
    """quick_check passes these (it never compares an index with its table); the full check does not."""
    path = tmp_path / "data" / "identities.db"
    store = await open_store()
    await store.identities.create("alice")
    await store.identities.create("bobby")
    await store.engine.close()
    flip_in_btree(path, btree, b"alice")
    assert _rows(path, "PRAGMA quick_check") == [("ok",)]
    before = path.read_bytes()
    with pytest.raises(StoreError, match="integrity check") as caught:
        await open_store()
    assert "refusing to start" in caught.value.detail and "missing from index" in caught.value.detail
    assert path.read_bytes() == before


@pytest.mark.parametrize("btree", ["sqlite_autoindex_identities_1", "identities_name_guard"])
async def test_a_name_one_unique_index_lost_still_has_its_owner(
    open_store: StoreFactory, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, btree: str
) -> None:
    """Damage after the start-up check: two independent b-trees hold every name, so one damaged page cannot free it."""
    path = tmp_path / "data" / "identities.db"
    store = await open_store()
    alice, token = await store.identities.create("alice")
    await store.identities.create("bobby")
    await store.engine.close()
    flip_in_btree(path, btree, b"alice")
    _uncheck(monkeypatch)

    store = await open_store()
    with pytest.raises(Conflict, match="taken"):
        await store.identities.create("alice")
    with pytest.raises(Conflict):
        await store.identities.create("alice", force=True)
    assert (await store.tokens.authenticate(token)).identity == alice
    await store.engine.close()
    assert _rows(path, "SELECT count(*) FROM identities NOT INDEXED WHERE local_part = 'alice'") == [(1,)]
