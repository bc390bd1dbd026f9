"""The PostgreSQL engine's own rules: fail closed at start, and several gateways (pools) on one database."""

from __future__ import annotations

import asyncio
from typing import Any

import psycopg
import pytest

from gateway.errors import Conflict, StoreError, StoreUnavailable
from gateway.store import CopyRecord, Delivery, Filters, OutboxEntry, Store, Webhook
from gateway.store.postgres import SCHEMA_VERSION, open_postgres
from gateway.store.postgres.database import scrub
from gateway.store.postgres.schema import INDEX_VERSION, TABLES
from tests.mailstack import free_port
from tests.postgres import PostgresCluster
from tests.store.conftest import DOMAIN, Clock

PASSWORD = "hunter2-not-for-logs"  # must never appear in a message


def _open(dsn: str, clock: Clock | None = None, **kw: Any) -> Store:
    return open_postgres(dsn, domain=DOMAIN, clock=clock or Clock(), **kw)


async def _rows(dsn: str, query: str) -> list[tuple[Any, ...]]:
    async with await psycopg.AsyncConnection.connect(dsn) as conn:
        cur = await conn.execute(query)  # type: ignore[arg-type]
        return await cur.fetchall()


async def _run(dsn: str, *statements: str) -> None:
    async with await psycopg.AsyncConnection.connect(dsn) as conn:
        for statement in statements:
            await conn.execute(statement)  # type: ignore[arg-type]


async def _tables(dsn: str) -> set[str]:
    return {r[0] for r in await _rows(dsn, "SELECT tablename FROM pg_tables WHERE schemaname = 'public'")}


async def _snapshot(dsn: str) -> dict[str, list[tuple[Any, ...]]]:
    """Every row of every table: to show a refused database was left as it was."""
    return {t: sorted(await _rows(dsn, f"SELECT * FROM {t}"), key=repr) for t in sorted(await _tables(dsn))}


@pytest.fixture
async def started() -> Any:
    """Starts stores and closes every one of them at the end."""
    opened: list[Store] = []

    async def start(*stores: Store) -> None:
        opened.extend(stores)
        await asyncio.gather(*(s.engine.start() for s in stores))

    yield start
    for store in opened:
        await store.engine.close()


# --- failing closed at start ------------------------------------------------------------


@pytest.mark.parametrize(
    "template",
    [
        "postgresql://agent:{password}@127.0.0.1:{port}/store",
        "host=127.0.0.1 port={port} user=agent password={password} dbname=store",
    ],
)
async def test_an_unreachable_database_fails_at_start_without_showing_the_password(template: str) -> None:
    dsn = template.format(password=PASSWORD, port=free_port())  # nothing listens there
    store = _open(dsn, connect_timeout=2)
    with pytest.raises(StoreError, match="cannot connect") as caught:
        await store.engine.start()
    assert PASSWORD not in str(caught.value) and "agent@127.0.0.1" in str(caught.value)
    assert caught.value.__suppress_context__  # the library's exception is not chained into logs
    assert not await store.engine.ping()
    await store.engine.close()  # closing a store that never started is harmless


async def test_a_malformed_url_fails_at_start_without_showing_the_password() -> None:
    store = _open(f"host=127.0.0.1 password={PASSWORD} port")
    with pytest.raises(StoreError, match="not a valid PostgreSQL URL") as caught:
        await store.engine.start()
    assert PASSWORD not in str(caught.value)


def test_scrub_masks_every_form_of_password() -> None:
    text = f"failed for postgresql://u:{PASSWORD}@h/db and password={PASSWORD} and {PASSWORD}"
    assert PASSWORD not in scrub(text, f"postgresql://u:{PASSWORD}@h/db")
    assert scrub("postgresql://u:x@h/db password='a b'", "") == "postgresql://u:***@h/db password=***"


async def test_calls_before_start_or_after_close_are_store_errors(postgres_dsn: str, started: Any) -> None:
    store = _open(postgres_dsn)
    with pytest.raises(StoreError, match="not started"):
        await store.identities.find(f"a@{DOMAIN}")
    await started(store)
    await store.engine.close()
    with pytest.raises(StoreError, match="not started"):
        await store.identities.create("a")


