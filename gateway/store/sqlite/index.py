"""The SQLite message index (the attached `idx` file), read together with the durable marks and claims.

Search (`Filters.query`, a gateway.mail.search tree) is translated to SQL with exactly the
meaning of `gateway.mail.search.matches`: a text, subject or file name term is a substring
test (`instr`) of its needle on the folded form the sync stored; `from:`/`to:` are equality
with one of the copy's address keys (`json_each`, never LIKE); everything else reads the
copy's columns, the grant and the identity's marks. Values always travel as parameters.

The folded text of each copy lives in the FTS5 table `idx.search` (rowid = copies.seq). Its
tokenizer is `unicode61` over our own folded form, not `trigram`: fold() already makes every
CJK, kana and hangul character a word of its own, so a Chinese or Japanese word is a phrase
of characters and a two-character word (验证, 東京) is found; trigram cannot find a term
under three characters without a full scan. And rebuild speed decides (issue 20 wants 5,000
messages a second): measured here with 2 KB texts, trigram took ~600 inserts/s and 13.6 MB per
1,000 messages, unicode61 ~7,700/s and 5.4 MB (again with 300-word texts on a loaded 2-core
machine, 16 a transaction as the sync writes them: ~1,400/s and 2.9 MB).

A search is always driven by the identity's grants (`grants_listing`), so its cost follows
that identity's mail, not the catch-all's: each of its rows is tested exactly. When the
identity has more than `scan_limit` grants, the positive text terms ANDed at the top of the
query also become an FTS5 pre-filter (`+c.seq IN (SELECT rowid ... MATCH ...)`: evaluated
once, its `+` keeps it from driving the query). The same tokenizer reads both sides, so
what a needle finds as a substring the phrase finds too: the pre-filter only drops rows the
exact test would drop. A MATCH per row (rowid equality) costs 30-4,000 ms and is never used.

SCAN_LIMIT by measurement (100k copies of ~2 KB, Zipf words, a loaded 2-core machine; page of
50): the scan costs 2-60 ms at 1,000 grants, 5-260 ms at 5,000, 12-780 ms at 20,000 (a rare
word reads every row); the pre-filter 7-190 ms whatever the identity (it reads the word's
postings across the catch-all: cheap for rare words, ~100 ms for a word in every message or a
short prefix). Worst cases meet near 5,000 grants.
"""

from __future__ import annotations

import dataclasses
import re
import sqlite3
from collections.abc import Callable, Iterable, Sequence
from typing import Final, Literal, cast

from gateway.mail.search import And, Node, Not, Or, Term, phrase_needle
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
from gateway.store.rows import encode_json, summary_of
from gateway.store.sqlite.database import Database, transaction

__all__ = ["SCAN_LIMIT", "SqliteIndex", "fts_query"]

_CHUNK: Final = 500  # ids per IN (...) list: well under SQLite's variable limit
MIN_FTS_PREFIX: Final = 3  # a shorter prefix term never joins the FTS5 pre-filter
MAX_FTS_PHRASES: Final = 2  # phrases in one pre-filter
SCAN_LIMIT: Final = 5000
"""Grants of an identity its searches test row by row alone; beyond, text terms pre-filter with FTS5.

Below this the scan costs no more than the FTS5 lookup, whose cost grows with the catch-all's
mail rather than the identity's (see the module docstring)."""
# Characters SQLite's unicode61 tokenizer (Unicode 6.1 tables) surely reads as part of a word,
# in their folded forms: ASCII, Latin-1 and Latin Extended-A, Greek, Cyrillic, kana, the CJK
# ideographs of Unicode 1.1, hangul syllables. A phrase holding none of them may tokenize to
# nothing, and an empty FTS5 phrase matches no row: such a term is tested only exactly.
_FTS_WORD: Final = re.compile(
    "[a-z0-9\u00df-\u00f6\u00f8-\u00ff\u0100-\u017f\u03ac-\u03ce\u0430-\u045f"
    "\u3041-\u3096\u30a1-\u30fa\u4e00-\u9fa5\uac00-\ud7a3]"
)
_SUMMARY: Final = (
    "c.copy_id, c.message_key, c.received_at, c.size, c.from_header, c.to_json, c.subject,"
    " c.codes_json, c.links_json, coalesce(k.seen, 0), g.direction, g.thread_id"
)
# An identity's grants with its own marks: one query, whatever the size of its history.
_FROM: Final = (
    "FROM idx.grants g JOIN idx.copies c ON c.copy_id = g.copy_id"
    " LEFT JOIN main.marks k ON k.identity_id = ? AND k.message_key = g.message_key"
    " WHERE g.address = ? AND g.received_at >= ? AND coalesce(k.deleted, 0) = 0"  # the first grant's time
)
_VISIBLE: Final = f"SELECT {_SUMMARY} {_FROM}"
_THREAD_COUNTS: Final = (
    "SELECT g.thread_id, count(*), sum(g.direction = 'received' AND coalesce(k.seen, 0) = 0),"
    f" max(g.received_at), max(g.seq) {_FROM}"
)
_THREAD_MESSAGES: Final = f"SELECT g.thread_id, c.subject, c.participants_json {_FROM}"


