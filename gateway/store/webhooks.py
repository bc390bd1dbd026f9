"""Webhooks and their outbox: who is called on an event, and each call until it got through.

A webhook belongs to one identity (`scope` "identity": events of that identity) or to a token
that manages identities (`scope` "provisioner": every identity that token created, now or
later; `scope` "admin": every identity). It is deleted with its identity or its provisioner
token.

The outbox holds one delivery per (webhook, event): durable, keyed by its `webhook-id` (made
by the caller, deterministic for an event, so enqueueing one event twice stores it once).
Deliveries of one webhook and one address go out in the order they were enqueued: only the
oldest unfinished one is due (a retry holds back the later ones). A worker claims due
deliveries with a lease, so two workers never send one delivery at once; a crash before the
outcome is recorded sends it again (at least once, the `webhook-id` lets the receiver see the
repeat). Every attempt is logged (status, latency, response code, the response's first bytes).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Literal, Protocol

__all__ = ["Attempt", "Delivery", "Webhook", "WebhookStore"]

WebhookScope = Literal["identity", "provisioner", "admin"]
DeliveryStatus = Literal["queued", "delivered", "failed"]


@dataclass(frozen=True, slots=True)
class Webhook:
    """A target URL called, signed, for some events of the identities in its scope."""

    id: str
    """`wh_` and random characters."""
    scope: WebhookScope
    identity_id: int | None
    """The identity of an `identity` webhook (None otherwise)."""
    token_id: str | None
    """The provisioner token of a `provisioner` webhook (None otherwise)."""
    url: str
    events: tuple[str, ...]
    """Event types it receives (`message.received`, `message.sent`, `message.delivery_failed`)."""
    description: str | None
    signing: Literal["v1", "v1a"]
    """`v1` HMAC-SHA256 with `secret`; `v1a` Ed25519 with the private key in `secret`."""
    secret: str
    """`whsec_…` (v1) or `whsk_…` (v1a): what the gateway signs with. Shown to the owner once."""
    public_key: str | None
    """`whpk_…` for v1a (readable by the owner at any time), None for v1."""
    created_ts: float
    previous_secret: str | None = None
    """The secret before the last rotation, still signing until `previous_until`."""
    previous_until: float | None = None
    disabled_ts: float | None = None
    disabled_reason: str | None = None
    """Why it stopped being called (e.g. failing for N days); None while enabled."""
    failing_since: float | None = None
    """When the run of failed attempts began (None after a success)."""
    address: str | None = None
    """The address of an `identity` webhook's identity (read from the identities table; None otherwise)."""


@dataclass(frozen=True, slots=True)
class Delivery:
    """One event for one webhook: its signed payload, and how far it got."""

    id: str
    """The `webhook-id` header: the idempotency key (`msg_` and 26 base32 characters)."""
    webhook_id: str
    address: str
    """The identity the event is about: deliveries of one webhook and address keep their order."""
    event: str
    payload: bytes
    """The JSON body, exactly as sent (and signed) on every attempt."""
    created_ts: float
    status: DeliveryStatus = "queued"
    attempts: int = 0
    next_ts: float = 0.0
    """When the next attempt is due (queued deliveries)."""
    last_code: int | None = None
    """The last attempt's HTTP status (None: no answer)."""
    last_error: str | None = None
    """The last failed attempt's reason, or why it failed for good."""
    finished_ts: float | None = None


@dataclass(frozen=True, slots=True)
class Attempt:
    """One call of a webhook: what the log shows (never the secret, never our request's headers)."""

    delivery_id: str
    at_ts: float
    latency_ms: float
    status_code: int | None
    """None when no HTTP answer came (refused, unreachable, timed out before the status line)."""
    error: str | None
    response_head: str
    """The first 1 KB of the answer's body, decoded leniently."""


class WebhookStore(Protocol):
    """Webhooks, their deliveries and the attempt log, durable."""

    async def create(self, hook: Webhook) -> None:
        """Store a new webhook (Conflict if its id exists)."""

    async def get(self, webhook_id: str) -> Webhook | None:
        """One webhook by id."""

    async def listing(
        self, *, identity_id: int | None = None, token_id: str | None = None, scope: WebhookScope | None = None
    ) -> list[Webhook]:
        """Webhooks narrowed by identity, provisioner token and scope (all when none given), oldest first."""

    async def for_identities(self, identity_ids: Sequence[int]) -> dict[int, list[Webhook]]:
        """The enabled webhooks that cover each of these identities (its own, its creator token's, the admin's)."""

    async def delete(self, webhook_id: str) -> bool:
        """Forget a webhook with its deliveries and log; False when there was none."""

    async def rotate(self, webhook_id: str, secret: str, public_key: str | None, *, old_until: float) -> Webhook:
        """Replace the secret; the old one stays in `previous_secret` until `old_until`. NotFound if unknown."""

    async def set_disabled(self, webhook_id: str, *, at: float | None, reason: str | None) -> None:
        """Disable (with a reason) or, with `at=None`, enable again (clearing `failing_since`)."""

    async def enqueue(self, deliveries: Sequence[Delivery]) -> int:
        """Store new deliveries (ids already stored are skipped, whatever their state); how many were new."""

    async def claim(self, *, now: float, lease: float, limit: int, per_webhook: int) -> list[Delivery]:
        """Up to `limit` due deliveries, oldest first, claimed until now + lease.

        Due: queued, `next_ts <= now`, no live lease, its webhook enabled, and the oldest queued
        delivery of its (webhook, address). At most `per_webhook` claimed at once per webhook,
        counting live leases. Claimers racing (in any process) never get one delivery both.
        """

    async def record(
        self,
        delivery_id: str,
        attempt: Attempt,
        *,
        status: DeliveryStatus,
        next_ts: float,
        error: str | None = None,
    ) -> None:
        """Log the attempt, set the delivery's status / attempts + 1 / next_ts, release its claim, and keep
        the webhook's `failing_since` (set on a failure if unset, cleared on a success)."""

    async def retry(self, delivery_id: str, *, now: float) -> Delivery:
        """Queue a delivery again (due now), whatever its state; NotFound if unknown."""

    async def deliveries(self, webhook_id: str, *, limit: int, before_id: str | None = None) -> list[Delivery]:
        """A webhook's deliveries, newest first (enqueued before the delivery `before_id` when given: a page
        boundary that ties never blur, unlike a time)."""

    async def get_delivery(self, delivery_id: str) -> Delivery | None:
        """One delivery by id."""

    async def attempts(self, delivery_id: str, *, limit: int) -> list[Attempt]:
        """A delivery's attempts, newest first."""

    async def release_all(self) -> None:
        """End every claim (a process that is the store's only user, starting, holds none)."""

    async def prune(self, before_ts: float) -> int:
        """Forget finished deliveries (and their attempts) finished before `before_ts`; how many."""

    async def pending(self) -> int:
        """How many deliveries are queued."""
