"""The outbox worker over a real store and Maildir when the mailbox fails: it backs off, never repeats
a step it recorded, and sends nothing more for an identity deleted meanwhile."""

from __future__ import annotations

from collections.abc import AsyncIterator, Sequence
from datetime import UTC, datetime
from pathlib import Path

import pytest

from gateway.errors import SourceUnavailable
from gateway.mail.compose import Outgoing, compose
from gateway.outbound.outbox import MAILBOX_RETRY, Outbox
from gateway.sources.local import LocalSource
from gateway.store import Store
from gateway.store.sqlite import open_sqlite
from tests.conftest import DOMAIN

ALICE, BOB = f"alice@{DOMAIN}", f"bob@{DOMAIN}"


class Clock:
    def __init__(self) -> None:
        self.now = 1_800_000_000.0

    def __call__(self) -> float:
        return self.now


class FlakySource(LocalSource):
    """The embedded Maildir whose Sent folder refuses writes while `sent_down`; counts deliveries."""

    def __init__(self, root: Path) -> None:
        super().__init__(root)
        self.sent_down = False
        self.delivered = 0

    async def deliver(self, raw: bytes, recipients: Sequence[str]) -> list[str]:
        self.delivered += 1
        return await super().deliver(raw, recipients)

    async def keep_sent(self, raw: bytes) -> str | None:
        if self.sent_down:
            raise SourceUnavailable("the Sent folder refuses writes")
        return await super().keep_sent(raw)


@pytest.fixture
async def parts(tmp_path: Path) -> AsyncIterator[tuple[Store, FlakySource, Outbox, Clock]]:
    clock = Clock()
    store = open_sqlite(tmp_path / "data", domain=DOMAIN, clock=clock)
    await store.engine.start()
    source = FlakySource(tmp_path / "data" / "maildir")
    outbox = Outbox(store, source, domain=DOMAIN, relay_config=None, per_hour=20, max_bytes=1 << 20, clock=clock)
    try:
        yield store, source, outbox, clock
    finally:
        await store.engine.close()


def outgoing(outbox: Outbox, clock: Clock) -> Outgoing:
    return compose(
        sender=ALICE,
        from_name=None,
        to=[BOB],
        subject="hello",
        text="hi",
        html=None,
        message_id=outbox.new_message_id(),
        date=datetime.fromtimestamp(clock.now, UTC),
    )


async def test_a_failing_sent_folder_backs_off_and_never_repeats_the_delivery(
    parts: tuple[Store, FlakySource, Outbox, Clock],
) -> None:
    store, source, outbox, clock = parts
    alice, _ = await store.identities.create("alice")
    source.sent_down = True
    sent = await outbox.submit(alice, outgoing(outbox, clock))
    assert sent.copy_id is None and source.delivered == 1  # bob has it; the sent copy waits
    assert await store.outbox.claim(now=clock.now, lease=60, limit=5) == []  # not due again at once
    for delay in MAILBOX_RETRY[:3]:  # the worker backs off further each time
        clock.now += 3600
        assert await outbox._work_once() is False  # the mailbox failed: no spin
        assert await store.outbox.claim(now=clock.now + delay - 1, lease=60, limit=5) == []  # backing off
    source.sent_down = False
    clock.now += 3600
    assert await outbox._work_once() is True
    assert source.delivered == 1  # the recorded delivery was never repeated
    assert len(source.maildir.ids()) == 1 and len(source.sent.ids()) == 1
    assert await store.outbox.pending() == 0


async def test_nothing_more_goes_out_for_an_identity_deleted_meanwhile(
    parts: tuple[Store, FlakySource, Outbox, Clock],
) -> None:
    store, source, outbox, clock = parts
    alice, _ = await store.identities.create("alice")
    source.sent_down = True
    await outbox.submit(alice, outgoing(outbox, clock))
    await store.identities.delete(alice)
    again, _ = await store.identities.create("alice", force=True)  # the name, for someone else
    assert again.id != alice.id
    source.sent_down = False
    clock.now += 3600
    assert await outbox._work_once() is True
    assert source.sent.ids() == []  # the new owner never gets the old owner's sent copy
    assert source.delivered == 1 and await store.outbox.pending() == 0
