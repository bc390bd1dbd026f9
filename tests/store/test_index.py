"""Contract: the message index, read with each identity's marks and claims, on every engine."""

from __future__ import annotations

import asyncio

import pytest

from gateway.errors import NotFound
from gateway.mail.models import Code, Link
from gateway.store import CopyRecord, Cursor, Filters, Identity, Store
from tests.store.conftest import DOMAIN, Clock

A, B = f"a@{DOMAIN}", f"b@{DOMAIN}"
ALL = Filters(0)


def record(
    copy_id: str, ts: float, grants: set[str], *, key: str | None = None, subject: str = "s", sender: str = "x@y.test"
) -> CopyRecord:
    return CopyRecord(
        copy_id, ts, 100, sender, tuple(sorted(grants)), subject, key or f"key-{copy_id}", frozenset(grants)
    )


@pytest.fixture
async def people(store: Store) -> tuple[Identity, Identity]:
    a, _ = await store.identities.create("a")
    b, _ = await store.identities.create("b")
    return a, b


async def ids(store: Store, who: Identity, filters: Filters = ALL, **kw: object) -> list[str]:
    return [s.id for s in await store.index.listing(who, filters, limit=kw.pop("limit", 10), **kw)]  # type: ignore[arg-type]


async def test_listing_is_newest_first_and_exact(store: Store, people: tuple[Identity, Identity]) -> None:
    a, b = people
    await store.index.add([record("m1", 1, {A}), record("m2", 2, {A, B}), record("m3", 3, {B})])
    assert await ids(store, a) == ["m2", "m1"]
    assert await ids(store, b) == ["m3", "m2"]
    stranger = Identity(999, f"c@{DOMAIN}", "c", 0, None, None, None)
    assert await ids(store, stranger) == []


async def test_summaries_carry_typed_codes_links_and_fields(store: Store, people: tuple[Identity, Identity]) -> None:
    a, _ = people
    code = Code("123456", "your code is 123456", "text")
    link = Link("https://x.test/verify?t=1", "Verify", "html")
    await store.index.add(
        [CopyRecord("m1", 5.5, 321, "Shop <s@x.test>", (A, "z@y.test"), "Hi ✓", "k1", frozenset({A}), (code,), (link,))]
    )
    (summary,) = await store.index.listing(a, ALL, limit=10)
    assert (summary.id, summary.message_key, summary.received_ts, summary.size) == ("m1", "k1", 5.5, 321)
    assert (summary.from_header, summary.to, summary.subject) == ("Shop <s@x.test>", (A, "z@y.test"), "Hi ✓")
    assert summary.codes == (code,) and summary.links == (link,) and summary.seen is False


async def cursor(store: Store, address: str, message_id: str) -> Cursor:
    found = await store.index.cursor_of(address, message_id)
    assert found is not None
    return found


async def test_paging_before_and_after(store: Store, people: tuple[Identity, Identity]) -> None:
    a, _ = people
    await store.index.add([record(f"m{i}", float(i), {A}) for i in range(1, 6)])
    assert await ids(store, a, limit=2, before=await cursor(store, A, "m4")) == ["m3", "m2"]
    assert await ids(store, a, limit=2, after=await cursor(store, A, "m2")) == ["m3", "m4"]
    assert await ids(store, a, limit=1, after=await cursor(store, A, "m2"), newest_first=True) == ["m5"]


async def test_listings_follow_the_order_of_indexing_not_of_receipt(
    store: Store, people: tuple[Identity, Identity]
) -> None:
    a, _ = people
    # Two deliveries racing: the one received later is indexed first.
    await store.index.add([record("late", 10, {A})])
    taken = await cursor(store, A, "late")  # a cursor (a stream's last event) between the two
    await store.index.add([record("early", 5, {A})])
    # Received earlier, indexed later: still after the cursor, or a resumed stream skips it.
    assert await ids(store, a, after=taken) == ["early"]
    assert await ids(store, a) == ["early", "late"]
    assert await ids(store, a, before=await cursor(store, A, "early")) == ["late"]
    # Within one batch too, and whatever the ids' order.
    await store.index.add([record("b", 5, {A}), record("a", 5, {A}), record("c", 5, {A})])
    assert await ids(store, a) == ["c", "a", "b", "early", "late"]
    assert await ids(store, a, before=await cursor(store, A, "a")) == ["b", "early", "late"]


