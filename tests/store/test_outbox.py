"""Contract: the outbox of accepted sends and their delivery rows, on every engine."""

from __future__ import annotations

import asyncio
import dataclasses

import pytest

from gateway.errors import NotFound
from gateway.store import DeliveryState, Identity, OutboxEntry, Store
from tests.store.conftest import DOMAIN, Clock, StoreFactory

LEASE = 60.0


@pytest.fixture
async def sender(store: Store) -> Identity:
    identity, _ = await store.identities.create("a")
    return identity


def entry(
    sender: Identity, entry_id: str, *, at: float, local: tuple[str, ...] = (), remote: tuple[str, ...] = ()
) -> OutboxEntry:
    return OutboxEntry(
        id=entry_id,
        identity_id=sender.id,
        sender=sender.address,
        message_key=f"key-{entry_id}",
        message_id=f"<{entry_id}@{DOMAIN}>",
        raw=b"raw " + entry_id.encode() + b"\x00\xff",  # bytes, not text
        sent_copy=b"copy " + entry_id.encode(),
        local=local,
        remote=remote,
        created_ts=at,
    )


async def test_put_then_claim_gives_the_entry_back_whole(store: Store, sender: Identity, clock: Clock) -> None:
    sent = entry(sender, "e1", at=clock.now, local=(f"b@{DOMAIN}",), remote=("x@far.test", "y@far.test"))
    await store.outbox.put(sent)
    assert await store.outbox.pending() == 1
    assert await store.outbox.claim(now=clock.now, lease=LEASE, limit=10) == [sent]
    states = await store.outbox.deliveries(sender.id, "key-e1")
    assert [(d.address, d.status, d.attempts) for d in states] == [
        (f"b@{DOMAIN}", "pending", 0),
        ("x@far.test", "queued", 0),
        ("y@far.test", "queued", 0),
    ]
    assert await store.outbox.deliveries(sender.id, "other-key") == []
    assert await store.outbox.deliveries(sender.id + 1, "key-e1") == []


async def test_a_claim_holds_until_recorded_or_its_lease_runs_out(store: Store, sender: Identity, clock: Clock) -> None:
    await store.outbox.put(entry(sender, "e1", at=clock.now, local=(f"b@{DOMAIN}",)))
    assert [e.id for e in await store.outbox.claim(now=clock.now, lease=LEASE, limit=10)] == ["e1"]
    assert await store.outbox.claim(now=clock.now + LEASE - 1, lease=LEASE, limit=10) == []  # a live lease
    again = await store.outbox.claim(now=clock.now + LEASE, lease=LEASE, limit=10)  # the claimer died
    assert [e.id for e in again] == ["e1"]
    await store.outbox.record("e1", local_done=True)  # releases the claim; the copy is still to do
    (left,) = await store.outbox.claim(now=clock.now + LEASE, lease=LEASE, limit=10)
    assert left.local_done and not left.copy_done


async def test_put_with_a_lease_keeps_workers_off_until_it_runs_out(
    store: Store, sender: Identity, clock: Clock
) -> None:
    await store.outbox.put(entry(sender, "e1", at=clock.now, local=(f"b@{DOMAIN}",)), lease=30)
    assert await store.outbox.claim(now=clock.now, lease=LEASE, limit=10) == []
    assert [e.id for e in await store.outbox.claim(now=clock.now + 30, lease=LEASE, limit=10)] == ["e1"]


async def test_claims_come_oldest_first_up_to_the_limit(store: Store, sender: Identity, clock: Clock) -> None:
    for name, at in (("e2", 2.0), ("e3", 3.0), ("e1", 1.0)):
        await store.outbox.put(entry(sender, name, at=clock.now + at, local=(f"b@{DOMAIN}",)))
    now = clock.now + 10
    assert [e.id for e in await store.outbox.claim(now=now, lease=LEASE, limit=2)] == ["e1", "e2"]
    assert [e.id for e in await store.outbox.claim(now=now, lease=LEASE, limit=2)] == ["e3"]


