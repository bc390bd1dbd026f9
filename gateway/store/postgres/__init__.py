"""The PostgreSQL engine (`AGENTMAIL_DATABASE_URL`): durable tables and the index in one database, a psycopg 3 pool.

Any number of gateways may share the database: identity ids come from an identity column,
claims and rate events are rows changed by single atomic statements, a name's creation holds
an advisory lock on that name. Times come from the injected clock, never from `now()`.
Importing this package imports psycopg: only `gateway.store.open` does, and only when a
database URL is set.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TypeVar

from gateway.errors import StoreError, StoreUnavailable
from gateway.store import Store
from gateway.store.lineage import Binding
from gateway.store.postgres.accounts import (
    PostgresAccounts,
    PostgresIdentities,
    PostgresQuarantine,
    PostgresTokens,
    PostgresUiSessions,
)
from gateway.store.postgres.coordination import PostgresCoordination
from gateway.store.postgres.database import CONNECT_TIMEOUT, Database
from gateway.store.postgres.index import PostgresIndex
from gateway.store.postgres.marks import PostgresClaims, PostgresMarks, PostgresRateLimits
from gateway.store.postgres.outbox import PostgresOutbox
from gateway.store.postgres.schema import SCHEMA_VERSION, ensure_schema
from gateway.store.postgres.webhooks import PostgresWebhooks

__all__ = ["SCHEMA_VERSION", "PostgresEngine", "open_postgres"]

A = TypeVar("A", bound=PostgresAccounts)


class PostgresEngine:
    """Owns the pool: `start` connects and creates or checks the schema, failing closed."""

    kind = "postgresql"

    def __init__(self, db: Database, binding: Binding) -> None:
        self.db = db
        self._binding = binding
        self.store_id: str | None = None
        self.domain: str | None = None
        self.created = False

    async def start(self) -> None:
        """Connect, open the pool and create (or check) the schema; StoreError when it cannot be trusted."""
        await self.db.start()
        try:
            meta, created = await ensure_schema(self.db, self._binding)
            self.store_id, self.domain = meta.get("store_id"), meta.get("domain")
            self.created = self.created or created
        except BaseException:
            await self.db.close()
            raise

    async def close(self) -> None:
        """Close every pooled connection."""
        await self.db.close()

    async def ping(self) -> bool:
        """Whether the database answers a trivial query right now."""
        try:
            return await self.db.fetchone("SELECT 1") == (1,)
        except (StoreError, StoreUnavailable):
            return False


def open_postgres(
    dsn: str,
    *,
    domain: str,
    reserved: frozenset[str] = frozenset(),
    quarantine_seconds: float = 7 * 86400.0,
    clock: Callable[[], float],
    min_connections: int = 2,
    max_connections: int = 10,
    connect_timeout: float = CONNECT_TIMEOUT,
    adopt_domain: bool = False,
    may_create: Callable[[str], None] | None = None,
) -> Store:
    """The store in the database at `dsn`; nothing connects until `store.engine.start()`.

    `may_create` and `adopt_domain` as for `open_sqlite`, applied when the engine starts.
    """
    db = Database(dsn, min_size=min_connections, max_size=max_connections, connect_timeout=connect_timeout)

    def accounts(kind: type[A]) -> A:
        return kind(db, domain=domain, reserved=reserved, quarantine_seconds=quarantine_seconds, clock=clock)

    return Store(
        engine=PostgresEngine(db, Binding(domain, adopt_domain=adopt_domain, may_create=may_create)),
        identities=accounts(PostgresIdentities),
        tokens=accounts(PostgresTokens),
        quarantine=accounts(PostgresQuarantine),
        marks=PostgresMarks(db, clock),
        sessions=accounts(PostgresUiSessions),
        claims=PostgresClaims(db, clock),
        limits=PostgresRateLimits(db, clock),
        outbox=PostgresOutbox(db, clock),
        webhooks=PostgresWebhooks(db, clock),
        index=PostgresIndex(db, clock),
        coordination=PostgresCoordination(db),
    )
