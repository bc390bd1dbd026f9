"""Claims: a message a `wait` has picked and not yet handed over, so no other wait takes it.

Rows with an expiry, taken atomically: two waits (in one process or in several) never both
win the same message, and a claim whose answer never settled lapses by itself.
"""

from __future__ import annotations

from typing import Protocol

from gateway.store.models import Identity

__all__ = ["Claims"]


class Claims(Protocol):
    """Take and release one identity's claims on messages, by message key."""

    async def take(self, identity: Identity, message_key: str, *, ttl: float) -> bool:
        """Claim the message for `ttl` seconds; False when a live claim already holds it.

        NotFound when the identity no longer exists (deleted while its wait was looking)."""

    async def release(self, identity: Identity, message_key: str) -> None:
        """End the claim (nothing happens when there is none)."""

    async def next_lapse(self, identity: Identity) -> float | None:
        """When the soonest live claim on the identity's mail lapses (the store clock's time), or None.

        A wait that found only claimed mail looks again then: the gateway holding the claim may
        have died and will never give it back."""
