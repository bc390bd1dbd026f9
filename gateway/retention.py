"""Retention: mail older than AGENTMAIL_RETENTION_DAYS leaves the mailbox and the index; ended quarantines go."""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Callable
from typing import Final

from gateway.sources.base import MailSource
from gateway.store import Store

__all__ = ["Retention"]

log = logging.getLogger(__name__)

SWEEP_BATCH: Final = 500  # copies per expunge: keeps each sweep step short
SWEEP_INTERVAL: Final = 3600.0


class Retention:
    """Deletes old copies from the source, the index and the marks, in batches."""

    def __init__(
        self, source: MailSource, store: Store, *, days: int, index_ready: Callable[[], bool] = lambda: True
    ) -> None:
        self._source = source
        self._store = store
        self._days = days
        self._index_ready = index_ready

    async def sweep(self, now: float | None = None) -> int:
        """Delete every copy received before `now` minus the retention; returns how many."""
        await self._store.quarantine.prune()
        if self._index_ready():
            # Marks of messages that left the mailbox behind the gateway's back (an outside
            # expunge, or while it was down) retire like any other; never while the index is
            # still being built, when every message not yet read back looks gone.
            await self._store.marks.retire_orphans()
        if self._days <= 0:
            return 0
        cutoff = (time.time() if now is None else now) - self._days * 86400
        removed = 0
        while ids := await self._store.index.older_than(cutoff, SWEEP_BATCH):
            gone = await self._source.expunge(ids)
            await self._store.marks.retire(await self._store.index.remove(gone))
            removed += len(gone)
            if len(gone) < len(ids):
                break  # ids the mailbox cannot act on now (it is being renumbered): next sweep
        await self._store.index.forget_cursors(cutoff)
        if self._index_ready():  # what a half-built index lacks is not gone
            await self._store.marks.prune(cutoff)  # kept as long as a late copy could still arrive
        if removed:
            log.info("retention removed %d copies older than %d days", removed, self._days)
        return removed

    async def run(self) -> None:
        """Sweep now and then every SWEEP_INTERVAL seconds, until cancelled."""
        while True:
            try:
                await self.sweep()
            except Exception:
                log.exception("retention sweep failed; retrying at the next interval")
            await asyncio.sleep(SWEEP_INTERVAL)
