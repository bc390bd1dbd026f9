"""The PostgreSQL message index, read together with the durable marks and claims in the same database."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from typing import Final, LiteralString

from gateway.store.index import moved_grants
from gateway.store.models import CopyRecord, Cursor, Filters, Grant, Identity, Summary
from gateway.store.postgres.database import Database
from gateway.store.postgres.schema import LOCK_INDEX, LOCK_NAMESPACE
from gateway.store.rows import encode_json, summary_of

__all__ = ["PostgresIndex"]

_SUMMARY: Final = (
    "c.copy_id, c.message_key, c.received_at, c.size, c.from_header, c.to_json, c.subject,"
    " c.codes_json, c.links_json, coalesce(k.seen, false)"
)
# An identity's grants with its own marks: one query, whatever the size of its history.
_VISIBLE: Final = (
    f"SELECT {_SUMMARY} FROM grants g JOIN copies c ON c.copy_id = g.copy_id"  # noqa: S608 - constants
    " LEFT JOIN marks k ON k.identity_id = %s AND k.message_key = g.message_key"
    " WHERE g.address = %s AND g.received_at >= %s AND NOT coalesce(k.deleted, false)"  # the first grant's time
)
# A batch is two statements whatever its size: the copies that are new (their seq values taken
# in batch order), then their grants (in batch order, so the first copy of a message granted
# to an address wins).
_ADD_COPIES: Final = (
    "INSERT INTO copies (copy_id, received_at, size, from_header, to_json, subject, from_fold, subject_fold,"
    " message_key, codes_json, links_json, grants_json)"
    " SELECT n.copy_id, n.received_at, n.size, n.from_header, n.to_json, n.subject, n.from_fold, n.subject_fold,"
    " n.message_key, n.codes_json, n.links_json, n.grants_json"
    " FROM unnest(%s::text[], %s::float8[], %s::int8[], %s::text[], %s::text[], %s::text[], %s::text[],"
    " %s::text[], %s::text[], %s::text[], %s::text[], %s::text[]) WITH ORDINALITY"
    "  AS n (copy_id, received_at, size, from_header, to_json, subject, from_fold, subject_fold,"
    "  message_key, codes_json, links_json, grants_json, position)"
    " ORDER BY n.position"
    " ON CONFLICT (copy_id) DO NOTHING RETURNING copy_id, seq"
)
_ADD_GRANTS: Final = (
    "INSERT INTO grants (address, message_key, copy_id, received_at, seq, origin_id)"
    " SELECT n.address, n.message_key, n.copy_id, n.received_at, n.seq, n.copy_id"
    " FROM unnest(%s::text[], %s::text[], %s::text[], %s::float8[], %s::int8[]) WITH ORDINALITY"
    "  AS n (address, message_key, copy_id, received_at, seq, position)"
    " WHERE NOT EXISTS (SELECT 1 FROM gone WHERE gone.address = n.address AND gone.message_key = n.message_key)"
    " ORDER BY n.position"
    " ON CONFLICT (address, message_key) DO NOTHING"
)


def _text(value: str) -> str:
    """PostgreSQL text cannot hold NUL (SQLite can): a header's stray NUL becomes U+FFFD."""
    return value.replace("\x00", "\ufffd")


