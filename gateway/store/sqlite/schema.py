"""The SQLite files: the durable store (fails closed, upgraded in place with a backup) and the index (a cache).

Durable schema versions: 1 marks by copy id; 2 marks by message key, identities.reused and
fence; 3 ui_sessions; 4 the store seam's names (marks.message_key), marks kept after their
message left (marks.retired_at), claims and rate events; 5 sending: identities.send_scope,
tokens.send, the outbox and its delivery rows; 6 webhooks, their deliveries and attempt log.
An older gateway refuses a newer file; this one upgrades every older one in place, keeping
the file as it was beside it (`identities.db.v<N>.bak`, 0600) so the release that wrote it
can be gone back to.

Besides the schema version, `meta` holds the store's random `store_id` and the `domain` it is
bound to (both written at creation, or at the first start of a store made before them): its
identities are addresses at that domain, so a start with another AGENTMAIL_DOMAIN is refused.
These are meta rows and one more index, not a schema change: an older gateway reads the file.
"""

from __future__ import annotations

import logging
import os
import secrets
import sqlite3
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Final

from gateway.errors import StoreError
from gateway.fsutil import ensure_private_dir
from gateway.store.lineage import Binding

__all__ = ["DURABLE_VERSION", "INDEX_VERSION", "KeyLookup", "connect", "integrity_problems", "store_meta"]

log = logging.getLogger(__name__)

DURABLE_VERSION: Final = 6
INDEX_VERSION: Final = 12  # 3 codes and links; 4 deletion and retention indexes; 5 gone cursors; 6 seam names;
# 7 listings ordered by an insertion sequence (copies.seq), each copy's own grants kept (copies.grants_json);
# 8 a moved grant keeps its first copy's window (grants.origin_id, gone.origin_id);
# 9 sent copies (copies/grants/gone.direction) and threads (grants.thread_id, thread_refs, threads);
# 10 search (copies.from_keys/to_keys/subject_search/filenames/attachments, the FTS5 table `search`);
# 11 grants in index order over every address (grants_by_seq: /v1/events, the webhook feeder);
# 12 every message read again: the full address grammar's grants, one header block, codes and links with reasons
_LOG_CHECK_BYTES: Final = 64 * 2**20  # a store this big takes seconds to check: say so, or start-up looks hung
INDEX_SCHEMA: Final = "idx"  # the index file's name inside the one connection (spelt out in the SQL)
KeyLookup = Callable[[Sequence[str]], dict[str, str]]
"""Maps copy ids to message keys: how a version 1 store's marks are re-keyed."""