async def test_the_insertion_sequence_is_never_reused(store: Store, people: tuple[Identity, Identity]) -> None:
    a, _ = people
    await store.index.add([record("m1", 1, {A}), record("m2", 2, {A})])
    await store.index.remove(["m2"])  # the newest: its seq must not go to the next copy
    gone = await cursor(store, A, "m2")
    await store.index.add([record("m3", 3, {A})])
    assert await ids(store, a, after=gone) == ["m3"]


async def test_filters(store: Store, people: tuple[Identity, Identity]) -> None:
    a, _ = people
    await store.index.add(
        [
            record("m1", 1, {A}, subject="Your CODE", sender="Shop <no-reply@shop.example>"),
            record("m2", 2, {A}, subject="News", sender="news@other.example"),
            record("m3", 3, {A}, subject="Your code again", sender="Shop <no-reply@shop.example>"),
        ]
    )
    assert await ids(store, a, Filters(0, subject="code")) == ["m3", "m1"]
    assert await ids(store, a, Filters(0, sender="OTHER.example")) == ["m2"]
    assert await ids(store, a, Filters(2)) == ["m3", "m2"]
    assert await ids(store, a, Filters(0, min_id="m2")) == ["m3", "m2"]


async def test_seen_and_deleted_marks_are_per_identity_and_read_in_the_listing(
    store: Store, people: tuple[Identity, Identity]
) -> None:
    a, b = people
    await store.index.add([record("m1", 1, {A, B}), record("m2", 2, {A, B}), record("m3", 3, {A})])
    await store.marks.set_seen(a, "key-m1", True)
    await store.marks.set_deleted(a, "key-m2")
    listing = await store.index.listing(a, ALL, limit=10)
    assert [(s.id, s.seen) for s in listing] == [("m3", False), ("m1", True)]
    assert await ids(store, a, Filters(0, unseen=True)) == ["m3"]
    assert [(s.id, s.seen) for s in await store.index.listing(b, ALL, limit=10)] == [("m2", False), ("m1", False)]
    assert await store.marks.is_deleted(a, "key-m2") and not await store.marks.is_deleted(b, "key-m2")
    await store.marks.set_seen(a, "key-m1", False)
    assert await ids(store, a, Filters(0, unseen=True)) == ["m3", "m1"]
    # Marks name message keys, not copy ids.
    await store.marks.set_deleted(a, "m3")
    assert await ids(store, a) == ["m3", "m1"]


async def test_visible(store: Store, people: tuple[Identity, Identity]) -> None:
    a, b = people
    await store.index.add([record("m1", 10, {A})])
    found = await store.index.visible(a, "m1", ALL)
    assert found is not None and found.id == "m1"
    assert await store.index.visible(a, "m1", Filters(11)) is None  # arrived before the identity existed
    assert await store.index.visible(a, "m1", Filters(0, min_id="m2")) is None
    assert await store.index.visible(b, "m1", ALL) is None
    await store.marks.set_deleted(a, "key-m1")
    assert await store.index.visible(a, "m1", ALL) is None


async def test_marks_die_with_the_identity(store: Store, people: tuple[Identity, Identity]) -> None:
    a, _ = people
    await store.index.add([record("m1", 1, {A}), record("m2", 2, {A})])
    await store.marks.set_seen(a, "key-m1", True)
    await store.marks.set_deleted(a, "key-m2")
    await store.identities.delete(a)
    again, _ = await store.identities.create("a", force=True)
    assert [(s.id, s.seen) for s in await store.index.listing(again, ALL, limit=10)] == [("m2", False), ("m1", False)]


