"""From the index to the webhook outbox: one delivery per new message and webhook that wants it.

The feeder walks the index's grants in their order (`GrantPosition`) from a cursor kept in the
index's meta, and for every grant to an identity with webhooks enqueues one delivery per
webhook, its body the message's summary exactly as the list route shows it. The cursor is
saved after the deliveries are durable, so a crash in between re-reads a few grants; their
deliveries are found by id (a hash of webhook, event, address and message key) and not stored
twice. A rebuilt index has no cursor and new positions: the feeder walks it again from the
start, and the same ids keep every delivered event from going out again. Mail older than
REPLAY_HORIZON is not walked again (finished deliveries are kept longer than that), nor mail a
webhook's identity received before the webhook existed.

A relay's final refusal of a recipient (`message.delivery_failed`) is fed by the send outbox
when it records it (`delivery_failed`).
"""

from __future__ import annotations

import asyncio
import base64
import contextlib
import hashlib
import logging
from collections.abc import Callable, Sequence
from datetime import UTC, datetime
from typing import Final

import msgspec

from gateway import wire
from gateway.api.schemas import summary as wire_summary
from gateway.errors import IndexRebuilding, NotFound, SourceUnavailable
from gateway.inbox import Inbox
from gateway.store import Identity, Store
from gateway.store.index import GrantPosition
from gateway.store.webhooks import Delivery, Webhook

__all__ = ["CURSOR_KEY", "REPLAY_HORIZON", "Feeder", "delivery_id"]

log = logging.getLogger(__name__)

CURSOR_KEY: Final = "webhooks.cursor"
BATCH: Final = 500
IDLE_CHECK: Final = 5.0  # looks for new grants at least this often, woken sooner by the sync
PRUNE_EVERY: Final = 3600.0
REPLAY_HORIZON: Final = 7 * 86400.0
"""Mail received longer ago is never fed again after an index rebuild."""
KEEP_FINISHED: Final = 30 * 86400.0
"""Finished deliveries are kept this long (their ids keep a rebuild from sending them again)."""
CLOCK_SLACK: Final = 1.0  # IMAP times are whole seconds: mail of a webhook's creation second counts

_EVENT_OF: Final = {"received": "message.received", "sent": "message.sent"}


def delivery_id(webhook_id: str, event: str, *parts: str) -> str:
    """The `webhook-id` of one event for one webhook: the same every time that event is fed."""
    digest = hashlib.sha256("\x00".join([webhook_id, event, *parts]).encode()).digest()
    return "msg_" + base64.b32encode(digest[:20]).decode().rstrip("=").lower()[:26]


def _cursor_text(position: GrantPosition) -> str:
    return f"{position.seq} {position.address}"


def _cursor_of(text: str | None) -> tuple[int, str] | None:
    if not text:
        return None
    seq, _, address = text.partition(" ")
    return (int(seq), address) if seq.isdigit() else None


class Feeder:
    """Turns newly indexed grants (and final relay refusals) into webhook deliveries."""

    def __init__(
        self, store: Store, inbox: Inbox, *, clock: Callable[[], float], on_enqueued: Callable[[], None]
    ) -> None:
        self._store = store
        self._inbox = inbox
        self._clock = clock
        self._on_enqueued = on_enqueued
        self._wake = asyncio.Event()

    def wake(self) -> None:
        """New grants were indexed: look now."""
        self._wake.set()

    async def run(self) -> None:
        """Feed whatever was indexed, now and whenever woken, until cancelled."""
        pruned_at = 0.0
        while True:
            self._wake.clear()
            try:
                while await self.feed_once():
                    pass
                if self._clock() - pruned_at >= PRUNE_EVERY:
                    pruned_at = self._clock()
                    await self.prune()
            except (IndexRebuilding, SourceUnavailable):
                pass  # fed once the index is rebuilt, or the mailbox back
            except Exception:
                log.exception("the webhook feeder failed; trying again shortly")
            with contextlib.suppress(TimeoutError):
                async with asyncio.timeout(IDLE_CHECK):
                    await self._wake.wait()

    async def feed_once(self) -> bool:
        """Feed one batch of grants after the cursor; whether there were any."""
        index = self._store.index
        after = _cursor_of(await index.get_meta(CURSOR_KEY))
        if after is None:  # a new (or rebuilt) index: is there anyone to call at all?
            latest = await index.latest_grant(direction="all")  # first: a grant after it is walked whatever comes
            if latest is not None and not await self._store.webhooks.listing():
                # Nobody: skip to the newest grant instead of reading the whole index for nobody.
                # A webhook created later takes only mail received after it anyway.
                await index.set_meta(CURSOR_KEY, _cursor_text(latest))
                return False
        grants = await index.grants_after(after, limit=BATCH, direction="all")
        if not grants:
            return False
        deliveries = await self._deliveries(grants)
        if deliveries:
            added = await self._store.webhooks.enqueue(deliveries)
            if added:
                self._on_enqueued()
        await index.set_meta(CURSOR_KEY, _cursor_text(grants[-1]))
        return len(grants) == BATCH

    async def _deliveries(self, grants: Sequence[GrantPosition]) -> list[Delivery]:
        identities: dict[str, Identity] = {}
        for address in dict.fromkeys(g.address for g in grants):
            identity = await self._store.identities.find(address)
            if identity is not None:
                identities[address] = identity
        if not identities:
            return []
        hooks = await self._store.webhooks.for_identities([i.id for i in identities.values()])
        now = self._clock()
        out: list[Delivery] = []
        for grant in grants:
            identity = identities.get(grant.address)
            event = _EVENT_OF[grant.direction]
            wanted = [h for h in hooks.get(identity.id, ()) if event in h.events] if identity else []
            if identity is None or not wanted:
                continue
            try:
                summary = await self._inbox.summary(identity, grant.message_id)
            except NotFound:
                continue  # outside its window (an earlier owner's mail), or deleted by it already
            if summary.received_ts < now - REPLAY_HORIZON:
                continue  # too old to feed again (a rebuilt index walked from the start)
            body = msgspec.json.encode(
                wire.MessageEvent(event, datetime.fromtimestamp(now, UTC), identity.address, wire_summary(summary))
            )
            for hook in wanted:
                if summary.received_ts + CLOCK_SLACK < hook.created_ts:
                    continue
                key = delivery_id(hook.id, event, identity.address, summary.message_key)
                out.append(Delivery(key, hook.id, identity.address, event, body, now, next_ts=now))
        return out

    async def delivery_failed(
        self, identity_id: int, sender: str, message_id: str, entry_id: str, recipient: str, detail: str | None
    ) -> None:
        """The relay gave up on `recipient` of a message `sender` sent: tell the webhooks that want it."""
        hooks = (await self._store.webhooks.for_identities([identity_id])).get(identity_id, [])
        wanted: list[Webhook] = [h for h in hooks if "message.delivery_failed" in h.events]
        if not wanted:
            return
        now = self._clock()
        body = msgspec.json.encode(
            wire.DeliveryFailedEvent(
                "message.delivery_failed", datetime.fromtimestamp(now, UTC), sender, message_id, recipient, detail
            )
        )
        event = "message.delivery_failed"
        deliveries = [
            Delivery(delivery_id(h.id, event, sender, entry_id, recipient), h.id, sender, event, body, now, next_ts=now)
            for h in wanted
        ]
        if await self._store.webhooks.enqueue(deliveries):
            self._on_enqueued()

    async def prune(self) -> int:
        """Forget deliveries finished longer ago than KEEP_FINISHED."""
        return await self._store.webhooks.prune(self._clock() - KEEP_FINISHED)