_DURABLE: Final = """
CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS identities (
    id INTEGER PRIMARY KEY AUTOINCREMENT,  -- never reused: marks and tokens hang on it
    local_part TEXT NOT NULL UNIQUE,
    created_at REAL NOT NULL,
    expires_at REAL,
    label TEXT,
    created_by TEXT,
    reused INTEGER NOT NULL DEFAULT 0,
    fence_generation TEXT,
    fence_id TEXT,
    send_scope TEXT NOT NULL DEFAULT 'local' CHECK (send_scope IN ('none', 'local', 'any'))
);
CREATE INDEX IF NOT EXISTS identities_by_creator ON identities (created_by, local_part);
CREATE TABLE IF NOT EXISTS tokens (
    id TEXT PRIMARY KEY,
    kind TEXT NOT NULL CHECK (kind IN ('admin', 'provision', 'identity')),
    hash TEXT NOT NULL UNIQUE,
    identity_id INTEGER REFERENCES identities (id) ON DELETE CASCADE,
    label TEXT,
    created_at REAL NOT NULL,
    send TEXT NOT NULL DEFAULT 'local' CHECK (send IN ('local', 'any'))  -- a provisioner's widest grant
);
CREATE INDEX IF NOT EXISTS tokens_by_identity ON tokens (identity_id);
CREATE TABLE IF NOT EXISTS quarantine (local_part TEXT PRIMARY KEY, until REAL NOT NULL);
CREATE TABLE IF NOT EXISTS marks (
    identity_id INTEGER NOT NULL REFERENCES identities (id) ON DELETE CASCADE,
    message_key TEXT NOT NULL,
    seen INTEGER NOT NULL DEFAULT 0,
    deleted INTEGER NOT NULL DEFAULT 0,
    retired_at REAL,  -- when the message's last copy left the mailbox (kept until retention)
    PRIMARY KEY (identity_id, message_key)
) WITHOUT ROWID;
"""
# Sessions of the /ui pages (version 3). `hash` is the SHA-256 of the random session id in
# the cookie, `token_hash` the hash of the token it was opened with: once that token is
# rotated or revoked no token row joins it, so the session is dead on its next request.
_V3: Final = """
CREATE TABLE IF NOT EXISTS ui_sessions (
    hash TEXT PRIMARY KEY,
    token_hash TEXT NOT NULL,
    created_at REAL NOT NULL,
    used_at REAL NOT NULL
) WITHOUT ROWID;
CREATE INDEX IF NOT EXISTS ui_sessions_by_token ON ui_sessions (token_hash);
"""
# Version 4: the seam's name for what marks hang on (an upgrade renames the column and drops
# version 3's index on it, which the rename would carry along as a duplicate)...
_V4_RENAME: Final = """
ALTER TABLE marks RENAME COLUMN message_id TO message_key;
ALTER TABLE marks ADD COLUMN retired_at REAL;
DROP INDEX IF EXISTS marks_by_message;
"""
# ...and what used to live in one process's memory.
_V4: Final = """
CREATE TABLE IF NOT EXISTS claims (
    identity_id INTEGER NOT NULL REFERENCES identities (id) ON DELETE CASCADE,
    message_key TEXT NOT NULL,
    until REAL NOT NULL,
    PRIMARY KEY (identity_id, message_key)
) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS rate_events (
    id INTEGER PRIMARY KEY,
    key TEXT NOT NULL,
    at REAL NOT NULL,
    expires REAL NOT NULL
);
CREATE INDEX IF NOT EXISTS rate_events_by_key ON rate_events (key, at);
CREATE INDEX IF NOT EXISTS rate_events_by_expiry ON rate_events (expires);
"""
# Version 5: sending. Existing identities and provisioners may send on our domain only.
_V5_COLUMNS: Final = """
ALTER TABLE identities ADD COLUMN send_scope TEXT NOT NULL DEFAULT 'local'
    CHECK (send_scope IN ('none', 'local', 'any'));
ALTER TABLE tokens ADD COLUMN send TEXT NOT NULL DEFAULT 'local' CHECK (send IN ('local', 'any'));
"""
# One row per accepted send (gateway/store/outbox.py). No foreign key to identities: the mail
# of an identity deleted meanwhile was accepted and still goes out. `raw` and `sent_copy` are
# NULL once it is finished; `claimed_until` is a worker's lease.
_V5: Final = """
CREATE TABLE IF NOT EXISTS outbox (
    id TEXT PRIMARY KEY,
    identity_id INTEGER NOT NULL,
    sender TEXT NOT NULL,
    message_key TEXT NOT NULL,
    message_id TEXT NOT NULL,
    raw BLOB,
    sent_copy BLOB,
    local_json TEXT NOT NULL,
    remote_json TEXT NOT NULL,
    created_at REAL NOT NULL,
    local_done INTEGER NOT NULL DEFAULT 0,
    copy_done INTEGER NOT NULL DEFAULT 0,
    attempts INTEGER NOT NULL DEFAULT 0,
    next_at REAL NOT NULL DEFAULT 0,
    claimed_until REAL NOT NULL DEFAULT 0,
    finished INTEGER NOT NULL DEFAULT 0
);
CREATE INDEX IF NOT EXISTS outbox_unfinished ON outbox (created_at, id) WHERE finished = 0;
CREATE INDEX IF NOT EXISTS outbox_by_identity ON outbox (identity_id, message_key);
CREATE TABLE IF NOT EXISTS deliveries (
    entry_id TEXT NOT NULL REFERENCES outbox (id) ON DELETE CASCADE,
    position INTEGER NOT NULL,  -- recipient order: local ones, then remote ones
    address TEXT NOT NULL,
    remote INTEGER NOT NULL,
    status TEXT NOT NULL CHECK (status IN ('pending', 'delivered', 'relayed', 'queued', 'failed')),
    detail TEXT,
    attempts INTEGER NOT NULL DEFAULT 0,
    updated_at REAL NOT NULL,
    PRIMARY KEY (entry_id, address)
) WITHOUT ROWID;
"""
# Version 6: webhooks (gateway/store/webhooks.py). A webhook goes with its identity or its
# provisioner token (revoking the token deletes its row); an admin webhook names neither.
# A delivery's `seq` is its place in the order of its (webhook, address); `head` marks the
# oldest queued delivery of each (webhook, address), the only one that may be due, kept by
# every write that changes what is queued (gateway/store/sqlite/webhooks.py), so a claim reads
# the heads and never a backlog. `claimed_until` is a worker's lease.
_V6: Final = """
CREATE TABLE IF NOT EXISTS webhooks (
    id TEXT PRIMARY KEY,
    scope TEXT NOT NULL CHECK (scope IN ('identity', 'provisioner', 'admin')),
    identity_id INTEGER REFERENCES identities (id) ON DELETE CASCADE,
    token_id TEXT REFERENCES tokens (id) ON DELETE CASCADE,
    url TEXT NOT NULL,
    events_json TEXT NOT NULL,
    description TEXT,
    signing TEXT NOT NULL CHECK (signing IN ('v1', 'v1a')),
    secret TEXT NOT NULL,
    public_key TEXT,
    created_at REAL NOT NULL,
    previous_secret TEXT,
    previous_until REAL,
    disabled_at REAL,
    disabled_reason TEXT,
    failing_since REAL,
    address TEXT,  -- an identity webhook's address, kept for reading (the identity row has the local part)
    CHECK ((identity_id IS NOT NULL) = (scope = 'identity')),
    CHECK ((token_id IS NOT NULL) = (scope = 'provisioner'))
);
CREATE INDEX IF NOT EXISTS webhooks_by_identity ON webhooks (identity_id) WHERE identity_id IS NOT NULL;
CREATE INDEX IF NOT EXISTS webhooks_by_token ON webhooks (token_id) WHERE token_id IS NOT NULL;
CREATE INDEX IF NOT EXISTS webhooks_by_scope ON webhooks (scope, created_at);
CREATE TABLE IF NOT EXISTS webhook_deliveries (
    seq INTEGER PRIMARY KEY AUTOINCREMENT,  -- enqueue order, never reused
    id TEXT NOT NULL UNIQUE,  -- the webhook-id header: the idempotency key
    webhook_id TEXT NOT NULL REFERENCES webhooks (id) ON DELETE CASCADE,
    address TEXT NOT NULL,
    event TEXT NOT NULL,
    payload BLOB NOT NULL,
    created_at REAL NOT NULL,
    status TEXT NOT NULL CHECK (status IN ('queued', 'delivered', 'failed')),
    attempts INTEGER NOT NULL DEFAULT 0,
    next_at REAL NOT NULL DEFAULT 0,
    last_code INTEGER,
    last_error TEXT,
    finished_at REAL,
    head INTEGER NOT NULL DEFAULT 0,
    claimed_until REAL NOT NULL DEFAULT 0
);
CREATE INDEX IF NOT EXISTS webhook_deliveries_queue ON webhook_deliveries (webhook_id, address, seq)
    WHERE status = 'queued';
CREATE INDEX IF NOT EXISTS webhook_deliveries_heads ON webhook_deliveries (webhook_id, address) WHERE head = 1;
CREATE INDEX IF NOT EXISTS webhook_deliveries_due ON webhook_deliveries (next_at) WHERE head = 1;
CREATE INDEX IF NOT EXISTS webhook_deliveries_leased ON webhook_deliveries (webhook_id, address, claimed_until)
    WHERE claimed_until > 0;
CREATE INDEX IF NOT EXISTS webhook_deliveries_listing ON webhook_deliveries (webhook_id, created_at, seq);
CREATE INDEX IF NOT EXISTS webhook_deliveries_finished ON webhook_deliveries (finished_at)
    WHERE finished_at IS NOT NULL;
CREATE TABLE IF NOT EXISTS webhook_attempts (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    delivery_id TEXT NOT NULL REFERENCES webhook_deliveries (id) ON DELETE CASCADE,
    at REAL NOT NULL,
    latency_ms REAL NOT NULL,
    status_code INTEGER,
    error TEXT,
    response_head TEXT NOT NULL
);
CREATE INDEX IF NOT EXISTS webhook_attempts_by_delivery ON webhook_attempts (delivery_id, id);
"""
_DURABLE_INDEXES: Final = """
-- A second, independent b-tree holding every name: the UNIQUE constraint's own index is one
-- structure, and one damaged page there (which quick_check does not see) would let a second
-- live identity take a name. Every insert must now get past both.
CREATE UNIQUE INDEX IF NOT EXISTS identities_name_guard ON identities (local_part);
CREATE INDEX IF NOT EXISTS marks_by_key ON marks (message_key);
CREATE INDEX IF NOT EXISTS marks_by_retirement ON marks (retired_at) WHERE retired_at IS NOT NULL;
"""

