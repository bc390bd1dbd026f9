"""PostgreSQL marks, claims and rate counters: small rows, each change one atomic statement."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from typing import Final

import psycopg

from gateway.errors import NotFound
from gateway.store.limits import MAX_RATE_EVENTS
from gateway.store.models import Identity
from gateway.store.postgres.database import Database
from gateway.store.rows import retry_after

__all__ = ["PostgresClaims", "PostgresMarks", "PostgresRateLimits"]

# Sweeps of lapsed rows skip rows another transaction holds: two sweeping gateways never
# wait on (or deadlock with) each other or with a claim being taken; a skipped row goes next time.
_SWEEP_CLAIMS: Final = (
    "DELETE FROM claims WHERE ctid IN (SELECT ctid FROM claims WHERE until <= %s FOR UPDATE SKIP LOCKED)"
)
_SWEEP_EVENTS: Final = (
    "DELETE FROM rate_events WHERE id IN (SELECT id FROM rate_events WHERE expires <= %s FOR UPDATE SKIP LOCKED)"
)


class PostgresMarks:
    """`Marks` on PostgreSQL."""

    def __init__(self, db: Database, clock: Callable[[], float]) -> None:
        self._db = db
        self._clock = clock

    async def set_seen(self, identity: Identity, message_key: str, seen: bool) -> None:
        await self._db.execute(
            "INSERT INTO marks (identity_id, message_key, seen) VALUES (%s, %s, %s)"
            " ON CONFLICT (identity_id, message_key) DO UPDATE SET seen = excluded.seen",
            (identity.id, message_key, seen),
        )

    async def set_deleted(self, identity: Identity, message_key: str) -> None:
        await self._db.execute(
            "INSERT INTO marks (identity_id, message_key, deleted) VALUES (%s, %s, true)"
            " ON CONFLICT (identity_id, message_key) DO UPDATE SET deleted = true",
            (identity.id, message_key),
        )

    async def is_deleted(self, identity: Identity, message_key: str) -> bool:
        row = await self._db.fetchone(
            "SELECT 1 FROM marks WHERE identity_id = %s AND message_key = %s AND deleted",
            (identity.id, message_key),
        )
        return row is not None

    async def retire(self, message_keys: Iterable[str]) -> None:
        keys = list(dict.fromkeys(message_keys))
        if not keys:
            return
        async with self._db.transaction() as conn:
            await conn.execute(
                "UPDATE marks SET retired_at = %s WHERE message_key = ANY(%s) AND retired_at IS NULL",
                (self._clock(), keys),
            )
            await conn.execute("DELETE FROM claims WHERE message_key = ANY(%s)", (keys,))

    async def retire_orphans(self) -> int:
        return await self._db.execute(
            "UPDATE marks SET retired_at = %s WHERE retired_at IS NULL"
            " AND NOT EXISTS (SELECT 1 FROM copies c WHERE c.message_key = marks.message_key)",
            (self._clock(),),
        )

    async def prune(self, before_ts: float) -> int:
        return await self._db.execute(
            "DELETE FROM marks WHERE retired_at < %s"
            " AND NOT EXISTS (SELECT 1 FROM copies c WHERE c.message_key = marks.message_key)",
            (before_ts,),
        )


class PostgresClaims:
    """`Claims` on PostgreSQL: one row per claimed message, taken (or a lapsed one taken over) by one upsert."""

    def __init__(self, db: Database, clock: Callable[[], float]) -> None:
        self._db = db
        self._clock = clock

    async def take(self, identity: Identity, message_key: str, *, ttl: float) -> bool:
        now = self._clock()
        try:
            return await self._take(identity, message_key, ttl, now)
        except psycopg.errors.ForeignKeyViolation:  # the identity row is gone (deleted while its wait looked)
            raise NotFound(f"the identity {identity.address} no longer exists") from None

    async def _take(self, identity: Identity, message_key: str, ttl: float, now: float) -> bool:
        async with self._db.transaction() as conn:
            # The row lock of the conflicting row decides: a live claim leaves the WHERE false
            # (no row returned), a lapsed one is taken over, whichever gateway asks.
            cur = await conn.execute(
                "INSERT INTO claims (identity_id, message_key, until) VALUES (%s, %s, %s)"
                " ON CONFLICT (identity_id, message_key) DO UPDATE SET until = excluded.until"
                " WHERE claims.until <= %s RETURNING true",
                (identity.id, message_key, now + ttl, now),
            )
            won = await cur.fetchone() is not None
            await conn.execute(_SWEEP_CLAIMS, (now,))  # lapsed claims of anyone
        return won

    async def release(self, identity: Identity, message_key: str) -> None:
        await self._db.execute(
            "DELETE FROM claims WHERE identity_id = %s AND message_key = %s", (identity.id, message_key)
        )

    async def next_lapse(self, identity: Identity) -> float | None:
        row = await self._db.fetchone(
            "SELECT min(until) FROM claims WHERE identity_id = %s AND until > %s", (identity.id, self._clock())
        )
        return None if row is None or row[0] is None else float(row[0])


class PostgresRateLimits:
    """`RateLimits` on PostgreSQL: one row per event, expired rows swept as new ones arrive."""

    def __init__(self, db: Database, clock: Callable[[], float]) -> None:
        self._db = db
        self._clock = clock

    async def acquire(self, key: str, *, limit: int, window: float) -> int | None:
        now = self._clock()
        async with self._db.transaction() as conn:
            # One key's acquires queue on a lock of that key (every gateway on the database):
            # the count and the insert below are then one step. Other keys never wait.
            await conn.execute("SELECT pg_advisory_xact_lock(hashtext('rate:' || %s))", (key,))
            cur = await conn.execute(_LAST_EVENTS, (key, now - window, limit))
            wait = _wait(await cur.fetchall(), limit, window, now)
            if wait is None:
                await conn.execute(_SWEEP_EVENTS, (now,))
                await conn.execute(
                    "INSERT INTO rate_events (key, at, expires) VALUES (%s, %s, %s)", (key, now, now + window)
                )
                await conn.execute(
                    "DELETE FROM rate_events WHERE id <= (SELECT max(id) FROM rate_events) - %s", (MAX_RATE_EVENTS,)
                )
            return wait

    async def release(self, key: str) -> None:
        await self._db.execute(
            "DELETE FROM rate_events WHERE id = (SELECT max(id) FROM rate_events WHERE key = %s)", (key,)
        )

    async def retry_after(self, key: str, *, limit: int, window: float) -> int | None:
        now = self._clock()
        return _wait(await self._db.fetchall(_LAST_EVENTS, (key, now - window, limit)), limit, window, now)


_LAST_EVENTS: Final = "SELECT at FROM rate_events WHERE key = %s AND at > %s ORDER BY at DESC LIMIT %s"


def _wait(rows: Sequence[Sequence[object]], limit: int, window: float, now: float) -> int | None:
    return retry_after([r[0] for r in rows], limit, window, now)
