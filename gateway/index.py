"""The message index (SQLite, WAL): one row per mailbox copy, one grant per address that sees it.

It is a cache of the mailbox: deleting the file loses nothing, the sync rebuilds it. What
cannot be rebuilt (identities, tokens, seen/deleted marks) lives in `identities.py`.

Listing an identity's mail walks the `grants` index for that one address, so its cost grows
with that identity's mail, never with the size of the catch-all.
"""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Final

from gateway.fsutil import ensure_private_dir

__all__ = ["Cursor", "Filters", "IndexRecord", "MessageIndex", "Summary"]

SCHEMA_VERSION: Final = 5  # 3: codes and links; 4: indexes for deletion, retention; 5: gone keys

_SCHEMA: Final = """
CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS messages (
    id TEXT PRIMARY KEY,
    received_at REAL NOT NULL,
    size INTEGER NOT NULL,
    from_header TEXT NOT NULL,
    to_json TEXT NOT NULL,
    subject TEXT NOT NULL,
    from_fold TEXT NOT NULL,
    subject_fold TEXT NOT NULL,
    dedupe_key TEXT NOT NULL,
    codes_json TEXT NOT NULL,
    links_json TEXT NOT NULL
);
CREATE INDEX IF NOT EXISTS messages_by_dedupe ON messages (dedupe_key);
CREATE TABLE IF NOT EXISTS grants (
    address TEXT NOT NULL,
    dedupe_key TEXT NOT NULL,
    message_id TEXT NOT NULL REFERENCES messages (id) ON DELETE CASCADE,
    received_at REAL NOT NULL,
    PRIMARY KEY (address, dedupe_key)
) WITHOUT ROWID;
CREATE INDEX IF NOT EXISTS grants_listing ON grants (address, received_at, message_id);
CREATE INDEX IF NOT EXISTS grants_by_message ON grants (message_id);
CREATE INDEX IF NOT EXISTS grants_by_dedupe ON grants (dedupe_key);
CREATE INDEX IF NOT EXISTS messages_by_time ON messages (received_at);
-- Where removed copies sat in each address's listing: a deleted message stays a paging
-- cursor (read, delete, ask for the next page), and a copy of it delivered later (one per
-- envelope recipient, possibly seconds apart) grants nothing again. Pruned by retention.
CREATE TABLE IF NOT EXISTS gone_cursors (
    address TEXT NOT NULL,
    message_id TEXT NOT NULL,
    received_at REAL NOT NULL,
    dedupe_key TEXT NOT NULL,
    PRIMARY KEY (address, message_id)
) WITHOUT ROWID;
CREATE INDEX IF NOT EXISTS gone_cursors_by_time ON gone_cursors (received_at);
CREATE INDEX IF NOT EXISTS gone_cursors_by_key ON gone_cursors (address, dedupe_key);
"""

_SUMMARY_COLUMNS: Final = (
    "m.id, m.received_at, m.size, m.from_header, m.to_json, m.subject, m.codes_json, m.links_json, m.dedupe_key"
)


@dataclass(frozen=True, slots=True)
class IndexRecord:
    """What the sync writes for one mailbox copy."""

    id: str
    received_ts: float
    size: int
    from_header: str
    to: tuple[str, ...]
    subject: str
    dedupe_key: str
    """Copies of one message (same Message-ID and body) share it; each address sees one."""
    grants: frozenset[str]
    codes_json: str = "[]"
    links_json: str = "[]"


@dataclass(frozen=True, slots=True)
class Summary:
    """One message as a listing shows it."""

    id: str
    received_ts: float
    size: int
    from_header: str
    to: tuple[str, ...]
    subject: str
    codes_json: str
    links_json: str
    key: str
    """The message's dedupe key: what marks hang on, stable across copies and id changes."""


@dataclass(frozen=True, slots=True)
class Cursor:
    """A position in an address's listing: (received_at, id), the listing's sort key."""

    received_ts: float
    id: str


@dataclass(frozen=True, slots=True)
class Filters:
    """What a listing keeps: mail at or after `since_ts`, minus the message keys in `exclude`, matching the texts."""

    since_ts: float
    min_id: str | None = None
    """Only copies whose ids sort at or after it (an identity's fence)."""
    sender: str | None = None
    subject: str | None = None
    exclude: frozenset[str] = field(default_factory=frozenset)


