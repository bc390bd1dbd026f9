"""Contract: webhooks, their outbox of deliveries and the attempt log, on every engine."""

from __future__ import annotations

import asyncio
import dataclasses
import itertools
from collections.abc import Sequence
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from gateway.errors import Conflict, InvalidInput, NotFound
from gateway.store import Attempt, Delivery, Identity, Store, Webhook
from tests.store.conftest import DOMAIN, Clock, StoreFactory

LEASE = 60.0
PAYLOAD = b'{"type":"message.received","x":"\\u00e9"}\x00\xff'  # bytes kept exactly, not text
ALICE = f"alice@{DOMAIN}"
BOB = f"bob@{DOMAIN}"


def hook(
    hook_id: str,
    *,
    at: float,
    scope: str = "admin",
    identity_id: int | None = None,
    token_id: str | None = None,
    **kw: Any,
) -> Webhook:
    fields: dict[str, Any] = {
        "url": f"https://receiver.test/{hook_id}",
        "events": ("message.received", "message.sent"),
        "description": f"the {hook_id} hook",
        "signing": "v1",
        "secret": f"whsec_{hook_id}",
        "public_key": None,
    }
    fields.update(kw)
    return Webhook(
        id=hook_id,
        scope=scope,
        identity_id=identity_id,
        token_id=token_id,
        created_ts=at,
        **fields,  # type: ignore[arg-type]
    )


def delivery(delivery_id: str, webhook_id: str, address: str = ALICE, *, at: float, **kw: Any) -> Delivery:
    return Delivery(
        id=delivery_id,
        webhook_id=webhook_id,
        address=address,
        event="message.received",
        payload=PAYLOAD + delivery_id.encode(),
        created_ts=at,
        **kw,
    )


def attempt(
    delivery_id: str, *, at: float, code: int | None = 200, error: str | None = None, head: str = ""
) -> Attempt:
    return Attempt(delivery_id, at, 12.5, code, error, head)


def ids(deliveries: Sequence[Delivery]) -> list[str]:
    return [d.id for d in deliveries]


async def claim(store: Store, now: float, *, limit: int = 10, per_webhook: int = 10) -> list[str]:
    return ids(await store.webhooks.claim(now=now, lease=LEASE, limit=limit, per_webhook=per_webhook))


async def deliver(store: Store, delivery_id: str, now: float) -> None:
    await store.webhooks.record(delivery_id, attempt(delivery_id, at=now), status="delivered", next_ts=now)


async def fail(store: Store, delivery_id: str, now: float, *, retry_at: float | None = None) -> None:
    """A failed call: queued again for `retry_at`, or failed for good without it."""
    await store.webhooks.record(
        delivery_id,
        attempt(delivery_id, at=now, code=503, error="HTTP 503", head="busy"),
        status="failed" if retry_at is None else "queued",
        next_ts=now if retry_at is None else retry_at,
    )


@pytest.fixture
async def alice(store: Store) -> Identity:
    identity, _ = await store.identities.create("alice")
    return identity


# --- webhooks -------------------------------------------------------------------------------


async def test_a_webhook_comes_back_as_stored_and_an_id_is_taken_once(store: Store, alice: Identity) -> None:
    mine = hook("wh_1", at=1.0, scope="identity", identity_id=alice.id)
    await store.webhooks.create(mine)
    assert await store.webhooks.get("wh_1") == mine
    assert await store.webhooks.get("wh_none") is None
    with pytest.raises(Conflict):
        await store.webhooks.create(dataclasses.replace(mine, url="https://other.test/"))
    assert await store.webhooks.get("wh_1") == mine
    v1a = hook(
        "wh_2",
        at=2.0,
        signing="v1a",
        secret="whsk_x",
        public_key="whpk_x",
        previous_secret="whsk_old",
        previous_until=9.0,
        disabled_ts=5.0,
        disabled_reason="off",
        failing_since=4.0,
        description=None,
    )
    await store.webhooks.create(v1a)
    assert await store.webhooks.get("wh_2") == v1a


async def test_a_webhook_must_name_exactly_the_owner_its_scope_has(store: Store, alice: Identity) -> None:
    for wrong in (
        hook("wh_1", at=1.0, scope="identity"),
        hook("wh_1", at=1.0, scope="admin", identity_id=alice.id),
        hook("wh_1", at=1.0, scope="provisioner"),
        hook("wh_1", at=1.0, scope="identity", identity_id=alice.id, token_id="tok_x"),
        hook("wh_1", at=1.0, scope="everyone"),
    ):
        with pytest.raises(InvalidInput):
            await store.webhooks.create(wrong)
    assert await store.webhooks.listing() == []


