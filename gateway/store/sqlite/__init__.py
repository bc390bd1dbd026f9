"""The SQLite engine (the default): `identities.db` and `index.db` in the data dir, one connection, one thread."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from pathlib import Path
from typing import TypeVar

from gateway.mail.keys import message_key
from gateway.sources.local import Maildir
from gateway.store import Store
from gateway.store.coordination import LocalCoordination
from gateway.store.lineage import Binding
from gateway.store.sqlite.accounts import (
    SqliteAccounts,
    SqliteIdentities,
    SqliteQuarantine,
    SqliteTokens,
    SqliteUiSessions,
)
from gateway.store.sqlite.database import Database
from gateway.store.sqlite.index import SqliteIndex
from gateway.store.sqlite.marks import SqliteClaims, SqliteMarks, SqliteRateLimits
from gateway.store.sqlite.outbox import SqliteOutbox
from gateway.store.sqlite.schema import KeyLookup, connect, store_meta
from gateway.store.sqlite.webhooks import SqliteWebhooks

__all__ = ["SqliteEngine", "maildir_keys", "open_sqlite"]

A = TypeVar("A", bound=SqliteAccounts)


class SqliteEngine:
    """Owns the database thread; opening checks (and upgrades) the files at once."""

    kind = "sqlite"

    def __init__(self, db: Database, *, created: bool = False) -> None:
        self.db = db
        meta = db.run_blocking(store_meta)
        self.store_id: str | None = meta.get("store_id")
        """The store's random id (meta), which the mailbox's mark repeats."""
        self.domain: str | None = meta.get("domain")
        """The domain the store is bound to; None only for an unbound store opened to adopt it."""
        self.created = created
        """Whether opening made this store (there was none)."""

    async def start(self) -> None:
        """Nothing to do: the files were checked when the engine was opened."""

    async def close(self) -> None:
        self.db.close()

    async def ping(self) -> bool:
        return await self.db.run(lambda c: c.execute("SELECT 1").fetchone() == (1,))


def maildir_keys(maildir: Path, *, max_bytes: int) -> KeyLookup:
    """Copy ids of the embedded Maildir → message keys: upgrades a version 1 store, whose marks named copies."""

    def lookup(ids: Sequence[str]) -> dict[str, str]:
        box = Maildir(maildir)
        found = {}
        for copy_id in ids:
            stored = box.read(copy_id)
            if stored is not None:
                found[copy_id] = message_key(stored.raw, max_bytes=max_bytes)
        return found

    return lookup


def open_sqlite(
    data_dir: Path,
    *,
    domain: str,
    reserved: frozenset[str] = frozenset(),
    quarantine_seconds: float = 7 * 86400.0,
    clock: Callable[[], float],
    message_keys: KeyLookup | None = None,
    adopt_domain: bool = False,
    may_create: Callable[[str], None] | None = None,
) -> Store:
    """The store in `data_dir`; StoreError (before anything listens) when the durable file cannot be trusted.

    `may_create` is asked before a new store is made (it raises to refuse); with `adopt_domain`
    the store's own domain (`engine.domain`) is read, not checked against `domain` (the caller
    then opens it again with that domain).
    """
    binding = Binding(domain, adopt_domain=adopt_domain, may_create=may_create)
    durable = data_dir / "identities.db"
    new = not durable.exists() and not durable.is_symlink()
    db = Database(lambda: connect(durable, data_dir / "index.db", binding=binding, message_keys=message_keys))
    engine = SqliteEngine(db, created=new)
    coordination = LocalCoordination()

    def accounts(kind: type[A]) -> A:
        return kind(
            db,
            domain=domain,
            reserved=reserved,
            quarantine_seconds=quarantine_seconds,
            clock=clock,
            announce=coordination.announce,
        )

    return Store(
        engine=engine,
        identities=accounts(SqliteIdentities),
        tokens=accounts(SqliteTokens),
        quarantine=accounts(SqliteQuarantine),
        marks=SqliteMarks(db, clock),
        sessions=accounts(SqliteUiSessions),
        claims=SqliteClaims(db, clock),
        limits=SqliteRateLimits(db, clock),
        outbox=SqliteOutbox(db, clock),
        webhooks=SqliteWebhooks(db, clock),
        index=SqliteIndex(db, clock),
        coordination=coordination,
    )
