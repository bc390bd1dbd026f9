"""The PostgreSQL message index, read together with the durable marks and claims in the same database.

Search (`Filters.query`, a gateway.mail.search tree) is translated to SQL with exactly the
meaning of `gateway.mail.search.matches`: a text, subject or file name term is `strpos` of
its needle in the folded form the sync stored (never LIKE: nothing in a needle is a
wildcard); `from:`/`to:` are equality with one of the copy's address keys (`= ANY(text[])`);
everything else reads the copy's columns, the grant and the identity's marks. Values always
travel as parameters.

No full-text extension: a search is driven by the identity's grants (`grants_listing`), like
every listing, so its cost follows that identity's mail, not the catch-all's, and a scan of
its rows' folded texts (each at most MAX_TEXT_CHARS) is the whole cost. PostgreSQL text
cannot hold NUL: fold() never yields one, and a hand-made form's NUL (in no needle) is
stored as U+FFFD, which changes no match; an address key holding NUL, which no query can
name, is not stored.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Iterable, Sequence
from typing import Final, Literal, LiteralString, cast

from gateway.mail.search import And, Node, Not, Or, SearchFields, phrase_needle
from gateway.mail.threads import SUBJECT_WINDOW
from gateway.store.index import (
    SUBJECT_CANDIDATES,
    GrantPosition,
    ThreadInput,
    merged_away,
    merged_participants,
    moved_grants,
    new_thread_id,
    participants_of,
    pick_by_ref,
    pick_by_subject,
    thread_input,
    thread_summaries,
)
from gateway.store.models import CopyRecord, Cursor, Filters, Grant, Identity, Summary, ThreadSummary
from gateway.store.postgres.database import Connection, Database
from gateway.store.postgres.schema import LOCK_INDEX, LOCK_NAMESPACE
from gateway.store.rows import encode_json, summary_of

__all__ = ["PostgresIndex"]

_SUMMARY: Final = (
    "c.copy_id, c.message_key, c.received_at, c.size, c.from_header, c.to_json, c.subject,"
    " c.codes_json, c.links_json, coalesce(k.seen, false), g.direction, g.thread_id"
)
# An identity's grants with its own marks: one query, whatever the size of its history.
_FROM: Final = (
    "FROM grants g JOIN copies c ON c.copy_id = g.copy_id"
    " LEFT JOIN marks k ON k.identity_id = %s AND k.message_key = g.message_key"
    " WHERE g.address = %s AND g.received_at >= %s AND NOT coalesce(k.deleted, false)"  # the first grant's time
)
_VISIBLE: Final = f"SELECT {_SUMMARY} {_FROM}"
_THREAD_COUNTS: Final = (
    "SELECT g.thread_id, count(*), count(*) FILTER (WHERE g.direction = 'received' AND NOT coalesce(k.seen, false)),"
    f" max(g.received_at), max(g.seq) {_FROM}"
)
_THREAD_MESSAGES: Final = f"SELECT g.thread_id, c.subject, c.participants_json {_FROM}"
# A batch is two statements whatever its size: the copies that are new (their seq values taken
# in batch order), then their grants (in batch order, so the first copy of a message granted
# to an address wins).
# Address keys travel as JSON (unnest cannot take an array per row) and are stored as text[].
_ADD_COPIES: Final = (
    "INSERT INTO copies (copy_id, received_at, size, from_header, to_json, subject, from_fold, subject_fold,"
    " message_key, codes_json, links_json, grants_json, direction, participants_json, depth,"
    " from_keys, to_keys, subject_search, filenames, attachments, search_text)"
    " SELECT n.copy_id, n.received_at, n.size, n.from_header, n.to_json, n.subject, n.from_fold, n.subject_fold,"
    " n.message_key, n.codes_json, n.links_json, n.grants_json, n.direction, n.participants_json, n.depth,"
    " ARRAY(SELECT json_array_elements_text(n.from_keys::json)),"
    " ARRAY(SELECT json_array_elements_text(n.to_keys::json)),"
    " n.subject_search, n.filenames, n.attachments, n.search_text"
    " FROM unnest(%s::text[], %s::float8[], %s::int8[], %s::text[], %s::text[], %s::text[], %s::text[],"
    " %s::text[], %s::text[], %s::text[], %s::text[], %s::text[], %s::text[], %s::text[], %s::int4[],"
    " %s::text[], %s::text[], %s::text[], %s::text[], %s::int4[], %s::text[])"
    "  WITH ORDINALITY AS n (copy_id, received_at, size, from_header, to_json, subject, from_fold, subject_fold,"
    "  message_key, codes_json, links_json, grants_json, direction, participants_json, depth,"
    "  from_keys, to_keys, subject_search, filenames, attachments, search_text, position)"
    " ORDER BY n.position"
    " ON CONFLICT (copy_id) DO NOTHING RETURNING copy_id, seq"
)
_HAS: Final[dict[str, LiteralString]] = {
    "attachment": "c.attachments > 0",
    "code": "c.codes_json <> '[]'",
    "link": "c.links_json <> '[]'",
}


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
        columns: list[list[object]] = [[] for _ in range(21)]
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
                r.direction,
                encode_json(thread_input(r).participants),
                len(r.thread.references) if r.thread is not None else 0,
                *_search_columns(r.search),
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
            # Grants one by one, in batch order: the first copy of a message granted to an address
            # wins, and a copy's thread is computed from every grant before it.
            for r in records:
                seq = new.pop(r.copy_id, None)  # a copy id twice in one batch: its first record was stored
                if seq is not None:
                    item = thread_input(r)
                    for address in sorted(r.grants):
                        await _grant(conn, address, r, seq, item)

    async def remove(self, copy_ids: Iterable[str]) -> set[str]:
        ids = list(dict.fromkeys(copy_ids))
        if not ids:
            return set()
        async with self._db.transaction() as conn:
            cur = await conn.execute("SELECT DISTINCT message_key FROM copies WHERE copy_id = ANY(%s)", (ids,))
            keys = {str(r[0]) for r in await cur.fetchall()}
            cur = await conn.execute(
                "SELECT address, message_key, received_at, origin_id, seq, direction, thread_id FROM grants"
                " WHERE copy_id = ANY(%s) ORDER BY seq",
                (ids,),
            )
            lost = [
                (str(a), str(k), float(t), str(o), int(q), str(d), str(h))
                for a, k, t, o, q, d, h in await cur.fetchall()
            ]
            await conn.execute(
                "INSERT INTO gone (address, copy_id, received_at, message_key, seq, origin_id, direction)"
                " SELECT address, copy_id, received_at, message_key, seq, origin_id, direction FROM grants"
                " WHERE copy_id = ANY(%s) ON CONFLICT (address, copy_id) DO NOTHING",
                (ids,),
            )
            await conn.execute("DELETE FROM grants WHERE copy_id = ANY(%s)", (ids,))
            await conn.execute("DELETE FROM copies WHERE copy_id = ANY(%s)", (ids,))
            cur = await conn.execute(
                "SELECT message_key, copy_id, grants_json, direction FROM copies WHERE message_key = ANY(%s)"
                " ORDER BY seq",
                (sorted(keys),),
            )
            remaining = [(str(k), str(c), str(g), str(d)) for k, c, g, d in await cur.fetchall()]
            moved = moved_grants(lost, remaining)
            if moved:
                await conn.execute(
                    "INSERT INTO grants (address, message_key, copy_id, received_at, seq, origin_id, direction,"
                    " thread_id) SELECT * FROM unnest(%s::text[], %s::text[], %s::text[], %s::float8[], %s::int8[],"
                    " %s::text[], %s::text[], %s::text[]) ON CONFLICT (address, message_key, direction) DO NOTHING",
                    [list(c) for c in zip(*moved, strict=True)],
                )
        return keys - {r[0] for r in remaining}

    async def clear(self) -> None:
        async with self._db.transaction() as conn:
            await conn.execute("DELETE FROM grants")
            await conn.execute("DELETE FROM copies")
            await conn.execute("DELETE FROM gone")
            await conn.execute("DELETE FROM thread_refs")
            await conn.execute("DELETE FROM threads")

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

    async def grants_after(
        self,
        after: tuple[int, str] | None,
        *,
        limit: int,
        direction: Literal["received", "sent", "all"] = "received",
    ) -> list[GrantPosition]:
        seq, address = after if after is not None else (0, "")
        # A row comparison: the btree grants_by_seq (seq, address) is read from the position on.
        rows = await self._db.fetchall(
            'SELECT seq, address, copy_id, direction FROM grants WHERE (seq, address) > (%s, %s::text COLLATE "C")'
            " AND %s IN ('all', direction) ORDER BY seq, address LIMIT %s",
            (seq, address, direction, max(limit, 0)),
        )
        return [_position(r) for r in rows]

    async def latest_grant(self, *, direction: Literal["received", "sent", "all"] = "received") -> GrantPosition | None:
        row = await self._db.fetchone(
            "SELECT seq, address, copy_id, direction FROM grants WHERE %s IN ('all', direction)"
            " ORDER BY seq DESC, address DESC LIMIT 1",
            (direction,),
        )
        return None if row is None else _position(row)

    async def visible(self, identity: Identity, message_id: str, filters: Filters) -> Summary | None:
        sql, args = self._where(identity, filters)
        sql.append("AND g.copy_id = %s")
        args.append(message_id)
        row = await self._db.fetchone(" ".join(sql), args)
        return None if row is None else summary_of(row)

    async def threads(
        self, identity: Identity, filters: Filters, *, limit: int, before: tuple[float, int] | None = None
    ) -> list[ThreadSummary]:
        every = dataclasses.replace(filters, direction="all")
        sql, args = self._where(identity, every, _THREAD_COUNTS)
        sql.append("GROUP BY g.thread_id")
        if before is not None:
            sql.append("HAVING max(g.received_at) < %s OR (max(g.received_at) = %s AND max(g.seq) < %s)")
            args += [before[0], before[0], before[1]]
        sql.append("ORDER BY max(g.received_at) DESC, max(g.seq) DESC LIMIT %s")
        args.append(limit)
        async with self._db.transaction() as conn:
            cur = await conn.execute(" ".join(sql), args)
            counts = [(str(t), int(n), int(u), float(m), int(q)) for t, n, u, m, q in await cur.fetchall()]
            if not counts:
                return []
            msql, margs = self._where(identity, every, _THREAD_MESSAGES)
            msql.append("AND g.thread_id = ANY(%s) ORDER BY g.received_at, g.seq")
            cur = await conn.execute(" ".join(msql), [*margs, [c[0] for c in counts]])
            messages = [(str(t), str(s), str(p)) for t, s, p in await cur.fetchall()]
        return thread_summaries(counts, messages)

    async def thread(self, identity: Identity, thread_id: str, filters: Filters) -> list[Summary]:
        sql, args = self._where(identity, dataclasses.replace(filters, direction="all", thread_id=thread_id))
        # A reply sorts after what it answers when both carry the same second (IMAP's INTERNALDATE),
        # whatever order a rebuild indexed them in: its chain is longer.
        sql.append("ORDER BY g.received_at ASC, c.depth ASC, g.seq ASC")
        return [summary_of(r) for r in await self._db.fetchall(" ".join(sql), args)]

    def _where(
        self, identity: Identity, filters: Filters, select: LiteralString = _VISIBLE
    ) -> tuple[list[LiteralString], list[object]]:
        sql: list[LiteralString] = [select]
        args: list[object] = [identity.id, identity.address, filters.since_ts]
        if filters.direction != "all":
            sql.append("AND g.direction = %s")
            args.append(filters.direction)
        if filters.thread_id is not None:
            sql.append("AND g.thread_id = %s")
            args.append(filters.thread_id)
        if filters.min_id is not None:
            sql.append("AND g.origin_id >= %s")  # the fence judges the first granted copy
            args.append(filters.min_id)
        if filters.sent_since_ts > 0:
            sql.append("AND (g.direction = 'received' OR g.received_at >= %s)")
            args.append(filters.sent_since_ts)
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
        if filters.query is not None:
            sql.append("AND")
            sql.append(_condition(filters.query, args))
        return sql, args

    async def cursor_of(
        self, address: str, message_id: str, *, direction: Literal["received", "sent", "all"] = "received"
    ) -> Cursor | None:
        row = await self._db.fetchone(
            "SELECT received_at, origin_id, seq FROM grants WHERE address = %s AND copy_id = %s"
            " AND %s IN ('all', direction) UNION ALL SELECT received_at, origin_id, seq FROM gone"
            " WHERE address = %s AND copy_id = %s AND %s IN ('all', direction) LIMIT 1",
            (address, message_id, direction, address, message_id, direction),
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


def _position(row: Sequence[object]) -> GrantPosition:
    return GrantPosition(
        int(cast(int, row[0])), str(row[1]), str(row[2]), cast(Literal["received", "sent"], str(row[3]))
    )


def _search_columns(fields: SearchFields | None) -> tuple[str, str, str, str, int, str]:
    """from_keys, to_keys (JSON), subject, file names, attachment count and text, as stored."""
    if fields is None:
        return "[]", "[]", "", "", 0, ""
    return (
        encode_json([k for k in fields.from_keys if "\x00" not in k]),
        encode_json([k for k in fields.to_keys if "\x00" not in k]),
        _text(fields.subject),
        _text(fields.filenames),
        fields.attachments,
        _text(fields.text),
    )


def _condition(node: Node, args: list[object]) -> LiteralString:
    """`node` as an SQL condition (never NULL) over copy `c`, grant `g` and mark `k`; its values appended to `args`."""
    if isinstance(node, And | Or):
        parts = [_condition(item, args) for item in node.items]
        return "(" + (" AND " if isinstance(node, And) else " OR ").join(parts) + ")"
    if isinstance(node, Not):
        return "NOT " + _condition(node.item, args)
    match node.field:
        case "text":
            args.append(phrase_needle(node))
            return "(strpos(c.search_text, %s) > 0)"
        case "subject":
            args.append(phrase_needle(node))
            return "(strpos(c.subject_search, %s) > 0)"
        case "filename":
            args.append(phrase_needle(node))
            return "(strpos(c.filenames, %s) > 0)"
        case "from":
            args.append(node.value)
            return "(%s::text = ANY(c.from_keys))"
        case "to":
            args.append(node.value)
            return "(%s::text = ANY(c.to_keys))"
        case "has":
            return "(" + _HAS[node.value] + ")"
        case "is":
            return "coalesce(k.seen, false)" if node.value == "seen" else "(NOT coalesce(k.seen, false))"
        case "after":
            args.append(node.ts)
            return "(c.received_at >= %s)"
        case "before":
            args.append(node.ts)
            return "(c.received_at < %s)"
    raise AssertionError(node.field)  # pragma: no cover


async def _merge_thread(conn: Connection, address: str, loser: str, winner: str) -> None:
    """Fold `address`'s thread `loser` into `winner`: its messages, references, activity and people."""
    cur = await conn.execute(
        "DELETE FROM threads WHERE address = %s AND thread_id = %s RETURNING last_ts, last_seq, participants_json",
        (address, loser),
    )
    row = await cur.fetchone()
    await conn.execute(
        "UPDATE grants SET thread_id = %s WHERE address = %s AND thread_id = %s", (winner, address, loser)
    )
    await conn.execute(
        "UPDATE thread_refs SET thread_id = %s WHERE address = %s AND thread_id = %s", (winner, address, loser)
    )
    if row is None:
        return
    cur = await conn.execute(
        "SELECT participants_json FROM threads WHERE address = %s AND thread_id = %s", (address, winner)
    )
    current = await cur.fetchone()
    people = merged_participants(None if current is None else str(current[0]), participants_of(str(row[2])))
    await conn.execute(
        "UPDATE threads SET last_ts = greatest(last_ts, %s), last_seq = greatest(last_seq, %s),"
        " participants_json = %s WHERE address = %s AND thread_id = %s",
        (row[0], row[1], people, address, winner),
    )