async def test_a_webhook_of_a_gone_identity_or_token_is_not_found(store: Store, alice: Identity) -> None:
    with pytest.raises(NotFound):
        await store.webhooks.create(hook("wh_1", at=1.0, scope="identity", identity_id=alice.id + 100))
    with pytest.raises(NotFound):
        await store.webhooks.create(hook("wh_2", at=1.0, scope="provisioner", token_id="tok_gone"))
    assert await store.webhooks.listing() == []


async def test_listing_narrows_by_identity_token_and_scope_oldest_first(store: Store, alice: Identity) -> None:
    bob, _ = await store.identities.create("bob")
    token, _ = await store.tokens.create_provisioner("ci")
    await store.webhooks.create(hook("wh_b", at=3.0, scope="identity", identity_id=bob.id))
    await store.webhooks.create(hook("wh_a2", at=2.0, scope="identity", identity_id=alice.id))
    await store.webhooks.create(hook("wh_a1", at=1.0, scope="identity", identity_id=alice.id))
    await store.webhooks.create(hook("wh_p", at=1.5, scope="provisioner", token_id=token.id))
    await store.webhooks.create(hook("wh_admin", at=1.5, scope="admin"))

    async def listed(**kw: Any) -> list[str]:
        return [h.id for h in await store.webhooks.listing(**kw)]

    assert await listed() == ["wh_a1", "wh_admin", "wh_p", "wh_a2", "wh_b"]  # ties by id
    assert await listed(identity_id=alice.id) == ["wh_a1", "wh_a2"]
    assert await listed(token_id=token.id) == ["wh_p"]
    assert await listed(scope="admin") == ["wh_admin"]
    assert await listed(scope="identity", identity_id=bob.id) == ["wh_b"]
    assert await listed(scope="provisioner", identity_id=bob.id) == []


async def test_an_identity_is_covered_by_its_own_its_creators_and_the_admins_enabled_webhooks(
    store: Store, clock: Clock
) -> None:
    token, _ = await store.tokens.create_provisioner("ci")
    other, _ = await store.tokens.create_provisioner("other")
    made, _ = await store.identities.create("made", created_by=token.id)
    plain, _ = await store.identities.create("plain")
    await store.webhooks.create(hook("wh_own", at=4.0, scope="identity", identity_id=made.id))
    await store.webhooks.create(hook("wh_prov", at=3.0, scope="provisioner", token_id=token.id))
    await store.webhooks.create(hook("wh_other", at=1.0, scope="provisioner", token_id=other.id))
    await store.webhooks.create(hook("wh_admin", at=2.0, scope="admin"))
    await store.webhooks.create(hook("wh_plain", at=1.0, scope="identity", identity_id=plain.id))
    await store.webhooks.create(hook("wh_off", at=1.0, scope="admin", disabled_ts=1.0, disabled_reason="failing"))

    found = await store.webhooks.for_identities([made.id, plain.id, plain.id, made.id + plain.id + 100])
    assert {i: [h.id for h in hooks] for i, hooks in found.items()} == {
        made.id: ["wh_admin", "wh_prov", "wh_own"],
        plain.id: ["wh_plain", "wh_admin"],
        made.id + plain.id + 100: [],  # no such identity: nothing covers it
    }
    assert found[made.id][1] == await store.webhooks.get("wh_prov")
    assert await store.webhooks.for_identities([]) == {}
    await store.webhooks.set_disabled("wh_off", at=None, reason=None)
    await store.webhooks.set_disabled("wh_prov", at=clock.now, reason="failing for 5 days")
    found = await store.webhooks.for_identities([made.id])
    assert [h.id for h in found[made.id]] == ["wh_off", "wh_admin", "wh_own"]


async def test_rotation_keeps_the_old_secret_until_a_time(store: Store) -> None:
    await store.webhooks.create(hook("wh_1", at=1.0))
    rotated = await store.webhooks.rotate("wh_1", "whsec_new", None, old_until=500.0)
    assert (rotated.secret, rotated.previous_secret, rotated.previous_until) == ("whsec_new", "whsec_wh_1", 500.0)
    assert await store.webhooks.get("wh_1") == rotated
    again = await store.webhooks.rotate("wh_1", "whsk_2", "whpk_2", old_until=900.0)
    assert (again.secret, again.public_key, again.previous_secret) == ("whsk_2", "whpk_2", "whsec_new")
    with pytest.raises(NotFound):
        await store.webhooks.rotate("wh_none", "whsec_x", None, old_until=1.0)