_INDEX: Final = """
CREATE TABLE IF NOT EXISTS {s}.meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
-- `seq` orders every listing, cursor and event replay: the order copies were indexed in, not
-- received in (two deliveries racing are indexed in either order; a cursor taken between
-- them must not skip the later-indexed one). AUTOINCREMENT: never reused, not even the
-- highest after a delete, so a removed copy's cursor never hides a new one.
CREATE TABLE IF NOT EXISTS {s}.copies (
    seq INTEGER PRIMARY KEY AUTOINCREMENT,
    copy_id TEXT NOT NULL UNIQUE,
    received_at REAL NOT NULL,
    size INTEGER NOT NULL,
    from_header TEXT NOT NULL,
    to_json TEXT NOT NULL,
    subject TEXT NOT NULL,
    from_fold TEXT NOT NULL,
    subject_fold TEXT NOT NULL,
    message_key TEXT NOT NULL,
    codes_json TEXT NOT NULL,
    links_json TEXT NOT NULL,
    grants_json TEXT NOT NULL,  -- every address this copy grants: a grant moves here when its copy leaves
    direction TEXT NOT NULL CHECK (direction IN ('received', 'sent')),
    participants_json TEXT NOT NULL,  -- From, To and Cc addresses (what a thread shows of it)
    depth INTEGER NOT NULL DEFAULT 0,  -- Message-IDs in its References chain: a thread's order within one second
    -- What `?q=` reads besides the text (gateway/mail/search.py SearchFields): folded forms and
    -- exact address keys (JSON lists, compared by equality), and the attachments that count.
    from_keys TEXT NOT NULL DEFAULT '[]',
    to_keys TEXT NOT NULL DEFAULT '[]',
    subject_search TEXT NOT NULL DEFAULT '',
    filenames TEXT NOT NULL DEFAULT '',
    attachments INTEGER NOT NULL DEFAULT 0
);
CREATE INDEX IF NOT EXISTS {s}.copies_by_key ON copies (message_key);
CREATE INDEX IF NOT EXISTS {s}.copies_by_time ON copies (received_at);
-- One row per address and message: the copy that address reads it through (its message id),
-- and what stays when the grant moves to another copy: its listing position and the window
-- an identity is judged by (received_at and origin_id, the id of the copy that first granted
-- it, which the IMAP fence compares), so a move never shows a re-created name older mail.
CREATE TABLE IF NOT EXISTS {s}.grants (
    address TEXT NOT NULL,
    message_key TEXT NOT NULL,
    copy_id TEXT NOT NULL,
    received_at REAL NOT NULL,
    seq INTEGER NOT NULL,
    origin_id TEXT NOT NULL,
    direction TEXT NOT NULL,  -- a sent and a received copy of one message are two grants
    thread_id TEXT NOT NULL,
    PRIMARY KEY (address, message_key, direction)
) WITHOUT ROWID;
CREATE INDEX IF NOT EXISTS {s}.grants_listing ON grants (address, seq);
CREATE INDEX IF NOT EXISTS {s}.grants_by_thread ON grants (address, thread_id);
CREATE INDEX IF NOT EXISTS {s}.grants_by_copy ON grants (copy_id);
CREATE INDEX IF NOT EXISTS {s}.grants_by_key ON grants (message_key);
-- Every address's grants in index order: the all-identities stream and the webhook feeder walk it.
CREATE INDEX IF NOT EXISTS {s}.grants_by_seq ON grants (seq, address);
-- Where removed copies sat in each address's listing: a deleted message stays a paging
-- cursor, and a copy of it delivered later (one per envelope recipient, possibly seconds
-- apart) grants nothing again. Pruned by retention.
CREATE TABLE IF NOT EXISTS {s}.gone (
    address TEXT NOT NULL,
    copy_id TEXT NOT NULL,
    received_at REAL NOT NULL,
    message_key TEXT NOT NULL,
    seq INTEGER NOT NULL,
    origin_id TEXT NOT NULL,
    direction TEXT NOT NULL,
    PRIMARY KEY (address, copy_id)
) WITHOUT ROWID;
CREATE INDEX IF NOT EXISTS {s}.gone_by_time ON gone (received_at);
CREATE INDEX IF NOT EXISTS {s}.gone_by_key ON gone (address, message_key);
-- Threads, per address (gateway/mail/threads.py): every Message-ID of a thread's chains names it,
-- and a thread's subject, activity and people let a message with no chain join by subject.
CREATE TABLE IF NOT EXISTS {s}.thread_refs (
    address TEXT NOT NULL,
    ref TEXT NOT NULL,
    thread_id TEXT NOT NULL,
    PRIMARY KEY (address, ref)
) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS {s}.threads (
    address TEXT NOT NULL,
    thread_id TEXT NOT NULL,
    subject TEXT NOT NULL,
    subject_norm TEXT NOT NULL,
    last_ts REAL NOT NULL,
    last_seq INTEGER NOT NULL,
    participants_json TEXT NOT NULL,
    PRIMARY KEY (address, thread_id)
) WITHOUT ROWID;
CREATE INDEX IF NOT EXISTS {s}.threads_by_subject ON threads (address, subject_norm, last_ts);
-- The folded text of each copy (rowid = copies.seq; none when it has no words), full-text
-- indexed: see gateway/store/sqlite/index.py for the tokenizer and how queries use it.
CREATE VIRTUAL TABLE IF NOT EXISTS {s}.search USING fts5(text, tokenize='unicode61 remove_diacritics 0');
"""


