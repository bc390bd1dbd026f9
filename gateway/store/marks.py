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

    async def retire(self, message_keys: Iterable[str]) -> None:
        """The last copy of these messages left the mailbox: their claims end, their marks are kept
        until `prune` (a late copy of one, or an index rebuild, must not bring back a deleted message)."""

    async def retire_orphans(self) -> int:
        """Retire the marks of messages the index holds no copy of (expunged from outside, or
        while the gateway was down): only once the index has caught up with the mailbox."""

    async def prune(self, before_ts: float) -> int:
        """Drop the marks of messages retired before `before_ts` and still without a copy in the
        index (retention); returns how many. A message that came back keeps its marks."""
