"""The message index: one row per mailbox copy, one grant per address that sees it.

A cache of the mailbox: it can be deleted and rebuilt by the sync. Listing an identity's mail
walks the grants of that one address, with its marks and claims read in the same query, so
the cost follows the page, not the size of the catch-all nor the identity's history.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Protocol

import msgspec

from gateway.store.models import CopyRecord, Cursor, Filters, Grant, Identity, Summary

__all__ = ["MessageIndex", "moved_grants"]

_ADDRESSES = msgspec.json.Decoder(list[str])


def moved_grants(
    lost: Iterable[tuple[str, str, float, str, int]], remaining: Iterable[tuple[str, str, str]]
) -> list[tuple[str, str, str, float, int, str]]:
    """Where grants whose copy left go: to the first remaining copy of the message that grants the address.

    `lost` holds (address, message key, received at, origin id, seq) of the removed grants,
    `remaining` the (message key, copy id, grants JSON) of the copies still indexed, in index
    order. Returns the new grants as (address, message key, copy id, received at, seq, origin id).
    A moved grant changes only the copy it is read through: it keeps its listing position (a
    stream that delivered the message does not deliver it again) and the receipt time and
    origin id that windows compare, so a move never shows the message to an identity the
    first grant was hidden from (a re-created name never gets its earlier owner's mail).
    """
    candidates: dict[str, list[tuple[str, frozenset[str]]]] = {}
    for key, copy_id, grants_json in remaining:
        candidates.setdefault(key, []).append((copy_id, frozenset(_ADDRESSES.decode(grants_json))))
    moved = []
    for address, key, received_ts, origin_id, seq in lost:
        for copy_id, grants in candidates.get(key, ()):
            if address in grants:
                moved.append((address, key, copy_id, received_ts, seq, origin_id))
                break
    return moved


class MessageIndex(Protocol):
    """Write copies as the sync reads them; read an identity's messages."""

    async def add(self, records: Sequence[CopyRecord]) -> None:
        """Index a batch of copies in one transaction (known copy ids are skipped).

        The first copy granted to an address wins; later copies of the same message add
        nothing for it, nor does a copy of a message that address saw removed. Each new copy
        takes the next insertion sequence number: listings and cursors follow that order.
        """

    async def remove(self, copy_ids: Iterable[str]) -> set[str]:
        """Forget copies that left the mailbox; returns the message keys with no copy left.

        Their listing positions stay usable as cursors. An address whose granted copy left
        keeps the message through another remaining copy that grants it (see `moved_grants`).
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
        """The listing position of one of `address`'s messages (removed ones too), for paging.

        Its id and receipt time are the first granted copy's (see `Cursor`).
        """

    async def copies(self, message_id: str) -> tuple[list[str], list[Grant]]:
        """Every copy id of the message `message_id` belongs to, and every grant of that message (see `Grant`)."""
