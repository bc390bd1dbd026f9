"""`agentmail-gateway store copy`: the durable SQLite store moved into an empty PostgreSQL database, verified.

What moves: every table of `identities.db` (`TABLES`, parents before children), row for row:
identities with their ids, names, times and send scopes; token hashes (admin, provisioner,
identity: every token keeps working); quarantined names; seen and deleted marks; claims and
rate events (short-lived, copied so a lease or a login throttle does not reset); `/ui`
sessions; the outbox and its delivery rows; webhooks with their secrets and keys, their
queued and finished deliveries and the attempt log. From `meta`, the store's `store_id` (the
embedded Maildir's mark names it) and `domain`; the schema version is each engine's own.

What does not: the message index (`index.db`: a cache of the mailbox, rebuilt on the first
start on PostgreSQL; marks and claims hang on message keys, which the rebuild gives back),
and `sqlite_sequence` (SQLite's record of the highest AUTOINCREMENT ids, which instead sets
the PostgreSQL identity sequences past every id ever handed out, so none is handed out twice).

One snapshot: the source is read in one SQLite read transaction, so a write committed meanwhile
is wholly in it or not at all, and the copy refuses to commit when the store changed while it
was read (a gateway still running would lose every write after the copy: stop it first).

One transaction on the target: it must hold no table at all (a store there is refused, never
merged or overwritten); the schema is created, the rows written with COPY, the sequences set,
and everything read back and compared (per table: the row count and a SHA-256 over a canonical
rendering of every row, in primary-key order on both sides) before the commit. A failure or a
difference rolls everything back: the target is left as empty as it was.

The URL's password never reaches a message (`describe` and `scrub`).
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import sqlite3
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Final

import psycopg
from psycopg import sql
from psycopg.conninfo import conninfo_to_dict, make_conninfo

from gateway.errors import StoreError
from gateway.store.postgres.database import CONNECT_TIMEOUT, describe, scrub
from gateway.store.postgres.schema import (
    APPLICATION,
    INDEX_VERSION,
    LOCK_NAMESPACE,
    LOCK_SCHEMA,
    NEW_SCHEMA,
    SCHEMA_VERSION,
)
from gateway.store.sqlite.schema import DURABLE_VERSION, integrity_problems

__all__ = [
    "ENGINE_META",
    "NOT_COPIED",
    "TABLES",
    "CopyReport",
    "Digest",
    "Table",
    "TableCheck",
    "copy_store",
    "verify_copy",
]

PgConnection = psycopg.Connection[tuple[Any, ...]]
_BUSY_TIMEOUT_MS: Final = 10_000
"""How long a read of the source waits for a lock (a start-up check or upgrade holds one briefly)."""
_SHOWN_HEX: Final = 16
"""Hex digits of each checksum the report prints (the comparison uses all of them)."""


@dataclass(frozen=True, slots=True)
class Table:
    """One durable table as the copy sees it on both engines (same name, same columns)."""

    name: str
    key: tuple[str, ...]
    """Its primary key: rows are read in this order on both sides (text keys sort by bytes on both)."""
    sequence: str | None = None
    """Its PostgreSQL identity column, set past the copied ids (None: the table has none)."""
    engine_keys: tuple[str, ...] = ()
    """Rows (by their first key column) each engine writes for itself: neither copied nor compared."""


ENGINE_META: Final = ("application", "schema_version")
"""Meta rows of each engine's own: PostgreSQL's schema version counts differently from SQLite's."""
TABLES: Final = (
    Table("meta", ("key",), engine_keys=ENGINE_META),
    Table("identities", ("id",), sequence="id"),
    Table("tokens", ("id",)),
    Table("quarantine", ("local_part",)),
    Table("marks", ("identity_id", "message_key")),
    Table("ui_sessions", ("hash",)),
    Table("claims", ("identity_id", "message_key")),
    Table("rate_events", ("id",), sequence="id"),
    Table("outbox", ("id",)),
    Table("deliveries", ("entry_id", "address")),
    Table("webhooks", ("id",)),
    Table("webhook_deliveries", ("seq",), sequence="seq"),
    Table("webhook_attempts", ("id",), sequence="id"),
)
"""Every table of the durable SQLite store that is copied, parents before children: PostgreSQL
checks each foreign key as the rows arrive."""
NOT_COPIED: Final = {
    "sqlite_sequence": "SQLite's own record of the highest AUTOINCREMENT ids; it sets the PostgreSQL sequences instead",
}
"""Tables of the durable SQLite store deliberately left behind, and why. A table in neither this
nor `TABLES` makes the copy refuse: a newer store must not lose one silently."""