async def test_marks_outlive_their_message_until_pruned(
    store: Store, people: tuple[Identity, Identity], clock: Clock
) -> None:
    a, _ = people
    await store.index.add([record("m1", 1, {A}, key="k1"), record("m2", 2, {A}, key="k2")])
    await store.marks.set_seen(a, "k1", True)
    await store.marks.set_deleted(a, "k2")
    await store.claims.take(a, "k1", ttl=60)
    await store.index.remove(["m1", "m2"])
    await store.marks.retire(["k1", "k2"])
    retired = clock.now
    # A later copy of each (after an index rebuild, say): still seen, still deleted for a.
    await store.index.clear()
    await store.index.add([record("m1-late", 3, {A}, key="k1"), record("m2-late", 4, {A}, key="k2")])
    assert [(s.id, s.seen) for s in await store.index.listing(a, ALL, limit=10)] == [("m1-late", True)]
    assert await store.claims.take(a, "k1", ttl=60)  # retiring ended the claim
    clock.now += 10
    await store.marks.retire(["k1"])  # retired again: the first time counts
    assert await store.marks.prune(before_ts=retired) == 0
    # The messages are back in the index: their marks stay (a deleted one must stay hidden).
    assert await store.marks.prune(before_ts=retired + 1) == 0
    assert [(s.id, s.seen) for s in await store.index.listing(a, ALL, limit=10)] == [("m1-late", True)]
    await store.index.remove(["m1-late", "m2-late"])
    assert await store.marks.prune(before_ts=retired + 1) == 2
    await store.index.clear()  # a rebuild: the removed copies' cursors (which block re-grants) go too
    await store.index.add([record("m1-later", 5, {A}, key="k1"), record("m2-later", 6, {A}, key="k2")])
    assert [(s.id, s.seen) for s in await store.index.listing(a, ALL, limit=10)] == [
        ("m2-later", False),
        ("m1-later", False),
    ]


async def test_marks_of_messages_with_no_copy_left_are_retired_then_pruned(
    store: Store, people: tuple[Identity, Identity], clock: Clock
) -> None:
    a, b = people
    await store.index.add([record("m1", 1, {A, B}, key="k1"), record("m2", 2, {A}, key="k2")])
    await store.marks.set_seen(a, "k1", True)
    await store.marks.set_deleted(b, "k1")
    await store.marks.set_seen(a, "k2", True)
    # m1 left the mailbox behind the gateway's back (an outside expunge, or while it was down and
    # the index was rebuilt): nothing called `retire` for k1.
    await store.index.clear()
    await store.index.add([record("m2", 2, {A}, key="k2")])
    assert await store.marks.prune(before_ts=clock.now + 1) == 0  # never retired: kept forever before the fix
    assert await store.marks.retire_orphans() == 2  # a's and b's marks of k1; k2 has a copy
    assert await store.marks.retire_orphans() == 0  # retired once
    assert await store.marks.prune(before_ts=clock.now) == 0  # kept for the retention period
    clock.now += 10
    assert await store.marks.prune(before_ts=clock.now) == 2
    # k2's mark is untouched: still seen.
    assert [(s.id, s.seen) for s in await store.index.listing(a, ALL, limit=10)] == [("m2", True)]


async def test_copies_of_one_message_appear_once_per_address(store: Store, people: tuple[Identity, Identity]) -> None:
    a, b = people
    # One message To: a, Cc: b sent to both: two mailbox copies, same key.
    await store.index.add([record("copy-a", 1, {A, B}, key="k"), record("copy-b", 1, {A, B}, key="k")])
    assert await ids(store, a) == ["copy-a"]
    assert await ids(store, b) == ["copy-a"]
    copy_ids, grants = await store.index.copies("copy-b")
    assert sorted(copy_ids) == ["copy-a", "copy-b"]
    assert sorted((g.address, g.copy_id, g.received_ts) for g in grants) == [(A, "copy-a", 1.0), (B, "copy-a", 1.0)]
    assert await store.index.copies("unknown") == ([], [])


async def test_grants_follow_the_copies_that_remain(store: Store, people: tuple[Identity, Identity]) -> None:
    a, b = people
    # One message To: a, b, delivered to both: two copies, each granting both (the To header
    # names both). Both addresses were granted the first copy.
    await store.index.add([record("copy-a", 1, {A, B}, key="k"), record("copy-b", 2, {A, B}, key="k")])
    await store.index.add([record("later", 3, {A, B})])
    assert await ids(store, a) == ["later", "copy-a"] and await ids(store, b) == ["later", "copy-a"]
    stream_a = await cursor(store, A, "copy-a")  # a stream that already delivered it
    # The copy both grants hang on leaves the mailbox (retention, an outside expunge): the other
    # copy still grants both, so both still see the message, now through it, at the same place.
    assert await store.index.remove(["copy-a"]) == set()
    assert await ids(store, a) == ["later", "copy-b"] and await ids(store, b) == ["later", "copy-b"]
    found = await store.index.visible(a, "copy-b", ALL)
    assert found is not None and found.received_ts == 2.0
    assert await store.index.visible(a, "copy-a", ALL) is None
    assert await ids(store, a, after=stream_a) == ["later"]  # not delivered a second time
    assert await ids(store, a, after=await cursor(store, A, "copy-b")) == ["later"]
    _, grants = await store.index.copies("copy-b")
    # Judged as before the move: by the copy first granted (see the window tests below).
    assert sorted((g.address, g.copy_id, g.received_ts) for g in grants) == [(A, "copy-a", 1.0), (B, "copy-a", 1.0)]
    # The last copy leaves: gone for both, and the key is reported so its marks retire.
    assert await store.index.remove(["copy-b"]) == {"k"}
    assert await ids(store, a) == ["later"] and await ids(store, b) == ["later"]


