"""Sync, Inbox and Retention directly, on the real embedded source and the SQLite store.

No HTTP here: each test drives one of the three through its own methods, with real copies
delivered into a real Maildir, so a failure names the part that broke.
"""

from __future__ import annotations

import time
from collections.abc import AsyncIterator, Sequence
from dataclasses import dataclass
from pathlib import Path

import pytest

from gateway.errors import InvalidInput, NotFound
from gateway.inbox import Inbox, ListQuery, WaitQuery
from gateway.retention import Retention
from gateway.sources.local import LocalSource
from gateway.store import CopyRecord, Identity, Store
from gateway.store.sqlite import open_sqlite
from gateway.sync import GENERATION_KEY, Sync
from tests.conftest import make_message

DOMAIN = "d.test"
MAX_BYTES = 1024 * 1024


@dataclass
class Flow:
    source: LocalSource
    store: Store
    sync: Sync
    inbox: Inbox
    indexed: list[Sequence[CopyRecord]]

    async def mail(self, to: Sequence[str], subject: str, *, text: str = "Hello.") -> list[str]:
        """Deliver one message (one copy per recipient) and index it; its copy ids."""
        ids = await self.source.deliver(make_message(to=to, subject=subject, text=text).as_bytes(), to)
        changes = await self.source.next_batch()
        assert changes is not None and changes.added == ids
        await self.sync.ingest(changes.added)
        return ids

    async def subjects(self, identity: Identity, **query: object) -> list[str]:
        page = await self.inbox.listing(identity, ListQuery(**query))  # type: ignore[arg-type]
        return [s.subject for s in page.summaries]


@pytest.fixture
async def flow(tmp_path: Path) -> AsyncIterator[Flow]:
    source = LocalSource(tmp_path / "maildir")
    store = open_sqlite(tmp_path / "data", domain=DOMAIN, clock=time.time)
    sync = Sync(source, store.index, catchall=f"catchall@{DOMAIN}", max_bytes=MAX_BYTES)
    indexed: list[Sequence[CopyRecord]] = []
    sync.on_indexed(indexed.append)
    await source.start()
    yield Flow(source, store, sync, Inbox(store, source, max_bytes=MAX_BYTES), indexed)
    await source.stop()
    await store.engine.close()


async def person(flow: Flow, name: str) -> Identity:
    return (await flow.store.identities.create(name))[0]


# --- Sync -----------------------------------------------------------------------------


async def test_ingest_indexes_each_copy_and_tells_the_listeners(flow: Flow) -> None:
    a, b = await person(flow, "a"), await person(flow, "b")
    ids = await flow.mail([a.address, b.address], "to both")
    assert await flow.store.index.known_ids() == set(ids)
    assert [sorted(r.grants) for batch in flow.indexed for r in batch] == [[a.address, b.address]] * 2
    # Two copies of one message: one message key, and each address sees it once.
    assert len({r.message_key for batch in flow.indexed for r in batch}) == 1
    assert await flow.subjects(a) == ["to both"] and await flow.subjects(b) == ["to both"]


async def test_catch_up_indexes_what_the_index_lacks_and_forgets_what_left(flow: Flow) -> None:
    a = await person(flow, "a")
    kept = await flow.source.deliver(make_message(to=a.address, subject="kept").as_bytes(), [a.address])
    gone = await flow.source.deliver(make_message(to=a.address, subject="gone").as_bytes(), [a.address])
    await flow.sync.catch_up()
    assert await flow.store.index.known_ids() == set(kept + gone)
    flow.source.maildir.remove(gone[0])  # behind the gateway's back
    await flow.sync.catch_up()
    assert await flow.store.index.known_ids() == set(kept)
    assert await flow.subjects(a) == ["kept"]


async def test_a_new_source_generation_empties_and_rebuilds_the_index(flow: Flow) -> None:
    a = await person(flow, "a")
    await flow.mail([a.address], "one")
    await flow.store.index.set_meta(GENERATION_KEY, "an older generation")
    await flow.store.index.add([CopyRecord("stale", 1.0, 1, "x", (), "stale", "k", frozenset({a.address}))])
    await flow.sync.catch_up()
    assert await flow.store.index.get_meta(GENERATION_KEY) == flow.source.generation
    assert "stale" not in await flow.store.index.known_ids()
    assert await flow.subjects(a) == ["one"]


