"""`agentmail-gateway store copy` (gateway/store/copy.py): a SQLite store moved into an empty PostgreSQL database.

The source is built with the store's own calls (identities, a rotation, a deletion, tokens,
marks, a claim, a rate event, a /ui session, webhooks with queued and finished deliveries, an
outbox entry); the copy runs against the real throwaway cluster; what the PostgreSQL store then
answers through the same calls is compared with what the SQLite store answered. Tampering in
the target's transaction and by hand after a copy is caught by the checksums.
"""

from __future__ import annotations

import contextlib
import dataclasses
import sqlite3
import subprocess
import sys
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import psycopg
import pytest

from gateway.cli import main
from gateway.errors import Conflict, StoreError, Unauthorized
from gateway.store import Attempt, Delivery, Identity, OutboxEntry, Store, Webhook
from gateway.store.copy import NOT_COPIED, TABLES, copy_store, verify_copy
from gateway.store.postgres import open_postgres
from gateway.store.postgres.schema import INDEX_TABLES
from gateway.store.postgres.schema import TABLES as POSTGRES_TABLES
from gateway.store.sqlite import open_sqlite
from tests.conftest import ADMIN_TOKEN, make_message
from tests.serve import ServeProcess, wait_until
from tests.store.conftest import DOMAIN, QUARANTINE, Clock

PASSWORD = "s3cret-pw"
LEASE = 60.0
SETTLE = 20.0
"""Seconds for a delivered mail to be listed on a loaded machine."""
TABLE_NAMES = [table.name for table in TABLES]


@dataclasses.dataclass(frozen=True)
class Source:
    """A SQLite store made by the store's own calls, and what it answered."""

    data_dir: Path
    store_id: str
    alice: Identity
    alice_token: str
    bob_old_token: str
    bob_token: str
    provisioner_token: str
    provisioner_id: str
    dave: Identity
    carol_id: int
    carol_until: float
    answers: dict[str, Any]
    """What the SQLite store answered to the calls `answers()` makes; the copy must answer the same."""

    @property
    def durable(self) -> Path:
        return self.data_dir / "identities.db"


def options(clock: Clock) -> dict[str, Any]:
    return {"domain": DOMAIN, "reserved": frozenset({"catchall"}), "quarantine_seconds": QUARANTINE, "clock": clock}


async def answers(store: Store, source_ids: dict[str, Any]) -> dict[str, Any]:
    """What a store says about the source's contents, through its own calls."""
    alice = await store.identities.get(f"alice@{DOMAIN}")
    return {
        "identities": await store.identities.list(limit=1000),
        "provisioners": await store.tokens.list_provisioners(),
        "made by the provisioner": await store.identities.list(created_by=source_ids["provisioner_id"]),
        "webhooks": await store.webhooks.listing(),
        "deliveries": await store.webhooks.deliveries("wh_alice", limit=100),
        "attempts": await store.webhooks.attempts("msg_1", limit=100),
        "pending webhooks": await store.webhooks.pending(),
        "outbox": await store.outbox.deliveries(alice.id, "key-sent"),
        "pending sends": await store.outbox.pending(),
        "deleted": await store.marks.is_deleted(alice, "key-2"),
        "quarantine": await store.quarantine.until("carol"),
        "session": await store.sessions.get("session-hash", max_age=1e9, idle=1e9),
    }


