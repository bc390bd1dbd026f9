"""The one interface every mail source implements; everything above it is source-agnostic."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Protocol

from gateway.errors import SourceUnavailable

__all__ = ["Changes", "MailSource", "SourceUnavailable", "StoredMessage"]


@dataclass(frozen=True, slots=True)
class StoredMessage:
    """One copy in the mailbox: its stable id, when the store received it, and its bytes."""

    id: str
    received_ts: float
    """Receipt time (UTC epoch seconds) as the store records it: never the sender's Date."""
    raw: bytes
    """The copy's bytes, possibly cut at the `max_bytes` the caller asked for."""
    size: int
    """The copy's full size in the mailbox, even when `raw` was cut."""


@dataclass(frozen=True, slots=True)
class Changes:
    """What the mailbox announced: new copies, and whether the sync must reconcile."""

    added: list[str] = field(default_factory=list)
    """Ids of new copies, in arrival order."""
    resync: bool = False
    """The source may have lost track (expunges from outside, a reconnect, a new UIDVALIDITY):
    compare the whole mailbox with the index."""


class MailSource(Protocol):
    """A catch-all mailbox seen as a set of immutable messages with stable, opaque ids."""

    kind: str
    resolution: float
    """Granularity of `received_ts` in seconds (IMAP INTERNALDATE: 1.0)."""

    @property
    def reachable(self) -> bool:
        """Whether the mailbox answered the last time it was asked (for /health)."""

    @property
    def generation(self) -> str:
        """Names the id space: when it changes (a new UIDVALIDITY) every old id is void."""

    async def fence(self) -> str | None:
        """An id that every copy arriving from now on sorts at or after, in this generation.

        None when receipt times alone order mail finely enough (or the mailbox is away).
        """

    async def start(self) -> None:
        """Connect or open; called once before anything else."""

    async def stop(self) -> None:
        """Release every connection and file; pending `next_batch` calls return None."""

    async def snapshot(self) -> list[str]:
        """Every id currently in the mailbox (start-up and reconcile)."""

    async def next_batch(self) -> Changes | None:
        """Block until the mailbox changes; None once the source is stopped."""

    async def fetch(self, ids: Sequence[str], *, max_bytes: int | None = None) -> list[StoredMessage]:
        """The copies with these ids, each cut at `max_bytes`; ids no longer there are left out."""

    async def expunge(self, ids: Sequence[str]) -> list[str]:
        """Remove these copies from the mailbox for good; returns the ids it removed or found gone.

        Ids it cannot act on now (an older UIDVALIDITY's) are left out, for the reconcile.
        """
