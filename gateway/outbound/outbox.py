"""Sending: an identity's mail checked, built, made durable, delivered locally at once, relayed with retries.

One outbox entry in the store is the unit of work and its idempotency key. A send writes it
first, then does its steps — local copies into the catch-all (`source.deliver`), the sender's
copy into the Sent folder (`source.keep_sent`), the relay for other domains — recording each
as done. What a crash (or an unreachable mailbox or relay) interrupts, the worker finishes
from the entry, after a restart too. A step repeated after a crash between doing it and
recording it stores a second copy of the same message (same Message-ID and body): readers see
one message, since the index keys copies by message. The relay is retried on the schedule of
`gateway.outbound.schedule`; a recipient it refuses for good, or one still failing after it, is
recorded `failed` with the relay's answer, readable on the sent message.

Whom an identity reaches is its send scope: `none`, `local` (addresses at our domain: agents
mailing agents) or `any` (needs a relay). A request with any recipient out of reach sends
nothing (RecipientRefused), so an agent never has to work out who got a partial send.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import random
import secrets
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass
from typing import Final, Literal

from gateway.errors import Forbidden, RecipientRefused, SourceUnavailable, TooManyAttempts
from gateway.mail.compose import Outgoing, new_message_id
from gateway.mail.keys import message_key
from gateway.outbound.relay import RelayConfig, RelayResult, relay
from gateway.outbound.schedule import FIRST_DELAY, next_attempt
from gateway.sources.base import MailSource
from gateway.store import Identity, Store
from gateway.store.outbox import DeliveryState, OutboxEntry

__all__ = ["FailedRecipient", "Outbox", "Submitted"]

log = logging.getLogger(__name__)

SEND_WINDOW: Final = 3600.0  # the rate limit counts sends in the last hour
LEASE: Final = 3600.0
"""Seconds a worker holds the entry it works on: far longer than one relay attempt can take (a
minute a command, the body at 64 KiB/s, ten minutes for the answer after it), so a live claim
never runs out under its worker. A single-process store releases claims a crash left at start."""
IDLE_CHECK: Final = 5.0  # the worker looks for due work at least this often
BATCH: Final = 1  # entries claimed at once: one, so none waits out its lease behind a slow relay
MAILBOX_RETRY: Final = (5.0, 10.0, 30.0, 60.0, 300.0)
"""Seconds before an entry's local steps are tried again after the mailbox failed them (the last repeats)."""
CANCELLED: Final = "cancelled: the sending identity was deleted"


@dataclass(frozen=True, slots=True)
class Submitted:
    """What a send did: the sent copy's id (None until the mailbox tells it) and its recipients."""

    copy_id: str | None
    message_id: str
    accepted: tuple[str, ...]


FailedRecipient = Callable[[OutboxEntry, DeliveryState], Awaitable[None]]
"""Told of each recipient the relay gave up on, after it is recorded (webhooks: `message.delivery_failed`)."""


