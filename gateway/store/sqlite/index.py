"""The SQLite message index (the attached `idx` file), read together with the durable marks and claims."""

from __future__ import annotations

import sqlite3
from collections.abc import Callable, Iterable, Sequence
from typing import Final

from gateway.store.index import moved_grants
from gateway.store.models import CopyRecord, Cursor, Filters, Grant, Identity, Summary
from gateway.store.rows import encode_json, summary_of
from gateway.store.sqlite.database import Database, transaction

__all__ = ["SqliteIndex"]

_CHUNK: Final = 500  # ids per IN (...) list: well under SQLite's variable limit
_SUMMARY: Final = (
    "c.copy_id, c.message_key, c.received_at, c.size, c.from_header, c.to_json, c.subject,"
    " c.codes_json, c.links_json, coalesce(k.seen, 0)"
)
# An identity's grants with its own marks: one query, whatever the size of its history.
_VISIBLE: Final = (
    f"SELECT {_SUMMARY} FROM idx.grants g JOIN idx.copies c ON c.copy_id = g.copy_id"  # noqa: S608 - constants
    " LEFT JOIN main.marks k ON k.identity_id = ? AND k.message_key = g.message_key"
    " WHERE g.address = ? AND g.received_at >= ? AND coalesce(k.deleted, 0) = 0"  # the first grant's time
)