async def test_a_grant_moves_only_to_a_copy_that_grants_that_address(
    store: Store, people: tuple[Identity, Identity]
) -> None:
    a, b = people
    # One message Bcc'd to a and b: each copy names only its own recipient (Delivered-To).
    await store.index.add([record("copy-a", 1, {A}, key="k"), record("copy-b", 2, {B}, key="k")])
    assert await ids(store, a) == ["copy-a"] and await ids(store, b) == ["copy-b"]
    # a's copy leaves: nothing left grants a, so a no longer sees it; b's grant stays as it was.
    assert await store.index.remove(["copy-a"]) == set()
    assert await ids(store, a) == [] and await ids(store, b) == ["copy-b"]
    assert (await cursor(store, A, "copy-a")).id == "copy-a"  # still a cursor for a


async def test_a_moved_grant_keeps_the_creation_window_of_the_copy_it_left(
    store: Store, people: tuple[Identity, Identity]
) -> None:
    a, _ = people
    # The name's earlier owner got the message at t=100; the copy of another recipient named
    # in To: arrived at t=600, after the name was re-created (its window opens at t=500).
    await store.index.add([record("copy-old", 100, {A, B}, key="k"), record("copy-late", 600, {A, B}, key="k")])
    await store.index.remove(["copy-old"])  # retention or an outside expunge takes the first copy
    since_creation = Filters(500)
    assert await ids(store, a) == ["copy-late"]  # the grant moved: the earlier owner keeps it
    assert await ids(store, a, since_creation) == []  # but the new owner never sees it
    assert await store.index.visible(a, "copy-late", since_creation) is None
    # What the window compares (a cursor, a grant) is the grant's first copy, not the later one.
    found = await cursor(store, A, "copy-late")
    assert (found.received_ts, found.id) == (100.0, "copy-old")
    _, grants = await store.index.copies("copy-late")
    assert sorted((g.address, g.copy_id, g.received_ts) for g in grants) == [
        (A, "copy-old", 100.0),
        (B, "copy-old", 100.0),
    ]
    # When that copy leaves too, its cursor still says when and where the grant began.
    await store.index.remove(["copy-late"])
    assert (await cursor(store, A, "copy-late")).received_ts == 100.0
    # And a copy arriving after all of them left grants nothing afresh (its own later time).
    await store.index.add([record("copy-deferred", 700, {A, B}, key="k")])
    assert await ids(store, a) == [] and await store.index.visible(a, "copy-deferred", since_creation) is None


async def test_a_moved_grant_keeps_the_fence_of_the_copy_it_left(
    store: Store, people: tuple[Identity, Identity]
) -> None:
    a, _ = people
    # IMAP ids: the re-created name is fenced at id-5; the later copy id-9 is past the fence.
    await store.index.add([record("id-1", 100, {A, B}, key="k"), record("id-9", 100, {A, B}, key="k")])
    await store.index.remove(["id-1"])
    fenced = Filters(0, "id-5")
    assert await ids(store, a) == ["id-9"]
    assert await ids(store, a, fenced) == []
    assert await store.index.visible(a, "id-9", fenced) is None
    assert (await cursor(store, A, "id-9")).id == "id-1"
    await store.index.remove(["id-9"])
    assert (await cursor(store, A, "id-9")).id == "id-1"  # a removed moved grant: still the first copy


