"""The `MailSource` contract (gateway/sources/base.py), once, over every source kind.

Each test names the member whose docstring it checks. Mail goes in over real SMTP (the
embedded intake, or Postfix into Dovecot) or through `deliver`; the tests wait on
`next_batch` or on Postfix's queue, never on the clock.
"""

from __future__ import annotations

import asyncio
import threading
import time
from email.message import EmailMessage
from email.parser import BytesParser
from email.policy import default

import pytest

from gateway.errors import InvalidInput
from gateway.mail.parse import raw_headers
from gateway.sources.base import MailSource
from tests.conftest import DOMAIN, make_message
from tests.contract.conftest import Harness, arrivals

ALICE = f"alice@{DOMAIN}"
BOB = f"bob@{DOMAIN}"
TRACE_FIELDS = ["Return-Path", "Delivered-To", "X-Original-To", "Received"]
"""What the embedded intake stamps on every copy, in this order (tests/intake checks the values)."""


def parse(raw: bytes) -> EmailMessage:
    msg = BytesParser(policy=default).parsebytes(raw)
    assert isinstance(msg, EmailMessage)
    return msg


def subjects(messages: list[EmailMessage]) -> list[str]:
    return [str(m["Subject"]) for m in messages]


async def fetch_parsed(source: MailSource, ids: list[str]) -> list[EmailMessage]:
    return [parse(m.raw) for m in await source.fetch(ids)]


# --- start / stop ---------------------------------------------------------------------------


async def test_stop_ends_a_pending_next_batch_with_none(harness: Harness) -> None:
    source = harness.make()
    await harness.start(source)
    pending = asyncio.create_task(source.next_batch())
    await harness.stop(source)
    async with asyncio.timeout(15):
        assert await pending is None
        assert await source.next_batch() is None  # and every later call


async def test_started_source_on_a_live_mailbox_is_reachable(harness: Harness, source: MailSource) -> None:
    assert await source.snapshot() == []  # it answered...
    assert source.reachable  # ...and says so


async def test_unreachable_mailbox_starts_and_says_so(harness: Harness) -> None:
    source = harness.make_unreachable()
    if source is None:
        assert harness.make().reachable  # a local directory is always there
        return
    await harness.start(source)  # never raises: the source retries in the background
    assert not source.reachable


# --- listen / hint --------------------------------------------------------------------------


async def test_listen_reports_the_smtp_intake_or_none(harness: Harness) -> None:
    source = harness.make()
    listeners = await harness.start(source, listen=True)
    assert listeners is not None
    if harness.kind == "local":
        assert listeners.smtp_address is not None and listeners.smtp_address[1] > 0
        await harness.send(make_message(to=ALICE, subject="through the intake"), [ALICE])
        assert subjects(await fetch_parsed(source, await arrivals(source, 1))) == ["through the intake"]
    else:  # mail reaches Dovecot through Postfix; the push listener is all that listens
        assert listeners.smtp_address is None
        assert harness.settings.push_address is not None
        (push,) = listeners.servers
        assert push.sockets[0].getsockname()[:2] == harness.settings.push_address
    await listeners.close()
    assert all(not server.is_serving() for server in listeners.servers)


async def test_hint_from_another_thread_wakes_next_batch(harness: Harness) -> None:
    # A quiet imap source: no IDLE, a heartbeat longer than the test; only `hint` wakes it.
    quiet = harness.make(quiet=True)
    listeners = None
    if harness.kind == "local":
        listeners = await harness.start(quiet, listen=True)  # the local source's mail comes this way
    else:
        await harness.start(quiet)
    await harness.send(make_message(to=ALICE, subject="first"), [ALICE])
    assert len(await arrivals(quiet, 1)) == 1  # the start-up look found it; no wake-up is left over
    pending = asyncio.create_task(quiet.next_batch())
    await harness.send(make_message(to=ALICE, subject="second"), [ALICE])
    hinter = threading.Thread(target=quiet.hint)
    hinter.start()
    await asyncio.to_thread(hinter.join)
    async with asyncio.timeout(10):  # far below the quiet heartbeat
        changes = await pending
    assert changes is not None and len(changes.added) == 1
    assert subjects(await fetch_parsed(quiet, changes.added)) == ["second"]
    if listeners is not None:
        await listeners.close()


# --- snapshot / next_batch ------------------------------------------------------------------