class SqliteIndex:
    """`MessageIndex` on SQLite."""

    def __init__(self, db: Database, clock: Callable[[], float]) -> None:
        self._db = db
        self._clock = clock

    # --- writing --------------------------------------------------------------------

    async def add(self, records: Sequence[CopyRecord]) -> None:
        if not records:
            return
        rows = [
            (
                (
                    r.copy_id,
                    r.received_ts,
                    r.size,
                    r.from_header,
                    encode_json(r.to),
                    r.subject,
                    r.from_header.casefold(),
                    r.subject.casefold(),
                    r.message_key,
                    encode_json(r.codes),
                    encode_json(r.links),
                    encode_json(sorted(r.grants)),
                ),
                [(a, r.message_key, r.copy_id, r.received_ts) for a in sorted(r.grants)],
            )
            for r in records
        ]

        def add(conn: sqlite3.Connection) -> None:
            # One connection, one writer at a time (BEGIN IMMEDIATE): seq order is commit order.
            with transaction(conn):
                for copy, grants in rows:
                    cur = conn.execute(
                        "INSERT OR IGNORE INTO idx.copies (copy_id, received_at, size, from_header, to_json,"
                        " subject, from_fold, subject_fold, message_key, codes_json, links_json, grants_json)"
                        " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                        copy,
                    )
                    if cur.rowcount == 0:
                        continue
                    seq = cur.lastrowid
                    conn.executemany(
                        "INSERT OR IGNORE INTO idx.grants (address, message_key, copy_id, received_at, seq,"
                        " origin_id) SELECT ?, ?, ?, ?, ?, ? WHERE NOT EXISTS"
                        " (SELECT 1 FROM idx.gone WHERE address = ? AND message_key = ?)",
                        [(a, k, c, t, seq, c, a, k) for a, k, c, t in grants],
                    )

        await self._db.run(add)

    async def remove(self, copy_ids: Iterable[str]) -> set[str]:
        ids = list(dict.fromkeys(copy_ids))
        if not ids:
            return set()

        def remove(conn: sqlite3.Connection) -> set[str]:
            with transaction(conn):
                keys = {
                    str(r[0])
                    for chunk in _chunks(ids)
                    for r in conn.execute(
                        f"SELECT DISTINCT message_key FROM idx.copies WHERE copy_id IN ({_marks(chunk)})",  # noqa: S608
                        chunk,
                    )
                }
                one = [(i,) for i in ids]
                lost = [
                    (str(a), str(k), float(t), str(o), int(q))
                    for chunk in _chunks(ids)
                    for a, k, t, o, q in conn.execute(
                        "SELECT address, message_key, received_at, origin_id, seq FROM idx.grants"  # noqa: S608
                        f" WHERE copy_id IN ({_marks(chunk)})",
                        chunk,
                    )
                ]
                conn.executemany(
                    "INSERT OR IGNORE INTO idx.gone (address, copy_id, received_at, message_key, seq, origin_id)"
                    " SELECT address, copy_id, received_at, message_key, seq, origin_id FROM idx.grants"
                    " WHERE copy_id = ?",
                    one,
                )
                conn.executemany("DELETE FROM idx.grants WHERE copy_id = ?", one)
                conn.executemany("DELETE FROM idx.copies WHERE copy_id = ?", one)
                key_list = sorted(keys)
                remaining = [
                    (str(k), str(c), str(g))
                    for chunk in _chunks(key_list)
                    for k, c, g in conn.execute(
                        "SELECT message_key, copy_id, grants_json FROM idx.copies"  # noqa: S608
                        f" WHERE message_key IN ({_marks(chunk)}) ORDER BY seq",
                        chunk,
                    )
                ]
                conn.executemany(
                    "INSERT OR IGNORE INTO idx.grants (address, message_key, copy_id, received_at, seq, origin_id)"
                    " VALUES (?, ?, ?, ?, ?, ?)",
                    moved_grants(lost, remaining),
                )
                left = {r[0] for r in remaining}
            return keys - left

        return await self._db.run(remove)

    async def clear(self) -> None:
        def clear(conn: sqlite3.Connection) -> None:
            with transaction(conn):
                conn.execute("DELETE FROM idx.grants")
                conn.execute("DELETE FROM idx.copies")
                conn.execute("DELETE FROM idx.gone")

        await self._db.run(clear)

    async def forget_cursors(self, before_ts: float) -> None:
        await self._db.run(lambda c: c.execute("DELETE FROM idx.gone WHERE received_at < ?", (before_ts,)))

    async def get_meta(self, key: str) -> str | None:
        row = await self._db.run(lambda c: c.execute("SELECT value FROM idx.meta WHERE key = ?", (key,)).fetchone())
        return None if row is None else str(row[0])

    async def set_meta(self, key: str, value: str) -> None:
        await self._db.run(lambda c: c.execute("INSERT OR REPLACE INTO idx.meta VALUES (?, ?)", (key, value)))

    # --- reading --------------------------------------------------------------------

    async def known_ids(self) -> set[str]:
        return await self._db.run(lambda c: {str(r[0]) for r in c.execute("SELECT copy_id FROM idx.copies")})

    async def count(self) -> int:
        return await self._db.run(lambda c: int(c.execute("SELECT count(*) FROM idx.copies").fetchone()[0]))

    async def older_than(self, ts: float, limit: int) -> list[str]:
        rows = await self._db.run(
            lambda c: c.execute(
                "SELECT copy_id FROM idx.copies WHERE received_at < ? ORDER BY received_at, copy_id LIMIT ?",
                (ts, limit),
            ).fetchall()
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
            sql.append("AND g.seq < ?")
            args.append(before.seq)
        if after is not None:
            sql.append("AND g.seq > ?")
            args.append(after.seq)
        ascending = after is not None if newest_first is None else not newest_first
        sql.append(f"ORDER BY g.seq {'ASC' if ascending else 'DESC'} LIMIT ?")
        args.append(limit)
        query = " ".join(sql)
        rows = await self._db.run(lambda c: c.execute(query, args).fetchall())
        return [summary_of(r) for r in rows]

    async def visible(self, identity: Identity, message_id: str, filters: Filters) -> Summary | None:
        sql, args = self._where(identity, filters)
        sql.append("AND g.copy_id = ?")
        args.append(message_id)
        query = " ".join(sql)
        row = await self._db.run(lambda c: c.execute(query, args).fetchone())
        return None if row is None else summary_of(row)

    def _where(self, identity: Identity, filters: Filters) -> tuple[list[str], list[object]]:
        sql = [_VISIBLE]
        args: list[object] = [identity.id, identity.address, filters.since_ts]
        if filters.min_id is not None:
            sql.append("AND g.origin_id >= ?")  # the fence judges the first granted copy
            args.append(filters.min_id)
        if filters.sender:
            sql.append("AND instr(c.from_fold, ?) > 0")
            args.append(filters.sender.casefold())
        if filters.subject:
            sql.append("AND instr(c.subject_fold, ?) > 0")
            args.append(filters.subject.casefold())
        if filters.unseen:
            sql.append("AND coalesce(k.seen, 0) = 0")
        if filters.unclaimed:
            sql.append(
                "AND NOT EXISTS (SELECT 1 FROM main.claims cl WHERE cl.identity_id = ?"
                " AND cl.message_key = g.message_key AND cl.until > ?)"
            )
            args += [identity.id, self._clock()]
        return sql, args

    async def cursor_of(self, address: str, message_id: str) -> Cursor | None:
        row = await self._db.run(
            lambda c: c.execute(
                "SELECT received_at, origin_id, seq FROM idx.grants WHERE address = ? AND copy_id = ?"
                " UNION ALL SELECT received_at, origin_id, seq FROM idx.gone WHERE address = ? AND copy_id = ?",
                (address, message_id, address, message_id),
            ).fetchone()
        )
        return None if row is None else Cursor(float(row[0]), str(row[1]), int(row[2]))

    async def copies(self, message_id: str) -> tuple[list[str], list[Grant]]:
        def copies(conn: sqlite3.Connection) -> tuple[list[str], list[Grant]]:
            key = conn.execute("SELECT message_key FROM idx.copies WHERE copy_id = ?", (message_id,)).fetchone()
            if key is None:
                return [], []
            ids = [str(r[0]) for r in conn.execute("SELECT copy_id FROM idx.copies WHERE message_key = ?", key)]
            grants = [
                Grant(str(a), str(m), float(t))
                for a, m, t in conn.execute(
                    "SELECT address, origin_id, received_at FROM idx.grants WHERE message_key = ?", key
                )
            ]
            return ids, grants

        return await self._db.run(copies)


def _chunks(values: Sequence[str]) -> list[list[str]]:
    return [list(values[i : i + _CHUNK]) for i in range(0, len(values), _CHUNK)]


def _marks(chunk: Sequence[str]) -> str:
    return ",".join("?" * len(chunk))
