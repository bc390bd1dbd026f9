"""Contract: sent and received grants, and each address's threads, in the index on every engine."""

from __future__ import annotations

from typing import Literal

import pytest

from gateway.mail.threads import SUBJECT_WINDOW, ThreadKeys, normalize_subject, thread_id_for
from gateway.store import CopyRecord, Filters, Identity, Store
from tests.store.conftest import DOMAIN

A, B = f"a@{DOMAIN}", f"b@{DOMAIN}"
ALL = Filters(0)
SENT = Filters(0, direction="sent")
BOTH = Filters(0, direction="all")
DAY = 86400.0


def rec(
    copy_id: str,
    ts: float,
    grants: set[str],
    *,
    key: str | None = None,
    mid: str | None = None,
    refs: tuple[str, ...] = (),
    subject: str = "Hello",
    sender: str = "x@far.test",
    to: tuple[str, ...] = (),
    direction: Literal["received", "sent"] = "received",
    threaded: bool = True,
) -> CopyRecord:
    people = frozenset({sender, *to, *grants})
    keys = ThreadKeys(mid, refs, normalize_subject(subject), sender, people) if threaded else None
    return CopyRecord(
        copy_id,
        ts,
        100,
        sender,
        tuple(sorted(to or grants)),
        subject,
        key or f"key-{copy_id}",
        frozenset(grants),
        direction=direction,
        thread=keys,
    )


@pytest.fixture
async def people(store: Store) -> tuple[Identity, Identity]:
    a, _ = await store.identities.create("a")
    b, _ = await store.identities.create("b")
    return a, b


async def ids(store: Store, who: Identity, filters: Filters = ALL) -> list[str]:
    return [s.id for s in await store.index.listing(who, filters, limit=50)]


async def tid(store: Store, who: Identity, copy_id: str) -> str:
    found = await store.index.visible(who, copy_id, BOTH)
    assert found is not None and found.thread_id is not None
    return found.thread_id


# --- direction --------------------------------------------------------------------------


async def test_a_sent_copy_is_listed_only_when_asked_for(store: Store, people: tuple[Identity, Identity]) -> None:
    a, b = people
    await store.index.add(
        [
            rec("r1", 1, {A}, mid="<r1@x>"),
            rec("sent.s1", 2, {A}, mid="<s1@d>", sender=A, to=(B,), direction="sent"),  # granted as given: From only
            rec("r2", 3, {B}, key="key-sent.s1", mid="<s1@d>", sender=A),  # B's received copy of it
        ]
    )
    assert await ids(store, a) == ["r1"]  # the default: received mail only
    assert await ids(store, a, SENT) == ["sent.s1"]
    assert await ids(store, a, BOTH) == ["sent.s1", "r1"]
    assert await ids(store, b, SENT) == [] and await ids(store, b) == ["r2"]
    assert await store.index.visible(a, "sent.s1", ALL) is None  # received-only unless asked
    summary = await store.index.visible(a, "sent.s1", SENT)
    assert summary is not None and summary.direction == "sent" and summary.thread_id
    (received,) = await store.index.listing(a, ALL, limit=5)
    assert received.direction == "received" and received.thread_id
    assert await store.index.cursor_of(A, "sent.s1") is None
    cursor = await store.index.cursor_of(A, "sent.s1", direction="sent")
    assert cursor is not None and await store.index.cursor_of(A, "sent.s1", direction="all") == cursor
    assert [s.id for s in await store.index.listing(a, BOTH, limit=5, before=cursor)] == ["r1"]
    # What waits and event streams read (received, after a cursor, unclaimed) never holds a sent copy.
    start = await store.index.cursor_of(A, "r1")
    assert start is not None
    assert await store.index.listing(a, Filters(0, unclaimed=True), limit=5, after=start) == []