@dataclass(frozen=True, slots=True)
class Digest:
    """A table's rows, summed up: how many, and the SHA-256 of their canonical rendering in key order."""

    rows: int
    sha256: str


@dataclass(frozen=True, slots=True)
class TableCheck:
    """One table read back on both sides."""

    table: str
    source: Digest
    target: Digest

    @property
    def matches(self) -> bool:
        """Same count and same checksum."""
        return self.source == self.target


@dataclass(frozen=True, slots=True)
class CopyReport:
    """What a copy (or a verification) found, table by table; no secret in it."""

    source: Path
    target: str
    """Where the target is, as `describe` puts it (never the password)."""
    store_id: str | None
    domain: str | None
    checks: tuple[TableCheck, ...]
    next_ids: dict[str, int]
    """Each PostgreSQL identity column set past the copied ids: the table and the last id taken."""
    committed: bool
    """Whether the copy was committed (False for a verification, or a copy that found a difference)."""

    @property
    def matches(self) -> bool:
        """Every table has the same count and checksum on both sides."""
        return all(check.matches for check in self.checks)

    def mismatched(self) -> list[str]:
        """The tables that differ."""
        return [check.table for check in self.checks if not check.matches]

    def lines(self) -> list[str]:
        """The report as a small table: table, rows (source → target when they differ), checksum, match."""
        width = max(len(check.table) for check in self.checks)
        out = [f"{'table':<{width}}  {'rows':>9}  {'sha256 (SQLite)':<{_SHOWN_HEX}}  match"]
        for check in self.checks:
            rows = str(check.source.rows)
            if check.source.rows != check.target.rows:
                rows = f"{check.source.rows}→{check.target.rows}"
            shown = check.source.sha256[:_SHOWN_HEX]
            verdict = "yes" if check.matches else "NO"
            out.append(f"{check.table:<{width}}  {rows:>9}  {shown:<{_SHOWN_HEX}}  {verdict}")
        return out


def copy_store(
    source: Path,
    dsn: str,
    *,
    domain: str | None = None,
    before_verify: Callable[[PgConnection], None] | None = None,
) -> CopyReport:
    """Copy the durable SQLite store `source` into the empty database at `dsn`, verify, commit; the report.

    `domain`, when given, must be the store's own (as a gateway's start checks it).
    StoreError on a refusal (a source that cannot be trusted, a target that is not empty, a
    source that changed while read); a report with `committed` False when the read-back
    differs. Either way the target is left as it was. `before_verify` runs on the target's
    connection between writing and reading back (tests tamper with a row there).
    """
    where = describe(dsn)
    src = _open_source(source)
    try:
        meta = _source_meta(src, source)
        if domain is not None and meta.get("domain") not in (None, domain):
            raise StoreError(
                f"the identity store {source} belongs to the domain {meta['domain']}, but AGENTMAIL_DOMAIN is"
                f" {domain}; set AGENTMAIL_DOMAIN={meta['domain']} (the copy keeps the store's domain)"
            )
        dst = _connect(dsn)
        try:
            with dst.transaction():
                report = _copy(src, source, dst, where, meta, before_verify)
                if not report.committed:
                    raise psycopg.Rollback  # the transaction block ends here, rolled back, and we go on
        except psycopg.Error as exc:
            raise StoreError(f"the copy into {where} failed ({_detail(exc, dsn)}); nothing was written") from None
        finally:
            dst.close()
    except sqlite3.Error as exc:
        raise StoreError(f"the identity store {source} could not be read ({exc}); nothing was written") from None
    finally:
        src.close()
    return report