@pytest.fixture
async def source(tmp_path: Path, clock: Clock) -> Source:
    data_dir = tmp_path / "data"
    store = open_sqlite(data_dir, **options(clock))
    try:
        await store.tokens.set_admin(ADMIN_TOKEN, origin="configured")
        alice, alice_token = await store.identities.create("alice", label="the first", ttl_seconds=86400.0)
        bob, bob_old_token = await store.identities.create("bob", send_scope="any")
        clock.now += 1.5
        bob_token = await store.tokens.rotate(bob)
        record, provisioner_token = await store.tokens.create_provisioner("ci", send="any")
        dave, _ = await store.identities.create("dave", created_by=record.id)
        carol, _ = await store.identities.create("carol")  # the highest id, then deleted
        await store.identities.delete(carol)
        carol_until = await store.quarantine.until("carol")
        assert carol_until is not None

        await store.marks.set_seen(alice, "key-1", True)
        await store.marks.set_deleted(alice, "key-2")
        await store.marks.set_seen(bob, "key-1", True)
        assert await store.claims.take(alice, "key-claimed", ttl=3600.0)
        assert await store.limits.acquire("login:203.0.113.9", limit=1, window=3600.0) is None
        await store.sessions.add("session-hash", alice_token, keep=8)

        await store.webhooks.create(
            Webhook("wh_alice", "identity", alice.id, None, "https://hooks.test/a", ("message.received",),
                    "alice's", "v1", "whsec_c2VjcmV0LXNlY3JldC1zZWNyZXQ=", None, clock.now)
        )  # fmt: skip
        await store.webhooks.create(
            Webhook("wh_ci", "provisioner", None, record.id, "https://hooks.test/ci", ("message.sent",),
                    None, "v1a", "whsk_private", "whpk_public", clock.now + 0.25)
        )  # fmt: skip
        payload = b'{"type":"message.received","x":"\\u00e9"}\x00\xff'  # bytes kept exactly
        await store.webhooks.enqueue(
            [
                Delivery(f"msg_{i}", "wh_alice", alice.address, "message.received", payload + bytes([i]), clock.now + i)
                for i in range(1, 4)
            ]
        )
        claimed = await store.webhooks.claim(now=clock.now + 10, lease=LEASE, limit=10, per_webhook=10)
        assert [d.id for d in claimed] == ["msg_1"]
        await store.webhooks.record(
            "msg_1", Attempt("msg_1", clock.now + 10, 12.5, 200, None, "ok"), status="delivered", next_ts=clock.now
        )
        await store.outbox.put(
            OutboxEntry("out_1", alice.id, alice.address, "key-sent", f"<s1@{DOMAIN}>", b"raw\x00\xff", b"copy",
                        (bob.address,), ("x@far.test",), clock.now)
        )  # fmt: skip
        await store.outbox.record("out_1", local_done=True, copy_done=True)
        store_id = store.engine.store_id
        assert store_id is not None
        said = await answers(store, {"provisioner_id": record.id})
    finally:
        await store.engine.close()
    return Source(
        data_dir, store_id, alice, alice_token, bob_old_token, bob_token, provisioner_token, record.id, dave,
        carol.id, carol_until, said,
    )  # fmt: skip


@contextlib.asynccontextmanager
async def postgres_store(dsn: str, clock: Clock) -> AsyncIterator[Store]:
    store = open_postgres(dsn, **options(clock))
    await store.engine.start()
    try:
        yield store
    finally:
        await store.engine.close()


def public_tables(dsn: str) -> list[str]:
    with psycopg.connect(dsn) as conn:
        return [r[0] for r in conn.execute("SELECT tablename FROM pg_tables WHERE schemaname = 'public'")]


def run_cli(argv: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, str, str]:
    code = main(argv)
    out, err = capsys.readouterr()
    return code, out, err


# -- what is copied ----------------------------------------------------------------------------