def connect(durable: Path, index: Path, *, binding: Binding, message_keys: KeyLookup | None) -> sqlite3.Connection:
    """One connection: the durable store checked (and upgraded), the index attached (rebuilt if bad)."""
    conn = _open_durable(durable, binding, message_keys)
    try:
        _check_index_file(index)
        conn.execute(f"ATTACH DATABASE ? AS {INDEX_SCHEMA}", (str(index),))
        conn.execute(f"PRAGMA {INDEX_SCHEMA}.journal_mode=WAL")
        conn.execute(f"PRAGMA {INDEX_SCHEMA}.synchronous=NORMAL")  # a cache: the mailbox is the truth
        tables = {r[0] for r in conn.execute("SELECT name FROM idx.sqlite_master WHERE type='table'")}
        if not tables:
            conn.executescript(_INDEX.format(s=INDEX_SCHEMA))
            conn.execute("INSERT INTO idx.meta VALUES ('schema_version', ?)", (str(INDEX_VERSION),))
    except sqlite3.Error as exc:
        conn.close()
        raise StoreError(f"the message index {index} cannot be opened ({exc}); refusing to start") from None
    except BaseException:
        conn.close()
        raise
    return conn


def _check_index_file(path: Path) -> None:
    """Leave a sound index of this version alone; delete anything else (a cache: never repair it).

    Only what the file *says* condemns it: a busy or locked file (a running gateway's, seen
    from the CLI) is left alone, since deleting a WAL database under its writer corrupts it.
    """
    ensure_private_dir(path.parent)
    if path.exists():
        try:
            probe = sqlite3.connect(path, isolation_level=None)
            try:
                ok = probe.execute("PRAGMA quick_check").fetchone()[0] == "ok"
                tables = {r[0] for r in probe.execute("SELECT name FROM sqlite_master WHERE type='table'")}
                version = None
                if "meta" in tables:
                    row = probe.execute("SELECT value FROM meta WHERE key='schema_version'").fetchone()
                    version = None if row is None else row[0]
                ok = ok and (not tables or version == str(INDEX_VERSION))
            finally:
                probe.close()
        except sqlite3.OperationalError:
            return  # busy, locked, unreadable right now: not evidence against the file
        except sqlite3.DatabaseError:
            ok = False  # not a database at all, or malformed
        if not ok:
            for suffix in ("", "-wal", "-shm"):
                Path(f"{path}{suffix}").unlink(missing_ok=True)
    if not path.exists():
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
        os.close(fd)