async def test_disabling_keeps_its_deliveries_back_and_enabling_clears_the_failure_run(
    store: Store, clock: Clock
) -> None:
    now = clock.now
    await store.webhooks.create(hook("wh_1", at=now))
    await store.webhooks.enqueue([delivery("d1", "wh_1", at=now)])
    (taken,) = await store.webhooks.claim(now=now, lease=LEASE, limit=10, per_webhook=10)
    await fail(store, taken.id, now, retry_at=now)
    await store.webhooks.set_disabled("wh_1", at=now + 1, reason="failing for 5 days")
    off = await store.webhooks.get("wh_1")
    assert off is not None and (off.disabled_ts, off.disabled_reason, off.failing_since) == (
        now + 1,
        "failing for 5 days",
        now,
    )
    assert await claim(store, now + 10) == []
    assert await store.webhooks.pending() == 1  # kept, not dropped
    await store.webhooks.set_disabled("wh_1", at=None, reason=None)
    on = await store.webhooks.get("wh_1")
    assert on is not None and (on.disabled_ts, on.disabled_reason, on.failing_since) == (None, None, None)
    assert await claim(store, now + 10) == ["d1"]
    await store.webhooks.set_disabled("wh_none", at=now, reason="x")  # nothing to disable: no error


# --- deliveries -----------------------------------------------------------------------------


async def test_enqueue_stores_each_id_once_whatever_came_of_it(store: Store, clock: Clock) -> None:
    now = clock.now
    await store.webhooks.create(hook("wh_1", at=now))
    first = delivery("d1", "wh_1", at=now)
    assert await store.webhooks.enqueue([first, delivery("d2", "wh_1", at=now), first]) == 2
    assert await store.webhooks.get_delivery("d1") == first
    assert await store.webhooks.enqueue([dataclasses.replace(first, payload=b"other")]) == 0
    await deliver(store, "d1", now)
    # The same event again (a feeder restarted): not sent twice, not queued again.
    assert await store.webhooks.enqueue([first, delivery("d3", "wh_1", at=now)]) == 1
    done = await store.webhooks.get_delivery("d1")
    assert done is not None and done.status == "delivered" and done.payload == first.payload
    assert await store.webhooks.enqueue([]) == 0
    assert await store.webhooks.pending() == 2


async def test_enqueue_skips_the_deliveries_of_a_deleted_webhook(store: Store, clock: Clock) -> None:
    await store.webhooks.create(hook("wh_1", at=1.0))
    batch = [delivery("d1", "wh_gone", at=clock.now), delivery("d2", "wh_1", at=clock.now)]
    assert await store.webhooks.enqueue(batch) == 1
    assert await store.webhooks.get_delivery("d1") is None
    assert await claim(store, clock.now) == ["d2"]
    assert await store.webhooks.enqueue([delivery("d3", "wh_gone", at=clock.now)]) == 0


async def test_a_claim_gives_the_delivery_whole_and_holds_it_until_recorded_or_the_lease_runs_out(
    store: Store, clock: Clock
) -> None:
    now = clock.now
    await store.webhooks.create(hook("wh_1", at=now))
    queued = delivery("d1", "wh_1", at=now, next_ts=now)
    await store.webhooks.enqueue([queued])
    assert await store.webhooks.claim(now=now, lease=LEASE, limit=10, per_webhook=1) == [queued]
    assert await claim(store, now + LEASE - 1) == []  # a live lease
    assert await claim(store, now + LEASE) == ["d1"]  # its claimer died: the lease ran out
    await fail(store, "d1", now + LEASE, retry_at=now + LEASE)  # recorded: the claim ends at once
    assert await claim(store, now + LEASE) == ["d1"]
    await store.webhooks.release_all()  # a restarted single process holds no claim
    assert await claim(store, now + LEASE) == ["d1"]


async def test_a_delivery_is_due_at_its_next_ts(store: Store, clock: Clock) -> None:
    now = clock.now
    await store.webhooks.create(hook("wh_1", at=now))
    await store.webhooks.enqueue([delivery("d1", "wh_1", at=now, next_ts=now + 30)])
    assert await claim(store, now + 29) == []
    assert await claim(store, now + 30) == ["d1"]


