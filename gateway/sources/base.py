"""The one interface every mail source implements; everything above it is source-agnostic."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Protocol

__all__ = ["MailSource", "StoredMessage"]


@dataclass(frozen=True, slots=True)
class StoredMessage:
    """One copy in the mailbox: its stable id, when the store received it, and its bytes."""

    id: str
    received_ts: float
    """Receipt time (UTC epoch seconds) as the store records it: never the sender's Date."""
    raw: bytes


class MailSource(Protocol):
    """A catch-all mailbox seen as a set of immutable messages with stable, opaque ids."""

    kind: str
    resolution: float
    """Granularity of `received_ts` in seconds (IMAP INTERNALDATE: 1.0)."""

    async def start(self) -> None:
        """Connect or open; called once before anything else."""

    async def stop(self) -> None:
        """Release every connection and file; pending `next_batch` calls return []."""

    async def snapshot(self) -> list[str]:
        """Every id currently in the mailbox (start-up and reconcile)."""

    async def next_batch(self) -> list[str]:
        """Block until new copies arrive and return their ids, in arrival order."""

    async def fetch(self, ids: Sequence[str]) -> list[StoredMessage]:
        """The copies with these ids; ids no longer in the mailbox are left out."""

    async def expunge(self, ids: Sequence[str]) -> None:
        """Remove these copies from the mailbox for good."""
