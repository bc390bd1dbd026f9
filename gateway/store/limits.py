"""Rate counters: events per key in a sliding window, shared by every process on the store."""

from __future__ import annotations

from typing import Final, Protocol

__all__ = ["MAX_RATE_EVENTS", "RateLimits"]

MAX_RATE_EVENTS: Final = 100_000
"""Events kept in all; past it the oldest go first, so a flood from many clients costs bounded space."""


class RateLimits(Protocol):
    """Count events (failed logins, later sends) per key; old events expire on their own."""

    async def acquire(self, key: str, *, limit: int, window: float) -> int | None:
        """Count one event for `key` if it had fewer than `limit` in the last `window` seconds: None.

        Otherwise count nothing and return the seconds until it will be under the limit.
        Check and count are one step: callers racing on one key never get more than `limit`.
        """

    async def release(self, key: str) -> None:
        """Take back one counted event of `key` (the attempt turned out not to count)."""

    async def retry_after(self, key: str, *, limit: int, window: float) -> int | None:
        """What `acquire` would answer now, counting nothing."""