async def test_each_webhook_and_address_goes_out_in_enqueue_order(store: Store, clock: Clock) -> None:
    now = clock.now
    await store.webhooks.create(hook("wh_1", at=now))
    await store.webhooks.create(hook("wh_2", at=now))
    # Enqueue order, not created_ts, is the queue's order (an event may carry an older time).
    await store.webhooks.enqueue(
        [
            delivery("a1", "wh_1", ALICE, at=now + 5),
            delivery("a2", "wh_1", ALICE, at=now),
            delivery("b1", "wh_1", BOB, at=now + 1),
            delivery("x1", "wh_2", ALICE, at=now + 2),
        ]
    )
    await store.webhooks.enqueue([delivery("a3", "wh_1", ALICE, at=now)])
    assert await claim(store, now + 10) == ["b1", "x1", "a1"]  # one head per queue, oldest first
    assert await claim(store, now + 10) == []  # a2 waits for a1, although it is older
    await deliver(store, "x1", now + 10)
    await fail(store, "a1", now + 10, retry_at=now + 100)
    assert await claim(store, now + 50) == []  # a retry holds the later ones back
    await deliver(store, "b1", now + 50)
    assert await claim(store, now + 50) == []  # bob's queue is empty now
    assert await claim(store, now + 100) == ["a1"]
    await deliver(store, "a1", now + 100)
    assert await claim(store, now + 100) == ["a2"]
    await fail(store, "a2", now + 100)  # failed for good: the queue moves on
    assert await claim(store, now + 100) == ["a3"]


async def test_claims_come_oldest_first_up_to_the_limit(store: Store, clock: Clock) -> None:
    now = clock.now
    for n in range(3):
        await store.webhooks.create(hook(f"wh_{n}", at=now))
    await store.webhooks.enqueue(
        [delivery("d2", "wh_2", at=now + 2), delivery("d0", "wh_0", at=now), delivery("d1", "wh_1", at=now + 1)]
    )
    assert await claim(store, now + 10, limit=2) == ["d0", "d1"]
    assert await claim(store, now + 10, limit=2) == ["d2"]
    assert await claim(store, now + 10, limit=0) == []


async def test_at_most_per_webhook_calls_of_one_webhook_are_in_flight(store: Store, clock: Clock) -> None:
    now = clock.now
    await store.webhooks.create(hook("wh_busy", at=now))
    await store.webhooks.create(hook("wh_calm", at=now))
    addresses = [f"u{n}@{DOMAIN}" for n in range(5)]
    await store.webhooks.enqueue([delivery(f"b{n}", "wh_busy", a, at=now + n) for n, a in enumerate(addresses)])
    await store.webhooks.enqueue([delivery("c0", "wh_calm", ALICE, at=now + 9)])
    assert await claim(store, now, per_webhook=2) == ["b0", "b1", "c0"]
    assert await claim(store, now, per_webhook=2) == []  # two live leases already
    assert await claim(store, now, per_webhook=3) == ["b2"]  # the cap counts the leases held
    await deliver(store, "b0", now)
    assert await claim(store, now, per_webhook=3) == ["b3"]
    # Leases run out count for nothing (c0's too: its claimer is gone).
    assert await claim(store, now + LEASE, per_webhook=2) == ["b1", "b2", "c0"]
    assert await claim(store, now + LEASE, per_webhook=0) == []


async def test_record_logs_the_attempt_and_keeps_the_webhooks_failure_run(store: Store, clock: Clock) -> None:
    now = clock.now
    await store.webhooks.create(hook("wh_1", at=now))
    await store.webhooks.enqueue([delivery("d1", "wh_1", at=now), delivery("d2", "wh_1", BOB, at=now)])
    await claim(store, now)
    await store.webhooks.record(
        "d1", attempt("d1", at=now + 1, code=None, error="timed out"), status="queued", next_ts=now + 5
    )
    failing = await store.webhooks.get("wh_1")
    assert failing is not None and failing.failing_since == now + 1
    await fail(store, "d2", now + 2, retry_at=now + 9)
    still = await store.webhooks.get("wh_1")
    assert still is not None and still.failing_since == now + 1  # when the run began, not the last failure
    d1 = await store.webhooks.get_delivery("d1")
    assert d1 is not None and (d1.status, d1.attempts, d1.next_ts, d1.last_code, d1.last_error, d1.finished_ts) == (
        "queued",
        1,
        now + 5,
        None,
        "timed out",
        None,
    )
    clock.now = now + 6
    await store.webhooks.record("d1", attempt("d1", at=now + 6, head="ok"), status="delivered", next_ts=now + 6)
    ok = await store.webhooks.get("wh_1")
    assert ok is not None and ok.failing_since is None
    d1 = await store.webhooks.get_delivery("d1")
    assert d1 is not None and (d1.status, d1.attempts, d1.last_code, d1.last_error, d1.finished_ts) == (
        "delivered",
        2,
        200,
        None,
        now + 6,
    )
    assert await store.webhooks.attempts("d1", limit=10) == [
        Attempt("d1", now + 6, 12.5, 200, None, "ok"),
        Attempt("d1", now + 1, 12.5, None, "timed out", ""),
    ]
    assert [a.at_ts for a in await store.webhooks.attempts("d1", limit=1)] == [now + 6]
    assert await store.webhooks.attempts("d_none", limit=10) == []