async def _grant(conn: Connection, address: str, r: CopyRecord, seq: int, item: ThreadInput) -> None:
    """Grant copy `r` to `address` unless it already has the message (or saw it removed), placing it in a thread.

    A sent copy that left is granted again by a later copy of it (the Sent folder renumbered by a
    new UIDVALIDITY, a step the outbox repeated): only the sender sees it, and a message the sender
    deleted stays hidden by its deleted mark."""
    cur = await conn.execute(
        "SELECT 1 FROM grants WHERE address = %s AND message_key = %s AND direction = %s"
        " UNION ALL SELECT 1 FROM gone WHERE address = %s AND message_key = %s AND direction = %s"
        " AND direction = 'received' LIMIT 1",
        (address, r.message_key, r.direction, address, r.message_key, r.direction),
    )
    if await cur.fetchone() is not None:
        return
    thread_id = None
    chain = [_text(ref) for ref in item.chain]
    if chain:
        cur = await conn.execute(
            "SELECT ref, thread_id FROM thread_refs WHERE address = %s AND ref = ANY(%s)", (address, chain)
        )
        found = {str(k): str(v) for k, v in await cur.fetchall()}
        thread_id = pick_by_ref(chain, found)
        for loser in merged_away(chain, found, thread_id):
            assert thread_id is not None
            await _merge_thread(conn, address, loser, thread_id)
    if thread_id is None and item.by_subject:
        cur = await conn.execute(
            "SELECT thread_id, participants_json FROM threads WHERE address = %s AND subject_norm = %s"
            " AND last_ts >= %s ORDER BY last_ts DESC, thread_id DESC LIMIT %s",
            (address, _text(item.subject_norm), r.received_ts - SUBJECT_WINDOW, SUBJECT_CANDIDATES),
        )
        thread_id = pick_by_subject(item.sender, [(str(t), str(p)) for t, p in await cur.fetchall()])
    if thread_id is None:
        thread_id = new_thread_id(address, item)
    await conn.execute(
        "INSERT INTO grants (address, message_key, copy_id, received_at, seq, origin_id, direction, thread_id)"
        " VALUES (%s, %s, %s, %s, %s, %s, %s, %s)",
        (address, r.message_key, r.copy_id, r.received_ts, seq, r.copy_id, r.direction, thread_id),
    )
    if chain:
        await conn.execute(
            "INSERT INTO thread_refs (address, ref, thread_id) SELECT %s, ref, %s FROM unnest(%s::text[]) AS ref"
            " ON CONFLICT (address, ref) DO NOTHING",
            (address, thread_id, chain),
        )
    cur = await conn.execute(
        "SELECT participants_json FROM threads WHERE address = %s AND thread_id = %s", (address, thread_id)
    )
    row = await cur.fetchone()
    people = merged_participants(None if row is None else str(row[0]), item.participants)
    await conn.execute(
        "INSERT INTO threads (address, thread_id, subject, subject_norm, last_ts, last_seq, participants_json)"
        " VALUES (%s, %s, %s, %s, %s, %s, %s) ON CONFLICT (address, thread_id) DO UPDATE SET"
        " last_ts = greatest(threads.last_ts, excluded.last_ts),"
        " last_seq = greatest(threads.last_seq, excluded.last_seq),"
        " participants_json = excluded.participants_json",
        (address, thread_id, _text(item.subject), _text(item.subject_norm), r.received_ts, seq, people),
    )
