"""The SQLite outbox: accepted sends and their delivery rows, in the durable file."""

from __future__ import annotations

import sqlite3
from collections.abc import Callable, Sequence
from typing import Final

from gateway.errors import NotFound
from gateway.store.outbox import DeliveryState, OutboxEntry
from gateway.store.rows import OUTBOX_COLUMNS, delivery_of, encode_json, entry_of
from gateway.store.sqlite.database import Database, transaction

__all__ = ["SqliteOutbox"]

# Work is due once its time came (a retry backs off, whatever step failed): a step not done yet,
# or a remote recipient still queued.
_DUE: Final = (
    "finished = 0 AND claimed_until <= :now AND next_at <= :now AND (local_done = 0 OR copy_done = 0 OR EXISTS"
    " (SELECT 1 FROM deliveries d WHERE d.entry_id = outbox.id AND d.remote = 1 AND d.status = 'queued'))"
)


class SqliteOutbox:
    """`Outbox` on SQLite."""

    def __init__(self, db: Database, clock: Callable[[], float]) -> None:
        self._db = db
        self._clock = clock

    async def put(self, entry: OutboxEntry, *, lease: float = 0.0) -> None:
        now = self._clock()
        claimed = now + lease if lease > 0 else 0.0
        rows = [
            (entry.id, position, address, remote, "queued" if remote else "pending", now)
            for position, (address, remote) in enumerate(
                [*((a, 0) for a in entry.local), *((a, 1) for a in entry.remote)]
            )
        ]

        def put(conn: sqlite3.Connection) -> None:
            with transaction(conn):
                cur = conn.execute(
                    "INSERT INTO outbox (id, identity_id, sender, message_key, message_id, raw, sent_copy, local_json,"
                    " remote_json, created_at, local_done, copy_done, attempts, next_at, claimed_until)"
                    " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT (id) DO NOTHING",
                    (
                        entry.id,
                        entry.identity_id,
                        entry.sender,
                        entry.message_key,
                        entry.message_id,
                        entry.raw,
                        entry.sent_copy,
                        encode_json(entry.local),
                        encode_json(entry.remote),
                        entry.created_ts,
                        int(entry.local_done),
                        int(entry.copy_done),
                        entry.attempts,
                        entry.next_ts,
                        claimed,
                    ),
                )
                if cur.rowcount == 0:
                    return  # the idempotency key again: the first entry stands
                conn.executemany(
                    "INSERT INTO deliveries (entry_id, position, address, remote, status, updated_at)"
                    " VALUES (?, ?, ?, ?, ?, ?) ON CONFLICT (entry_id, address) DO NOTHING",
                    rows,
                )

        await self._db.run(put)

    async def record(
        self,
        entry_id: str,
        *,
        local_done: bool = False,
        copy_done: bool = False,
        results: Sequence[DeliveryState] = (),
        attempts: int | None = None,
        next_ts: float | None = None,
        release: bool = True,
    ) -> None:
        def record(conn: sqlite3.Connection) -> bool:
            with transaction(conn):
                cur = conn.execute(
                    "UPDATE outbox SET local_done = max(local_done, ?), copy_done = max(copy_done, ?),"
                    " attempts = coalesce(?, attempts), next_at = coalesce(?, next_at),"
                    " claimed_until = CASE WHEN ? THEN 0 ELSE claimed_until END WHERE id = ?",
                    (int(local_done), int(copy_done), attempts, next_ts, int(release), entry_id),
                )
                if cur.rowcount == 0:
                    return False
                conn.executemany(
                    "UPDATE deliveries SET status = ?, detail = ?, attempts = ?, updated_at = ?"
                    " WHERE entry_id = ? AND address = ?",
                    [(r.status, r.detail, r.attempts, r.updated_ts, entry_id, r.address) for r in results],
                )
                conn.execute(
                    "UPDATE outbox SET finished = 1, raw = NULL, sent_copy = NULL"
                    " WHERE id = ? AND finished = 0 AND local_done = 1 AND copy_done = 1 AND NOT EXISTS"
                    " (SELECT 1 FROM deliveries d WHERE d.entry_id = outbox.id AND d.remote = 1"
                    " AND d.status = 'queued')",
                    (entry_id,),
                )
                # Finished, and its identity deleted meanwhile: its rows go as they would have with it.
                conn.execute(
                    "DELETE FROM outbox WHERE id = ? AND finished = 1"
                    " AND NOT EXISTS (SELECT 1 FROM identities i WHERE i.id = outbox.identity_id)",
                    (entry_id,),
                )
                return True

        if not await self._db.run(record):
            raise NotFound("no such outbox entry")

    async def release_all(self) -> None:
        await self._db.run(lambda c: c.execute("UPDATE outbox SET claimed_until = 0 WHERE claimed_until > 0"))

    async def claim(self, *, now: float, lease: float, limit: int) -> list[OutboxEntry]:
        def claim(conn: sqlite3.Connection) -> list[OutboxEntry]:
            # One statement on the store's one thread (and BEGIN IMMEDIATE against other
            # processes): what it selects it claims.
            with transaction(conn):
                rows = conn.execute(
                    f"UPDATE outbox SET claimed_until = :until WHERE id IN (SELECT id FROM outbox WHERE {_DUE}"  # noqa: S608
                    f" ORDER BY created_at, id LIMIT :limit) RETURNING {OUTBOX_COLUMNS}",
                    {"now": now, "until": now + lease, "limit": limit},
                ).fetchall()
            return sorted((entry_of(r) for r in rows), key=lambda e: (e.created_ts, e.id))

        return await self._db.run(claim)

    async def deliveries(self, identity_id: int, message_key: str) -> list[DeliveryState]:
        rows = await self._db.run(
            lambda c: c.execute(
                "SELECT d.address, d.status, d.detail, d.attempts, d.updated_at FROM deliveries d"
                " JOIN outbox o ON o.id = d.entry_id WHERE o.identity_id = ? AND o.message_key = ?"
                " ORDER BY o.created_at, o.id, d.position",
                (identity_id, message_key),
            ).fetchall()
        )
        return [delivery_of(r) for r in rows]

    async def pending(self) -> int:
        return await self._db.run(
            lambda c: int(c.execute("SELECT count(*) FROM outbox WHERE finished = 0").fetchone()[0])
        )