async def test_failing_for_good_keeps_the_reason_given(store: Store, clock: Clock) -> None:
    now = clock.now
    await store.webhooks.create(hook("wh_1", at=now))
    await store.webhooks.enqueue([delivery("d1", "wh_1", at=now)])
    await store.webhooks.record(
        "d1", attempt("d1", at=now, code=500, error="HTTP 500"), status="failed", next_ts=now, error="gave up"
    )
    done = await store.webhooks.get_delivery("d1")
    assert done is not None and (done.status, done.last_code, done.last_error, done.finished_ts) == (
        "failed",
        500,
        "gave up",
        now,
    )
    assert await store.webhooks.pending() == 0


async def test_the_attempt_log_is_bounded(store: Store, clock: Clock) -> None:
    now = clock.now
    await store.webhooks.create(hook("wh_1", at=now))
    await store.webhooks.enqueue([delivery("d1", "wh_1", at=now)])
    for n in range(55):
        await store.webhooks.record(
            "d1",
            attempt("d1", at=now + n, code=502, error="e" * 5000, head="x" * 5000),
            status="queued",
            next_ts=now + n,
        )
    log = await store.webhooks.attempts("d1", limit=100)
    assert [a.at_ts for a in log] == [now + n for n in reversed(range(5, 55))]  # the newest 50
    assert {len(a.response_head) for a in log} == {1024} and {len(a.error or "") for a in log} == {1024}
    d1 = await store.webhooks.get_delivery("d1")
    assert d1 is not None and d1.attempts == 55 and len(d1.last_error or "") == 1024


async def test_recording_a_delivery_that_went_with_its_webhook_is_nothing(store: Store, clock: Clock) -> None:
    await store.webhooks.record("d_none", attempt("d_none", at=clock.now), status="delivered", next_ts=clock.now)
    assert await store.webhooks.attempts("d_none", limit=10) == []


async def test_retry_queues_a_delivery_again_in_its_place(store: Store, clock: Clock) -> None:
    now = clock.now
    await store.webhooks.create(hook("wh_1", at=now))
    await store.webhooks.enqueue([delivery(f"d{n}", "wh_1", at=now) for n in range(3)])
    assert await claim(store, now) == ["d0"]
    await fail(store, "d0", now)  # failed for good
    assert await claim(store, now) == ["d1"]
    clock.now = now + 5
    again = await store.webhooks.retry("d0", now=now + 5)
    assert (again.id, again.status, again.next_ts, again.finished_ts, again.attempts) == (
        "d0",
        "queued",
        now + 5,
        None,
        1,
    )
    assert await store.webhooks.pending() == 3
    assert await claim(store, now + 5) == []  # d1 is still in flight: one call per queue at a time
    await deliver(store, "d1", now + 5)
    assert await claim(store, now + 5) == ["d0"]  # back in front of d2
    await deliver(store, "d0", now + 5)
    assert await claim(store, now + 5) == ["d2"]
    await deliver(store, "d2", now + 5)
    redo = await store.webhooks.retry("d1", now=now + 6)  # a delivered one, sent again on request
    assert redo.status == "queued" and await claim(store, now + 6) == ["d1"]
    with pytest.raises(NotFound):
        await store.webhooks.retry("d_none", now=now)


async def test_deliveries_are_listed_newest_first_in_pages(store: Store, clock: Clock) -> None:
    now = clock.now
    await store.webhooks.create(hook("wh_1", at=now))
    await store.webhooks.create(hook("wh_2", at=now))
    await store.webhooks.enqueue(
        [delivery(f"d{n}", "wh_1", at=now + n) for n in range(4)] + [delivery("x", "wh_2", at=now + 9)]
    )
    assert ids(await store.webhooks.deliveries("wh_1", limit=3)) == ["d3", "d2", "d1"]
    assert ids(await store.webhooks.deliveries("wh_1", limit=3, before_id="d1")) == ["d0"]
    assert ids(await store.webhooks.deliveries("wh_1", limit=2, before_id="d3")) == ["d2", "d1"]
    assert ids(await store.webhooks.deliveries("wh_1", limit=10, before_id="d0")) == []
    assert ids(await store.webhooks.deliveries("wh_none", limit=10)) == []


