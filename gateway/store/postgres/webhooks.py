"""The PostgreSQL webhook store: webhooks, their deliveries in order, the attempt log, shared by every replica.

What decides a delivery's turn (which deliveries are queued, their order, the leases per
webhook) changes only under one transaction-scoped advisory lock (LOCK_WEBHOOKS): enqueue,
record, retry and claim take it first, so their `seq` values commit in order, a queue never
has two heads, and two claimers (in any process) never lease one delivery or more than
`per_webhook` calls of one webhook. The claim also locks what it takes FOR UPDATE SKIP LOCKED,
passing over a delivery another transaction (a delete, a prune) is changing right now.

Lock order, to never deadlock: the advisory lock, then a webhook's row, then its deliveries'
rows (a webhook's delete takes its row, then its deliveries'; `record` does the same).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from typing import Final

import psycopg

from gateway.errors import Conflict, NotFound
from gateway.store.postgres.database import Connection, Database
from gateway.store.postgres.schema import LOCK_NAMESPACE, LOCK_WEBHOOKS
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
from gateway.store.webhooks import Attempt, Delivery, DeliveryStatus, Webhook, WebhookScope

__all__ = ["PostgresWebhooks"]


def _qualified(columns: str, alias: str) -> str:
    return ", ".join(f"{alias}.{c.strip()}" for c in columns.split(","))


_LOCK: Final = "SELECT pg_advisory_xact_lock(%s, %s)"
_HOOK_D: Final = _qualified(HOOK_DELIVERY_COLUMNS, "d")
_HOOK_W: Final = _qualified(WEBHOOK_COLUMNS, "w")

# The heads (the oldest queued delivery of each webhook and address) that are due and free,
# of enabled webhooks, with no other delivery of their queue in flight (one a hand retry put
# back in front of it; only a queued delivery holds a lease), ranked per webhook after that
# webhook's live leases: a rank past `per_webhook` would be one call too many.
_CLAIM: Final = f"""
WITH live AS (
    SELECT webhook_id, count(*) AS n FROM webhook_deliveries
    WHERE claimed_until > 0 AND claimed_until > %(now)s GROUP BY webhook_id
), due AS (
    SELECT d.seq, d.webhook_id, d.created_at FROM webhook_deliveries d JOIN webhooks w ON w.id = d.webhook_id
    WHERE d.head AND d.next_at <= %(now)s AND d.claimed_until <= %(now)s AND w.disabled_at IS NULL
    AND NOT EXISTS (SELECT 1 FROM webhook_deliveries o WHERE o.webhook_id = d.webhook_id AND o.address = d.address
        AND o.claimed_until > 0 AND o.claimed_until > %(now)s AND o.seq <> d.seq)
), ranked AS (
    SELECT due.seq,
        row_number() OVER (PARTITION BY due.webhook_id ORDER BY due.created_at, due.seq) + coalesce(live.n, 0) AS k
    FROM due LEFT JOIN live ON live.webhook_id = due.webhook_id
), picked AS (
    SELECT d.seq FROM webhook_deliveries d WHERE d.seq IN (SELECT seq FROM ranked WHERE k <= %(per)s)
    AND d.head AND d.claimed_until <= %(now)s
    ORDER BY d.created_at, d.seq LIMIT %(limit)s FOR UPDATE OF d SKIP LOCKED
)
UPDATE webhook_deliveries d SET claimed_until = %(until)s FROM picked WHERE d.seq = picked.seq
RETURNING d.seq, {_HOOK_D}
"""  # noqa: S608 - constants only

# Each named queue's head: its oldest queued delivery, and no other. Every step is indexed
# (a queue's first queued delivery, its heads, one row by key): a backlog behind a head is
# never read. The two updates touch different rows (seq = first, or not).
_SETTLE: Final = """
WITH q AS (
    SELECT g.webhook_id, g.address, (SELECT min(d.seq) FROM webhook_deliveries d
        WHERE d.webhook_id = g.webhook_id AND d.address = g.address AND d.status = 'queued') AS first
    FROM unnest(%s::text[], %s::text[]) AS g (webhook_id, address)
), cleared AS (
    UPDATE webhook_deliveries d SET head = false FROM q
    WHERE d.head AND d.webhook_id = q.webhook_id AND d.address = q.address AND d.seq IS DISTINCT FROM q.first
    RETURNING d.seq
)
UPDATE webhook_deliveries d SET head = true FROM q WHERE d.seq = q.first AND NOT d.head
"""


async def _settle(conn: Connection, queues: Iterable[tuple[str, str]]) -> None:
    """Make the oldest queued delivery of each (webhook, address) its queue's only head again."""
    unique = sorted(set(queues))
    if unique:
        await conn.execute(_SETTLE, ([w for w, _ in unique], [a for _, a in unique]))