def verify_copy(source: Path, dsn: str) -> CopyReport:
    """Compare the store at `dsn` with the SQLite store `source`, table by table, changing neither.

    For right after a copy: a gateway that has run on either since changes both. StoreError
    when the target holds no agentmail-gateway store or cannot be reached.
    """
    where = describe(dsn)
    src = _open_source(source)
    try:
        dst = _connect(dsn)
        try:
            with dst.transaction():
                # One snapshot of the target too, and a promise to write nothing.
                dst.execute("SET TRANSACTION ISOLATION LEVEL REPEATABLE READ, READ ONLY")
                target_meta = _target_meta(dst)
                if target_meta.get("application") != APPLICATION:
                    raise StoreError(f"{where} holds no agentmail-gateway store to verify")
                meta = _source_meta(src, source)
                checks = []
                with _snapshot(src):
                    for table in TABLES:
                        columns = _columns(src, dst, table)
                        digest = _Digester()
                        for row in _source_rows(src, table, columns):
                            digest.add(row)
                        checks.append(TableCheck(table.name, digest.result(), _target_digest(dst, table, columns)))
        except psycopg.Error as exc:
            raise StoreError(f"{where} could not be read ({_detail(exc, dsn)})") from None
        finally:
            dst.close()
    except sqlite3.Error as exc:
        raise StoreError(f"the identity store {source} could not be read ({exc})") from None
    finally:
        src.close()
    return CopyReport(source, where, meta.get("store_id"), meta.get("domain"), tuple(checks), {}, committed=False)


def _copy(
    src: sqlite3.Connection,
    source: Path,
    dst: PgConnection,
    where: str,
    meta: dict[str, str],
    before_verify: Callable[[PgConnection], None] | None,
) -> CopyReport:
    """The copy itself, inside the target's transaction (an exception rolls it all back)."""
    # A gateway starting on this database meanwhile would make a store of its own: hold the lock
    # it takes to create one.
    dst.execute("SELECT pg_advisory_xact_lock(%s, %s)", (LOCK_NAMESPACE, LOCK_SCHEMA))
    _refuse_unless_empty(dst, where)
    dst.execute(NEW_SCHEMA)
    dst.execute(
        "INSERT INTO meta (key, value) VALUES ('application', %s), ('schema_version', %s)",
        (APPLICATION, str(SCHEMA_VERSION)),
    )
    dst.execute("INSERT INTO index_meta (key, value) VALUES ('schema_version', %s)", (str(INDEX_VERSION),))

    # Before the snapshot: a commit between this and the snapshot reads as a change (safe side).
    version = _data_version(src)
    sources: dict[str, Digest] = {}
    columns_of: dict[str, list[str]] = {}
    next_ids: dict[str, int] = {}
    with _snapshot(src):
        highest = _sqlite_sequences(src)
        for table in TABLES:
            columns = columns_of[table.name] = _columns(src, dst, table)
            sources[table.name], high = _write(src, dst, table, columns)
            if table.sequence is not None:
                last = max(high, highest.get(table.name, 0))
                if last > 0:
                    dst.execute("SELECT setval(pg_get_serial_sequence(%s, %s), %s)", (table.name, table.sequence, last))
                    next_ids[table.name] = last

    if before_verify is not None:
        before_verify(dst)
    checks = tuple(
        TableCheck(table.name, sources[table.name], _target_digest(dst, table, columns_of[table.name]))
        for table in TABLES
    )
    report = CopyReport(source, where, meta.get("store_id"), meta.get("domain"), checks, next_ids, committed=False)
    if not report.matches:
        return report
    if _data_version(src) != version:
        raise StoreError(
            f"the identity store {source} changed while it was copied: is the gateway still running? Stop it"
            " and copy again (nothing was written)"
        )
    return CopyReport(source, where, report.store_id, report.domain, checks, next_ids, committed=True)