async def test_remove_returns_the_keys_with_no_copy_left(store: Store, people: tuple[Identity, Identity]) -> None:
    await store.index.add([record("c1", 1, {A}, key="k"), record("c2", 1, {A}, key="k"), record("m", 2, {A})])
    assert await store.index.remove(["c1"]) == set()
    assert await store.index.remove(["c2", "m", "never-indexed"]) == {"k", "key-m"}
    assert await store.index.known_ids() == set() and await store.index.count() == 0
    assert await store.index.remove([]) == set()


async def test_adding_twice_is_harmless(store: Store, people: tuple[Identity, Identity]) -> None:
    await store.index.add([record("m1", 1, {A})])
    await store.index.add([record("m1", 1, {A})])
    assert await store.index.count() == 1 and await store.index.known_ids() == {"m1"}


async def test_a_batch_keeps_the_first_of_each_copy_in_its_order(
    store: Store, people: tuple[Identity, Identity]
) -> None:
    a, b = people
    await store.index.add([record("m0", 0, {A})])
    # More copies than one statement inserts, one of them twice, one indexed already.
    batch = [record(f"m{i}", i, {A}) for i in range(1, 100)]
    batch.insert(60, record("m10", 10, {B}, subject="the second of m10"))
    batch.insert(20, record("m0", 0, {B}))
    await store.index.add(batch)
    assert await ids(store, a, limit=200) == [f"m{i}" for i in reversed(range(100))]
    assert await ids(store, b) == []
    assert (await store.index.visible(a, "m10", ALL)) is not None


async def test_removed_copy_stays_a_cursor_for_its_addresses(store: Store, people: tuple[Identity, Identity]) -> None:
    a, _ = people
    await store.index.add([record(f"m{i}", float(i), {A}) for i in range(1, 5)])
    before_removal = await cursor(store, A, "m3")
    await store.index.remove(["m3"])
    assert await store.index.cursor_of(A, "m3") == before_removal
    assert (before_removal.received_ts, before_removal.id) == (3.0, "m3")
    assert await store.index.cursor_of(B, "m3") is None  # only for the addresses it was granted to
    assert await ids(store, a, before=before_removal) == ["m2", "m1"]
    assert await ids(store, a, after=before_removal) == ["m4"]
    assert await store.index.visible(a, "m3", ALL) is None


async def test_removed_cursors_go_with_retention_and_clear(store: Store, people: tuple[Identity, Identity]) -> None:
    await store.index.add([record("m1", 1.0, {A}), record("m2", 2.0, {A})])
    await store.index.remove(["m1", "m2"])
    await store.index.forget_cursors(before_ts=2.0)
    assert await store.index.cursor_of(A, "m1") is None
    assert (await cursor(store, A, "m2")).id == "m2"
    await store.index.clear()
    assert await store.index.cursor_of(A, "m2") is None


async def test_a_later_copy_of_a_removed_message_grants_nothing_again(
    store: Store, people: tuple[Identity, Identity]
) -> None:
    a, b = people
    await store.index.add([record("copy-1", 1, {A, B}, key="k")])
    await store.index.remove(["copy-1"])
    await store.index.add([record("copy-2", 1, {A, B}, key="k")])
    assert await ids(store, a) == [] and await ids(store, b) == []
    await store.index.add([record("other", 2, {A}, key="k2")])
    assert await ids(store, a) == ["other"]


async def test_meta_clear_and_older_than(store: Store, people: tuple[Identity, Identity]) -> None:
    assert await store.index.get_meta("source_generation") is None
    await store.index.set_meta("source_generation", "g1")
    await store.index.set_meta("source_generation", "g2")
    assert await store.index.get_meta("source_generation") == "g2"
    await store.index.add([record(f"m{i}", float(i), {A}) for i in range(1, 6)])
    assert await store.index.older_than(4.0, limit=2) == ["m1", "m2"]
    assert await store.index.older_than(4.0, limit=10) == ["m1", "m2", "m3"]
    await store.index.clear()
    assert await store.index.count() == 0 and await store.index.get_meta("source_generation") == "g2"


# --- claims ---------------------------------------------------------------------------


async def test_a_claim_is_taken_once_until_released_or_lapsed(
    store: Store, people: tuple[Identity, Identity], clock: Clock
) -> None:
    a, b = people
    assert await store.claims.take(a, "k", ttl=60)
    assert not await store.claims.take(a, "k", ttl=60)
    assert await store.claims.take(b, "k", ttl=60)  # claims are per identity
    await store.claims.release(a, "k")
    assert await store.claims.take(a, "k", ttl=60)
    clock.now += 60
    assert await store.claims.take(a, "k", ttl=60)  # the earlier claim lapsed
    await store.claims.release(a, "never-claimed")