@pytest.mark.parametrize(
    "statements",
    [
        ["CREATE TABLE other (x int)"],
        ["CREATE TABLE meta (id int)"],  # a meta table, but not our shape
        ["CREATE TABLE meta (key text, value text)", "INSERT INTO meta VALUES ('schema_version', '1')"],
    ],
    ids=["other-table", "other-meta", "meta-not-ours"],
)
async def test_a_foreign_database_fails_closed_and_is_left_as_it_was(postgres_dsn: str, statements: list[str]) -> None:
    await _run(postgres_dsn, *statements)
    before = await _snapshot(postgres_dsn)
    store = _open(postgres_dsn)
    with pytest.raises(StoreError, match="not an agentmail-gateway store"):
        await store.engine.start()
    assert await _snapshot(postgres_dsn) == before


async def test_a_newer_schema_is_refused_untouched(postgres_dsn: str, started: Any) -> None:
    store = _open(postgres_dsn)
    await started(store)
    await store.identities.create("alice")
    await store.engine.close()
    await _run(postgres_dsn, f"UPDATE meta SET value = '{SCHEMA_VERSION + 1}' WHERE key = 'schema_version'")
    before = await _snapshot(postgres_dsn)
    with pytest.raises(StoreError, match="newer gateway"):
        await _open(postgres_dsn).engine.start()
    assert await _snapshot(postgres_dsn) == before


async def test_an_incomplete_schema_is_refused(postgres_dsn: str, started: Any) -> None:
    store = _open(postgres_dsn)
    await started(store)
    await store.engine.close()
    await _run(postgres_dsn, "DROP TABLE claims")
    with pytest.raises(StoreError, match="lacks the tables claims"):
        await _open(postgres_dsn).engine.start()


async def test_an_incomplete_index_is_made_again(postgres_dsn: str, started: Any) -> None:
    store = _open(postgres_dsn)
    await started(store)
    await store.index.set_meta("source_generation", "g")
    await store.engine.close()
    await _run(postgres_dsn, "DROP TABLE threads")  # a cache: never a reason to refuse
    again = _open(postgres_dsn)
    await started(again)
    assert await again.index.get_meta("source_generation") is None
    assert "threads" in await _tables(postgres_dsn)


async def test_index_tables_of_another_version_are_made_again_empty_and_the_rest_kept(
    postgres_dsn: str, started: Any
) -> None:
    store = _open(postgres_dsn)
    await started(store)
    identity, _ = await store.identities.create("alice")
    await store.index.add([CopyRecord("m1", 1.0, 1, "x@y.test", (), "s", "k1", frozenset({identity.address}))])
    await store.index.set_meta("source_generation", "g")
    await store.engine.close()
    # The index as the previous release made it (no seq, no version of its own): a cache.
    await _run(
        postgres_dsn,
        "DELETE FROM index_meta WHERE key = 'schema_version'",
        "ALTER TABLE grants DROP COLUMN seq",
    )
    again = _open(postgres_dsn)
    await started(again)
    assert await again.index.count() == 0 and await again.index.get_meta("source_generation") is None
    assert await _rows(postgres_dsn, "SELECT value FROM index_meta WHERE key = 'schema_version'") == [
        (str(INDEX_VERSION),)
    ]
    assert await again.identities.find(identity.address) is not None  # durable tables untouched
    await again.index.add([CopyRecord("m1", 1.0, 1, "x@y.test", (), "s", "k1", frozenset({identity.address}))])
    assert [s.id for s in await again.index.listing(identity, Filters(0), limit=5)] == ["m1"]


async def test_a_database_lost_while_running_is_store_unavailable(
    postgres_cluster: PostgresCluster, postgres_dsn: str, started: Any
) -> None:
    store = _open(postgres_dsn)
    await started(store)
    assert await store.engine.ping()
    postgres_cluster.drop_database(postgres_dsn.rsplit("/", 1)[1])  # ends every session on it
    with pytest.raises(StoreUnavailable) as caught:
        await store.identities.find(f"a@{DOMAIN}")
    assert postgres_dsn not in caught.value.detail
    assert not await store.engine.ping()


# --- several gateways on one database ---------------------------------------------------