async def test_mailing_yourself_gives_two_grants_one_per_direction(
    store: Store, people: tuple[Identity, Identity]
) -> None:
    a, _ = people
    await store.index.add(
        [
            rec("r1", 1, {A}, key="k", mid="<m@d>", sender=A),
            rec("r2", 1, {A}, key="k", mid="<m@d>", sender=A),  # a second received copy: nothing more
            rec("sent.1", 2, {A}, key="k", mid="<m@d>", sender=A, direction="sent"),
            rec("sent.2", 2, {A}, key="k", mid="<m@d>", sender=A, direction="sent"),
        ]
    )
    assert await ids(store, a) == ["r1"] and await ids(store, a, SENT) == ["sent.1"]
    assert await ids(store, a, BOTH) == ["sent.1", "r1"]
    assert await tid(store, a, "r1") == await tid(store, a, "sent.1")  # one thread, two messages
    copies, grants = await store.index.copies("r1")
    assert sorted(copies) == ["r1", "r2", "sent.1", "sent.2"]
    assert sorted(g.copy_id for g in grants) == ["r1", "sent.1"]


async def test_grant_rules_hold_per_direction(store: Store, people: tuple[Identity, Identity]) -> None:
    a, _ = people
    await store.index.add(
        [
            rec("r1", 1, {A}, key="k", mid="<m@d>"),
            rec("r2", 2, {A}, key="k", mid="<m@d>"),
            rec("sent.1", 3, {A}, key="k", mid="<m@d>", sender=A, direction="sent"),
        ]
    )
    thread = await tid(store, a, "r1")
    await store.index.remove(["r1"])  # the received grant moves to the other received copy
    assert await ids(store, a) == ["r2"] and await ids(store, a, SENT) == ["sent.1"]
    assert await tid(store, a, "r2") == thread
    await store.index.remove(["sent.1"])  # never to a copy of the other direction
    assert await ids(store, a, SENT) == [] and await ids(store, a) == ["r2"]
    # A later copy of the sent message (the Sent folder renumbered, a repeated outbox step) is the
    # sender's again: unlike a received message, whose later copies never bring back one removed.
    await store.index.add([rec("sent.2", 4, {A}, key="k", mid="<m@d>", sender=A, direction="sent")])
    assert await ids(store, a, SENT) == ["sent.2"]
    assert await store.index.cursor_of(A, "sent.1", direction="sent") is not None  # still a cursor
    await store.index.remove(["r2"])
    await store.index.add([rec("r3", 5, {A}, key="k", mid="<m@d>")])
    assert await ids(store, a) == []  # received: removed once, never granted again


# --- threads ----------------------------------------------------------------------------


async def test_a_reference_chain_joins_a_thread_sent_and_received(
    store: Store, people: tuple[Identity, Identity]
) -> None:
    a, _ = people
    await store.index.add(
        [
            rec("r1", 1 * DAY, {A}, mid="<1@far>", subject="Plans"),
            rec(
                "sent.1", 2 * DAY, {A}, mid="<2@d>", refs=("<1@far>",), subject="Re: Plans", sender=A, direction="sent"
            ),
            rec("r2", 3 * DAY, {A}, mid="<3@far>", refs=("<1@far>", "<2@d>"), subject="totally new words"),
            rec("r3", 4 * DAY, {A}, mid="<4@far>", refs=("<2@d>",), subject="RE: plans"),  # only the middle id
        ]
    )
    thread = await tid(store, a, "r1")
    assert thread == thread_id_for(A, "<1@far>")
    assert {await tid(store, a, c) for c in ("sent.1", "r2", "r3")} == {thread}
    messages = await store.index.thread(a, thread, ALL)
    assert [(m.id, m.direction) for m in messages] == [
        ("r1", "received"),
        ("sent.1", "sent"),
        ("r2", "received"),
        ("r3", "received"),
    ]