def integrity_problems(conn: sqlite3.Connection) -> list[str]:
    """What `PRAGMA integrity_check` finds wrong with the durable store (the first ten); empty when sound."""
    found = [str(r[0]) for r in conn.execute("PRAGMA main.integrity_check(10)")]
    return [] if found == ["ok"] else found


def store_meta(conn: sqlite3.Connection) -> dict[str, str]:
    """The durable store's meta rows (schema_version, store_id, domain)."""
    return {str(k): str(v) for k, v in conn.execute("SELECT key, value FROM main.meta")}


def _open_durable(path: Path, binding: Binding, message_keys: KeyLookup | None) -> sqlite3.Connection:
    """Open (or create) the durable store; StoreError when it is unreadable, corrupt, foreign, newer or not ours."""
    ensure_private_dir(path.parent)
    if path.is_symlink() and not path.exists():
        raise StoreError(f"identity store {path} is a link to nothing; refusing to start as if it were new")
    if not path.exists():
        if binding.may_create is not None:
            binding.may_create(str(path))  # a lost store is not replaced by an empty one
        _create(path, binding)
    elif path.stat().st_size == 0:
        # We never leave an empty file behind (see _create): someone truncated the store.
        raise StoreError(f"identity store {path} is empty; refusing to start as if it were new")
    elif path.stat().st_mode & 0o077:
        path.chmod(0o600)
    try:
        conn = sqlite3.connect(path, isolation_level=None, check_same_thread=False)
    except sqlite3.Error as exc:
        raise StoreError(f"identity store {path} cannot be opened ({exc}); refusing to start") from None
    try:
        # Check before changing anything: a store we refuse is left exactly as we found it.
        # The full check, not quick_check: only it compares every index with its table, and a
        # name the UNIQUE index has lost would let a second identity take it.
        conn.execute("PRAGMA busy_timeout=5000")
        if path.stat().st_size >= _LOG_CHECK_BYTES:  # about 7 s per million identities (README)
            log.info("checking the identity store %s (%d MiB) before anything starts", path, path.stat().st_size >> 20)
        problems = integrity_problems(conn)
        if problems:
            raise StoreError(
                f"identity store {path} failed its integrity check ({'; '.join(problems[:3])});"
                " refusing to start. Restore it from a backup"
            )
        version = _version(conn, path)
        if version is None:
            raise StoreError(f"identity store {path} has no tables: not a store this gateway made")
        if version > DURABLE_VERSION:
            raise StoreError(
                f"identity store {path} has schema version {version}, this gateway reads {DURABLE_VERSION}"
                " (it was written by a newer gateway)"
            )
        _check_domain(conn, path, binding)
        if version < DURABLE_VERSION:
            # The release that wrote it refuses the upgraded file: keep it as it was, to go back to.
            _backup(conn, path.with_name(f"{path.name}.v{version}.bak"))
        if version == 1:
            _upgrade_marks(conn, message_keys)
            version = 2
        if version == 2:
            _script(conn, _V3, 3)
            version = 3
        if version == 3:
            _script(conn, _V4_RENAME + _V4, 4)
            version = 4
        if version == 4:
            _script(conn, _V5_COLUMNS + _V5, 5)
            version = 5
        if version == 5:
            _script(conn, _V6, 6)
            version = 6
        if version != DURABLE_VERSION:
            raise StoreError(
                f"identity store {path} has schema version {version}, this gateway reads {DURABLE_VERSION}"
            )
        conn.execute("PRAGMA journal_mode=WAL")
        conn.execute("PRAGMA synchronous=FULL")  # identities are not rebuildable
        conn.execute("PRAGMA foreign_keys=ON")
        conn.executescript(_DURABLE_INDEXES)  # indexes added since the schema version: idempotent
        _stamp(conn, binding)
    except sqlite3.IntegrityError as exc:
        conn.close()
        raise StoreError(
            f"identity store {path} holds two identities with one name ({exc}); refusing to start."
            " Restore it from a backup"
        ) from None
    except sqlite3.Error as exc:
        conn.close()
        raise StoreError(f"identity store {path} is unreadable or corrupt ({exc}); refusing to start") from None
    except BaseException:
        conn.close()
        raise
    return conn


