"""The message index: one row per mailbox copy, one grant per address that sees it.

A cache of the mailbox: it can be deleted and rebuilt by the sync. Listing an identity's mail
walks the grants of that one address, with its marks and claims read in the same query, so
the cost follows the page, not the size of the catch-all nor the identity's history.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Protocol

from gateway.store.models import CopyRecord, Cursor, Filters, Grant, Identity, Summary

__all__ = ["MessageIndex"]


class MessageIndex(Protocol):
    """Write copies as the sync reads them; read an identity's messages."""

    async def add(self, records: Sequence[CopyRecord]) -> None:
        """Index a batch of copies in one transaction (known copy ids are skipped).

        The first copy granted to an address wins; later copies of the same message add
        nothing for it, nor does a copy of a message that address saw removed.
        """

    async def remove(self, copy_ids: Iterable[str]) -> set[str]:
        """Forget copies that left the mailbox; returns the message keys with no copy left.

        Their listing positions stay usable as cursors.
        """

    async def clear(self) -> None:
        """Forget everything (the mailbox changed identity: a new UIDVALIDITY)."""

    async def forget_cursors(self, before_ts: float) -> None:
        """Drop the cursors of removed copies received before `before_ts` (retention)."""

    async def get_meta(self, key: str) -> str | None:
        """A stored source-state value (e.g. the source generation), or None."""

    async def set_meta(self, key: str, value: str) -> None:
        """Store a source-state value."""

    async def known_ids(self) -> set[str]:
        """Every indexed copy id."""

    async def count(self) -> int:
        """How many copies are indexed."""

    async def older_than(self, ts: float, limit: int) -> list[str]:
        """Up to `limit` copy ids received before `ts`, oldest first (retention)."""

    async def listing(
        self,
        identity: Identity,
        filters: Filters,
        *,
        limit: int,
        before: Cursor | None = None,
        after: Cursor | None = None,
        newest_first: bool | None = None,
    ) -> list[Summary]:
        """`identity`'s messages: newest first (before `before`), or oldest first after `after`.

        `newest_first` overrides the order (e.g. the newest message after a cursor).
        """

    async def visible(self, identity: Identity, message_id: str, filters: Filters) -> Summary | None:
        """The message if `identity` is granted it, inside `filters`, and has not deleted it."""

    async def cursor_of(self, address: str, message_id: str) -> Cursor | None:
        """The listing position of one of `address`'s messages (removed ones too), for paging."""

    async def copies(self, message_id: str) -> tuple[list[str], list[Grant]]:
        """Every copy id of the message `message_id` belongs to, and every grant of that message."""