# -- the source ----------------------------------------------------------------------------


def _open_source(path: Path) -> sqlite3.Connection:
    """The durable SQLite store, checked as a gateway's start checks it; StoreError when it cannot be trusted."""
    if not path.is_file():
        raise StoreError(f"there is no identity store at {path}: check AGENTMAIL_DATA_DIR (or --data-dir)")
    try:
        # mode=rw: never create a store where there is none; query_only: the copy never writes to it.
        conn = sqlite3.connect(f"{path.resolve().as_uri()}?mode=rw", uri=True, isolation_level=None)
    except sqlite3.Error as exc:
        raise StoreError(f"the identity store {path} cannot be opened ({exc})") from None
    try:
        conn.execute(f"PRAGMA busy_timeout={_BUSY_TIMEOUT_MS}")
        conn.execute("PRAGMA query_only=ON")
        problems = integrity_problems(conn)
        if problems:
            raise StoreError(
                f"the identity store {path} failed its integrity check ({'; '.join(problems[:3])});"
                " restore it from a backup before copying it"
            )
        tables = {str(r[0]) for r in conn.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
        known = {table.name for table in TABLES}
        if not known <= tables:
            raise StoreError(
                f"{path} is not an identity store of this version (no {', '.join(sorted(known - tables))})"
            )
        unknown = tables - known - NOT_COPIED.keys()
        if unknown:
            raise StoreError(
                f"{path} holds tables this copy does not know ({', '.join(sorted(unknown))}); nothing copied"
            )
        _check_version(conn, path)
    except sqlite3.Error as exc:
        conn.close()
        raise StoreError(f"the identity store {path} is unreadable or corrupt ({exc})") from None
    except BaseException:
        conn.close()
        raise
    return conn


def _check_version(conn: sqlite3.Connection, path: Path) -> None:
    row = conn.execute("SELECT value FROM meta WHERE key = 'schema_version'").fetchone()
    version = None if row is None else str(row[0])
    if version == str(DURABLE_VERSION):
        return
    if version is not None and version.isdigit() and int(version) < DURABLE_VERSION:
        raise StoreError(
            f"the identity store {path} has schema version {version}, this gateway copies version"
            f" {DURABLE_VERSION}: upgrade it first by opening it once with this version (e.g."
            " `agentmail-gateway identity list`), then copy"
        )
    raise StoreError(f"the identity store {path} has schema version {version!r}, this gateway reads {DURABLE_VERSION}")


def _source_meta(src: sqlite3.Connection, path: Path) -> dict[str, str]:
    meta = {str(k): str(v) for k, v in src.execute("SELECT key, value FROM meta")}
    if "store_id" not in meta:
        raise StoreError(f"the identity store {path} has no store id: start the gateway on it once, then copy")
    return meta


@contextlib.contextmanager
def _snapshot(src: sqlite3.Connection) -> Iterator[None]:
    """One read transaction: every read inside sees the same committed state (WAL: the writer goes on)."""
    src.execute("BEGIN")
    src.execute("SELECT count(*) FROM meta").fetchone()  # BEGIN is deferred: this read takes the snapshot
    try:
        yield
    finally:
        src.execute("COMMIT")


def _data_version(src: sqlite3.Connection) -> int:
    """Changes whenever another connection commits to the file (or checkpoints it): SQLite's `data_version`."""
    (version,) = src.execute("PRAGMA data_version").fetchone()
    return int(version)


def _sqlite_sequences(src: sqlite3.Connection) -> dict[str, int]:
    """The highest id each AUTOINCREMENT table ever handed out (deleted rows' included)."""
    return {str(name): int(seq) for name, seq in src.execute("SELECT name, seq FROM sqlite_sequence")}


def _source_rows(src: sqlite3.Connection, table: Table, columns: Sequence[str]) -> Iterator[tuple[Any, ...]]:
    """The table's rows, its engine rows left out, in primary-key order (BINARY collation: byte order)."""
    query = f"SELECT {', '.join(columns)} FROM {table.name}"  # noqa: S608 - names from TABLES and the catalog
    params: tuple[str, ...] = ()
    if table.engine_keys:
        query += f" WHERE {table.key[0]} NOT IN ({', '.join('?' * len(table.engine_keys))})"
        params = table.engine_keys
    query += f" ORDER BY {', '.join(table.key)}"
    yield from src.execute(query, params)


# -- the target ----------------------------------------------------------------------------


def _connect(dsn: str) -> PgConnection:
    """One connection (autocommit: each block is an explicit transaction); StoreError without the password."""
    try:
        given = "connect_timeout" in conninfo_to_dict(dsn)
        conninfo = make_conninfo(dsn, **({} if given else {"connect_timeout": str(round(CONNECT_TIMEOUT))}))
    except psycopg.Error as exc:
        raise StoreError(f"the target is not a valid PostgreSQL URL ({_detail(exc, dsn)})") from None
    try:
        return psycopg.connect(conninfo, autocommit=True)
    except psycopg.Error as exc:
        raise StoreError(f"cannot connect to {describe(dsn)}: {_detail(exc, dsn)}") from None


def _refuse_unless_empty(dst: PgConnection, where: str) -> None:
    """StoreError unless the target's schema holds no table: a copy never merges into, or replaces, anything."""
    row = dst.execute("SELECT current_schema()").fetchone()
    if row is None or row[0] is None:
        raise StoreError(f"the search_path of {where} names no schema to copy the store into")
    schema = str(row[0])
    found = [str(r[0]) for r in dst.execute("SELECT tablename FROM pg_tables WHERE schemaname = %s", (schema,))]
    if not found:
        return
    meta = _target_meta(dst) if "meta" in found else {}
    if meta.get("application") == APPLICATION:
        what = f"an agentmail-gateway store (store {meta.get('store_id', '?')}, domain {meta.get('domain', '?')})"
    else:
        what = f"{len(found)} table{'s' if len(found) > 1 else ''} ({', '.join(sorted(found)[:3])}…)"
    raise StoreError(
        f"{where} (schema {schema}) already holds {what}; `store copy` writes only into an empty database,"
        " never merging or overwriting: create a new one and copy into it"
    )


def _target_meta(dst: PgConnection) -> dict[str, str]:
    """The target's meta rows; empty when there is no meta table of our shape."""
    try:
        with dst.transaction():  # a savepoint: a foreign `meta` must not abort the caller's transaction
            return {str(k): str(v) for k, v in dst.execute("SELECT key, value FROM meta")}
    except (psycopg.errors.UndefinedTable, psycopg.errors.UndefinedColumn):
        return {}


def _columns(src: sqlite3.Connection, dst: PgConnection, table: Table) -> list[str]:
    """The table's columns in PostgreSQL's order; StoreError when the two schemas disagree (a bug of ours)."""
    theirs = [str(r[1]) for r in src.execute(f"PRAGMA table_info({table.name})")]
    ours = [
        str(r[0])
        for r in dst.execute(
            "SELECT column_name FROM information_schema.columns"
            " WHERE table_schema = current_schema() AND table_name = %s ORDER BY ordinal_position",
            (table.name,),
        )
    ]
    if set(theirs) != set(ours):
        raise StoreError(
            f"the table {table.name} has the columns {sorted(theirs)} in SQLite but {sorted(ours)} in PostgreSQL;"
            " this gateway's two schemas disagree, nothing was copied"
        )
    return ours


def _column_types(dst: PgConnection, table: Table, columns: Sequence[str]) -> list[str]:
    rows = dst.execute(
        "SELECT column_name, data_type FROM information_schema.columns"
        " WHERE table_schema = current_schema() AND table_name = %s",
        (table.name,),
    ).fetchall()
    types = {str(name): str(kind) for name, kind in rows}
    return [types[column] for column in columns]


def _write(src: sqlite3.Connection, dst: PgConnection, table: Table, columns: Sequence[str]) -> tuple[Digest, int]:
    """Stream the table's rows from the source into the target with COPY; their digest and the highest sequence id."""
    convert = [_CONVERTERS.get(kind, _as_is) for kind in _column_types(dst, table, columns)]
    at = columns.index(table.sequence) if table.sequence is not None else None
    digest, highest = _Digester(), 0
    statement = sql.SQL("COPY {} ({}) FROM STDIN").format(
        sql.Identifier(table.name), sql.SQL(", ").join(sql.Identifier(c) for c in columns)
    )
    # COPY writes identity columns as given (as INSERT … OVERRIDING SYSTEM VALUE would).
    with dst.cursor().copy(statement) as copy:
        for row in _source_rows(src, table, columns):
            digest.add(row)  # the source as it is, not as converted: a lossy conversion shows as a difference
            copy.write_row([fn(value) for fn, value in zip(convert, row, strict=True)])
            if at is not None and row[at] is not None:
                highest = max(highest, int(row[at]))
    return digest.result(), highest


def _target_digest(dst: PgConnection, table: Table, columns: Sequence[str]) -> Digest:
    """The table's rows as PostgreSQL holds them, in primary-key order (text keys are COLLATE "C": byte order)."""
    query = sql.SQL("SELECT {} FROM {}").format(
        sql.SQL(", ").join(sql.Identifier(c) for c in columns), sql.Identifier(table.name)
    )
    if table.engine_keys:
        query += sql.SQL(" WHERE {} <> ALL(%s)").format(sql.Identifier(table.key[0]))
    query += sql.SQL(" ORDER BY {}").format(sql.SQL(", ").join(sql.Identifier(c) for c in table.key))
    digest = _Digester()
    with dst.cursor(name=f"verify_{table.name}") as cur:  # server-side: a big table is not held in memory
        cur.execute(query, (list(table.engine_keys),) if table.engine_keys else None)
        for row in cur:
            digest.add(row)
    return digest.result()


def _detail(exc: BaseException, dsn: str) -> str:
    """A library error's text for one line of a message: credentials scrubbed, libpq's line breaks folded."""
    return " ".join(scrub(str(exc), dsn).split())


def _as_is(value: Any) -> Any:
    return value


def _as_bool(value: Any) -> Any:
    """SQLite keeps booleans as 0 and 1."""
    return value if value is None else bool(value)


def _as_float(value: Any) -> Any:
    """A REAL column may hand back an integer for a whole number."""
    return value if value is None else float(value)


_CONVERTERS: Final[dict[str, Callable[[Any], Any]]] = {"boolean": _as_bool, "double precision": _as_float}
"""PostgreSQL column type → how a SQLite value becomes its value (other types: as they are)."""


# -- checksums -----------------------------------------------------------------------------


class _Digester:
    """Counts rows and hashes their canonical rendering, one JSON array a line."""

    def __init__(self) -> None:
        self._hash = hashlib.sha256()
        self._rows = 0

    def add(self, row: Sequence[Any]) -> None:
        self._hash.update(json.dumps([_canonical(value) for value in row]).encode() + b"\n")
        self._rows += 1

    def result(self) -> Digest:
        return Digest(self._rows, self._hash.hexdigest())


def _canonical(value: Any) -> str | None:
    """One value the same on both engines: the type's letter and its exact text.

    Numbers are compared as numbers (SQLite's 1 and PostgreSQL's true, a REAL column's 5 and
    5.0), so only a changed value differs; text and bytes never equal a number or each other.
    """
    if value is None:
        return None
    if isinstance(value, bool):
        value = int(value)
    if isinstance(value, int):
        return f"n{value}"
    if isinstance(value, float):
        return f"n{int(value)}" if value.is_integer() else f"n{value!r}"
    if isinstance(value, str):
        return "s" + value
    if isinstance(value, bytes | bytearray | memoryview):
        return "b" + bytes(value).hex()
    raise StoreError(f"a value of type {type(value).__name__} has no canonical form (a bug of the copy)")
