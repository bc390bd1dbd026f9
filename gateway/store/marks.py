"""Marks: each identity's `seen` and `deleted` marks, by message key (they outlive index rebuilds)."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Protocol

from gateway.store.models import Identity

__all__ = ["Marks"]


class Marks(Protocol):
    """Set and clear one identity's marks. Listings read them in the same query as the grants."""

    async def set_seen(self, identity: Identity, message_key: str, seen: bool) -> None:
        """Mark one message seen or unseen for `identity`."""

    async def set_deleted(self, identity: Identity, message_key: str) -> None:
        """Hide one message from `identity` for good."""

    async def is_deleted(self, identity: Identity, message_key: str) -> bool:
        """Whether `identity` deleted (hid) this message."""

    async def forget(self, message_keys: Iterable[str]) -> None:
        """Drop every mark on these messages, whose last copy left the mailbox."""