# --- Inbox ----------------------------------------------------------------------------


async def test_inbox_pages_and_refuses_two_cursors(flow: Flow) -> None:
    a = await person(flow, "a")
    for i in range(5):
        await flow.mail([a.address], f"m{i}")
    page = await flow.inbox.listing(a, ListQuery(limit=2))
    assert [s.subject for s in page.summaries] == ["m4", "m3"] and page.next_before_id == page.summaries[-1].id
    rest = await flow.inbox.listing(a, ListQuery(limit=10, before_id=page.next_before_id))
    assert [s.subject for s in rest.summaries] == ["m2", "m1", "m0"] and rest.next_before_id is None
    with pytest.raises(InvalidInput):
        await flow.inbox.listing(a, ListQuery(before_id="x", after_id="y"))
    with pytest.raises(NotFound):
        await flow.inbox.listing(a, ListQuery(before_id="no-such-message"))


async def test_an_identity_never_sees_mail_from_before_it_existed(flow: Flow) -> None:
    early = await person(flow, "early")
    await flow.mail([early.address, f"late@{DOMAIN}"], "before late existed")
    late = await person(flow, "late")
    await flow.mail([late.address], "after")
    assert await flow.subjects(late) == ["after"]
    (old,) = (await flow.inbox.listing(early, ListQuery())).summaries
    with pytest.raises(NotFound):
        await flow.inbox.summary(late, old.id)
    with pytest.raises(NotFound):  # not even as a paging cursor
        await flow.inbox.listing(late, ListQuery(before_id=old.id))


async def test_claims_hand_out_unseen_mail_oldest_first_once(flow: Flow) -> None:
    a = await person(flow, "a")
    for code in ("111111", "222222"):
        await flow.mail([a.address], code)
    first = await flow.inbox.claim(a, WaitQuery())
    second = await flow.inbox.claim(a, WaitQuery())
    assert first is not None and second is not None
    assert (first.subject, second.subject) == ("111111", "222222")
    assert await flow.inbox.claim(a, WaitQuery()) is None  # both held
    await flow.inbox.settle(a, first, delivered=True, mark_seen=True)
    await flow.inbox.settle(a, second, delivered=False, mark_seen=True)  # never reached its client
    again = await flow.inbox.claim(a, WaitQuery())
    assert again is not None and again.subject == "222222"
    # With include_seen: the newest match no other wait holds (222222 is held by the wait above).
    newest = await flow.inbox.claim(a, WaitQuery(include_seen=True))
    assert newest is not None and newest.subject == "111111" and newest.seen
    await flow.inbox.settle(a, newest, delivered=True, mark_seen=True)
    await flow.inbox.settle(a, again, delivered=True, mark_seen=True)
    newest = await flow.inbox.claim(a, WaitQuery(include_seen=True))
    assert newest is not None and newest.subject == "222222" and newest.seen


async def test_read_marks_seen_only_when_asked(flow: Flow) -> None:
    a = await person(flow, "a")
    (copy_id,) = await flow.mail([a.address], "read me", text="Your code is 314159.")
    peek = await flow.inbox.read(a, copy_id, mark_seen=False)
    assert not peek.summary.seen and peek.parsed.subject == "read me"
    assert [c.value for c in peek.summary.codes] == ["314159"]
    assert (await flow.inbox.read(a, copy_id, mark_seen=True)).summary.seen
    assert (await flow.inbox.listing(a, ListQuery())).summaries[0].seen
    assert not (await flow.inbox.set_seen(a, copy_id, False)).seen


async def test_delete_expunges_only_once_nobody_sees_the_message(flow: Flow) -> None:
    a, b = await person(flow, "a"), await person(flow, "b")
    copies = await flow.mail([a.address, b.address], "shared")
    (mine,) = (await flow.inbox.listing(a, ListQuery())).summaries
    await flow.inbox.delete(a, mine.id)
    assert await flow.subjects(a) == [] and await flow.subjects(b) == ["shared"]
    assert sorted(await flow.source.snapshot()) == sorted(copies)  # b still sees it
    (theirs,) = (await flow.inbox.listing(b, ListQuery())).summaries
    await flow.inbox.delete(b, theirs.id)
    assert await flow.source.snapshot() == [] and await flow.store.index.count() == 0