async def test_snapshot_lists_every_delivered_copy(harness: Harness, source: MailSource) -> None:
    await harness.send(make_message(to=[ALICE, BOB], subject="to both"), [ALICE, BOB])
    present = await source.snapshot()
    assert len(present) == 2  # one copy per envelope recipient
    delivered_to = {str(m["Delivered-To"]) for m in await fetch_parsed(source, present)}
    assert delivered_to == {ALICE, BOB}


async def test_next_batch_announces_new_copies_in_arrival_order(harness: Harness, source: MailSource) -> None:
    for i in range(3):
        await harness.send(make_message(to=ALICE, subject=f"m{i}"), [ALICE])
    announced = await arrivals(source, 3)
    assert subjects(await fetch_parsed(source, announced)) == ["m0", "m1", "m2"]
    assert await source.snapshot() == announced  # snapshot: oldest first


# --- fetch ----------------------------------------------------------------------------------


async def test_fetch_returns_bytes_size_and_receipt_time(harness: Harness, source: MailSource) -> None:
    # The sender's Date is years off: the receipt time must be the store's own.
    old_date = [("Date", "Mon, 1 Jan 2001 00:00:00 +0000")]
    msg = make_message(to=ALICE, subject="timed", text="body-7f3a", headers=old_date)
    before = time.time()
    await harness.send(msg, [ALICE])
    (copy_id,) = await arrivals(source, 1)
    after = time.time()
    (stored,) = await source.fetch([copy_id])
    assert stored.id == copy_id
    assert stored.size == len(stored.raw)
    assert b"Subject: timed" in stored.raw and b"body-7f3a" in stored.raw
    assert before - source.resolution <= stored.received_ts <= after + source.resolution


async def test_fetch_with_max_bytes_cuts_raw_but_reports_the_full_size(harness: Harness, source: MailSource) -> None:
    for subject in ("cut first", "whole first"):
        await harness.send(make_message(to=ALICE, subject=subject, text="x" * 5000), [ALICE])
    cut_first, whole_first = await arrivals(source, 2)

    (cut,) = await source.fetch([cut_first], max_bytes=100)
    (whole,) = await source.fetch([cut_first])
    assert len(whole.raw) == whole.size > 5000
    assert cut.raw == whole.raw[:100] and cut.size == whole.size

    (whole,) = await source.fetch([whole_first])  # read whole first: cut still (any cache too)
    (cut,) = await source.fetch([whole_first], max_bytes=100)
    assert cut.raw == whole.raw[:100] and cut.size == whole.size == len(whole.raw)


async def test_fetch_leaves_out_ids_that_are_not_there(harness: Harness, source: MailSource) -> None:
    for subject in ("kept", "gone"):
        await harness.send(make_message(to=ALICE, subject=subject), [ALICE])
    kept, gone = await arrivals(source, 2)
    assert await source.expunge([gone]) == [gone]
    found = await source.fetch(["not-an-id", gone, kept, ""])
    assert [m.id for m in found] == [kept]


# --- expunge --------------------------------------------------------------------------------


async def test_expunge_removes_and_returns_removed_and_already_gone_ids(harness: Harness, source: MailSource) -> None:
    await harness.send(make_message(to=[ALICE, BOB], subject="two copies"), [ALICE, BOB])
    first, second = await arrivals(source, 2)
    assert await source.expunge([first]) == [first]
    assert await source.snapshot() == [second]
    assert await source.fetch([first]) == []
    assert await source.expunge([first]) == [first]  # already gone counts as removed
    assert await source.snapshot() == [second]


# --- generation / fence ---------------------------------------------------------------------


async def test_generation_and_ids_survive_a_restart(harness: Harness, source: MailSource) -> None:
    await harness.send(make_message(to=ALICE, subject="kept across"), [ALICE])
    (copy_id,) = await arrivals(source, 1)
    generation = source.generation
    (before,) = await source.fetch([copy_id])
    await harness.close()  # listeners and the source: as a gateway restart does

    again = harness.make()
    await harness.start(again)
    assert await again.snapshot() == [copy_id]
    assert again.generation == generation
    (after,) = await again.fetch([copy_id])
    assert after.raw == before.raw


async def test_fence_orders_every_later_copy_at_or_after_it(harness: Harness, source: MailSource) -> None:
    await harness.send(make_message(to=ALICE, subject="earlier"), [ALICE])
    (earlier,) = await arrivals(source, 1)
    fence = await source.fence()
    if not harness.fenced:
        assert fence is None  # receipt times alone order this source's mail
        return
    assert fence is not None
    await harness.send(make_message(to=ALICE, subject="later"), [ALICE])
    (later,) = await arrivals(source, 1)
    (delivered,) = await source.deliver(make_message(to=BOB, subject="delivered").as_bytes(), [BOB])
    assert earlier < fence <= later < delivered