async def test_the_relay_step_is_due_at_next_ts_and_the_entry_finishes_when_nothing_is_queued(
    store: Store, sender: Identity, clock: Clock
) -> None:
    now = clock.now
    await store.outbox.put(entry(sender, "e1", at=now, local=(f"b@{DOMAIN}",), remote=("x@far.test", "y@far.test")))
    await store.outbox.record(
        "e1",
        local_done=True,
        copy_done=True,
        results=[DeliveryState(f"b@{DOMAIN}", "delivered", None, 1, now)],
    )
    # Remote recipients still queued: due at once (next_ts 0).
    (claimed,) = await store.outbox.claim(now=now, lease=LEASE, limit=10)
    assert claimed.local_done and claimed.copy_done and claimed.raw.startswith(b"raw e1")
    await store.outbox.record(
        "e1",
        results=[
            DeliveryState("x@far.test", "relayed", "250 ok", 1, now + 1),
            DeliveryState("y@far.test", "queued", "451 try later", 1, now + 1),
        ],
        attempts=1,
        next_ts=now + 300,
    )
    assert await store.outbox.claim(now=now + 299, lease=LEASE, limit=10) == []  # not due yet
    (retry,) = await store.outbox.claim(now=now + 300, lease=LEASE, limit=10)
    assert (retry.attempts, retry.next_ts) == (1, now + 300)
    assert await store.outbox.pending() == 1
    await store.outbox.record("e1", results=[DeliveryState("y@far.test", "failed", "550 no such user", 2, now + 301)])
    assert await store.outbox.pending() == 0
    assert await store.outbox.claim(now=now + 10_000, lease=LEASE, limit=10) == []
    states = await store.outbox.deliveries(sender.id, "key-e1")  # the rows stay after the entry finished
    assert [(d.address, d.status, d.detail, d.attempts, d.updated_ts) for d in states] == [
        (f"b@{DOMAIN}", "delivered", None, 1, now),
        ("x@far.test", "relayed", "250 ok", 1, now + 1),
        ("y@far.test", "failed", "550 no such user", 2, now + 301),
    ]


async def test_a_finished_entry_drops_its_bytes(store: Store, sender: Identity, clock: Clock) -> None:
    await store.outbox.put(entry(sender, "e1", at=clock.now, local=(f"b@{DOMAIN}",)))
    await store.outbox.put(entry(sender, "e2", at=clock.now, local=(f"b@{DOMAIN}",)))
    await store.outbox.record("e1", local_done=True, copy_done=True)
    await store.outbox.record("e2", local_done=True)
    raw = await _raw_bytes(store)
    assert raw == {"e1": (None, None), "e2": (b"raw e2\x00\xff", b"copy e2")}


async def _raw_bytes(store: Store) -> dict[str, tuple[bytes | None, bytes | None]]:
    """The stored bytes of every entry, read past the Protocol (the contract says they are dropped)."""
    query = "SELECT id, raw, sent_copy FROM outbox"
    if store.engine.kind == "sqlite":
        rows = await store.engine.db.run(lambda c: c.execute(query).fetchall())  # type: ignore[attr-defined]
    else:
        rows = await store.engine.db.fetchall(query)  # type: ignore[attr-defined]
    return {str(i): (None if r is None else bytes(r), None if s is None else bytes(s)) for i, r, s in rows}


async def test_putting_one_id_twice_changes_nothing(store: Store, sender: Identity, clock: Clock) -> None:
    first = entry(sender, "e1", at=clock.now, local=(f"b@{DOMAIN}",))
    await store.outbox.put(first)
    await store.outbox.put(dataclasses.replace(first, raw=b"other", remote=("x@far.test",)))
    assert await store.outbox.claim(now=clock.now, lease=LEASE, limit=10) == [first]
    assert [d.address for d in await store.outbox.deliveries(sender.id, "key-e1")] == [f"b@{DOMAIN}"]


async def test_recording_an_unknown_entry_is_not_found(store: Store) -> None:
    with pytest.raises(NotFound):
        await store.outbox.record("nope", local_done=True)


async def test_many_claimers_at_once_never_get_one_entry_twice(
    open_store: StoreFactory, store: Store, sender: Identity, clock: Clock
) -> None:
    for i in range(30):
        await store.outbox.put(entry(sender, f"e{i:02d}", at=clock.now + i, remote=("x@far.test",)))
    # A second store on the same files or database: another process's claims, on PostgreSQL
    # another gateway's connections.
    other = await open_store() if store.engine.kind == "postgresql" else store
    claims = await asyncio.gather(
        *(s.outbox.claim(now=clock.now + 100, lease=LEASE, limit=4) for s in [store, other] * 6)
    )
    got = [e.id for batch in claims for e in batch]
    assert len(got) == len(set(got)) == 30


async def test_a_deleted_identitys_sends_still_finish_and_then_go(store: Store, sender: Identity, clock: Clock) -> None:
    await store.outbox.put(entry(sender, "done", at=clock.now, local=(f"b@{DOMAIN}",)))
    await store.outbox.record("done", local_done=True, copy_done=True)
    await store.outbox.put(entry(sender, "open", at=clock.now, remote=("x@far.test",)))
    await store.identities.delete(sender)
    assert await store.outbox.deliveries(sender.id, "key-done") == []  # went with the identity
    (left,) = await store.outbox.claim(now=clock.now, lease=LEASE, limit=10)  # accepted mail still goes out
    assert left.id == "open"
    await store.outbox.record(
        "open", local_done=True, copy_done=True, results=[DeliveryState("x@far.test", "relayed", None, 1, clock.now)]
    )
    assert await store.outbox.pending() == 0
    assert await store.outbox.deliveries(sender.id, "key-open") == []
    assert await _raw_bytes(store) == {}