# --- Retention ------------------------------------------------------------------------


async def test_retention_deletes_old_mail_from_the_mailbox_index_and_marks(flow: Flow) -> None:
    a = await person(flow, "a")
    (old,) = await flow.mail([a.address], "old")
    await flow.store.marks.set_seen(a, (await flow.inbox.summary(a, old)).message_key, True)
    later = time.time() + 31 * 86400
    retention = Retention(flow.source, flow.store, days=30)
    assert await retention.sweep(now=time.time()) == 0  # nothing is 30 days old yet
    assert await retention.sweep(now=later) == 1
    assert await flow.source.snapshot() == [] and await flow.store.index.count() == 0
    assert await flow.subjects(a) == []
    rows = await flow.store.engine.db.run(lambda c: c.execute("SELECT count(*) FROM marks").fetchone())  # type: ignore[attr-defined]
    assert rows == (0,)  # the mark went with the message's last copy


async def test_retention_zero_keeps_everything(flow: Flow) -> None:
    a = await person(flow, "a")
    await flow.mail([a.address], "kept")
    assert await Retention(flow.source, flow.store, days=0).sweep(now=time.time() + 365 * 86400) == 0
    assert await flow.subjects(a) == ["kept"]


async def test_retention_drops_cursors_of_removed_mail_with_it(flow: Flow) -> None:
    a = await person(flow, "a")
    (copy_id,) = await flow.mail([a.address], "deleted then aged")
    await flow.inbox.delete(a, copy_id)
    assert await flow.store.index.cursor_of(a.address, copy_id) is not None  # a deleted message stays a cursor
    await Retention(flow.source, flow.store, days=30).sweep(now=time.time() + 31 * 86400)
    assert await flow.store.index.cursor_of(a.address, copy_id) is None


# --- Ordering, grants and marks after outside expunges ----------------------------------


async def test_a_cursor_taken_between_two_racing_deliveries_skips_neither(flow: Flow) -> None:
    a = await person(flow, "a")
    first = await flow.source.deliver(make_message(to=a.address, subject="received first").as_bytes(), [a.address])
    second = await flow.source.deliver(make_message(to=a.address, subject="received second").as_bytes(), [a.address])
    changes = await flow.source.next_batch()
    assert changes is not None and changes.added == first + second
    # The two race through indexing and finish in the other order (another lane, a retry).
    await flow.sync.ingest(second)
    # A stream or a client paging with after_id remembers the last id it got.
    (seen,) = (await flow.inbox.listing(a, ListQuery())).summaries
    assert seen.subject == "received second"
    await flow.sync.ingest(first)
    # Received earlier but indexed after the cursor was taken: the next page and the resumed
    # stream both get it (ordered by receipt time, both skipped it for good).
    page = await flow.inbox.listing(a, ListQuery(after_id=seen.id))
    assert [s.subject for s in page.summaries] == ["received first"]
    assert [s.subject for s in await flow.inbox.newer(a, seen.id)] == ["received first"]
    assert await flow.subjects(a) == ["received first", "received second"]  # newest indexed first


async def test_a_surviving_copy_keeps_the_message_for_every_address_it_grants(flow: Flow) -> None:
    a, b = await person(flow, "a"), await person(flow, "b")
    await flow.sync.catch_up()  # the index knows the mailbox: later catch-ups reconcile, not rebuild
    # To: a, b, delivered to both: a's copy and b's copy each name both in To.
    copy_a, copy_b = await flow.mail([a.address, b.address], "to both")
    (seen_by_a,) = (await flow.inbox.listing(a, ListQuery())).summaries
    assert seen_by_a.id == copy_a  # both were granted the first copy
    flow.source.maildir.remove(copy_a)  # an outside expunge (or retention) takes that copy only
    await flow.sync.catch_up()  # the reconcile
    # The copy that remains names both: both still see the message, through it; nothing else
    # about it changed for them (same place in the listing, same marks).
    assert [s.id for s in (await flow.inbox.listing(a, ListQuery())).summaries] == [copy_b]
    assert [s.id for s in (await flow.inbox.listing(b, ListQuery())).summaries] == [copy_b]
    assert (await flow.inbox.read(b, copy_b, mark_seen=False)).parsed.subject == "to both"


