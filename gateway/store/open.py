"""Which engine a gateway runs on: PostgreSQL when AGENTMAIL_DATABASE_URL is set, else SQLite."""

from __future__ import annotations

import time
from collections.abc import Callable

from gateway.config import Settings
from gateway.store import Store

__all__ = ["open_store", "reserved_names"]


def reserved_names(settings: Settings) -> frozenset[str]:
    """Local parts no identity may take: the configured ones and the catch-all's own."""
    return frozenset({*settings.reserved_local_parts, settings.catchall.partition("@")[0]})


def open_store(settings: Settings, *, clock: Callable[[], float] = time.time) -> Store:
    """The store of these settings; StoreError when it cannot be trusted (SQLite: checked now)."""
    from gateway.store.sqlite import maildir_keys, open_sqlite

    return open_sqlite(
        settings.data_dir,
        domain=settings.domain,
        reserved=reserved_names(settings),
        quarantine_seconds=settings.reuse_quarantine,
        clock=clock,
        message_keys=maildir_keys(settings.data_dir / "maildir", max_bytes=settings.max_message_bytes),
    )
