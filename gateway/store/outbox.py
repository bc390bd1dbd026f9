"""The outbox: each accepted send, durable until every step of it is done. The mailbox cannot give it back.

One entry per send, keyed by a random id the caller makes (its idempotency key). Its steps:
local recipients delivered, the sent copy appended, remote recipients relayed (retried with
backoff by a worker). A step is recorded done after it happened, so a crash between the two
repeats it; a worker claims due entries with a lease, so two workers never run one entry.
Delivery rows (one per recipient) say what became of each address and stay after the entry
is finished (its message bytes are dropped then).

An entry of an identity deleted meanwhile is still finished (the mail was accepted); its
delivery rows go with the identity: at once for finished entries, at the end otherwise.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Literal, Protocol

__all__ = ["DeliveryState", "Outbox", "OutboxEntry"]


@dataclass(frozen=True, slots=True)
class OutboxEntry:
    """One accepted send and how far it got."""

    id: str
    """Random, made by the caller: the idempotency key (a second `put` of it changes nothing)."""
    identity_id: int
    sender: str
    """The identity's address."""
    message_key: str
    """`gateway.mail.keys` key of the sent message."""
    message_id: str
    """Its Message-ID header."""
    raw: bytes
    """What recipients get (kept until every step is done, then dropped)."""
    sent_copy: bytes
    """What the Sent folder gets."""
    local: tuple[str, ...]
    """Recipients on our domain."""
    remote: tuple[str, ...]
    """Recipients for the relay."""
    created_ts: float
    local_done: bool = False
    copy_done: bool = False
    attempts: int = 0
    """Relay attempts so far."""
    next_ts: float = 0.0
    """When the relay step is due."""


@dataclass(frozen=True, slots=True)
class DeliveryState:
    """What became of one recipient of a send."""

    address: str
    status: Literal["pending", "delivered", "relayed", "queued", "failed"]
    detail: str | None
    attempts: int
    updated_ts: float


class Outbox(Protocol):
    """Durable sends: put once, claimed by one worker at a time, recorded step by step."""

    async def put(self, entry: OutboxEntry, *, lease: float = 0.0) -> None:
        """Store the entry and one delivery row per recipient (local 'pending', remote 'queued'), in one transaction.

        With `lease`, the entry starts claimed by the caller for that many seconds (it runs the
        first steps itself; a worker's `claim` takes it only if the lease runs out).
        """

    async def record(
        self,
        entry_id: str,
        *,
        local_done: bool = False,
        copy_done: bool = False,
        results: Sequence[DeliveryState] = (),
        attempts: int | None = None,
        next_ts: float | None = None,
        release: bool = True,
    ) -> None:
        """Mark steps done, update the named recipients' rows, set attempts/next_ts and release the claim
        (unless not `release`: the caller records a step and goes on with the next one).

        Once local and copy are done and no remote row is 'queued' the entry is finished and its
        bytes are dropped. NotFound for an unknown entry.
        """

    async def claim(self, *, now: float, lease: float, limit: int) -> list[OutboxEntry]:
        """Up to `limit` unfinished entries with work due and no live lease, oldest first, claimed until now + lease.

        Due: next_ts <= now, and local or copy not done or a 'queued' remote row. Claimers
        racing (in any process) never get one entry both.
        """

    async def release_all(self) -> None:
        """End every claim: a process that is the store's only user, starting, holds none (a crash left them)."""

    async def deliveries(self, identity_id: int, message_key: str) -> list[DeliveryState]:
        """The recipients of what this identity sent with that key, in recipient order (local, then remote)."""

    async def pending(self) -> int:
        """How many entries are unfinished."""