async def test_a_subject_joins_only_from_a_participant_within_the_window(
    store: Store, people: tuple[Identity, Identity]
) -> None:
    a, _ = people
    t0 = 100 * DAY
    await store.index.add(
        [rec("r1", t0, {A}, mid="<1@far>", subject="Weekly report", sender="boss@far.test", to=(A, "cc@far.test"))]
    )
    first = await tid(store, a, "r1")
    await store.index.add(
        [
            # The same sender, the same subject (prefixes and case aside), no chain: joins.
            rec("r2", t0 + DAY, {A}, mid="<2@far>", subject="Fwd: WEEKLY  report", sender="boss@far.test"),
            # A stranger with the same subject: a thread of its own.
            rec("r3", t0 + 2 * DAY, {A}, mid="<3@far>", subject="Weekly report", sender="spam@else.test"),
            # Someone already in the thread (its Cc) may join it too.
            rec("r4", t0 + 3 * DAY, {A}, mid="<4@far>", subject="weekly report", sender="cc@far.test"),
            # No subject: never joins by subject.
            rec("r5", t0 + 3 * DAY, {A}, mid="<5@far>", subject="Re:", sender="boss@far.test"),
        ]
    )
    assert await tid(store, a, "r2") == first and await tid(store, a, "r4") == first
    assert await tid(store, a, "r3") == thread_id_for(A, "<3@far>") != first
    assert await tid(store, a, "r5") == thread_id_for(A, "<5@far>")
    # Past the window after the thread's last message: a new thread, even from its sender.
    late = t0 + 3 * DAY + SUBJECT_WINDOW + 1
    await store.index.add([rec("r6", late, {A}, mid="<6@far>", subject="Weekly report", sender="boss@far.test")])
    assert await tid(store, a, "r6") == thread_id_for(A, "<6@far>")
    # A message with a chain never joins by subject, even one naming nothing we hold.
    await store.index.add(
        [
            rec(
                "r7",
                late + 1,
                {A},
                mid="<7@far>",
                refs=("<elsewhere@x>",),
                subject="Weekly report",
                sender="boss@far.test",
            )
        ]
    )
    assert await tid(store, a, "r7") == thread_id_for(A, "<elsewhere@x>")


async def test_two_identities_never_share_a_thread(store: Store, people: tuple[Identity, Identity]) -> None:
    a, b = people
    await store.index.add(
        [
            rec("r1", 1, {A, B}, mid="<1@far>"),
            rec("r2", 2, {A, B}, mid="<2@far>", refs=("<1@far>",)),
        ]
    )
    assert await tid(store, a, "r1") == await tid(store, a, "r2")
    assert await tid(store, b, "r1") == await tid(store, b, "r2")
    assert await tid(store, a, "r1") != await tid(store, b, "r1")
    assert [t.thread_id for t in await store.index.threads(a, ALL, limit=10)] == [await tid(store, a, "r1")]
    assert await store.index.thread(b, await tid(store, a, "r1"), ALL) == []


async def test_a_record_without_thread_keys_is_a_thread_of_its_own(
    store: Store, people: tuple[Identity, Identity]
) -> None:
    a, _ = people
    await store.index.add(
        [rec("r1", 1, {A}, key="k1", threaded=False), rec("r2", 2, {A}, key="k2", subject="Hello", threaded=False)]
    )
    assert await tid(store, a, "r1") == thread_id_for(A, "k1")
    assert await tid(store, a, "r2") == thread_id_for(A, "k2")


CONVERSATION = [
    rec("r1", 1 * DAY, {A, B}, mid="<1@far>", subject="Launch", sender="p@far.test"),
    rec("r2", 2 * DAY, {A}, mid="<2@far>", refs=("<1@far>",), subject="Re: Launch", sender="q@far.test"),
    rec("r3", 3 * DAY, {A}, mid="<3@far>", subject="launch", sender="p@far.test"),  # by subject
    rec("r4", 4 * DAY, {A}, mid="<4@far>", subject="Other", sender="z@far.test"),
    rec("sent.1", 5 * DAY, {A}, mid="<5@d>", refs=("<4@far>",), subject="Re: Other", sender=A, direction="sent"),
]


async def _thread_ids(store: Store, who: Identity, copy_ids: list[str]) -> list[str]:
    return [await tid(store, who, c) for c in copy_ids]


async def test_thread_ids_survive_a_rebuild_in_either_order(store: Store, people: tuple[Identity, Identity]) -> None:
    a, b = people
    await store.index.add(CONVERSATION)
    names = [r.copy_id for r in CONVERSATION]
    first = await _thread_ids(store, a, names)
    assert len(set(first)) == 2
    await store.index.clear()
    for r in CONVERSATION:  # the same mailbox, the same order, one copy at a time
        await store.index.add([r])
    assert await _thread_ids(store, a, names) == first
    await store.index.clear()
    # A reply indexed before its original (the Sent folder is read after the inbox, say).
    await store.index.add([CONVERSATION[1], CONVERSATION[4], CONVERSATION[0], CONVERSATION[3], CONVERSATION[2]])
    assert await _thread_ids(store, a, names) == first
    assert await tid(store, b, "r1") != first[0]