class PostgresIndex:
    """`MessageIndex` on PostgreSQL."""

    def __init__(self, db: Database, clock: Callable[[], float]) -> None:
        self._db = db
        self._clock = clock

    # --- writing --------------------------------------------------------------------

    async def add(self, records: Sequence[CopyRecord]) -> None:
        if not records:
            return
        columns: list[list[object]] = [[] for _ in range(12)]
        for r in records:
            row = (
                r.copy_id,
                r.received_ts,
                r.size,
                _text(r.from_header),
                encode_json(r.to),  # JSON escapes NUL itself
                _text(r.subject),
                _text(r.from_header.casefold()),
                _text(r.subject.casefold()),
                r.message_key,
                encode_json(r.codes),
                encode_json(r.links),
                encode_json(sorted(r.grants)),
            )
            for column, value in zip(columns, row, strict=True):
                column.append(value)
        async with self._db.transaction() as conn:
            # Identity values are taken at insert but become visible at commit: two adding
            # transactions could commit out of seq order, and a reader between the commits
            # would move its cursor past the seq still to come. Adds queue on this lock (on
            # every gateway of the database), so seq order is commit order.
            await conn.execute("SELECT pg_advisory_xact_lock(%s, %s)", (LOCK_NAMESPACE, LOCK_INDEX))
            cur = await conn.execute(_ADD_COPIES, columns)
            new = {str(c): int(q) for c, q in await cur.fetchall()}
            grants: list[tuple[str, str, str, float, int]] = []
            for r in records:
                seq = new.pop(r.copy_id, None)  # a copy id twice in one batch: its first record was stored
                if seq is not None:
                    grants += [(a, r.message_key, r.copy_id, r.received_ts, seq) for a in sorted(r.grants)]
            if grants:
                await conn.execute(_ADD_GRANTS, [list(c) for c in zip(*grants, strict=True)])

    async def remove(self, copy_ids: Iterable[str]) -> set[str]:
        ids = list(dict.fromkeys(copy_ids))
        if not ids:
            return set()
        async with self._db.transaction() as conn:
            cur = await conn.execute("SELECT DISTINCT message_key FROM copies WHERE copy_id = ANY(%s)", (ids,))
            keys = {str(r[0]) for r in await cur.fetchall()}
            cur = await conn.execute(
                "SELECT address, message_key, received_at, origin_id, seq FROM grants WHERE copy_id = ANY(%s)"
                " ORDER BY seq",
                (ids,),
            )
            lost = [(str(a), str(k), float(t), str(o), int(q)) for a, k, t, o, q in await cur.fetchall()]
            await conn.execute(
                "INSERT INTO gone (address, copy_id, received_at, message_key, seq, origin_id)"
                " SELECT address, copy_id, received_at, message_key, seq, origin_id FROM grants"
                " WHERE copy_id = ANY(%s) ON CONFLICT (address, copy_id) DO NOTHING",
                (ids,),
            )
            await conn.execute("DELETE FROM grants WHERE copy_id = ANY(%s)", (ids,))
            await conn.execute("DELETE FROM copies WHERE copy_id = ANY(%s)", (ids,))
            cur = await conn.execute(
                "SELECT message_key, copy_id, grants_json FROM copies WHERE message_key = ANY(%s) ORDER BY seq",
                (sorted(keys),),
            )
            remaining = [(str(k), str(c), str(g)) for k, c, g in await cur.fetchall()]
            moved = moved_grants(lost, remaining)
            if moved:
                await conn.execute(
                    "INSERT INTO grants (address, message_key, copy_id, received_at, seq, origin_id)"
                    " SELECT * FROM unnest(%s::text[], %s::text[], %s::text[], %s::float8[], %s::int8[], %s::text[])"
                    " ON CONFLICT (address, message_key) DO NOTHING",
                    [list(c) for c in zip(*moved, strict=True)],
                )
        return keys - {r[0] for r in remaining}

    async def clear(self) -> None:
        async with self._db.transaction() as conn:
            await conn.execute("DELETE FROM grants")
            await conn.execute("DELETE FROM copies")
            await conn.execute("DELETE FROM gone")

    async def forget_cursors(self, before_ts: float) -> None:
        await self._db.execute("DELETE FROM gone WHERE received_at < %s", (before_ts,))

    async def get_meta(self, key: str) -> str | None:
        row = await self._db.fetchone("SELECT value FROM index_meta WHERE key = %s", (key,))
        return None if row is None else str(row[0])

    async def set_meta(self, key: str, value: str) -> None:
        await self._db.execute(
            "INSERT INTO index_meta (key, value) VALUES (%s, %s)"
            " ON CONFLICT (key) DO UPDATE SET value = excluded.value",
            (key, value),
        )

    # --- reading --------------------------------------------------------------------

    async def known_ids(self) -> set[str]:
        return {str(r[0]) for r in await self._db.fetchall("SELECT copy_id FROM copies")}

    async def count(self) -> int:
        row = await self._db.fetchone("SELECT count(*) FROM copies")
        assert row is not None
        return int(row[0])

    async def older_than(self, ts: float, limit: int) -> list[str]:
        rows = await self._db.fetchall(
            "SELECT copy_id FROM copies WHERE received_at < %s ORDER BY received_at, copy_id LIMIT %s", (ts, limit)
        )
        return [str(r[0]) for r in rows]

    async def listing(
        self,
        identity: Identity,
        filters: Filters,
        *,
        limit: int,
        before: Cursor | None = None,
        after: Cursor | None = None,
        newest_first: bool | None = None,
    ) -> list[Summary]:
        sql, args = self._where(identity, filters)
        if before is not None:
            sql.append("AND g.seq < %s")
            args.append(before.seq)
        if after is not None:
            sql.append("AND g.seq > %s")
            args.append(after.seq)
        ascending = after is not None if newest_first is None else not newest_first
        sql.append("ORDER BY g.seq ASC LIMIT %s" if ascending else "ORDER BY g.seq DESC LIMIT %s")
        args.append(limit)
        return [summary_of(r) for r in await self._db.fetchall(" ".join(sql), args)]

    async def visible(self, identity: Identity, message_id: str, filters: Filters) -> Summary | None:
        sql, args = self._where(identity, filters)
        sql.append("AND g.copy_id = %s")
        args.append(message_id)
        row = await self._db.fetchone(" ".join(sql), args)
        return None if row is None else summary_of(row)

    def _where(self, identity: Identity, filters: Filters) -> tuple[list[LiteralString], list[object]]:
        sql: list[LiteralString] = [_VISIBLE]
        args: list[object] = [identity.id, identity.address, filters.since_ts]
        if filters.min_id is not None:
            sql.append("AND g.origin_id >= %s")  # the fence judges the first granted copy
            args.append(filters.min_id)
        # strpos, not LIKE: the user's text is matched as it is, wildcards and all.
        if filters.sender:
            sql.append("AND strpos(c.from_fold, %s) > 0")
            args.append(_text(filters.sender.casefold()))
        if filters.subject:
            sql.append("AND strpos(c.subject_fold, %s) > 0")
            args.append(_text(filters.subject.casefold()))
        if filters.unseen:
            sql.append("AND NOT coalesce(k.seen, false)")
        if filters.unclaimed:
            sql.append(
                "AND NOT EXISTS (SELECT 1 FROM claims cl WHERE cl.identity_id = %s"
                " AND cl.message_key = g.message_key AND cl.until > %s)"
            )
            args += [identity.id, self._clock()]
        return sql, args

    async def cursor_of(self, address: str, message_id: str) -> Cursor | None:
        row = await self._db.fetchone(
            "SELECT received_at, origin_id, seq FROM grants WHERE address = %s AND copy_id = %s"
            " UNION ALL SELECT received_at, origin_id, seq FROM gone WHERE address = %s AND copy_id = %s LIMIT 1",
            (address, message_id, address, message_id),
        )
        return None if row is None else Cursor(float(row[0]), str(row[1]), int(row[2]))

    async def copies(self, message_id: str) -> tuple[list[str], list[Grant]]:
        async with self._db.transaction() as conn:
            cur = await conn.execute("SELECT message_key FROM copies WHERE copy_id = %s", (message_id,))
            key = await cur.fetchone()
            if key is None:
                return [], []
            cur = await conn.execute("SELECT copy_id FROM copies WHERE message_key = %s", key)
            ids = [str(r[0]) for r in await cur.fetchall()]
            cur = await conn.execute("SELECT address, origin_id, received_at FROM grants WHERE message_key = %s", key)
            grants = [Grant(str(a), str(m), float(t)) for a, m, t in await cur.fetchall()]
        return ids, grants