async def test_every_durable_table_is_copied_or_left_behind_on_purpose(tmp_path: Path, clock: Clock) -> None:
    store = open_sqlite(tmp_path / "data", **options(clock))
    await store.engine.close()
    with contextlib.closing(sqlite3.connect(tmp_path / "data" / "identities.db")) as conn:
        sqlite_tables = {r[0] for r in conn.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
    assert set(TABLE_NAMES) | NOT_COPIED.keys() == sqlite_tables
    assert set(TABLE_NAMES) == POSTGRES_TABLES - INDEX_TABLES  # and every durable PostgreSQL table is filled


def test_a_source_with_a_table_the_copy_does_not_know_is_refused_before_connecting(
    tmp_path: Path, clock: Clock
) -> None:
    store = open_sqlite(tmp_path / "data", **options(clock))
    store.engine.db.close()  # type: ignore[attr-defined]
    with contextlib.closing(sqlite3.connect(tmp_path / "data" / "identities.db")) as conn:
        conn.execute("CREATE TABLE later_feature (x)")
        conn.commit()
    with pytest.raises(StoreError, match="does not know \\(later_feature\\)"):
        copy_store(tmp_path / "data" / "identities.db", f"postgresql://u:{PASSWORD}@127.0.0.1:1/x")


# -- the copy ------------------------------------------------------------------------------------


async def test_a_copied_store_answers_on_postgresql_as_it_did_on_sqlite(
    source: Source, postgres_dsn: str, clock: Clock
) -> None:
    report = copy_store(source.durable, postgres_dsn, domain=DOMAIN)
    assert report.committed and report.matches, report.lines()
    assert [check.table for check in report.checks] == TABLE_NAMES
    rows = {check.table: check.source.rows for check in report.checks}
    assert rows["identities"] == 3 and rows["tokens"] == 5 and rows["webhook_deliveries"] == 3  # alice bob dave
    assert all(rows[name] > 0 for name in TABLE_NAMES), rows
    assert report.store_id == source.store_id and report.domain == DOMAIN
    assert report.next_ids["identities"] == source.carol_id  # the deleted highest id counts: never handed out again

    async with postgres_store(postgres_dsn, clock) as store:
        assert (store.engine.store_id, store.engine.domain) == (source.store_id, DOMAIN)
        assert await answers(store, {"provisioner_id": source.provisioner_id}) == source.answers
        # Every token works as before: the hashes moved, the plaintexts never existed there.
        alice = await store.tokens.authenticate(source.alice_token)
        assert alice.identity == source.alice
        assert (await store.tokens.authenticate(source.bob_token)).identity is not None
        with pytest.raises(Unauthorized):
            await store.tokens.authenticate(source.bob_old_token)  # rotated away before the copy
        provisioner = await store.tokens.authenticate(source.provisioner_token)
        assert (provisioner.kind, provisioner.token_id, provisioner.send) == (
            "provisioner",
            source.provisioner_id,
            "any",
        )
        assert (await store.tokens.authenticate(ADMIN_TOKEN)).kind == "admin"
        # The quarantine holds, the claim holds, the rate event counts.
        assert await store.quarantine.until("carol") == source.carol_until
        with pytest.raises(Conflict):
            await store.identities.create("carol")
        assert not await store.claims.take(source.alice, "key-claimed", ttl=60.0)
        assert await store.limits.retry_after("login:203.0.113.9", limit=1, window=3600.0) is not None
        # New rows continue after the copied ids.
        erin, _ = await store.identities.create("erin")
        assert erin.id > source.carol_id
        assert await store.webhooks.enqueue([Delivery("msg_9", "wh_alice", source.alice.address, "e", b"{}", 0.0)])
        assert [d.id for d in await store.webhooks.deliveries("wh_alice", limit=1)] == ["msg_9"]

    with psycopg.connect(postgres_dsn) as conn:
        marks = conn.execute("SELECT identity_id, message_key, seen, deleted FROM marks ORDER BY 1, 2").fetchall()
    bob_id = source.alice.id + 1
    assert marks == [(source.alice.id, "key-1", True, False), (source.alice.id, "key-2", False, True),
                     (bob_id, "key-1", True, False)]  # fmt: skip


def test_the_cli_copies_prints_the_table_and_refuses_a_second_time(
    source: Source, postgres_dsn: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:  # fmt: skip
    url_file = tmp_path / "database-url"
    url_file.write_text(postgres_dsn.replace("postgres@", f"postgres:{PASSWORD}@") + "\n")  # trust: any password
    base = ["store", "copy", "--data-dir", str(source.data_dir), "--env-file", "/nonexistent"]
    code, out, err = run_cli([*base, "--to-file", str(url_file)], capsys)
    assert code == 0, err
    lines = out.splitlines()
    assert lines[0].split() == ["table", "rows", "sha256", "(SQLite)", "match"]
    assert [line.split()[0] for line in lines[1 : len(TABLES) + 1]] == TABLE_NAMES
    assert all(line.split()[-1] == "yes" for line in lines[1 : len(TABLES) + 1])
    assert f"store {source.store_id}" in out and "AGENTMAIL_DATABASE_URL" in out
    assert PASSWORD not in out + err

    monkeypatch.setenv("AGENTMAIL_DATABASE_URL", postgres_dsn)  # the target from the environment, as `serve` reads it
    code, out, err = run_cli([*base, "--verify-only"], capsys)
    assert code == 0, err
    assert "every table matches" in out

    code, out, err = run_cli(base, capsys)  # again: the target holds a store now
    assert code == 2 and out == ""
    assert err.count("\n") == 1 and "already holds an agentmail-gateway store" in err, err
    assert source.store_id in err


@pytest.mark.parametrize(
    "url",
    [
        f"postgresql://postgres:{PASSWORD}@127.0.0.1:1/agentmail",  # nothing listens on port 1
        f"postgresql://postgres:{PASSWORD}@127.0.0.1/agentmail?no_such_option=1",  # libpq refuses to parse it
    ],
)
def test_a_bad_url_is_one_clean_line_without_the_password(
    source: Source, url: str, capsys: pytest.CaptureFixture[str]
) -> None:
    argv = ["store", "copy", "--data-dir", str(source.data_dir), "--env-file", "/nonexistent", "--to", url]
    code, out, err = run_cli(argv, capsys)
    assert code == 2 and out == ""
    assert err.count("\n") == 1 and ("cannot connect" in err or "not a valid PostgreSQL URL" in err), err
    assert PASSWORD not in err


def test_a_target_that_is_not_a_postgresql_url_or_not_named_or_a_foreign_domain_is_refused(
    source: Source, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    base = ["store", "copy", "--data-dir", str(source.data_dir), "--env-file", "/nonexistent"]
    code, _, err = run_cli([*base, "--to", f"mysql://root:{PASSWORD}@db/x"], capsys)
    assert code == 2 and "postgresql://" in err and PASSWORD not in err
    code, _, err = run_cli(base, capsys)
    assert code == 2 and "--to" in err and "AGENTMAIL_DATABASE_URL" in err
    # A domain given must be the store's own (checked before connecting anywhere).
    code, _, err = run_cli([*base, "--domain", "other.test", "--to", "postgresql://u@127.0.0.1:1/x"], capsys)
    assert code == 2 and f"belongs to the domain {DOMAIN}" in err, err


def test_a_row_changed_between_writing_and_reading_back_is_caught_and_nothing_is_committed(
    source: Source, postgres_dsn: str
) -> None:
    def tamper(conn: psycopg.Connection[Any]) -> None:
        conn.execute("UPDATE tokens SET hash = 'f' || substr(hash, 2) WHERE kind = 'provision'")

    report = copy_store(source.durable, postgres_dsn, before_verify=tamper)
    assert report.mismatched() == ["tokens"] and not report.committed
    assert next(c for c in report.checks if c.table == "tokens").source.rows == 5
    assert public_tables(postgres_dsn) == []  # one transaction: the target is as empty as it was
    assert copy_store(source.durable, postgres_dsn).matches  # and takes the copy afterwards


def test_a_store_written_to_during_the_copy_is_not_committed(source: Source, postgres_dsn: str) -> None:
    def gateway_still_running(conn: psycopg.Connection[Any]) -> None:
        with contextlib.closing(sqlite3.connect(source.durable)) as other:
            other.execute("INSERT INTO quarantine VALUES ('late', 1.0)")
            other.commit()

    with pytest.raises(StoreError, match="changed while it was copied: is the gateway still running"):
        copy_store(source.durable, postgres_dsn, before_verify=gateway_still_running)
    assert public_tables(postgres_dsn) == []


def test_verify_only_finds_a_target_changed_by_hand(
    source: Source, postgres_dsn: str, capsys: pytest.CaptureFixture[str]
) -> None:
    assert copy_store(source.durable, postgres_dsn).matches
    assert verify_copy(source.durable, postgres_dsn).matches
    with psycopg.connect(postgres_dsn) as conn:
        conn.execute("UPDATE quarantine SET until = until + 0.001")
        conn.execute("DELETE FROM ui_sessions")
    report = verify_copy(source.durable, postgres_dsn)
    assert report.mismatched() == ["quarantine", "ui_sessions"]
    argv = ["store", "copy", "--data-dir", str(source.data_dir), "--env-file", "/nonexistent", "--to", postgres_dsn]
    code, out, err = run_cli([*argv, "--verify-only"], capsys)
    assert code == 1
    shown = {line.split()[0]: line.split()[-1] for line in out.splitlines()[1 : len(TABLES) + 1]}
    assert shown["quarantine"] == "NO" and shown["ui_sessions"] == "NO" and shown["identities"] == "yes"
    assert "1→0" in out  # the session row count, source → target
    assert "quarantine, ui_sessions" in err


# -- a real gateway, before and after ------------------------------------------------------------


def test_a_gateway_moved_to_postgresql_serves_the_old_tokens_marks_and_mail(tmp_path: Path, postgres_dsn: str) -> None:
    data, alice = tmp_path / "data", "alice@agents.test"
    with ServeProcess(data, tmp_path / "logs", admin_token=ADMIN_TOKEN) as sqlite_gateway:
        with sqlite_gateway.client() as admin:
            made = admin.post("/v1/identities", json={"local_part": "alice"})
            assert made.status_code == 201, made.text
            token = made.json()["token"]
        with sqlite_gateway.smtp() as smtp:
            for subject in ("read", "unread"):
                smtp.send_message(make_message(to=alice, subject=subject), to_addrs=[alice])
        with sqlite_gateway.client(token) as client:
            wait_until(lambda: len(list(sqlite_gateway.listing(client, alice))) == 2, SETTLE, "both mails listed")
            read = next(m for m in sqlite_gateway.listing(client, alice) if m["subject"] == "read")
            assert client.get(f"/v1/identities/{alice}/messages/{read['id']}").status_code == 200  # now seen

    env = {**ServeProcess(data, tmp_path / "logs").env(), "AGENTMAIL_DATABASE_URL": postgres_dsn}
    argv = [sys.executable, "-m", "gateway", "store", "copy", "--data-dir", str(data)]
    argv += ["--env-file", str(tmp_path / "no-such.env")]
    copied = subprocess.run(argv, capture_output=True, text=True, env=env, timeout=120, check=False)
    assert copied.returncode == 0, copied.stdout + copied.stderr

    pg_env = {"AGENTMAIL_DATABASE_URL": postgres_dsn}
    with ServeProcess(data, tmp_path / "logs-pg", admin_token=ADMIN_TOKEN, env=pg_env) as pg_gateway:
        with pg_gateway.client(token) as client:
            # The index is rebuilt from the Maildir; the marks were copied.
            wait_until(lambda: len(list(pg_gateway.listing(client, alice))) == 2, SETTLE, "the rebuilt listing")
            seen = {m["subject"]: m["seen"] for m in pg_gateway.listing(client, alice)}
            assert seen == {"read": True, "unread": False}
        with pg_gateway.client() as admin:
            assert admin.post("/v1/identities", json={"local_part": "after"}).status_code == 201
    with psycopg.connect(postgres_dsn) as conn:
        assert conn.execute("SELECT count(*) FROM identities").fetchone() == (2,)