class PostgresWebhooks:
    """`WebhookStore` on PostgreSQL."""

    def __init__(self, db: Database, clock: Callable[[], float]) -> None:
        self._db = db
        self._clock = clock

    async def create(self, hook: Webhook) -> None:
        check_webhook(hook)
        try:
            async with self._db.transaction() as conn:
                cur = await conn.execute(
                    f"INSERT INTO webhooks ({WEBHOOK_COLUMNS}) VALUES ({', '.join(['%s'] * 17)})"  # noqa: S608
                    " ON CONFLICT (id) DO NOTHING",
                    webhook_values(hook),
                )
        except psycopg.errors.ForeignKeyViolation:  # its identity or token is gone (deleted meanwhile)
            raise NotFound("no such identity or token") from None
        if cur.rowcount == 0:
            raise Conflict(f"webhook {hook.id} exists")

    async def get(self, webhook_id: str) -> Webhook | None:
        row = await self._db.fetchone(
            f"SELECT {WEBHOOK_COLUMNS} FROM webhooks WHERE id = %s",  # noqa: S608
            (webhook_id,),
        )
        return None if row is None else webhook_of(row)

    async def listing(
        self, *, identity_id: int | None = None, token_id: str | None = None, scope: WebhookScope | None = None
    ) -> list[Webhook]:
        rows = await self._db.fetchall(
            f"SELECT {WEBHOOK_COLUMNS} FROM webhooks"  # noqa: S608
            " WHERE (%s::bigint IS NULL OR identity_id = %s) AND (%s::text IS NULL OR token_id = %s)"
            " AND (%s::text IS NULL OR scope = %s) ORDER BY created_at, id",
            (identity_id, identity_id, token_id, token_id, scope, scope),
        )
        return [webhook_of(r) for r in rows]

    async def for_identities(self, identity_ids: Sequence[int]) -> dict[int, list[Webhook]]:
        wanted = sorted(set(identity_ids))
        found: dict[int, list[Webhook]] = {i: [] for i in wanted}
        if not wanted:
            return found
        # Three ways to cover an identity, each an indexed lookup: its own, its creator's (a
        # provisioner token's id in identities.created_by), the admin's.
        rows = await self._db.fetchall(
            f"SELECT i.id, {_HOOK_W} FROM identities i JOIN webhooks w ON w.identity_id = i.id"  # noqa: S608
            " WHERE i.id = ANY(%s) AND w.scope = 'identity' AND w.disabled_at IS NULL"
            f" UNION ALL SELECT i.id, {_HOOK_W} FROM identities i JOIN webhooks w ON w.token_id = i.created_by"
            " WHERE i.id = ANY(%s) AND w.scope = 'provisioner' AND w.disabled_at IS NULL"
            f" UNION ALL SELECT i.id, {_HOOK_W} FROM identities i JOIN webhooks w ON w.scope = 'admin'"
            " WHERE i.id = ANY(%s) AND w.disabled_at IS NULL",
            (wanted, wanted, wanted),
        )
        for row in rows:
            found[int(row[0])].append(webhook_of(row[1:]))
        for hooks in found.values():
            hooks.sort(key=lambda h: (h.created_ts, h.id))
        return found

    async def delete(self, webhook_id: str) -> bool:
        # Its deliveries and their attempts cascade.
        return await self._db.execute("DELETE FROM webhooks WHERE id = %s", (webhook_id,)) > 0

    async def rotate(self, webhook_id: str, secret: str, public_key: str | None, *, old_until: float) -> Webhook:
        row = await self._db.fetchone(
            "UPDATE webhooks SET previous_secret = secret, previous_until = %s, secret = %s, public_key = %s"  # noqa: S608
            f" WHERE id = %s RETURNING {WEBHOOK_COLUMNS}",
            (old_until, secret, public_key, webhook_id),
        )
        if row is None:
            raise NotFound("no such webhook")
        return webhook_of(row)

    async def set_disabled(self, webhook_id: str, *, at: float | None, reason: str | None) -> None:
        if at is None:
            await self._db.execute(
                "UPDATE webhooks SET disabled_at = NULL, disabled_reason = NULL, failing_since = NULL WHERE id = %s",
                (webhook_id,),
            )
        else:
            await self._db.execute(
                "UPDATE webhooks SET disabled_at = %s, disabled_reason = %s WHERE id = %s", (at, reason, webhook_id)
            )

    async def enqueue(self, deliveries: Sequence[Delivery]) -> int:
        if not deliveries:
            return 0
        async with self._db.transaction() as conn:
            await conn.execute(_LOCK, (LOCK_NAMESPACE, LOCK_WEBHOOKS))
            # A webhook deleted since the caller read it takes its events along; one still
            # here stays until this commits (a delete waits for the key share).
            cur = await conn.execute(
                "SELECT id FROM webhooks WHERE id = ANY(%s) ORDER BY id FOR KEY SHARE",
                (sorted({d.webhook_id for d in deliveries}),),
            )
            live = {str(r[0]) for r in await cur.fetchall()}
            kept = [d for d in deliveries if d.webhook_id in live]
            if not kept:
                return 0
            # In the caller's order, one row after the other (seq is each queue's order), sent
            # in one pipeline; the cursor's rowcount adds up every row's.
            cur = conn.cursor()
            await cur.executemany(
                "INSERT INTO webhook_deliveries (id, webhook_id, address, event, payload, created_at, status,"
                " attempts, next_at, last_code, last_error, finished_at)"
                " VALUES (%s, %s, %s, %s, %s, %s, %s, %s, %s, %s, %s, %s) ON CONFLICT (id) DO NOTHING",
                [
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
                    )
                    for d in kept
                ],
            )
            new = max(0, cur.rowcount)
            await _settle(conn, ((d.webhook_id, d.address) for d in kept if d.status == "queued"))
        return new

    async def claim(self, *, now: float, lease: float, limit: int, per_webhook: int) -> list[Delivery]:
        if limit <= 0 or per_webhook <= 0:
            return []
        async with self._db.transaction() as conn:
            await conn.execute(_LOCK, (LOCK_NAMESPACE, LOCK_WEBHOOKS))
            cur = await conn.execute(_CLAIM, {"now": now, "until": now + lease, "limit": limit, "per": per_webhook})
            rows = await cur.fetchall()
        rows.sort(key=lambda r: (float(r[6]), int(r[0])))
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
        async with self._db.transaction() as conn:
            await conn.execute(_LOCK, (LOCK_NAMESPACE, LOCK_WEBHOOKS))
            cur = await conn.execute("SELECT webhook_id, address FROM webhook_deliveries WHERE id = %s", (delivery_id,))
            found = await cur.fetchone()
            if found is None:
                return  # gone with its webhook while it was being called: nothing to record
            webhook_id, address = str(found[0]), str(found[1])
            # The webhook's row before the delivery's (the lock order a delete follows too).
            if status == "delivered":
                await conn.execute("UPDATE webhooks SET failing_since = NULL WHERE id = %s", (webhook_id,))
            else:
                await conn.execute(
                    "UPDATE webhooks SET failing_since = coalesce(failing_since, %s) WHERE id = %s",
                    (attempt.at_ts, webhook_id),
                )
            cur = await conn.execute(
                "UPDATE webhook_deliveries SET status = %s, attempts = attempts + 1, next_at = %s, last_code = %s,"
                " last_error = %s, finished_at = %s, claimed_until = 0 WHERE id = %s",
                (
                    status,
                    next_ts,
                    attempt.status_code,
                    last_error,
                    None if status == "queued" else now,
                    delivery_id,
                ),
            )
            if cur.rowcount == 0:
                return  # deleted between the two statements
            await conn.execute(
                "INSERT INTO webhook_attempts (delivery_id, at, latency_ms, status_code, error, response_head)"
                " VALUES (%s, %s, %s, %s, %s, %s)",
                (
                    delivery_id,
                    attempt.at_ts,
                    attempt.latency_ms,
                    attempt.status_code,
                    clip(attempt.error),
                    clip(attempt.response_head),
                ),
            )
            await conn.execute(
                "DELETE FROM webhook_attempts WHERE delivery_id = %s AND id <= (SELECT id FROM webhook_attempts"
                " WHERE delivery_id = %s ORDER BY id DESC LIMIT 1 OFFSET %s)",
                (delivery_id, delivery_id, ATTEMPTS_KEPT),
            )
            if status != "queued":
                await _settle(conn, [(webhook_id, address)])

    async def retry(self, delivery_id: str, *, now: float) -> Delivery:
        async with self._db.transaction() as conn:
            await conn.execute(_LOCK, (LOCK_NAMESPACE, LOCK_WEBHOOKS))
            # It keeps its place: put back in front of later events of its queue, it goes
            # first (after any one already in flight), so a receiver still sees them in order.
            cur = await conn.execute(
                "UPDATE webhook_deliveries SET status = 'queued', next_at = %s, finished_at = NULL WHERE id = %s"
                " RETURNING webhook_id, address",
                (now, delivery_id),
            )
            row = await cur.fetchone()
            if row is None:
                raise NotFound("no such delivery")
            await _settle(conn, [(str(row[0]), str(row[1]))])
            cur = await conn.execute(
                f"SELECT {HOOK_DELIVERY_COLUMNS} FROM webhook_deliveries WHERE id = %s",  # noqa: S608
                (delivery_id,),
            )
            found = await cur.fetchone()
        assert found is not None
        return hook_delivery_of(found)

    async def deliveries(self, webhook_id: str, *, limit: int, before_id: str | None = None) -> list[Delivery]:
        rows = await self._db.fetchall(
            f"SELECT {HOOK_DELIVERY_COLUMNS} FROM webhook_deliveries WHERE webhook_id = %s"  # noqa: S608
            " AND (%s::text IS NULL OR seq < (SELECT seq FROM webhook_deliveries WHERE id = %s))"
            " ORDER BY seq DESC LIMIT %s",
            (webhook_id, before_id, before_id, max(0, limit)),
        )
        return [hook_delivery_of(r) for r in rows]

    async def get_delivery(self, delivery_id: str) -> Delivery | None:
        row = await self._db.fetchone(
            f"SELECT {HOOK_DELIVERY_COLUMNS} FROM webhook_deliveries WHERE id = %s",  # noqa: S608
            (delivery_id,),
        )
        return None if row is None else hook_delivery_of(row)

    async def attempts(self, delivery_id: str, *, limit: int) -> list[Attempt]:
        rows = await self._db.fetchall(
            f"SELECT {ATTEMPT_COLUMNS} FROM webhook_attempts WHERE delivery_id = %s"  # noqa: S608
            " ORDER BY id DESC LIMIT %s",
            (delivery_id, max(0, limit)),
        )
        return [attempt_of(r) for r in rows]

    async def release_all(self) -> None:
        await self._db.execute("UPDATE webhook_deliveries SET claimed_until = 0 WHERE claimed_until > 0")

    async def prune(self, before_ts: float) -> int:
        # Their attempts cascade; a queued delivery is never finished.
        return await self._db.execute(
            "DELETE FROM webhook_deliveries WHERE finished_at IS NOT NULL AND finished_at < %s AND status <> 'queued'",
            (before_ts,),
        )

    async def pending(self) -> int:
        row = await self._db.fetchone("SELECT count(*) FROM webhook_deliveries WHERE status = 'queued'")
        assert row is not None
        return int(row[0])