def _create(path: Path, binding: Binding) -> None:
    """A new, complete store, built aside and renamed into place: a crash leaves no half store."""
    tmp = path.with_name(f".{path.name}.new")
    tmp.unlink(missing_ok=True)
    os.close(os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600))
    conn = sqlite3.connect(tmp, isolation_level=None)
    try:
        conn.executescript(_DURABLE + _V3 + _V4 + _V5 + _V6 + _DURABLE_INDEXES)
        conn.execute("INSERT INTO meta VALUES ('schema_version', ?)", (str(DURABLE_VERSION),))
        _stamp(conn, binding)
    finally:
        conn.close()
    for suffix in ("-wal", "-shm"):
        # A log outliving its database would be replayed into the new one: set it aside, unread.
        stale = Path(f"{path}{suffix}")
        if stale.exists():
            os.replace(stale, stale.with_name(f"{stale.name}.orphaned-{int(time.time())}"))
    os.replace(tmp, path)


def _check_domain(conn: sqlite3.Connection, path: Path, binding: Binding) -> None:
    """StoreError when the store is bound to another domain than the one configured (reads only)."""
    bound = store_meta(conn).get("domain")
    if bound is not None and bound != binding.domain and not binding.adopt_domain:
        raise StoreError(
            f"identity store {path} belongs to the domain {bound} (its identities are addresses there),"
            f" but AGENTMAIL_DOMAIN is {binding.domain}; set AGENTMAIL_DOMAIN={bound}, or use another"
            " data directory for the other domain"
        )