async def test_gateways_starting_at_once_on_an_empty_database_create_it_once(postgres_dsn: str, started: Any) -> None:
    stores = [_open(postgres_dsn) for _ in range(4)]
    await started(*stores)
    assert await _tables(postgres_dsn) == TABLES
    meta = dict(await _rows(postgres_dsn, "SELECT key, value FROM meta"))
    assert {s.engine.store_id for s in stores} == {meta.pop("store_id")}  # one store, made once
    assert meta == {"application": "agentmail-gateway", "domain": DOMAIN, "schema_version": str(SCHEMA_VERSION)}
    assert all([await s.engine.ping() for s in stores])


async def test_one_claim_taken_by_two_gateways_at_once_is_won_once(postgres_dsn: str, started: Any) -> None:
    clock = Clock()
    first, second = _open(postgres_dsn, clock), _open(postgres_dsn, clock)
    await started(first, second)
    identity, _ = await first.identities.create("waiter")
    for _ in range(2):  # a fresh claim, then the takeover of the lapsed one
        results = await asyncio.gather(
            *(s.claims.take(identity, "k", ttl=60) for _ in range(5) for s in (first, second))
        )
        assert results.count(True) == 1
        clock.now += 60


async def test_one_name_created_by_two_gateways_at_once_is_won_once(postgres_dsn: str, started: Any) -> None:
    first, second = _open(postgres_dsn), _open(postgres_dsn)
    await started(first, second)
    results = await asyncio.gather(
        *(s.identities.create("race") for _ in range(4) for s in (first, second)), return_exceptions=True
    )
    winners = [r for r in results if not isinstance(r, BaseException)]
    assert len(winners) == 1
    assert all(isinstance(r, Conflict) for r in results if isinstance(r, BaseException))
    identity, token = winners[0]
    assert (await second.tokens.authenticate(token)).identity == identity
    # Ids come from the database, never from one process's count.
    other, _ = await second.identities.create("other")
    assert other.id != identity.id


async def test_replicas_setting_the_admin_token_at_once_both_succeed(postgres_dsn: str, started: Any) -> None:
    stores = [_open(postgres_dsn) for _ in range(3)]
    await started(*stores)
    token = "am_admin-secret-for-the-test-only"
    await asyncio.gather(*(s.tokens.set_admin(token, origin="configured") for s in stores))
    assert (await stores[0].tokens.authenticate(token)).kind == "admin"


@pytest.fixture
def icu_dsn(postgres_cluster: PostgresCluster) -> Any:
    """A fresh database whose default collation is ICU's English (not byte order, unlike the cluster's C)."""
    name = "test_icu_collation"
    postgres_cluster.drop_database(name)
    with psycopg.connect(postgres_cluster.dsn(), autocommit=True) as conn:
        conn.execute(
            f"CREATE DATABASE {name} TEMPLATE template0 LOCALE_PROVIDER icu ICU_LOCALE 'en-US' LOCALE 'C'"  # type: ignore[arg-type]
        )
    try:
        yield postgres_cluster.dsn(name)
    finally:
        postgres_cluster.drop_database(name)


async def test_copy_ids_sort_bytewise_as_in_sqlite(icu_dsn: str, started: Any) -> None:
    rows = await _rows(icu_dsn, "SELECT x FROM (VALUES ('a'), ('B')) v (x) ORDER BY x")
    assert rows == [("a",), ("B",)]  # the database's own order is not byte order...
    store = _open(icu_dsn)
    await started(store)
    identity, _ = await store.identities.create("a")
    # Upper case before lower, digits before letters, "_" between: byte order, not a locale's.
    names = ["b", "B", "_x", "0000000042", "a", "Z", "a-b", "ab"]
    grant = frozenset({identity.address})
    await store.index.add([CopyRecord(n, 7.0, 1, "x@y.test", (), "s", f"k-{n}", grant) for n in names])
    # Listings follow the order of indexing; ids still compare bytewise where they are compared
    # (an identity's fence).
    listing = await store.index.listing(identity, Filters(0), limit=20)
    assert [s.id for s in listing] == list(reversed(names))
    cursor = await store.index.cursor_of(identity.address, "B")
    after = await store.index.listing(identity, Filters(0), limit=20, after=cursor)
    assert [s.id for s in after] == names[names.index("B") + 1 :]
    fenced = await store.index.listing(identity, Filters(0, min_id="a"), limit=20)
    assert [s.id for s in fenced] == ["ab", "a-b", "a", "b"]