async def test_a_copy_that_leaves_takes_the_message_only_from_those_no_other_copy_grants(flow: Flow) -> None:
    a, b = await person(flow, "a"), await person(flow, "b")
    # Bcc'd to both: each copy is granted only by its own Delivered-To.
    msg = make_message(to=f"list@{DOMAIN}", subject="bcc").as_bytes()
    copy_a, copy_b = await flow.source.deliver(msg, [a.address, b.address])
    await flow.sync.catch_up()
    flow.source.maildir.remove(copy_a)
    await flow.sync.catch_up()
    # What is right: a loses it (no copy left names a), b keeps its own copy untouched.
    assert await flow.subjects(a) == []
    assert [s.id for s in (await flow.inbox.listing(b, ListQuery())).summaries] == [copy_b]


async def test_a_re_created_name_never_gets_old_mail_through_a_copy_that_remains(flow: Flow) -> None:
    old_owner = await person(flow, "x")
    await flow.sync.catch_up()  # the index knows the mailbox: later catch-ups reconcile, not rebuild
    # A sign-up mail To: x and z; z's copy is deferred by the sending server.
    headers = [("Message-ID", "<sign-up@example.com>")]  # one message: its copies share a key
    raw = make_message(to=[old_owner.address, f"z@{DOMAIN}"], subject="old owner's code", headers=headers).as_bytes()
    (copy_x,) = await flow.source.deliver(raw, [old_owner.address])
    await flow.sync.catch_up()
    await flow.store.identities.delete(old_owner)
    new_owner, _ = await flow.store.identities.create("x", force=True)
    await flow.source.deliver(raw, [f"z@{DOMAIN}"])  # z's copy arrives, naming x in To
    await flow.sync.catch_up()
    assert await flow.subjects(new_owner) == []
    flow.source.maildir.remove(copy_x)  # retention or an outside expunge takes x's copy first
    await flow.sync.catch_up()
    # x's grant moves to z's copy, but keeps when it was granted: before the new owner existed.
    assert await flow.subjects(new_owner) == []


async def test_marks_of_mail_expunged_from_outside_are_retired_and_pruned(flow: Flow) -> None:
    a = await person(flow, "a")
    (copy_id,) = await flow.mail([a.address], "seen then expunged outside")
    await flow.inbox.read(a, copy_id, mark_seen=True)
    (kept,) = await flow.mail([a.address], "seen and kept")
    await flow.inbox.read(a, kept, mark_seen=True)
    flow.source.maildir.remove(copy_id)  # behind the gateway's back
    await flow.sync.catch_up()
    retention = Retention(flow.source, flow.store, days=30)  # the index is caught up
    await retention.sweep(now=time.time())  # retires the orphaned mark now (nothing else)
    marks = await flow.store.engine.db.run(  # type: ignore[attr-defined]
        lambda c: c.execute("SELECT message_key, retired_at IS NOT NULL FROM marks").fetchall()
    )
    kept_key = (await flow.inbox.summary(a, kept)).message_key
    assert sorted(retired for key, retired in marks if key != kept_key) == [1]
    assert [retired for key, retired in marks if key == kept_key] == [0]
    assert [(s.subject, s.seen) for s in (await flow.inbox.listing(a, ListQuery())).summaries] == [
        ("seen and kept", True)
    ]
    # Once the retention period has passed, the orphan goes (with the kept mail, now old too).
    await retention.sweep(now=time.time() + 31 * 86400)
    rows = await flow.store.engine.db.run(lambda c: c.execute("SELECT count(*) FROM marks").fetchone())  # type: ignore[attr-defined]
    assert rows == (0,)  # before: the orphaned mark was never retired, so never pruned


async def test_retention_leaves_marks_alone_while_the_index_is_rebuilt(flow: Flow) -> None:
    a = await person(flow, "a")
    (copy_id,) = await flow.mail([a.address], "seen")
    await flow.inbox.read(a, copy_id, mark_seen=True)
    await flow.store.index.clear()  # the index is being rebuilt: every message looks gone
    retention = Retention(flow.source, flow.store, days=30, index_ready=lambda: False)
    await retention.sweep(now=time.time())
    await retention.sweep(now=time.time() + 31 * 86400)
    await flow.sync.catch_up()
    assert [(s.subject, s.seen) for s in (await flow.inbox.listing(a, ListQuery())).summaries] == [("seen", True)]