# --- deliver --------------------------------------------------------------------------------


async def test_deliver_stores_one_stamped_copy_per_recipient(harness: Harness, source: MailSource) -> None:
    msg = make_message(sender=f"Agent <agent@{DOMAIN}>", to=[ALICE, BOB], subject="sent by an agent")
    assert "Message-ID" not in msg  # so the source must add one, the same in each copy
    ids = await source.deliver(msg.as_bytes(), [ALICE, BOB.upper()])
    assert len(ids) == 2
    assert await arrivals(source, 2) == ids  # announced like any arrival, in recipient order
    assert set(await source.snapshot()) == set(ids)
    stored = await source.fetch(ids)
    assert [m.id for m in stored] == ids
    copies = [parse(m.raw) for m in stored]
    assert [str(c["Delivered-To"]) for c in copies] == [ALICE, BOB]
    for copy, message in zip(copies, stored, strict=True):
        assert [name for name, _ in raw_headers(message.raw)][:4] == TRACE_FIELDS
        assert copy["X-Original-To"] == copy["Delivered-To"]
        assert copy["Return-Path"] == f"<agent@{DOMAIN}>"
        assert f"for <{copy['Delivered-To']}>" in str(copy["Received"])
        assert copy["Subject"] == "sent by an agent" and copy.get_content().strip() == "Hello there."
    assert copies[0]["Message-ID"] and copies[0]["Message-ID"] == copies[1]["Message-ID"]


async def test_deliver_keeps_the_senders_message_id(harness: Harness, source: MailSource) -> None:
    msg = make_message(to=ALICE, subject="with id", headers=[("Message-ID", f"<given-1@{DOMAIN}>")])
    (copy_id,) = await source.deliver(msg.as_bytes(), [ALICE])
    (copy,) = await fetch_parsed(source, [copy_id])
    assert copy.get_all("Message-ID") == [f"<given-1@{DOMAIN}>"]


@pytest.mark.parametrize("bad", [f"x@{DOMAIN}\r\nBcc: victim@example.org", "Alice <alice@agents.test>", ""])
async def test_deliver_refuses_a_recipient_that_is_not_a_plain_address(
    harness: Harness, source: MailSource, bad: str
) -> None:
    with pytest.raises(InvalidInput):
        await source.deliver(make_message(to=ALICE).as_bytes(), [ALICE, bad])
    assert await source.snapshot() == []  # nothing stored, not even the good recipient's copy


async def test_deliver_to_nobody_stores_nothing(harness: Harness, source: MailSource) -> None:
    assert await source.deliver(make_message(to=ALICE).as_bytes(), []) == []
    await harness.send(make_message(to=ALICE, subject="marker"), [ALICE])
    (marker,) = await arrivals(source, 1)  # the next announcement is the marker, nothing before it
    assert await source.snapshot() == [marker]


# --- keep_sent ------------------------------------------------------------------------------


async def test_keep_sent_stores_the_bytes_unstamped_and_apart_from_the_inbox(
    harness: Harness, source: MailSource
) -> None:
    await harness.send(make_message(to=ALICE, subject="received"), [ALICE])
    (received,) = await arrivals(source, 1)
    msg = make_message(sender=ALICE, to=BOB, subject="kept", headers=[("Message-ID", f"<sent-1@{DOMAIN}>")])
    raw = msg.as_bytes().replace(b"\n", b"\r\n")
    copy_id = await source.keep_sent(raw)
    assert copy_id is not None and copy_id > received  # sent ids sort after every inbox id
    assert await arrivals(source, 1) == [copy_id]  # announced like an arrival
    assert await source.snapshot() == [received, copy_id]
    (kept,) = await source.fetch([copy_id])
    assert kept.sent and kept.raw == raw  # no trace fields: it was never delivered
    (inbox,) = await source.fetch([received])
    assert not inbox.sent
    assert await source.expunge([copy_id]) == [copy_id]
    assert await source.snapshot() == [received]
    assert await source.fetch([copy_id]) == []


async def test_keep_sent_twice_gives_two_ids_in_order(harness: Harness, source: MailSource) -> None:
    first = await source.keep_sent(make_message(to=BOB, subject="one").as_bytes())
    second = await source.keep_sent(make_message(to=BOB, subject="two").as_bytes())
    assert first is not None and second is not None and first < second
    assert subjects(await fetch_parsed(source, [second, first])) == ["two", "one"]