async def test_filters_match_wildcards_literally_and_survive_nul(postgres_dsn: str, started: Any) -> None:
    store = _open(postgres_dsn)
    await started(store)
    identity, _ = await store.identities.create("a")
    grant = frozenset({identity.address})
    await store.index.add(
        [
            CopyRecord("m1", 1.0, 1, "x@y.test", (), "100% off_now", "k1", grant),
            CopyRecord("m2", 2.0, 1, "x@y.test", (), "1000 offers", "k2", grant),
            CopyRecord("m3", 3.0, 1, "bad\x00sender@y.test", ("a\x00b",), "nul\x00", "k3", grant),
        ]
    )
    assert [s.id for s in await store.index.listing(identity, Filters(0, subject="0% o"), limit=9)] == ["m1"]
    assert [s.id for s in await store.index.listing(identity, Filters(0, subject="_"), limit=9)] == ["m1"]
    (nul,) = await store.index.listing(identity, Filters(0, sender="bad"), limit=9)
    assert nul.from_header == "bad\ufffdsender@y.test" and nul.to == ("a\x00b",)


async def test_a_version_1_store_upgrades_to_send_scopes_and_an_outbox(postgres_dsn: str, started: Any) -> None:
    store = _open(postgres_dsn)
    await started(store)
    alice, token = await store.identities.create("alice", send_scope="any")
    _, secret = await store.tokens.create_provisioner("ci", send="any")
    await store.engine.close()
    # The schema as version 1 made it.
    await _run(postgres_dsn, *_TO_VERSION_2)
    await _run(
        postgres_dsn,
        "DROP TABLE deliveries",
        "DROP TABLE outbox",
        "ALTER TABLE identities DROP COLUMN send_scope",
        "ALTER TABLE tokens DROP COLUMN send",
        "UPDATE meta SET value = '1' WHERE key = 'schema_version'",
    )
    again = _open(postgres_dsn)
    await started(again)
    assert await _rows(postgres_dsn, "SELECT value FROM meta WHERE key = 'schema_version'") == [(str(SCHEMA_VERSION),)]
    upgraded = (await again.tokens.authenticate(token)).identity
    assert upgraded is not None and upgraded.id == alice.id and upgraded.send_scope == "local"
    assert (await again.tokens.authenticate(secret)).send == "local"
    assert await again.outbox.pending() == 0
    assert await _tables(postgres_dsn) == TABLES


_TO_VERSION_2 = (
    "DROP TABLE webhook_attempts",
    "DROP TABLE webhook_deliveries",
    "DROP TABLE webhooks",
    "UPDATE meta SET value = '2' WHERE key = 'schema_version'",
)
"""The schema as version 2 made it: no webhooks."""


async def test_a_version_2_store_upgrades_to_webhooks(postgres_dsn: str, started: Any) -> None:
    clock = Clock()
    store = _open(postgres_dsn, clock)
    await started(store)
    alice, token = await store.identities.create("alice", send_scope="any")
    provisioner, _ = await store.tokens.create_provisioner("ci", send="any")
    await store.outbox.put(
        OutboxEntry("e1", alice.id, alice.address, "k", "<1@d.test>", b"raw", b"copy", (), ("x@far.test",), 1.0)
    )
    await store.engine.close()
    await _run(postgres_dsn, *_TO_VERSION_2)
    assert not {"webhooks", "webhook_deliveries", "webhook_attempts"} & await _tables(postgres_dsn)

    again = _open(postgres_dsn, clock)
    await started(again)
    assert await _rows(postgres_dsn, "SELECT value FROM meta WHERE key = 'schema_version'") == [(str(SCHEMA_VERSION),)]
    assert await _tables(postgres_dsn) == TABLES
    assert (await again.tokens.authenticate(token)).identity == alice
    assert await again.outbox.pending() == 1
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
    await again.webhooks.create(hook)
    await again.webhooks.enqueue([Delivery("msg_1", "wh_1", alice.address, "message.received", b"{}", clock.now)])
    assert [d.id for d in await again.webhooks.claim(now=clock.now, lease=60, limit=9, per_webhook=9)] == ["msg_1"]
    await again.tokens.delete_provisioner(provisioner.id)  # the upgraded schema cascades too
    assert await again.webhooks.get("wh_1") is None and await again.webhooks.pending() == 0
    await again.engine.close()
    third = _open(postgres_dsn, clock)  # upgraded once
    await started(third)
    assert await third.outbox.pending() == 1
