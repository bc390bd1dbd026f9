"""The PostgreSQL outbox: accepted sends and their delivery rows, claimed by any number of workers."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Final

from gateway.errors import NotFound
from gateway.store.outbox import DeliveryState, OutboxEntry
from gateway.store.postgres.database import Database
from gateway.store.rows import OUTBOX_COLUMNS, delivery_of, encode_json, entry_of

__all__ = ["PostgresOutbox"]

# Due work (a step not done, or a queued remote recipient whose retry time came) without a live
# lease, oldest first. FOR UPDATE SKIP LOCKED: a row another claimer is taking is passed over,
# and one it took meanwhile is re-checked against the lease (READ COMMITTED), so no entry is
# claimed twice.
_CLAIM: Final = (
    "WITH due AS (SELECT id FROM outbox WHERE NOT finished AND claimed_until <= %(now)s"  # noqa: S608 - constants
    " AND next_at <= %(now)s AND (NOT local_done OR NOT copy_done OR EXISTS (SELECT 1 FROM deliveries d"
    " WHERE d.entry_id = outbox.id AND d.remote AND d.status = 'queued'))"
    " ORDER BY created_at, id LIMIT %(limit)s FOR UPDATE SKIP LOCKED)"
    " UPDATE outbox SET claimed_until = %(until)s FROM due WHERE outbox.id = due.id"
    f" RETURNING {', '.join('outbox.' + c.strip() for c in OUTBOX_COLUMNS.split(','))}"
)


class PostgresOutbox:
    """`Outbox` on PostgreSQL."""

    def __init__(self, db: Database, clock: Callable[[], float]) -> None:
        self._db = db
        self._clock = clock

    async def put(self, entry: OutboxEntry, *, lease: float = 0.0) -> None:
        now = self._clock()
        recipients = [*((a, False) for a in entry.local), *((a, True) for a in entry.remote)]
        async with self._db.transaction() as conn:
            cur = await conn.execute(
                "INSERT INTO outbox (id, identity_id, sender, message_key, message_id, raw, sent_copy, local_json,"
                " remote_json, created_at, local_done, copy_done, attempts, next_at, claimed_until)"
                " VALUES (%s, %s, %s, %s, %s, %s, %s, %s, %s, %s, %s, %s, %s, %s, %s) ON CONFLICT (id) DO NOTHING",
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
                    entry.local_done,
                    entry.copy_done,
                    entry.attempts,
                    entry.next_ts,
                    now + lease if lease > 0 else 0.0,
                ),
            )
            if cur.rowcount == 0 or not recipients:
                return  # the idempotency key again: the first entry stands
            await conn.execute(
                "INSERT INTO deliveries (entry_id, position, address, remote, status, updated_at)"
                " SELECT %s, n.position - 1, n.address, n.remote,"
                " CASE WHEN n.remote THEN 'queued' ELSE 'pending' END, %s"
                " FROM unnest(%s::text[], %s::bool[]) WITH ORDINALITY AS n (address, remote, position)"
                " ON CONFLICT (entry_id, address) DO NOTHING",
                (entry.id, now, [a for a, _ in recipients], [r for _, r in recipients]),
            )

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
        async with self._db.transaction() as conn:
            cur = await conn.execute(
                "UPDATE outbox SET local_done = local_done OR %s, copy_done = copy_done OR %s,"
                " attempts = coalesce(%s, attempts), next_at = coalesce(%s, next_at),"
                " claimed_until = CASE WHEN %s THEN 0 ELSE claimed_until END WHERE id = %s",
                (local_done, copy_done, attempts, next_ts, release, entry_id),
            )
            if cur.rowcount == 0:
                raise NotFound("no such outbox entry")
            for r in results:
                await conn.execute(
                    "UPDATE deliveries SET status = %s, detail = %s, attempts = %s, updated_at = %s"
                    " WHERE entry_id = %s AND address = %s",
                    (r.status, r.detail, r.attempts, r.updated_ts, entry_id, r.address),
                )
            await conn.execute(
                "UPDATE outbox SET finished = true, raw = NULL, sent_copy = NULL"
                " WHERE id = %s AND NOT finished AND local_done AND copy_done AND NOT EXISTS"
                " (SELECT 1 FROM deliveries d WHERE d.entry_id = outbox.id AND d.remote AND d.status = 'queued')",
                (entry_id,),
            )
            # Finished, and its identity deleted meanwhile: its rows go as they would have with it.
            await conn.execute(
                "DELETE FROM outbox WHERE id = %s AND finished"
                " AND NOT EXISTS (SELECT 1 FROM identities i WHERE i.id = outbox.identity_id)",
                (entry_id,),
            )

    async def release_all(self) -> None:
        async with self._db.transaction() as conn:
            await conn.execute("UPDATE outbox SET claimed_until = 0 WHERE claimed_until > 0")

    async def claim(self, *, now: float, lease: float, limit: int) -> list[OutboxEntry]:
        async with self._db.transaction() as conn:
            cur = await conn.execute(_CLAIM, {"now": now, "until": now + lease, "limit": limit})
            rows = await cur.fetchall()
        return sorted((entry_of(r) for r in rows), key=lambda e: (e.created_ts, e.id))

    async def deliveries(self, identity_id: int, message_key: str) -> list[DeliveryState]:
        rows = await self._db.fetchall(
            "SELECT d.address, d.status, d.detail, d.attempts, d.updated_at FROM deliveries d"
            " JOIN outbox o ON o.id = d.entry_id WHERE o.identity_id = %s AND o.message_key = %s"
            " ORDER BY o.created_at, o.id, d.position",
            (identity_id, message_key),
        )
        return [delivery_of(r) for r in rows]

    async def pending(self) -> int:
        row = await self._db.fetchone("SELECT count(*) FROM outbox WHERE NOT finished")
        assert row is not None
        return int(row[0])