async def test_prune_forgets_finished_deliveries_and_their_attempts(store: Store, clock: Clock) -> None:
    now = clock.now
    await store.webhooks.create(hook("wh_1", at=now))
    await store.webhooks.enqueue([delivery(f"d{n}", "wh_1", f"u{n}@{DOMAIN}", at=now) for n in range(4)])
    clock.now = now + 10
    await deliver(store, "d0", now + 10)
    await fail(store, "d1", now + 10)
    await fail(store, "d2", now + 10, retry_at=now + 20)  # still queued, with attempts
    clock.now = now + 30
    await deliver(store, "d3", now + 30)
    assert await store.webhooks.prune(now + 10) == 0  # finished at, not before
    assert await store.webhooks.prune(now + 11) == 2
    assert {d.id for d in await store.webhooks.deliveries("wh_1", limit=10)} == {"d2", "d3"}
    assert await store.webhooks.attempts("d0", limit=10) == []
    assert len(await store.webhooks.attempts("d2", limit=10)) == 1
    assert await store.webhooks.prune(now + 1_000_000) == 1  # a queued one never goes
    assert await store.webhooks.pending() == 1


# --- what goes with what ---------------------------------------------------------------------


async def _rows(store: Store, query: str) -> list[tuple[Any, ...]]:
    """Rows read past the Protocol (to show nothing is left behind)."""
    if store.engine.kind == "sqlite":
        return await store.engine.db.run(lambda c: c.execute(query).fetchall())  # type: ignore[attr-defined]
    return await store.engine.db.fetchall(query)  # type: ignore[attr-defined]


async def _filled(store: Store, webhook_id: str, address: str, now: float) -> None:
    """A delivered and a queued delivery of the webhook, with an attempt each."""
    await store.webhooks.enqueue([delivery(f"{webhook_id}-1", webhook_id, address, at=now)])
    await store.webhooks.enqueue([delivery(f"{webhook_id}-2", webhook_id, address, at=now)])
    await deliver(store, f"{webhook_id}-1", now)
    await fail(store, f"{webhook_id}-2", now, retry_at=now + 60)


async def test_deleting_a_webhook_takes_its_deliveries_and_log(store: Store, clock: Clock) -> None:
    await store.webhooks.create(hook("wh_1", at=1.0))
    await store.webhooks.create(hook("wh_2", at=1.0))
    await _filled(store, "wh_1", ALICE, clock.now)
    await _filled(store, "wh_2", ALICE, clock.now)
    assert await store.webhooks.delete("wh_1")
    assert not await store.webhooks.delete("wh_1")
    assert await store.webhooks.get("wh_1") is None
    assert await _rows(store, "SELECT webhook_id FROM webhook_deliveries ORDER BY id") == [("wh_2",), ("wh_2",)]
    assert await _rows(store, "SELECT delivery_id FROM webhook_attempts ORDER BY delivery_id") == [
        ("wh_2-1",),
        ("wh_2-2",),
    ]
    assert await store.webhooks.pending() == 1


async def test_deleting_an_identity_takes_its_webhooks_with_everything_they_held(
    store: Store, alice: Identity, clock: Clock
) -> None:
    bob, _ = await store.identities.create("bob")
    await store.webhooks.create(hook("wh_alice", at=1.0, scope="identity", identity_id=alice.id))
    await store.webhooks.create(hook("wh_bob", at=1.0, scope="identity", identity_id=bob.id))
    await store.webhooks.create(hook("wh_admin", at=1.0))
    for webhook_id in ("wh_alice", "wh_bob", "wh_admin"):
        await _filled(store, webhook_id, ALICE if webhook_id != "wh_bob" else BOB, clock.now)
    await store.identities.delete(alice)
    assert [h.id for h in await store.webhooks.listing()] == ["wh_admin", "wh_bob"]
    assert await store.webhooks.get_delivery("wh_alice-1") is None
    assert await store.webhooks.attempts("wh_alice-2", limit=10) == []
    left = await _rows(store, "SELECT DISTINCT webhook_id FROM webhook_deliveries ORDER BY webhook_id")
    assert left == [("wh_admin",), ("wh_bob",)]  # what the admin's hook already had of alice stays its own