async def test_threads_list_latest_first_with_counts_of_what_the_identity_sees(
    store: Store, people: tuple[Identity, Identity]
) -> None:
    a, b = people
    await store.index.add(CONVERSATION)
    launch, other = await tid(store, a, "r1"), await tid(store, a, "r4")
    await store.marks.set_seen(a, "key-r2", True)
    await store.marks.set_seen(a, "key-sent.1", True)
    threads = await store.index.threads(a, ALL, limit=10)
    assert [(t.thread_id, t.message_count, t.unseen_count, t.last_ts) for t in threads] == [
        (other, 2, 1, 5 * DAY),  # the sent copy counts as a message, never as unseen
        (launch, 3, 2, 3 * DAY),
    ]
    assert (threads[1].subject, threads[0].subject) == ("Launch", "Other")
    assert threads[1].participants[:2] == ("p@far.test", A)  # the first message's sender first
    assert "q@far.test" in threads[1].participants
    # Paging: after the first page's last thread.
    (page1,) = await store.index.threads(a, ALL, limit=1)
    assert page1.thread_id == other
    page2 = await store.index.threads(a, ALL, limit=1, before=(page1.last_ts, page1.last_seq))
    assert [t.thread_id for t in page2] == [launch]
    assert await store.index.threads(a, ALL, limit=1, before=(page2[0].last_ts, page2[0].last_seq)) == []
    # Deleted messages do not count; a thread with nothing visible is not listed.
    await store.marks.set_deleted(a, "key-r3")
    await store.marks.set_deleted(a, "key-r4")
    await store.marks.set_deleted(a, "key-sent.1")
    threads = await store.index.threads(a, ALL, limit=10)
    assert [(t.thread_id, t.message_count, t.unseen_count, t.last_ts) for t in threads] == [(launch, 2, 1, 2 * DAY)]
    assert [m.id for m in await store.index.thread(a, launch, ALL)] == ["r1", "r2"]
    # The window: what came before it is not seen, nor counted.
    assert [(t.message_count, t.last_ts) for t in await store.index.threads(a, Filters(2 * DAY), limit=10)] == [
        (1, 2 * DAY)
    ]
    assert [m.id for m in await store.index.thread(a, launch, Filters(2 * DAY))] == ["r2"]
    (theirs,) = await store.index.threads(b, ALL, limit=10)
    assert (theirs.message_count, theirs.subject) == (1, "Launch")


async def test_a_reply_read_before_the_message_linking_it_joins_once_that_is_read(
    store: Store, people: tuple[Identity, Identity]
) -> None:
    a, _ = people
    asked = rec("r1", 1, {A}, mid="<q@far>", subject="Quote")
    answered = rec("sent.1", 2, {A}, mid="<a@d>", refs=("<q@far>",), subject="Re: Quote", sender=A, direction="sent")
    # Its mail client sets only In-Reply-To: the chain names the answer, not the question.
    again = rec("r2", 3, {A}, mid="<b@far>", refs=("<a@d>",), subject="Re: Quote")
    await store.index.add([asked, answered, again])
    live = [await tid(store, a, n) for n in ("r1", "sent.1", "r2")]
    assert len(set(live)) == 1
    await store.index.clear()
    # A rebuild over Dovecot reads INBOX, then Sent: the last answer comes before what links it.
    await store.index.add([asked, again])
    assert await tid(store, a, "r2") != await tid(store, a, "r1")  # two threads, for now
    await store.index.add([answered])
    assert [await tid(store, a, n) for n in ("r1", "sent.1", "r2")] == live  # merged under the live id
    (thread,) = await store.index.threads(a, ALL, limit=5)
    assert (thread.thread_id, thread.message_count) == (live[0], 3)
