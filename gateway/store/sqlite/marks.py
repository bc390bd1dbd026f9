"""SQLite marks, claims and rate counters: small rows, each change one statement."""

from __future__ import annotations

import sqlite3
from collections.abc import Callable, Iterable

from gateway.errors import NotFound
from gateway.store.limits import MAX_RATE_EVENTS
from gateway.store.models import Identity
from gateway.store.rows import retry_after
from gateway.store.sqlite.database import Database, transaction

__all__ = ["SqliteClaims", "SqliteMarks", "SqliteRateLimits"]


class SqliteMarks:
    """`Marks` on SQLite."""

    def __init__(self, db: Database, clock: Callable[[], float]) -> None:
        self._db = db
        self._clock = clock

    async def set_seen(self, identity: Identity, message_key: str, seen: bool) -> None:
        await self._db.run(
            lambda c: c.execute(
                "INSERT INTO marks (identity_id, message_key, seen) VALUES (?, ?, ?)"
                " ON CONFLICT DO UPDATE SET seen = excluded.seen",
                (identity.id, message_key, int(seen)),
            )
        )

    async def set_deleted(self, identity: Identity, message_key: str) -> None:
        await self._db.run(
            lambda c: c.execute(
                "INSERT INTO marks (identity_id, message_key, deleted) VALUES (?, ?, 1)"
                " ON CONFLICT DO UPDATE SET deleted = 1",
                (identity.id, message_key),
            )
        )

    async def is_deleted(self, identity: Identity, message_key: str) -> bool:
        row = await self._db.run(
            lambda c: c.execute(
                "SELECT 1 FROM marks WHERE identity_id = ? AND message_key = ? AND deleted = 1",
                (identity.id, message_key),
            ).fetchone()
        )
        return row is not None

    async def retire(self, message_keys: Iterable[str]) -> None:
        rows = [(k,) for k in dict.fromkeys(message_keys)]
        if not rows:
            return
        now = self._clock()

        def retire(conn: sqlite3.Connection) -> None:
            with transaction(conn):
                conn.executemany(
                    "UPDATE marks SET retired_at = ? WHERE message_key = ? AND retired_at IS NULL",
                    [(now, k) for (k,) in rows],
                )
                conn.executemany("DELETE FROM claims WHERE message_key = ?", rows)

        await self._db.run(retire)

    async def retire_orphans(self) -> int:
        now = self._clock()
        return await self._db.run(
            lambda c: (
                c.execute(
                    "UPDATE marks SET retired_at = ? WHERE retired_at IS NULL"
                    " AND NOT EXISTS (SELECT 1 FROM idx.copies c WHERE c.message_key = marks.message_key)",
                    (now,),
                ).rowcount
            )
        )

    async def prune(self, before_ts: float) -> int:
        return await self._db.run(
            lambda c: (
                c.execute(
                    "DELETE FROM marks WHERE retired_at < ?"
                    " AND NOT EXISTS (SELECT 1 FROM idx.copies c WHERE c.message_key = marks.message_key)",
                    (before_ts,),
                ).rowcount
            )
        )


class SqliteClaims:
    """`Claims` on SQLite: one row per claimed message, taken in one transaction."""

    def __init__(self, db: Database, clock: Callable[[], float]) -> None:
        self._db = db
        self._clock = clock

    async def take(self, identity: Identity, message_key: str, *, ttl: float) -> bool:
        now = self._clock()

        def take(conn: sqlite3.Connection) -> bool:
            with transaction(conn):
                conn.execute("DELETE FROM claims WHERE until <= ?", (now,))  # lapsed claims of anyone
                cur = conn.execute(
                    "INSERT OR IGNORE INTO claims (identity_id, message_key, until) VALUES (?, ?, ?)",
                    (identity.id, message_key, now + ttl),
                )
                return cur.rowcount == 1

        try:
            return await self._db.run(take)
        except sqlite3.IntegrityError:  # the identity row is gone (deleted while its wait looked)
            raise NotFound(f"the identity {identity.address} no longer exists") from None

    async def release(self, identity: Identity, message_key: str) -> None:
        await self._db.run(
            lambda c: c.execute(
                "DELETE FROM claims WHERE identity_id = ? AND message_key = ?", (identity.id, message_key)
            )
        )

    async def next_lapse(self, identity: Identity) -> float | None:
        now = self._clock()
        row = await self._db.run(
            lambda c: c.execute(
                "SELECT min(until) FROM claims WHERE identity_id = ? AND until > ?", (identity.id, now)
            ).fetchone()
        )
        return None if row is None or row[0] is None else float(row[0])


class SqliteRateLimits:
    """`RateLimits` on SQLite: one row per event, expired rows swept as new ones arrive."""

    def __init__(self, db: Database, clock: Callable[[], float]) -> None:
        self._db = db
        self._clock = clock

    async def acquire(self, key: str, *, limit: int, window: float) -> int | None:
        now = self._clock()

        def acquire(conn: sqlite3.Connection) -> int | None:
            with transaction(conn):  # BEGIN IMMEDIATE: other processes' acquires wait for this one
                wait = _retry_after(conn, key, limit, window, now)
                if wait is None:
                    conn.execute("DELETE FROM rate_events WHERE expires <= ?", (now,))
                    conn.execute(
                        "INSERT INTO rate_events (key, at, expires) VALUES (?, ?, ?)", (key, now, now + window)
                    )
                    conn.execute(
                        "DELETE FROM rate_events WHERE id <= (SELECT max(id) FROM rate_events) - ?",
                        (MAX_RATE_EVENTS,),
                    )
                return wait

        return await self._db.run(acquire)

    async def release(self, key: str) -> None:
        await self._db.run(
            lambda c: c.execute(
                "DELETE FROM rate_events WHERE id = (SELECT max(id) FROM rate_events WHERE key = ?)", (key,)
            )
        )

    async def retry_after(self, key: str, *, limit: int, window: float) -> int | None:
        now = self._clock()
        return await self._db.run(lambda c: _retry_after(c, key, limit, window, now))


def _retry_after(conn: sqlite3.Connection, key: str, limit: int, window: float, now: float) -> int | None:
    rows = conn.execute(
        "SELECT at FROM rate_events WHERE key = ? AND at > ? ORDER BY at DESC LIMIT ?", (key, now - window, limit)
    ).fetchall()
    return retry_after([r[0] for r in rows], limit, window, now)