class Outbox:
    """Sends for identities and finishes what was sent; one per gateway process."""

    def __init__(
        self,
        store: Store,
        source: MailSource,
        *,
        domain: str,
        relay_config: RelayConfig | None,
        per_hour: int,
        max_bytes: int,
        clock: Callable[[], float],
        retry_first: float = FIRST_DELAY,
        on_failed: FailedRecipient | None = None,
    ) -> None:
        self._store = store
        self._source = source
        self._domain = domain
        self._relay = relay_config
        self._per_hour = per_hour
        self._max_bytes = max_bytes
        self._clock = clock
        self._retry_first = retry_first
        self._on_failed = on_failed
        self._due = asyncio.Event()  # new work: look now
        self._mailbox_failures: dict[str, int] = {}  # entry id -> local steps failed in a row

    def new_message_id(self) -> str:
        """A fresh Message-ID at our domain."""
        return new_message_id(self._domain, secrets.token_hex(12))

    def reach(self, identity: Identity, recipients: Sequence[str]) -> list[tuple[str, str]]:
        """(address, reason) for every recipient `identity` may not send to; empty when all are in reach."""
        refused = []
        for address in recipients:
            local = address.rpartition("@")[2] == self._domain
            if identity.send_scope == "none":
                refused.append((address, "this identity may not send mail (its send scope is none)"))
            elif not local and identity.send_scope == "local":
                refused.append((address, f"this identity may only send to addresses at {self._domain}"))
            elif not local and self._relay is None:
                refused.append((address, "no relay is configured for other domains (AGENTMAIL_RELAY_URL)"))
        return refused

    async def submit(self, identity: Identity, outgoing: Outgoing) -> Submitted:
        """Send `outgoing` from `identity`: all recipients in reach or nothing; durable before it returns."""
        refused = self.reach(identity, outgoing.recipients)
        if refused:
            listed = "; ".join(f"{address}: {reason}" for address, reason in refused)
            raise RecipientRefused(f"nothing was sent; refused recipients: {listed}", tuple(refused))
        if self._per_hour <= 0:
            raise Forbidden("sending is turned off on this gateway (AGENTMAIL_SEND_PER_HOUR=0)")
        wait = await self._store.limits.acquire(f"send:{identity.id}", limit=self._per_hour, window=SEND_WINDOW)
        if wait is not None:
            raise TooManyAttempts(
                f"{identity.address} sent {self._per_hour} messages in the last hour; retry in {wait} s",
                retry_after=wait,
            )
        local = tuple(a for a in outgoing.recipients if a.rpartition("@")[2] == self._domain)
        remote = tuple(a for a in outgoing.recipients if a not in local)
        entry = OutboxEntry(
            id=secrets.token_hex(16),
            identity_id=identity.id,
            sender=identity.address,
            message_key=message_key(outgoing.raw, max_bytes=self._max_bytes),
            message_id=outgoing.message_id,
            raw=outgoing.raw,
            sent_copy=outgoing.sent_copy,
            local=local,
            remote=remote,
            created_ts=self._clock(),
            next_ts=self._clock(),
        )
        # Claimed by this request while it does the local steps itself; the worker takes over
        # only what this request could not finish (or a crash left), once the lease runs out.
        await self._store.outbox.put(entry, lease=LEASE)
        log.info(
            "sent %s from %s to %d local and %d remote recipients: %s",
            outgoing.message_id,
            identity.address,
            len(local),
            len(remote),
            ", ".join(outgoing.recipients),
        )
        copy_id = None
        try:
            copy_id = await self._local_steps(entry)
        except SourceUnavailable as exc:
            log.warning("the mailbox is away (%s): %s is delivered once it is back", exc, outgoing.message_id)
            await self._store.outbox.record(entry.id, next_ts=self._clock() + MAILBOX_RETRY[0])
        else:
            await self._store.outbox.record(entry.id)  # done here: the claim goes (the relay is the worker's)
        if remote:
            self._due.set()
        return Submitted(copy_id, outgoing.message_id, outgoing.recipients)

    async def _local_steps(self, entry: OutboxEntry) -> str | None:
        """Deliver the local copies, then keep the sent copy (what is not done yet), recording each
        step as it is done, the claim kept; returns the sent copy's id. A crash between a step and
        its record repeats it: readers see the repeated copy as one message (same Message-ID, body)."""
        if not entry.local_done:
            if entry.local:
                await self._source.deliver(entry.raw, entry.local)
            states = [DeliveryState(a, "delivered", None, 1, self._clock()) for a in entry.local]
            await self._store.outbox.record(entry.id, local_done=True, results=states, release=False)
        copy_id = None
        if not entry.copy_done:
            copy_id = await self._source.keep_sent(entry.sent_copy)
            await self._store.outbox.record(entry.id, copy_done=True, release=False)
        return copy_id

    async def start(self) -> None:
        """Before the worker runs: a store only this process uses holds no live claim (a crash left them)."""
        if self._store.engine.kind == "sqlite":
            await self._store.outbox.release_all()

    async def run(self) -> None:
        """Finish every entry's due steps, now and whenever one is due, until cancelled."""
        while True:
            try:
                worked = await self._work_once()
            except Exception:
                log.exception("the outbox worker failed; trying again shortly")
                worked = False
            if worked:
                continue
            self._due.clear()
            with contextlib.suppress(TimeoutError):
                async with asyncio.timeout(IDLE_CHECK):
                    await self._due.wait()

    async def _work_once(self) -> bool:
        """Claim due entries and work on them; whether one got on (so more may be due at once)."""
        entries = await self._store.outbox.claim(now=self._clock(), lease=LEASE, limit=BATCH)
        worked = False
        for entry in entries:
            try:
                await self._finish(entry)
            except SourceUnavailable as exc:
                failures = self._mailbox_failures[entry.id] = self._mailbox_failures.get(entry.id, 0) + 1
                delay = MAILBOX_RETRY[min(failures, len(MAILBOX_RETRY)) - 1]
                log.warning("%s waits for the mailbox (%s); again in %.0f s", entry.message_id, exc, delay)
                await self._store.outbox.record(entry.id, next_ts=self._clock() + delay)
            else:
                self._mailbox_failures.pop(entry.id, None)
                worked = True
        return worked

    async def _finish(self, entry: OutboxEntry) -> None:
        """Do what is due of a claimed entry; its last record releases the claim."""
        sender = await self._store.identities.find(entry.sender)
        if sender is None or sender.id != entry.identity_id:
            # Deleted (perhaps re-created for someone else): nothing more goes out in its name,
            # and no sent copy lands where the name's next owner would see it.
            await self._cancel(entry)
            return
        await self._local_steps(entry)
        states: list[DeliveryState] = []
        queued: list[str] = []
        if entry.remote:  # claimed means due: its next_ts has come
            current = await self._store.outbox.deliveries(entry.identity_id, entry.message_key)
            queued = [s.address for s in current if s.status == "queued" and s.address in entry.remote]
        if not queued:
            await self._store.outbox.record(entry.id)
            return
        if self._relay is None:
            results = [RelayResult(a, False, True, "no relay is configured (AGENTMAIL_RELAY_URL)") for a in queued]
        else:
            results = await relay(
                self._relay, envelope_from=entry.sender, recipients=queued, raw=entry.raw, helo=self._domain
            )
        now = self._clock()
        attempts = entry.attempts + 1
        jitter = random.random()  # noqa: S311 - spreads retries, secures nothing
        retry_at = next_attempt(attempts, entry.created_ts, now, jitter=jitter, first=self._retry_first)
        for result in results:
            status: Literal["relayed", "queued", "failed"]
            if result.ok:
                status = "relayed"
            elif result.temporary and retry_at is not None:
                status = "queued"
            else:
                status = "failed"
            detail = result.detail
            if not result.ok and result.temporary and retry_at is None:
                detail = f"gave up after retrying for a day: {result.detail}"
            states.append(DeliveryState(result.address, status, detail, attempts, now))
            log.info("relay of %s to %s: %s (%s)", entry.message_id, result.address, status, result.detail)
        await self._store.outbox.record(
            entry.id, results=states, attempts=attempts, next_ts=retry_at if retry_at is not None else now
        )
        if self._on_failed is not None:
            for state in states:
                if state.status == "failed":
                    try:
                        await self._on_failed(entry, state)
                    except Exception:
                        log.exception("could not announce the failed delivery of %s", entry.message_id)

    async def _cancel(self, entry: OutboxEntry) -> None:
        """Give up what an entry of a deleted identity still had to do."""
        now = self._clock()
        current = await self._store.outbox.deliveries(entry.identity_id, entry.message_key)
        states = [
            DeliveryState(d.address, "failed", CANCELLED, d.attempts, now)
            for d in current
            if d.status in ("pending", "queued")
        ]
        log.info("%s from %s: %s", entry.message_id, entry.sender, CANCELLED)
        await self._store.outbox.record(entry.id, local_done=True, copy_done=True, results=states)
