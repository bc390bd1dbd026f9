"""Rate counters: events per key in a sliding window, shared by every process on the store."""

from __future__ import annotations

from typing import Protocol

__all__ = ["RateLimits"]


class RateLimits(Protocol):
    """Count events (failed logins, later sends) per key; old events expire on their own."""

    async def retry_after(self, key: str, *, limit: int, window: float) -> int | None:
        """Seconds until `key` is under `limit` events in the last `window` seconds, or None when it is now."""

    async def record(self, key: str, *, window: float) -> None:
        """Count one event for `key`, kept for `window` seconds."""