class SqliteIndex:
    """`MessageIndex` on SQLite."""

    def __init__(self, db: Database, clock: Callable[[], float], *, scan_limit: int = SCAN_LIMIT) -> None:
        self._db = db
        self._clock = clock
        self.scan_limit = scan_limit
        """Grants above which a search pre-filters with FTS5 (tests set it to 0 to run that plan)."""

    # --- writing --------------------------------------------------------------------

    async def add(self, records: Sequence[CopyRecord]) -> None:
        if not records:
            return
        items = [thread_input(r) for r in records]
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
                    r.direction,
                    encode_json(item.participants),
                    len(r.thread.references) if r.thread is not None else 0,
                    encode_json(r.search.from_keys if r.search else ()),
                    encode_json(r.search.to_keys if r.search else ()),
                    _searchable(r.search.subject if r.search else ""),
                    _searchable(r.search.filenames if r.search else ""),
                    r.search.attachments if r.search else 0,
                ),
                r,
                item,
                _searchable(r.search.text if r.search else ""),
            )
            for r, item in zip(records, items, strict=True)
        ]

        def add(conn: sqlite3.Connection) -> None:
            # One connection, one writer at a time (BEGIN IMMEDIATE): seq order is commit order.
            with transaction(conn):
                # Copies first, a chunk a statement (fewer round trips): seq follows the rows'
                # order as one insert each would, and granting reads no copy row.
                seqs: dict[str, int] = {}
                for at in range(0, len(rows), _ROWS_PER_INSERT):
                    chunk = rows[at : at + _ROWS_PER_INSERT]
                    seqs.update(
                        (str(copy_id), int(seq))
                        for seq, copy_id in conn.execute(
                            _INSERT_COPIES + ", ".join([_COPY_VALUES] * len(chunk)) + " RETURNING seq, copy_id",
                            [value for copy, *_ in chunk for value in copy],
                        ).fetchall()
                    )
                added = []
                for _, r, item, text in rows:
                    seq = seqs.pop(r.copy_id, None)  # None: indexed already, or twice in this batch
                    if seq is not None:
                        added.append((seq, r, item, text))
                conn.executemany(
                    "INSERT INTO idx.search (rowid, text) VALUES (?, ?)",
                    [(seq, text) for seq, _, _, text in added if text],
                )
                for seq, r, item, _ in added:
                    for address in sorted(r.grants):
                        _grant(conn, address, r, seq, item)

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
                    (str(a), str(k), float(t), str(o), int(q), str(d), str(h))
                    for chunk in _chunks(ids)
                    for a, k, t, o, q, d, h in conn.execute(
                        "SELECT address, message_key, received_at, origin_id, seq, direction, thread_id"  # noqa: S608
                        f" FROM idx.grants WHERE copy_id IN ({_marks(chunk)}) ORDER BY seq",
                        chunk,
                    )
                ]
                conn.executemany(
                    "INSERT OR IGNORE INTO idx.gone (address, copy_id, received_at, message_key, seq, origin_id,"
                    " direction) SELECT address, copy_id, received_at, message_key, seq, origin_id, direction"
                    " FROM idx.grants WHERE copy_id = ?",
                    one,
                )
                conn.executemany("DELETE FROM idx.grants WHERE copy_id = ?", one)
                seqs = [
                    (int(r[0]),)
                    for chunk in _chunks(ids)
                    for r in conn.execute(f"SELECT seq FROM idx.copies WHERE copy_id IN ({_marks(chunk)})", chunk)  # noqa: S608
                ]
                conn.executemany("DELETE FROM idx.search WHERE rowid = ?", seqs)
                conn.executemany("DELETE FROM idx.copies WHERE copy_id = ?", one)
                key_list = sorted(keys)
                remaining = [
                    (str(k), str(c), str(g), str(d))
                    for chunk in _chunks(key_list)
                    for k, c, g, d in conn.execute(
                        "SELECT message_key, copy_id, grants_json, direction FROM idx.copies"  # noqa: S608
                        f" WHERE message_key IN ({_marks(chunk)}) ORDER BY seq",
                        chunk,
                    )
                ]
                conn.executemany(
                    "INSERT OR IGNORE INTO idx.grants (address, message_key, copy_id, received_at, seq, origin_id,"
                    " direction, thread_id) VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
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
                conn.execute("DELETE FROM idx.search")
                conn.execute("DELETE FROM idx.gone")
                conn.execute("DELETE FROM idx.thread_refs")
                conn.execute("DELETE FROM idx.threads")

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
        sql, args = await self._where(identity, filters)
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

    async def grants_after(
        self,
        after: tuple[int, str] | None,
        *,
        limit: int,
        direction: Literal["received", "sent", "all"] = "received",
    ) -> list[GrantPosition]:
        seq, address = after if after is not None else (0, "")
        # The row value's range is read off grants_by_seq (seq, address), starting at the position.
        rows = await self._db.run(
            lambda c: c.execute(
                "SELECT seq, address, copy_id, direction FROM idx.grants WHERE (seq, address) > (?, ?)"
                " AND ? IN ('all', direction) ORDER BY seq, address LIMIT ?",
                (seq, address, direction, max(limit, 0)),
            ).fetchall()
        )
        return [_position(r) for r in rows]

    async def latest_grant(self, *, direction: Literal["received", "sent", "all"] = "received") -> GrantPosition | None:
        row = await self._db.run(
            lambda c: c.execute(
                "SELECT seq, address, copy_id, direction FROM idx.grants WHERE ? IN ('all', direction)"
                " ORDER BY seq DESC, address DESC LIMIT 1",
                (direction,),
            ).fetchone()
        )
        return None if row is None else _position(row)

    async def visible(self, identity: Identity, message_id: str, filters: Filters) -> Summary | None:
        sql, args = await self._where(identity, filters)
        sql.append("AND g.copy_id = ?")
        args.append(message_id)
        query = " ".join(sql)
        row = await self._db.run(lambda c: c.execute(query, args).fetchone())
        return None if row is None else summary_of(row)

    async def threads(
        self, identity: Identity, filters: Filters, *, limit: int, before: tuple[float, int] | None = None
    ) -> list[ThreadSummary]:
        every = dataclasses.replace(filters, direction="all")
        sql, args = await self._where(identity, every, _THREAD_COUNTS)
        msql, margs = await self._where(identity, every, _THREAD_MESSAGES)
        query = " ".join(sql) + " GROUP BY g.thread_id"
        if before is not None:
            query += " HAVING max(g.received_at) < ? OR (max(g.received_at) = ? AND max(g.seq) < ?)"
            args += [before[0], before[0], before[1]]
        query += " ORDER BY max(g.received_at) DESC, max(g.seq) DESC LIMIT ?"
        args.append(limit)

        def threads(conn: sqlite3.Connection) -> list[ThreadSummary]:
            counts = [(str(t), int(n), int(u), float(m), int(q)) for t, n, u, m, q in conn.execute(query, args)]
            ids = [c[0] for c in counts]
            if not ids:
                return []
            detail = " ".join(msql) + f" AND g.thread_id IN ({_marks(ids)}) ORDER BY g.received_at, g.seq"
            return thread_summaries(
                counts, ((str(t), str(s), str(p)) for t, s, p in conn.execute(detail, [*margs, *ids]))
            )

        return await self._db.run(threads)

    async def thread(self, identity: Identity, thread_id: str, filters: Filters) -> list[Summary]:
        sql, args = await self._where(identity, dataclasses.replace(filters, direction="all", thread_id=thread_id))
        # A reply sorts after what it answers when both carry the same second (IMAP's INTERNALDATE),
        # whatever order a rebuild indexed them in: its chain is longer.
        sql.append("ORDER BY g.received_at ASC, c.depth ASC, g.seq ASC")
        query = " ".join(sql)
        rows = await self._db.run(lambda c: c.execute(query, args).fetchall())
        return [summary_of(r) for r in rows]

    async def _where(
        self, identity: Identity, filters: Filters, select: str = _VISIBLE
    ) -> tuple[list[str], list[object]]:
        sql = [select]
        args: list[object] = [identity.id, identity.address, filters.since_ts]
        if filters.direction != "all":
            sql.append("AND g.direction = ?")
            args.append(filters.direction)
        if filters.thread_id is not None:
            sql.append("AND g.thread_id = ?")
            args.append(filters.thread_id)
        if filters.min_id is not None:
            sql.append("AND g.origin_id >= ?")  # the fence judges the first granted copy
            args.append(filters.min_id)
        if filters.sent_since_ts > 0:
            sql.append("AND (g.direction = 'received' OR g.received_at >= ?)")
            args.append(filters.sent_since_ts)
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
        if filters.query is not None:
            match = fts_query(filters.query)
            if match is not None and await self._grants_over(identity.address, self.scan_limit):
                sql.append("AND +c.seq IN (SELECT rowid FROM idx.search WHERE search MATCH ?)")
                args.append(match)
            sql.append("AND " + _condition(filters.query, args))
        return sql, args

    async def _grants_over(self, address: str, limit: int) -> bool:
        """Whether `address` has more than `limit` grants (counting at most limit + 1 of them)."""
        row = await self._db.run(
            lambda c: c.execute(
                "SELECT count(*) FROM (SELECT 1 FROM idx.grants WHERE address = ? LIMIT ?)", (address, limit + 1)
            ).fetchone()
        )
        return int(row[0]) > limit

    async def cursor_of(
        self, address: str, message_id: str, *, direction: Literal["received", "sent", "all"] = "received"
    ) -> Cursor | None:
        row = await self._db.run(
            lambda c: c.execute(
                "SELECT received_at, origin_id, seq FROM idx.grants WHERE address = ? AND copy_id = ?"
                " AND ? IN ('all', direction) UNION ALL SELECT received_at, origin_id, seq FROM idx.gone"
                " WHERE address = ? AND copy_id = ? AND ? IN ('all', direction)",
                (address, message_id, direction, address, message_id, direction),
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


_INSERT_COPIES: Final = (
    "INSERT OR IGNORE INTO idx.copies (copy_id, received_at, size, from_header, to_json, subject, from_fold,"
    " subject_fold, message_key, codes_json, links_json, grants_json, direction, participants_json, depth,"
    " from_keys, to_keys, subject_search, filenames, attachments) VALUES "
)
_COPY_VALUES: Final = "(" + ", ".join(["?"] * 20) + ")"
_ROWS_PER_INSERT: Final = 40  # 800 parameters a statement: under any SQLite's limit (999 before 3.32)


def _position(row: Sequence[object]) -> GrantPosition:
    return GrantPosition(
        int(cast(int, row[0])), str(row[1]), str(row[2]), cast(Literal["received", "sent"], str(row[3]))
    )


def _grant(conn: sqlite3.Connection, address: str, r: CopyRecord, seq: int, item: ThreadInput) -> None:
    """Grant copy `r` to `address` unless it already has the message (or saw it removed), placing it in a thread.

    A sent copy that left is granted again by a later copy of it (the Sent folder renumbered by a
    new UIDVALIDITY, a step the outbox repeated): only the sender sees it, and a message the sender
    deleted stays hidden by its deleted mark."""
    if conn.execute(
        "SELECT 1 FROM idx.grants WHERE address = ? AND message_key = ? AND direction = ?"
        " UNION ALL SELECT 1 FROM idx.gone WHERE address = ? AND message_key = ? AND direction = ?"
        " AND direction = 'received'",
        (address, r.message_key, r.direction, address, r.message_key, r.direction),
    ).fetchone():
        return
    thread_id = None
    if item.chain:
        found = dict(
            conn.execute(
                f"SELECT ref, thread_id FROM idx.thread_refs WHERE address = ? AND ref IN ({_marks(item.chain)})",  # noqa: S608
                (address, *item.chain),
            ).fetchall()
        )
        thread_id = pick_by_ref(item.chain, found)
        for loser in merged_away(item.chain, found, thread_id):
            assert thread_id is not None
            _merge_thread(conn, address, loser, thread_id)
    if thread_id is None and item.by_subject:
        candidates = conn.execute(
            "SELECT thread_id, participants_json FROM idx.threads WHERE address = ? AND subject_norm = ?"
            " AND last_ts >= ? ORDER BY last_ts DESC, thread_id DESC LIMIT ?",
            (address, item.subject_norm, r.received_ts - SUBJECT_WINDOW, SUBJECT_CANDIDATES),
        ).fetchall()
        thread_id = pick_by_subject(item.sender, candidates)
    if thread_id is None:
        thread_id = new_thread_id(address, item)
    conn.execute(
        "INSERT INTO idx.grants (address, message_key, copy_id, received_at, seq, origin_id, direction, thread_id)"
        " VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
        (address, r.message_key, r.copy_id, r.received_ts, seq, r.copy_id, r.direction, thread_id),
    )
    conn.executemany(
        "INSERT OR IGNORE INTO idx.thread_refs (address, ref, thread_id) VALUES (?, ?, ?)",
        [(address, ref, thread_id) for ref in item.chain],
    )
    fresh = conn.execute(
        "INSERT INTO idx.threads (address, thread_id, subject, subject_norm, last_ts, last_seq, participants_json)"
        " VALUES (?, ?, ?, ?, ?, ?, ?) ON CONFLICT (address, thread_id) DO NOTHING",
        (
            address,
            thread_id,
            item.subject,
            item.subject_norm,
            r.received_ts,
            seq,
            merged_participants(None, item.participants),
        ),
    )
    if fresh.rowcount:
        return  # a new thread (the common case in a rebuild): what the upsert below would have written
    row = conn.execute(
        "SELECT participants_json FROM idx.threads WHERE address = ? AND thread_id = ?", (address, thread_id)
    ).fetchone()
    people = merged_participants(None if row is None else str(row[0]), item.participants)
    conn.execute(
        "INSERT INTO idx.threads (address, thread_id, subject, subject_norm, last_ts, last_seq, participants_json)"
        " VALUES (?, ?, ?, ?, ?, ?, ?) ON CONFLICT (address, thread_id) DO UPDATE SET"
        " last_ts = max(last_ts, excluded.last_ts), last_seq = max(last_seq, excluded.last_seq),"
        " participants_json = excluded.participants_json",
        (address, thread_id, item.subject, item.subject_norm, r.received_ts, seq, people),
    )


def _merge_thread(conn: sqlite3.Connection, address: str, loser: str, winner: str) -> None:
    """Fold `address`'s thread `loser` into `winner`: its messages, references, activity and people."""
    row = conn.execute(
        "DELETE FROM idx.threads WHERE address = ? AND thread_id = ? RETURNING last_ts, last_seq, participants_json",
        (address, loser),
    ).fetchone()
    conn.execute("UPDATE idx.grants SET thread_id = ? WHERE address = ? AND thread_id = ?", (winner, address, loser))
    conn.execute(
        "UPDATE idx.thread_refs SET thread_id = ? WHERE address = ? AND thread_id = ?", (winner, address, loser)
    )
    if row is None:
        return
    (people,) = conn.execute(
        "SELECT participants_json FROM idx.threads WHERE address = ? AND thread_id = ?", (address, winner)
    ).fetchone() or (None,)
    conn.execute(
        "UPDATE idx.threads SET last_ts = max(last_ts, ?), last_seq = max(last_seq, ?), participants_json = ?"
        " WHERE address = ? AND thread_id = ?",
        (row[0], row[1], merged_participants(people, participants_of(str(row[2]))), address, winner),
    )


def _searchable(text: str) -> str:
    """A folded form as stored: fold() never yields NUL; a hand-made one's NUL (in no needle) reads as U+FFFD."""
    return text.replace("\x00", "\ufffd")


_TEXT_OF: Final = "coalesce((SELECT s.text FROM idx.search s WHERE s.rowid = c.seq), '')"
_HAS: Final = {"attachment": "c.attachments > 0", "code": "c.codes_json <> '[]'", "link": "c.links_json <> '[]'"}


def _condition(node: Node, args: list[object]) -> str:
    """`node` as an SQL condition (never NULL) over copy `c`, grant `g` and mark `k`; its values appended to `args`."""
    if isinstance(node, And | Or):
        joiner = " AND " if isinstance(node, And) else " OR "
        return "(" + joiner.join(_condition(item, args) for item in node.items) + ")"
    if isinstance(node, Not):
        return "NOT " + _condition(node.item, args)
    match node.field:
        case "text" | "subject" | "filename":
            args.append(phrase_needle(node))
            column = {"text": _TEXT_OF, "subject": "c.subject_search", "filename": "c.filenames"}[node.field]
            return f"(instr({column}, ?) > 0)"
        case "from" | "to":
            args.append(node.value)
            if node.field == "from":
                return "EXISTS (SELECT 1 FROM json_each(c.from_keys) WHERE value = ?)"
            return "EXISTS (SELECT 1 FROM json_each(c.to_keys) WHERE value = ?)"
        case "has":
            return f"({_HAS[node.value]})"
        case "is":
            return "(coalesce(k.seen, 0) <> 0)" if node.value == "seen" else "(coalesce(k.seen, 0) = 0)"
        case "after":
            args.append(node.ts)
            return "(c.received_at >= ?)"
        case "before":
            args.append(node.ts)
            return "(c.received_at < ?)"
    raise AssertionError(node.field)  # pragma: no cover


def fts_query(root: Node) -> str | None:
    """An FTS5 query every row matching `root` matches (a superset), or None when none helps.

    Only positive text terms ANDed at the top qualify; each is the phrase of its words (the
    last one a prefix for `verif*`), and one holding no character the tokenizer surely keeps
    is left out (see _FTS_WORD). The pre-filter reads the whole catch-all's postings on the
    one store thread, so it stays cheap: a prefix shorter than MIN_FTS_PREFIX (`a*` expands to
    most of the vocabulary) is left out, and at most MAX_FTS_PHRASES phrases are kept, the
    longest (the rarest, most likely), since the exact test checks every term anyway.
    """
    items = root.items if isinstance(root, And) else (root,)
    usable = [
        item
        for item in items
        if isinstance(item, Term)
        and item.field == "text"
        and _FTS_WORD.search(item.value)
        and not (item.prefix and len(item.value.rpartition(" ")[2]) < MIN_FTS_PREFIX)
    ]
    usable.sort(key=lambda item: (item.prefix, -len(item.value)))
    phrases = [
        '"' + item.value.replace('"', '""') + '"' + (" *" if item.prefix else "") for item in usable[:MAX_FTS_PHRASES]
    ]
    return " AND ".join(phrases) if phrases else None


def _chunks(values: Sequence[str]) -> list[list[str]]:
    return [list(values[i : i + _CHUNK]) for i in range(0, len(values), _CHUNK)]


def _marks(chunk: Sequence[str]) -> str:
    return ",".join("?" * len(chunk))