async def test_revoking_a_provisioner_token_takes_its_webhooks(store: Store, clock: Clock) -> None:
    token, _ = await store.tokens.create_provisioner("ci")
    other, _ = await store.tokens.create_provisioner("other")
    made, _ = await store.identities.create("made", created_by=token.id)
    await store.webhooks.create(hook("wh_p", at=1.0, scope="provisioner", token_id=token.id))
    await store.webhooks.create(hook("wh_o", at=1.0, scope="provisioner", token_id=other.id))
    await store.webhooks.create(hook("wh_admin", at=1.0))
    await _filled(store, "wh_p", made.address, clock.now)
    await store.tokens.delete_provisioner(token.id)
    assert [h.id for h in await store.webhooks.listing()] == ["wh_admin", "wh_o"]
    assert await store.webhooks.get_delivery("wh_p-2") is None
    assert await store.webhooks.attempts("wh_p-1", limit=10) == []
    assert [h.id for h in (await store.webhooks.for_identities([made.id]))[made.id]] == ["wh_admin"]  # it stays
    # A new admin token leaves the admin's webhooks alone: they belong to no token.
    await store.tokens.set_admin("am_admin-token-for-this-test-only-1", origin="configured")
    await store.tokens.set_admin("am_admin-token-for-this-test-only-2", origin="configured")
    assert await store.webhooks.get("wh_admin") is not None


async def test_webhooks_and_their_queues_outlive_a_restart(
    open_store: StoreFactory, store: Store, clock: Clock
) -> None:
    now = clock.now
    await store.webhooks.create(hook("wh_1", at=now))
    await _filled(store, "wh_1", ALICE, now)
    assert await claim(store, now + 60) == ["wh_1-2"]
    await store.engine.close()
    again = await open_store()
    assert await again.webhooks.get("wh_1") == hook("wh_1", at=now, failing_since=now)
    assert await again.webhooks.pending() == 1
    await again.webhooks.release_all()
    assert await claim(again, now + 60) == ["wh_1-2"]


# --- races ----------------------------------------------------------------------------------


async def _second(open_store: StoreFactory, store: Store) -> tuple[Store, Store]:
    """The same files or database opened twice more: other processes' (other gateways') calls.

    On PostgreSQL each pool keeps eight connections open, so the claims of a `gather` run at
    once in the server instead of queueing for a connection.
    """
    kw = {"min_connections": 8, "max_connections": 8} if store.engine.kind == "postgresql" else {}
    return await open_store(**kw), await open_store(**kw)


async def test_many_claimers_at_once_never_get_one_delivery_twice(
    open_store: StoreFactory, store: Store, clock: Clock
) -> None:
    now = clock.now
    for n in range(3):
        await store.webhooks.create(hook(f"wh_{n}", at=now))
    await store.webhooks.enqueue(
        [delivery(f"d{h}-{n}", f"wh_{h}", f"u{n}@{DOMAIN}", at=now + n) for h in range(3) for n in range(12)]
    )
    one, two = await _second(open_store, store)
    batches = await asyncio.gather(
        *(s.webhooks.claim(now=now, lease=LEASE, limit=4, per_webhook=100) for s in [one, two] * 8)
    )
    got = [d.id for batch in batches for d in batch]
    assert len(got) == len(set(got)) == 36


async def test_racing_claimers_keep_to_the_per_webhook_cap_and_one_call_per_queue(
    open_store: StoreFactory, store: Store, clock: Clock
) -> None:
    now = clock.now
    await store.webhooks.create(hook("wh_1", at=now))
    await store.webhooks.enqueue(
        [delivery(f"d{n}-{k}", "wh_1", f"u{n}@{DOMAIN}", at=now + k) for k in range(3) for n in range(10)]
    )
    one, two = await _second(open_store, store)
    for round_ in range(5):  # each round after the last one's leases ran out
        at = now + round_ * LEASE
        batches = await asyncio.gather(
            *(s.webhooks.claim(now=at, lease=LEASE, limit=3, per_webhook=4) for s in [one, two] * 8)
        )
        got = [d for batch in batches for d in batch]
        assert len(got) == 4 and all(d.id.endswith("-0") for d in got)  # four queues' heads
        assert len({d.address for d in got}) == 4


async def test_racing_records_and_retries_keep_one_head_per_queue(
    open_store: StoreFactory, store: Store, clock: Clock
) -> None:
    now = clock.now
    await store.webhooks.create(hook("wh_1", at=now))
    await store.webhooks.enqueue([delivery(f"d{n}", "wh_1", at=now) for n in range(6)])
    assert await claim(store, now) == ["d0"]
    await deliver(store, "d0", now)
    assert await claim(store, now) == ["d1"]
    one, two = await _second(open_store, store)
    # d1 finishes while d0 (before it) is retried, from two processes at once.
    await asyncio.gather(deliver(one, "d1", now), two.webhooks.retry("d0", now=now))
    heads = await _rows(store, "SELECT id FROM webhook_deliveries WHERE head = true ORDER BY id")
    assert heads == [("d0",)]
    assert await claim(store, now) == ["d0"]


# --- the order, whatever the interleaving ----------------------------------------------------

_RUNS = itertools.count()
HOOKS = ("h1", "h2")
ADDRESSES = (ALICE, BOB)
SHORT_LEASE = 10.0

