"""The SQLite webhook store: webhooks, their deliveries in order, the attempt log, in the durable file.

Every call is one function on the store's one thread, and every write one `BEGIN IMMEDIATE`
transaction, so a claim (read what is due, lease it) is atomic against this process's other
calls and against any other process writing the file.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Callable, Iterable, Sequence
from typing import Any, Final

from gateway.errors import Conflict, NotFound
from gateway.store.rows import (
    ATTEMPT_COLUMNS,
    ATTEMPTS_KEPT,
    HOOK_DELIVERY_COLUMNS,
    WEBHOOK_COLUMNS,
    attempt_of,
    check_webhook,
    clip,
    hook_delivery_of,
    webhook_of,
    webhook_values,
)
from gateway.store.sqlite.database import Database, transaction
from gateway.store.webhooks import Attempt, Delivery, DeliveryStatus, Webhook, WebhookScope

__all__ = ["SqliteWebhooks"]

_CHUNK: Final = 500  # ids bound per statement, well under SQLite's limit on host parameters

# The heads (the oldest queued delivery of each webhook and address) that are due and free,
# of enabled webhooks, with no other delivery of their queue in flight (one a hand retry put
# back in front of it; only a queued delivery holds a lease), ranked per webhook after that
# webhook's live leases: a rank past `per_webhook` would be one call too many.
_CLAIM: Final = f"""
WITH live AS (
    SELECT webhook_id, count(*) AS n FROM webhook_deliveries
    WHERE claimed_until > 0 AND claimed_until > :now GROUP BY webhook_id
), due AS MATERIALIZED (
    SELECT d.seq, d.webhook_id, d.created_at FROM webhook_deliveries d INDEXED BY webhook_deliveries_due
    JOIN webhooks w ON w.id = d.webhook_id
    WHERE d.head = 1 AND d.next_at <= :now AND d.claimed_until <= :now AND w.disabled_at IS NULL
    AND NOT EXISTS (SELECT 1 FROM webhook_deliveries o WHERE o.webhook_id = d.webhook_id AND o.address = d.address
        AND o.claimed_until > 0 AND o.claimed_until > :now AND o.seq != d.seq)
), ranked AS (
    SELECT due.seq, due.created_at,
        row_number() OVER (PARTITION BY due.webhook_id ORDER BY due.created_at, due.seq) + coalesce(live.n, 0) AS k
    FROM due LEFT JOIN live ON live.webhook_id = due.webhook_id
)
UPDATE webhook_deliveries SET claimed_until = :until
WHERE seq IN (SELECT seq FROM ranked WHERE k <= :per ORDER BY created_at, seq LIMIT :limit)
RETURNING seq, {HOOK_DELIVERY_COLUMNS}
"""  # noqa: S608 - constants only


def _settle(conn: sqlite3.Connection, queues: Iterable[tuple[str, str]]) -> None:
    """Make the oldest queued delivery of each (webhook, address) its queue's only head again.

    Three indexed steps per queue (its first queued delivery, its heads, one row by key): a
    backlog of any length behind the head is never read.
    """
    for webhook_id, address in sorted(set(queues)):
        first = conn.execute(
            "SELECT min(seq) FROM webhook_deliveries WHERE webhook_id = ? AND address = ? AND status = 'queued'",
            (webhook_id, address),
        ).fetchone()[0]
        conn.execute(
            "UPDATE webhook_deliveries SET head = 0 WHERE head = 1 AND webhook_id = ? AND address = ? AND seq IS NOT ?",
            (webhook_id, address, first),
        )
        if first is not None:
            conn.execute("UPDATE webhook_deliveries SET head = 1 WHERE seq = ? AND head = 0", (first,))


class SqliteWebhooks:
    """`WebhookStore` on SQLite."""

    def __init__(self, db: Database, clock: Callable[[], float]) -> None:
        self._db = db
        self._clock = clock

    async def create(self, hook: Webhook) -> None:
        check_webhook(hook)

        def create(conn: sqlite3.Connection) -> int:
            with transaction(conn):
                try:
                    return conn.execute(
                        f"INSERT INTO webhooks ({WEBHOOK_COLUMNS}) VALUES ({', '.join('?' * 17)})"  # noqa: S608
                        " ON CONFLICT (id) DO NOTHING",
                        webhook_values(hook),
                    ).rowcount
                except sqlite3.IntegrityError:  # its identity or token is gone (deleted meanwhile)
                    raise NotFound("no such identity or token") from None

        if await self._db.run(create) == 0:
            raise Conflict(f"webhook {hook.id} exists")

    async def get(self, webhook_id: str) -> Webhook | None:
        row = await self._db.run(
            lambda c: c.execute(
                f"SELECT {WEBHOOK_COLUMNS} FROM webhooks WHERE id = ?",  # noqa: S608
                (webhook_id,),
            ).fetchone()
        )
        return None if row is None else webhook_of(row)

    async def listing(
        self, *, identity_id: int | None = None, token_id: str | None = None, scope: WebhookScope | None = None
    ) -> list[Webhook]:
        where, args = ["1"], list[object]()
        for column, value in (("identity_id", identity_id), ("token_id", token_id), ("scope", scope)):
            if value is not None:
                where.append(f"{column} = ?")
                args.append(value)
        rows = await self._db.run(
            lambda c: c.execute(
                f"SELECT {WEBHOOK_COLUMNS} FROM webhooks WHERE {' AND '.join(where)}"  # noqa: S608
                " ORDER BY created_at, id",
                args,
            ).fetchall()
        )
        return [webhook_of(r) for r in rows]

    async def for_identities(self, identity_ids: Sequence[int]) -> dict[int, list[Webhook]]:
        wanted = sorted(set(identity_ids))

        def find(conn: sqlite3.Connection) -> list[Any]:
            rows: list[Any] = []
            columns = ", ".join(f"w.{c.strip()}" for c in WEBHOOK_COLUMNS.split(","))
            for start in range(0, len(wanted), _CHUNK):
                chunk = wanted[start : start + _CHUNK]
                marks = ", ".join("?" * len(chunk))
                # Three ways to cover an identity, each an indexed lookup: its own, its
                # creator's (a provisioner token's id in identities.created_by), the admin's.
                rows += conn.execute(
                    f"SELECT i.id, {columns} FROM identities i JOIN webhooks w ON w.identity_id = i.id"  # noqa: S608
                    f" WHERE i.id IN ({marks}) AND w.scope = 'identity' AND w.disabled_at IS NULL"
                    f" UNION ALL SELECT i.id, {columns} FROM identities i JOIN webhooks w ON w.token_id = i.created_by"
                    f" WHERE i.id IN ({marks}) AND w.scope = 'provisioner' AND w.disabled_at IS NULL"
                    f" UNION ALL SELECT i.id, {columns} FROM identities i JOIN webhooks w ON w.scope = 'admin'"
                    f" WHERE i.id IN ({marks}) AND w.disabled_at IS NULL",
                    chunk * 3,
                ).fetchall()
            return rows

        found: dict[int, list[Webhook]] = {i: [] for i in wanted}
        for row in await self._db.run(find):
            found[int(row[0])].append(webhook_of(row[1:]))
        for hooks in found.values():
            hooks.sort(key=lambda h: (h.created_ts, h.id))
        return found

    async def delete(self, webhook_id: str) -> bool:
        def delete(conn: sqlite3.Connection) -> int:
            with transaction(conn):  # its deliveries and their attempts cascade
                return conn.execute("DELETE FROM webhooks WHERE id = ?", (webhook_id,)).rowcount

        return await self._db.run(delete) > 0

    async def rotate(self, webhook_id: str, secret: str, public_key: str | None, *, old_until: float) -> Webhook:
        def rotate(conn: sqlite3.Connection) -> Any:
            with transaction(conn):
                return conn.execute(
                    "UPDATE webhooks SET previous_secret = secret, previous_until = ?, secret = ?, public_key = ?"  # noqa: S608
                    f" WHERE id = ? RETURNING {WEBHOOK_COLUMNS}",
                    (old_until, secret, public_key, webhook_id),
                ).fetchone()

        row = await self._db.run(rotate)
        if row is None:
            raise NotFound("no such webhook")
        return webhook_of(row)

    async def set_disabled(self, webhook_id: str, *, at: float | None, reason: str | None) -> None:
        def change(conn: sqlite3.Connection) -> None:
            with transaction(conn):
                if at is None:
                    conn.execute(
                        "UPDATE webhooks SET disabled_at = NULL, disabled_reason = NULL, failing_since = NULL"
                        " WHERE id = ?",
                        (webhook_id,),
                    )
                else:
                    conn.execute(
                        "UPDATE webhooks SET disabled_at = ?, disabled_reason = ? WHERE id = ?",
                        (at, reason, webhook_id),
                    )

        await self._db.run(change)

    async def enqueue(self, deliveries: Sequence[Delivery]) -> int:
        def enqueue(conn: sqlite3.Connection) -> int:
            new = 0
            with transaction(conn):
                for d in deliveries:
                    # A webhook deleted since the caller read it takes its events along.
                    new += conn.execute(
                        "INSERT INTO webhook_deliveries (id, webhook_id, address, event, payload, created_at, status,"
                        " attempts, next_at, last_code, last_error, finished_at)"
                        " SELECT ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ? WHERE EXISTS (SELECT 1 FROM webhooks WHERE id = ?)"
                        " ON CONFLICT (id) DO NOTHING",
                        (
                            d.id,
                            d.webhook_id,
                            d.address,
                            d.event,
                            d.payload,
                            d.created_ts,
                            d.status,
                            d.attempts,
                            d.next_ts,
                            d.last_code,
                            d.last_error,
                            d.finished_ts,
                            d.webhook_id,
                        ),
                    ).rowcount
                _settle(conn, ((d.webhook_id, d.address) for d in deliveries if d.status == "queued"))
            return new

        return await self._db.run(enqueue) if deliveries else 0

    async def claim(self, *, now: float, lease: float, limit: int, per_webhook: int) -> list[Delivery]:
        if limit <= 0 or per_webhook <= 0:
            return []

        def claim(conn: sqlite3.Connection) -> list[Any]:
            # One statement in one writer transaction (BEGIN IMMEDIATE holds off other
            # processes): what it reads as due is what it leases.
            with transaction(conn):
                return conn.execute(
                    _CLAIM, {"now": now, "until": now + lease, "limit": limit, "per": per_webhook}
                ).fetchall()

        rows = sorted(await self._db.run(claim), key=lambda r: (float(r[6]), int(r[0])))
        return [hook_delivery_of(r[1:]) for r in rows]

    async def record(
        self,
        delivery_id: str,
        attempt: Attempt,
        *,
        status: DeliveryStatus,
        next_ts: float,
        error: str | None = None,
    ) -> None:
        now = self._clock()
        last_error = clip(error if error is not None else attempt.error)

        def record(conn: sqlite3.Connection) -> None:
            with transaction(conn):
                row = conn.execute(
                    "UPDATE webhook_deliveries SET status = ?, attempts = attempts + 1, next_at = ?, last_code = ?,"
                    " last_error = ?, finished_at = ?, claimed_until = 0 WHERE id = ? RETURNING webhook_id, address",
                    (
                        status,
                        next_ts,
                        attempt.status_code,
                        last_error,
                        None if status == "queued" else now,
                        delivery_id,
                    ),
                ).fetchone()
                if row is None:
                    return  # gone with its webhook while it was being called: nothing to record
                webhook_id, address = str(row[0]), str(row[1])
                conn.execute(
                    "INSERT INTO webhook_attempts (delivery_id, at, latency_ms, status_code, error, response_head)"
                    " VALUES (?, ?, ?, ?, ?, ?)",
                    (
                        delivery_id,
                        attempt.at_ts,
                        attempt.latency_ms,
                        attempt.status_code,
                        clip(attempt.error),
                        clip(attempt.response_head),
                    ),
                )
                conn.execute(
                    "DELETE FROM webhook_attempts WHERE delivery_id = ? AND id <= (SELECT id FROM webhook_attempts"
                    " WHERE delivery_id = ? ORDER BY id DESC LIMIT 1 OFFSET ?)",
                    (delivery_id, delivery_id, ATTEMPTS_KEPT),
                )
                if status == "delivered":
                    conn.execute("UPDATE webhooks SET failing_since = NULL WHERE id = ?", (webhook_id,))
                else:
                    conn.execute(
                        "UPDATE webhooks SET failing_since = coalesce(failing_since, ?) WHERE id = ?",
                        (attempt.at_ts, webhook_id),
                    )
                if status != "queued":
                    _settle(conn, [(webhook_id, address)])

        await self._db.run(record)

    async def retry(self, delivery_id: str, *, now: float) -> Delivery:
        def retry(conn: sqlite3.Connection) -> Any:
            with transaction(conn):
                # It keeps its place: put back in front of later events of its queue, it goes
                # first (after any one already in flight), so a receiver still sees them in order.
                row = conn.execute(
                    "UPDATE webhook_deliveries SET status = 'queued', next_at = ?, finished_at = NULL WHERE id = ?"
                    " RETURNING webhook_id, address",
                    (now, delivery_id),
                ).fetchone()
                if row is None:
                    return None
                _settle(conn, [(str(row[0]), str(row[1]))])
                return conn.execute(
                    f"SELECT {HOOK_DELIVERY_COLUMNS} FROM webhook_deliveries WHERE id = ?",  # noqa: S608
                    (delivery_id,),
                ).fetchone()

        row = await self._db.run(retry)
        if row is None:
            raise NotFound("no such delivery")
        return hook_delivery_of(row)

    async def deliveries(self, webhook_id: str, *, limit: int, before_id: str | None = None) -> list[Delivery]:
        rows = await self._db.run(
            lambda c: c.execute(
                f"SELECT {HOOK_DELIVERY_COLUMNS} FROM webhook_deliveries WHERE webhook_id = ?"  # noqa: S608
                " AND (? IS NULL OR seq < (SELECT seq FROM webhook_deliveries WHERE id = ?))"
                " ORDER BY seq DESC LIMIT ?",
                (webhook_id, before_id, before_id, max(0, limit)),
            ).fetchall()
        )
        return [hook_delivery_of(r) for r in rows]

    async def get_delivery(self, delivery_id: str) -> Delivery | None:
        row = await self._db.run(
            lambda c: c.execute(
                f"SELECT {HOOK_DELIVERY_COLUMNS} FROM webhook_deliveries WHERE id = ?",  # noqa: S608
                (delivery_id,),
            ).fetchone()
        )
        return None if row is None else hook_delivery_of(row)

    async def attempts(self, delivery_id: str, *, limit: int) -> list[Attempt]:
        rows = await self._db.run(
            lambda c: c.execute(
                f"SELECT {ATTEMPT_COLUMNS} FROM webhook_attempts WHERE delivery_id = ?"  # noqa: S608
                " ORDER BY id DESC LIMIT ?",
                (delivery_id, max(0, limit)),
            ).fetchall()
        )
        return [attempt_of(r) for r in rows]

    async def release_all(self) -> None:
        def release(conn: sqlite3.Connection) -> None:
            with transaction(conn):
                conn.execute("UPDATE webhook_deliveries SET claimed_until = 0 WHERE claimed_until > 0")

        await self._db.run(release)

    async def prune(self, before_ts: float) -> int:
        def prune(conn: sqlite3.Connection) -> int:
            with transaction(conn):  # their attempts cascade; a queued delivery is never finished
                return conn.execute(
                    "DELETE FROM webhook_deliveries WHERE finished_at IS NOT NULL AND finished_at < ?"
                    " AND status != 'queued'",
                    (before_ts,),
                ).rowcount

        return await self._db.run(prune)

    async def pending(self) -> int:
        return await self._db.run(
            lambda c: int(c.execute("SELECT count(*) FROM webhook_deliveries WHERE status = 'queued'").fetchone()[0])
        )