async def test_the_next_lapse_is_the_soonest_live_claim_of_that_identity(
    store: Store, people: tuple[Identity, Identity], clock: Clock
) -> None:
    a, b = people
    assert await store.claims.next_lapse(a) is None
    await store.claims.take(a, "late", ttl=60)
    await store.claims.take(a, "soon", ttl=20)
    await store.claims.take(b, "sooner", ttl=5)  # another identity's claim is not a's business
    assert await store.claims.next_lapse(a) == pytest.approx(clock.now + 20)
    await store.claims.release(a, "soon")
    assert await store.claims.next_lapse(a) == pytest.approx(clock.now + 60)
    clock.now += 60
    assert await store.claims.next_lapse(a) is None  # lapsed: nothing holds a's mail any more


async def test_a_claim_for_a_deleted_identity_is_not_found(store: Store, people: tuple[Identity, Identity]) -> None:
    a, _ = people
    await store.identities.delete(a)
    with pytest.raises(NotFound):  # not a database error (a 500)
        await store.claims.take(a, "k", ttl=60)


async def test_claims_taken_by_many_tasks_at_once_never_both_win(
    store: Store, people: tuple[Identity, Identity]
) -> None:
    a, _ = people
    results = await asyncio.gather(*(store.claims.take(a, "k", ttl=60) for _ in range(20)))
    assert results.count(True) == 1


async def test_unclaimed_filter_skips_live_claims_only(
    store: Store, people: tuple[Identity, Identity], clock: Clock
) -> None:
    a, b = people
    await store.index.add([record("m1", 1, {A, B}), record("m2", 2, {A})])
    await store.claims.take(a, "key-m1", ttl=60)
    assert await ids(store, a, Filters(0, unclaimed=True)) == ["m2"]
    assert await ids(store, b, Filters(0, unclaimed=True)) == ["m1"]
    assert await ids(store, a) == ["m2", "m1"]  # a plain listing still shows it
    clock.now += 60
    assert await ids(store, a, Filters(0, unclaimed=True)) == ["m2", "m1"]


# --- rate counters --------------------------------------------------------------------


async def test_rate_limit_counts_a_sliding_window_per_key(store: Store, clock: Clock) -> None:
    for _ in range(3):
        assert await store.limits.retry_after("login:1.2.3.4", limit=3, window=100) is None
        assert await store.limits.acquire("login:1.2.3.4", limit=3, window=100) is None
        clock.now += 10
    # Three events at t=0, 10, 20; now t=30: the first leaves the window at t=100, so: 70 s and a bit.
    assert await store.limits.retry_after("login:1.2.3.4", limit=3, window=100) == 71
    assert await store.limits.acquire("login:1.2.3.4", limit=3, window=100) == 71  # and counts nothing
    assert await store.limits.retry_after("login:5.6.7.8", limit=3, window=100) is None
    await store.limits.release("login:1.2.3.4")
    assert await store.limits.retry_after("login:1.2.3.4", limit=3, window=100) is None
    assert await store.limits.acquire("login:1.2.3.4", limit=3, window=100) is None
    clock.now += 71
    assert await store.limits.retry_after("login:1.2.3.4", limit=3, window=100) is None


async def test_rate_limit_acquires_racing_on_one_key_never_pass_the_limit(store: Store) -> None:
    answers = await asyncio.gather(*(store.limits.acquire("k", limit=5, window=100) for _ in range(30)))
    assert answers.count(None) == 5


async def test_rate_events_are_bounded_in_all_the_oldest_going_first(
    store: Store, monkeypatch: pytest.MonkeyPatch
) -> None:
    for engine in ("sqlite", "postgres"):
        monkeypatch.setattr(f"gateway.store.{engine}.marks.MAX_RATE_EVENTS", 5)
    for i in range(10):  # ten clients, one failure each, far apart from nothing
        assert await store.limits.acquire(f"client-{i}", limit=1, window=1000) is None
    assert await store.limits.retry_after("client-0", limit=1, window=1000) is None  # forgotten first
    assert await store.limits.retry_after("client-9", limit=1, window=1000) is not None