def _stamp(conn: sqlite3.Connection, binding: Binding) -> None:
    """Give the store its id and bind it to the domain, if it has neither yet (its first start)."""
    rows = [("store_id", secrets.token_hex(16))]
    if not binding.adopt_domain:
        rows.append(("domain", binding.domain))
    conn.executemany("INSERT INTO meta (key, value) VALUES (?, ?) ON CONFLICT (key) DO NOTHING", rows)


def _backup(conn: sqlite3.Connection, target: Path) -> None:
    """A consistent copy of the store (0600) before an upgrade changes it for good."""
    target.unlink(missing_ok=True)
    os.close(os.open(target, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600))
    copy = sqlite3.connect(target)
    try:
        conn.backup(copy)
    finally:
        copy.close()


def _script(conn: sqlite3.Connection, sql: str, version: int) -> None:
    """Run an upgrade step to `version` in one transaction."""
    try:
        stamp = f"UPDATE meta SET value = '{version:d}' WHERE key = 'schema_version';"  # noqa: S608 - an int
        conn.executescript(f"BEGIN IMMEDIATE;{sql}{stamp}COMMIT;")
    except BaseException:
        if conn.in_transaction:
            conn.execute("ROLLBACK")
        raise


def _upgrade_marks(conn: sqlite3.Connection, message_keys: KeyLookup | None) -> None:
    """Version 1 → 2: marks re-keyed from copy ids to message keys (unmappable ones belong to gone mail)."""
    rows = conn.execute("SELECT identity_id, message_id, seen, deleted FROM marks").fetchall()
    keys = message_keys([str(r[1]) for r in rows]) if message_keys is not None and rows else {}
    merged: dict[tuple[int, str], tuple[int, int]] = {}
    for identity_id, copy_id, seen, deleted in rows:
        key = keys.get(str(copy_id))
        if key is not None:
            old_seen, old_deleted = merged.get((int(identity_id), key), (0, 0))
            merged[(int(identity_id), key)] = (max(old_seen, int(seen)), max(old_deleted, int(deleted)))
    conn.execute("BEGIN IMMEDIATE")
    try:
        conn.execute("ALTER TABLE identities ADD COLUMN reused INTEGER NOT NULL DEFAULT 0")
        conn.execute("ALTER TABLE identities ADD COLUMN fence_generation TEXT")
        conn.execute("ALTER TABLE identities ADD COLUMN fence_id TEXT")
        conn.execute("DELETE FROM marks")
        conn.executemany(
            "INSERT INTO marks (identity_id, message_id, seen, deleted) VALUES (?, ?, ?, ?)",
            [(i, k, seen, deleted) for (i, k), (seen, deleted) in merged.items()],
        )
        conn.execute("UPDATE meta SET value = '2' WHERE key = 'schema_version'")
        conn.execute("COMMIT")
    except BaseException:
        conn.execute("ROLLBACK")
        raise


def _version(conn: sqlite3.Connection, path: Path) -> int | None:
    tables = {r[0] for r in conn.execute("SELECT name FROM sqlite_master WHERE type='table'")}
    if not tables:
        return None
    if "meta" not in tables:
        raise StoreError(f"identity store {path} has tables but no schema version: not ours; refusing to start")
    row = conn.execute("SELECT value FROM meta WHERE key='schema_version'").fetchone()
    if row is None:
        raise StoreError(f"identity store {path} has no schema version; refusing to start")
    try:
        return int(row[0])
    except ValueError:
        raise StoreError(f"identity store {path} has an unreadable schema version {row[0]!r}") from None
