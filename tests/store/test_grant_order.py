"""Contract: every address's grants in index order (`grants_after`, `latest_grant`), on every engine.

What `GET /v1/events` and the webhook feeder walk: a position (seq, address) names one grant,
and "after" it means strictly after, whatever happened to other grants meanwhile.
"""

from __future__ import annotations

from dataclasses import replace

from gateway.store import Store
from gateway.store.index import GrantPosition
from tests.store.conftest import DOMAIN
from tests.store.test_index import record

A, B, C = f"a@{DOMAIN}", f"b@{DOMAIN}", f"c@{DOMAIN}"


def keys(positions: list[GrantPosition]) -> list[tuple[str, str]]:
    return [(p.address, p.message_id) for p in positions]


async def test_grants_come_in_index_order_then_address_order(store: Store) -> None:
    assert await store.index.grants_after(None, limit=10) == []
    assert await store.index.latest_grant() is None
    # Indexed in this order; the second copy is received earlier but indexed later.
    await store.index.add([record("m1", 10, {B, A}), record("m2", 5, {C})])
    await store.index.add([record("m3", 1, {C, A, B})])
    every = await store.index.grants_after(None, limit=10)
    assert keys(every) == [(A, "m1"), (B, "m1"), (C, "m2"), (A, "m3"), (B, "m3"), (C, "m3")]
    assert every == sorted(every)  # GrantPosition's own order is the index's
    assert len({p.seq for p in every}) == 3 and all(p.direction == "received" for p in every)
    assert await store.index.latest_grant() == every[-1]


async def test_after_is_strictly_after_and_pages_by_limit(store: Store) -> None:
    await store.index.add([record("m1", 1, {A, B, C}), record("m2", 2, {A, C})])
    every = await store.index.grants_after(None, limit=100)
    for i, position in enumerate(every):
        assert await store.index.grants_after((position.seq, position.address), limit=100) == every[i + 1 :]
    # Paging two at a time walks them all once, in order.
    walked: list[GrantPosition] = []
    after: tuple[int, str] | None = None
    while page := await store.index.grants_after(after, limit=2):
        assert len(page) <= 2
        walked += page
        after = (page[-1].seq, page[-1].address)
    assert walked == every
    # A position between two addresses of one copy (an address that has no grant there).
    middle = await store.index.grants_after((every[0].seq, "aa"), limit=100)
    assert keys(middle) == [(B, "m1"), (C, "m1"), (A, "m2"), (C, "m2")]
    assert await store.index.grants_after((every[-1].seq, every[-1].address), limit=10) == []
    assert await store.index.grants_after(None, limit=0) == []


async def test_new_grants_come_after_every_earlier_position(store: Store) -> None:
    await store.index.add([record("m1", 50, {A, C})])
    last = await store.index.latest_grant()
    assert last is not None and (last.address, last.message_id) == (C, "m1")
    await store.index.add([record("m2", 1, {A, B})])  # received long before, indexed after
    assert keys(await store.index.grants_after((last.seq, last.address), limit=10)) == [(A, "m2"), (B, "m2")]


async def test_direction_is_filtered(store: Store) -> None:
    await store.index.add([record("r1", 1, {A}), replace(record("s1", 2, {A}), direction="sent")])
    await store.index.add([record("r2", 3, {B})])
    assert keys(await store.index.grants_after(None, limit=10)) == [(A, "r1"), (B, "r2")]
    sent = await store.index.grants_after(None, limit=10, direction="sent")
    assert keys(sent) == [(A, "s1")] and sent[0].direction == "sent"
    assert keys(await store.index.grants_after(None, limit=10, direction="all")) == [(A, "r1"), (A, "s1"), (B, "r2")]
    latest_sent = await store.index.latest_grant(direction="sent")
    assert latest_sent is not None and latest_sent.message_id == "s1"
    latest = await store.index.latest_grant()
    assert latest is not None and latest.message_id == "r2"


async def test_a_moved_grant_keeps_its_position_and_a_removed_one_is_gone(store: Store) -> None:
    # Two copies of one message (one per envelope recipient): A and B read it through the first.
    await store.index.add([record("c1", 1, {A, B}, key="k"), record("c2", 1, {A, B}, key="k")])
    await store.index.add([record("m2", 2, {A})])
    before = await store.index.grants_after(None, limit=10)
    assert keys(before) == [(A, "c1"), (B, "c1"), (A, "m2")]
    await store.index.remove(["c1"])  # the grants move to c2 and keep their place in the order
    after = await store.index.grants_after(None, limit=10)
    assert keys(after) == [(A, "c2"), (B, "c2"), (A, "m2")]
    assert [(p.seq, p.address) for p in after] == [(p.seq, p.address) for p in before]
    await store.index.remove(["m2"])
    assert keys(await store.index.grants_after(None, limit=10)) == [(A, "c2"), (B, "c2")]
    # The removed copy's position is still a place to resume after (the next grant follows it).
    await store.index.add([record("m3", 3, {B})])
    assert keys(await store.index.grants_after((before[-1].seq, A), limit=10)) == [(B, "m3")]