op_st = st.one_of(
    st.tuples(st.just("enqueue"), st.sampled_from(HOOKS), st.sampled_from(ADDRESSES), st.integers(1, 3)),
    st.tuples(st.just("claim"), st.integers(1, 4), st.integers(1, 3)),
    st.tuples(st.just("record"), st.integers(0, 7), st.sampled_from(["delivered", "retry", "failed"])),
    st.tuples(st.just("wait"), st.sampled_from([1.0, 5.0, SHORT_LEASE])),
)


@dataclasses.dataclass
class _Model:
    """What the contract says the store holds: each queue in enqueue order, and the live leases."""

    queues: dict[tuple[str, str], list[str]] = dataclasses.field(default_factory=dict)
    created: dict[str, tuple[float, int]] = dataclasses.field(default_factory=dict)  # (created_ts, enqueue n)
    finished: set[str] = dataclasses.field(default_factory=set)
    next_ts: dict[str, float] = dataclasses.field(default_factory=dict)
    leases: dict[str, float] = dataclasses.field(default_factory=dict)  # delivery -> claimed until
    where: dict[str, tuple[str, str]] = dataclasses.field(default_factory=dict)
    delivered: dict[tuple[str, str], list[str]] = dataclasses.field(default_factory=dict)

    def live(self, now: float) -> dict[str, float]:
        return {d: until for d, until in self.leases.items() if until > now}

    def due(self, now: float, limit: int, per: int) -> set[str]:
        """What a claim must take: heads due and free, at most `per` leases per webhook, oldest first, `limit`."""
        live = self.live(now)
        heads = []
        for queue, order in self.queues.items():
            waiting = [d for d in order if d not in self.finished]
            if waiting and self.next_ts[waiting[0]] <= now and not any(d in live for d in waiting):
                heads.append((self.created[waiting[0]], queue[0], waiting[0]))
        room = {h: per - sum(1 for d in live if self.where[d][0] == h) for h in HOOKS}
        picked = []
        for _, webhook_id, d in sorted(heads):
            if room[webhook_id] > 0:
                room[webhook_id] -= 1
                picked.append(d)
        return set(picked[:limit])


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(ops=st.lists(op_st, max_size=30))
async def test_any_interleaving_delivers_each_queue_in_enqueue_order(
    store: Store, clock: Clock, ops: list[tuple[Any, ...]]
) -> None:
    # The store is the test's, shared by the examples: each has webhooks of its own, deleted
    # (with everything they hold) at its end.
    run = next(_RUNS)
    hooks = {h: f"wh_{run}_{h}" for h in HOOKS}
    for webhook_id in hooks.values():
        await store.webhooks.create(hook(webhook_id, at=clock.now))
    model, now, counter = _Model(), clock.now, itertools.count()
    try:
        for op in ops:
            if op[0] == "enqueue":
                _, h, address, n = op
                batch = []
                for _ in range(n):
                    k = next(counter)
                    d = f"r{run}-{k}"
                    batch.append(delivery(d, hooks[h], address, at=now - k % 3, next_ts=now))  # times out of order
                    model.queues.setdefault((h, address), []).append(d)
                    model.created[d], model.next_ts[d], model.where[d] = (now - k % 3, k), now, (h, address)
                assert await store.webhooks.enqueue(batch) == n
            elif op[0] == "claim":
                _, limit, per = op
                expected = model.due(now, limit, per)
                got = await store.webhooks.claim(now=now, lease=SHORT_LEASE, limit=limit, per_webhook=per)
                assert {d.id for d in got} == expected
                for d in got:
                    model.leases[d.id] = now + SHORT_LEASE
            elif op[0] == "record":
                _, pick, outcome = op
                live = sorted(model.live(now))
                if not live:
                    continue
                d = live[pick % len(live)]
                del model.leases[d]
                if outcome == "delivered":
                    await deliver(store, d, now)
                    model.finished.add(d)
                    model.delivered.setdefault(model.where[d], []).append(d)
                elif outcome == "failed":
                    await fail(store, d, now)
                    model.finished.add(d)
                else:
                    await fail(store, d, now, retry_at=now + 3)
                    model.next_ts[d] = now + 3
            else:
                now += op[1]
                clock.now = now
        for queue, sent in model.delivered.items():
            order = model.queues[queue]
            assert sent == sorted(sent, key=order.index)
        assert await store.webhooks.pending() == sum(
            1 for order in model.queues.values() for d in order if d not in model.finished
        )
    finally:
        for webhook_id in hooks.values():
            await store.webhooks.delete(webhook_id)