class MessageIndex:
    """SQLite index of the mailbox; rebuilt from scratch when missing, stale or corrupt."""

    def __init__(self, conn: sqlite3.Connection) -> None:
        self._db = conn

    @classmethod
    def open(cls, path: Path) -> MessageIndex:
        """Open the index at `path`; a corrupt or outdated one is deleted and started afresh."""
        ensure_private_dir(path.parent)
        try:
            return cls(cls._connect(path))
        except (sqlite3.DatabaseError, _Outdated):
            # A cache: throw it away rather than trust or repair it.
            for suffix in ("", "-wal", "-shm"):
                Path(f"{path}{suffix}").unlink(missing_ok=True)
            return cls(cls._connect(path))

    @staticmethod
    def _connect(path: Path) -> sqlite3.Connection:
        if not path.exists():
            path.touch(mode=0o600)
        conn = sqlite3.connect(path, isolation_level=None)
        try:
            conn.execute("PRAGMA journal_mode=WAL")
            conn.execute("PRAGMA synchronous=NORMAL")  # a cache: the mailbox is the truth
            conn.execute("PRAGMA foreign_keys=ON")
            if conn.execute("PRAGMA quick_check").fetchone()[0] != "ok":
                raise sqlite3.DatabaseError("quick_check failed")
            tables = {r[0] for r in conn.execute("SELECT name FROM sqlite_master WHERE type='table'")}
            if not tables:
                conn.executescript(_SCHEMA)
                conn.execute("INSERT INTO meta VALUES ('schema_version', ?)", (str(SCHEMA_VERSION),))
            else:
                row = conn.execute("SELECT value FROM meta WHERE key='schema_version'").fetchone()
                if row is None or int(row[0]) != SCHEMA_VERSION:
                    raise _Outdated
        except BaseException:
            conn.close()
            raise
        return conn

    def close(self) -> None:
        """Close the connection."""
        self._db.close()

    # --- writing --------------------------------------------------------------------

    def add(self, records: Sequence[IndexRecord]) -> None:
        """Index a batch of mailbox copies in one transaction (already-known ids are skipped)."""
        if not records:
            return
        self._db.execute("BEGIN")
        try:
            for r in records:
                cur = self._db.execute(
                    "INSERT OR IGNORE INTO messages VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                    (
                        r.id,
                        r.received_ts,
                        r.size,
                        r.from_header,
                        json.dumps(r.to),
                        r.subject,
                        r.from_header.casefold(),
                        r.subject.casefold(),
                        r.dedupe_key,
                        r.codes_json,
                        r.links_json,
                    ),
                )
                if cur.rowcount == 0:
                    continue
                # The first copy an address is granted wins; later copies of the same message
                # (one per envelope recipient) add nothing for it.
                self._db.executemany(
                    "INSERT OR IGNORE INTO grants SELECT ?, ?, ?, ? WHERE NOT EXISTS"
                    " (SELECT 1 FROM gone_cursors WHERE address = ? AND dedupe_key = ?)",
                    [(a, r.dedupe_key, r.id, r.received_ts, a, r.dedupe_key) for a in r.grants],
                )
            self._db.execute("COMMIT")
        except BaseException:
            self._db.execute("ROLLBACK")
            raise

    def remove(self, ids: Iterable[str]) -> set[str]:
        """Forget copies that left the mailbox; returns the message keys with no copy left.

        Their listing positions stay usable as cursors.
        """
        rows = [(i,) for i in ids]
        self._db.execute("BEGIN")
        try:
            keys = {
                str(r[0])
                for chunk in _chunks(rows, 500)
                for r in self._db.execute(
                    f"SELECT DISTINCT dedupe_key FROM messages WHERE id IN ({','.join('?' * len(chunk))})",  # noqa: S608 - placeholders only
                    [i for (i,) in chunk],
                )
            }
            self._db.executemany(
                "INSERT OR IGNORE INTO gone_cursors SELECT address, message_id, received_at, dedupe_key"
                " FROM grants WHERE message_id = ?",
                rows,
            )
            self._db.executemany("DELETE FROM messages WHERE id = ?", rows)
            left = {
                str(r[0])
                for chunk in _chunks([(k,) for k in keys], 500)
                for r in self._db.execute(
                    f"SELECT DISTINCT dedupe_key FROM messages WHERE dedupe_key IN ({','.join('?' * len(chunk))})",  # noqa: S608 - placeholders only
                    [k for (k,) in chunk],
                )
            }
            self._db.execute("COMMIT")
        except BaseException:
            self._db.execute("ROLLBACK")
            raise
        return keys - left

    def clear(self) -> None:
        """Forget everything (the mailbox changed identity: a UIDVALIDITY change)."""
        self._db.execute("DELETE FROM messages")
        self._db.execute("DELETE FROM gone_cursors")

    def forget_cursors(self, before_ts: float) -> None:
        """Drop the cursors of removed copies received before `before_ts` (retention)."""
        self._db.execute("DELETE FROM gone_cursors WHERE received_at < ?", (before_ts,))

    def get_meta(self, key: str) -> str | None:
        """A stored source-state value (e.g. UIDVALIDITY), or None."""
        row = self._db.execute("SELECT value FROM meta WHERE key = ?", (key,)).fetchone()
        return None if row is None else str(row[0])

    def set_meta(self, key: str, value: str) -> None:
        """Store a source-state value."""
        self._db.execute("INSERT OR REPLACE INTO meta VALUES (?, ?)", (key, value))

    # --- reading --------------------------------------------------------------------

    def known_ids(self) -> set[str]:
        """Every indexed copy's id."""
        return {r[0] for r in self._db.execute("SELECT id FROM messages")}

    def count(self) -> int:
        """How many copies are indexed."""
        return int(self._db.execute("SELECT count(*) FROM messages").fetchone()[0])

    def listing(
        self,
        address: str,
        filters: Filters,
        *,
        limit: int,
        before: Cursor | None = None,
        after: Cursor | None = None,
        newest_first: bool | None = None,
    ) -> list[Summary]:
        """`address`'s messages: newest first (before `before`), or oldest first after `after`.

        `newest_first` overrides the order (e.g. the newest message after a cursor).
        """
        sql = [
            f"SELECT {_SUMMARY_COLUMNS} FROM grants g JOIN messages m ON m.id = g.message_id"  # noqa: S608 - constant columns
            " WHERE g.address = ? AND g.received_at >= ?"
        ]
        args: list[object] = [address, filters.since_ts]
        if filters.min_id is not None:
            sql.append("AND g.message_id >= ?")
            args.append(filters.min_id)
        if before is not None:
            sql.append("AND (g.received_at, g.message_id) < (?, ?)")
            args += [before.received_ts, before.id]
        if after is not None:
            sql.append("AND (g.received_at, g.message_id) > (?, ?)")
            args += [after.received_ts, after.id]
        if filters.sender:
            sql.append("AND instr(m.from_fold, ?) > 0")
            args.append(filters.sender.casefold())
        if filters.subject:
            sql.append("AND instr(m.subject_fold, ?) > 0")
            args.append(filters.subject.casefold())
        if filters.exclude:
            sql.append("AND g.dedupe_key NOT IN (SELECT value FROM json_each(?))")
            args.append(json.dumps(sorted(filters.exclude)))
        ascending = after is not None if newest_first is None else not newest_first
        order = "ASC" if ascending else "DESC"
        sql.append(f"ORDER BY g.received_at {order}, g.message_id {order} LIMIT ?")
        args.append(limit)
        return [_summary(row) for row in self._db.execute(" ".join(sql), args)]

    def visible(self, address: str, message_id: str, since_ts: float, min_id: str | None = None) -> Summary | None:
        """The message if `address` is granted it (and it arrived at or after `since_ts` and `min_id`)."""
        row = self._db.execute(
            f"SELECT {_SUMMARY_COLUMNS} FROM grants g JOIN messages m ON m.id = g.message_id"  # noqa: S608 - constant columns
            " WHERE g.address = ? AND g.message_id = ? AND g.received_at >= ? AND g.message_id >= ?",
            (address, message_id, since_ts, min_id or ""),
        ).fetchone()
        return None if row is None else _summary(row)

    def cursor_of(self, address: str, message_id: str) -> Cursor | None:
        """The listing position of one of `address`'s messages (or removed ones), for paging."""
        row = self._db.execute(
            "SELECT received_at, message_id FROM grants WHERE address = ? AND message_id = ?"
            " UNION ALL SELECT received_at, message_id FROM gone_cursors WHERE address = ? AND message_id = ?",
            (address, message_id, address, message_id),
        ).fetchone()
        return None if row is None else Cursor(float(row[0]), str(row[1]))

    def copies(self, message_id: str) -> tuple[list[str], list[tuple[str, str, float]]]:
        """Every copy of the message `message_id` belongs to, and its grants (address, id, time)."""
        rows = self._db.execute(
            "SELECT id FROM messages WHERE dedupe_key = (SELECT dedupe_key FROM messages WHERE id = ?)",
            (message_id,),
        ).fetchall()
        ids = [str(r[0]) for r in rows]
        grants = self._db.execute(
            "SELECT address, message_id, received_at FROM grants WHERE dedupe_key ="
            " (SELECT dedupe_key FROM messages WHERE id = ?)",
            (message_id,),
        ).fetchall()
        return ids, [(str(a), str(m), float(t)) for a, m, t in grants]

    def older_than(self, ts: float, limit: int) -> list[str]:
        """Up to `limit` copy ids received before `ts`, oldest first (for retention)."""
        rows = self._db.execute(
            "SELECT id FROM messages WHERE received_at < ? ORDER BY received_at LIMIT ?", (ts, limit)
        )
        return [str(r[0]) for r in rows]


class _Outdated(Exception):
    """The index was written by another schema version."""


def _chunks(rows: Sequence[tuple[str]], size: int) -> list[Sequence[tuple[str]]]:
    return [rows[i : i + size] for i in range(0, len(rows), size)]


def _summary(row: Sequence[object]) -> Summary:
    return Summary(
        id=str(row[0]),
        received_ts=float(row[1]),  # type: ignore[arg-type]
        size=int(row[2]),  # type: ignore[call-overload]
        from_header=str(row[3]),
        to=tuple(json.loads(str(row[4]))),
        subject=str(row[5]),
        codes_json=str(row[6]),
        links_json=str(row[7]),
        key=str(row[8]),
    )
