"""Quarantine: a deleted or expired local part stays unusable for a while, so old mail reaches nobody new."""

from __future__ import annotations

from typing import Protocol

__all__ = ["Quarantine"]


class Quarantine(Protocol):
    """When names leave quarantine. Names enter it through `Identities.delete` and expiry."""

    async def until(self, local_part: str) -> float | None:
        """When `local_part`'s quarantine ends (epoch seconds), or None when it is not quarantined."""

    async def prune(self) -> int:
        """Forget quarantines that have ended; returns how many."""
