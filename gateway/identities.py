"""The durable store: identities, hashed tokens, quarantined names and per-identity marks.

Everything here is what the mailbox cannot give back: losing it loses access, so the store
fails closed (a corrupt or unreadable file stops start-up) and is never replaced by an empty
one. Tokens are `am_` + 24 random bytes (base64url); only their SHA-256 is stored.
"""

from __future__ import annotations

import hashlib
import hmac
import os
import secrets
import sqlite3
import string
import time
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Final, Literal

from gateway.errors import Conflict, InvalidInput, NotFound, StoreError, Unauthorized
from gateway.fsutil import ensure_private_dir
from gateway.names import check_local_part, random_local_part

__all__ = [
    "ApiToken",
    "Identity",
    "IdentityStore",
    "Marks",
    "Principal",
    "hash_token",
    "new_token",
]

# ASCII only, as in mail/recipients.py: Unicode lowercasing folds KELVIN SIGN into "k".
_ASCII_LOWER: Final = str.maketrans(string.ascii_uppercase, string.ascii_lowercase)
MAX_TOKEN_CHARS: Final = 256  # longer bearer tokens are refused unread
TOKEN_PREFIX: Final = "am_"  # noqa: S105 - a prefix, not a secret
SCHEMA_VERSION: Final = 3  # 2: marks keyed by message key, not by mailbox copy id; identities.reused; 3: ui_sessions
KeyLookup = Callable[[Sequence[str]], dict[str, str]]  # mailbox copy ids -> message keys
_RANDOM_NAME_TRIES: Final = 8  # 41 bits per name: a clash even once is already unlikely
_SESSION_TOUCH_SECONDS: Final = 60.0  # a session's last use is written at most this often (each write is fsync'd)

_SCHEMA: Final = """
CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS identities (
    id INTEGER PRIMARY KEY AUTOINCREMENT,  -- never reused: marks and tokens hang on it
    local_part TEXT NOT NULL UNIQUE,
    created_at REAL NOT NULL,
    expires_at REAL,
    label TEXT,
    created_by TEXT,
    reused INTEGER NOT NULL DEFAULT 0,  -- the name had an earlier owner (see Identity.reused)
    fence_generation TEXT,  -- see Identity.fence
    fence_id TEXT
);
CREATE INDEX IF NOT EXISTS identities_by_creator ON identities (created_by, local_part);
CREATE TABLE IF NOT EXISTS tokens (
    id TEXT PRIMARY KEY,
    kind TEXT NOT NULL CHECK (kind IN ('admin', 'provision', 'identity')),
    hash TEXT NOT NULL UNIQUE,
    identity_id INTEGER REFERENCES identities (id) ON DELETE CASCADE,
    label TEXT,
    created_at REAL NOT NULL
);
CREATE INDEX IF NOT EXISTS tokens_by_identity ON tokens (identity_id);
CREATE TABLE IF NOT EXISTS quarantine (local_part TEXT PRIMARY KEY, until REAL NOT NULL);
-- message_id holds the message key (index dedupe key): stable across the copies of one
-- message and across a mailbox's new UIDVALIDITY, so marks outlive any index rebuild.
CREATE TABLE IF NOT EXISTS marks (
    identity_id INTEGER NOT NULL REFERENCES identities (id) ON DELETE CASCADE,
    message_id TEXT NOT NULL,
    seen INTEGER NOT NULL DEFAULT 0,
    deleted INTEGER NOT NULL DEFAULT 0,
    PRIMARY KEY (identity_id, message_id)
) WITHOUT ROWID;
"""
# Added in schema version 3, so also the whole of the upgrade from version 2.
_UI_SESSIONS: Final = """
-- Sessions of the /ui pages. `hash` is the SHA-256 of the random session id in the cookie
-- (the id itself is never stored), and `token_hash` is the hash of the token the session was
-- opened with: once that token is rotated or revoked no token row joins it, so the session
-- is dead on its next request whatever else happens to the row.
CREATE TABLE IF NOT EXISTS ui_sessions (
    hash TEXT PRIMARY KEY,
    token_hash TEXT NOT NULL,
    created_at REAL NOT NULL,
    used_at REAL NOT NULL
) WITHOUT ROWID;
CREATE INDEX IF NOT EXISTS ui_sessions_by_token ON ui_sessions (token_hash);
"""
_SCHEMA_VERSION_3: Final = "UPDATE meta SET value = '3' WHERE key = 'schema_version';"
_IDENTITY_COLUMNS: Final = (
    "id, local_part, created_at, expires_at, label, created_by, reused, fence_generation, fence_id"
)
_INDEXES: Final = """
CREATE INDEX IF NOT EXISTS marks_by_message ON marks (message_id);
"""


def new_token() -> str:
    """A fresh bearer token: `am_` + 24 random bytes, base64url."""
    return TOKEN_PREFIX + secrets.token_urlsafe(24)


def hash_token(token: str) -> str:
    """SHA-256 hex of a token: the only form the store keeps."""
    return hashlib.sha256(token.encode("utf-8", "surrogatepass")).hexdigest()


def _utc(ts: float | None) -> datetime | None:
    return None if ts is None else datetime.fromtimestamp(ts, UTC)


@dataclass(frozen=True, slots=True)
class Identity:
    """An address and its lifetime; the token lives in the tokens table, hashed."""

    id: int
    address: str
    local_part: str
    created_ts: float
    expires_ts: float | None
    label: str | None
    created_by: str | None
    """Id of the provisioner token that made it, or None when the admin did."""
    reused: bool = False
    """The name had an earlier owner: without a fence, mail from the very second of creation
    is not shown when the source's times are that coarse (IMAP's whole seconds)."""
    fence: tuple[str, str] | None = None
    """(source generation, id): in that generation, the identity sees exactly the copies whose
    ids sort at or after the id (IMAP: UIDNEXT at creation). Finer than whole-second times."""

    @property
    def created_at(self) -> datetime:
        return datetime.fromtimestamp(self.created_ts, UTC)

    @property
    def expires_at(self) -> datetime | None:
        return _utc(self.expires_ts)

    def expired(self, now: float) -> bool:
        """True once its TTL has run out: it no longer authenticates nor matches mail."""
        return self.expires_ts is not None and now >= self.expires_ts


@dataclass(frozen=True, slots=True)
class ApiToken:
    """An admin or provisioner token's public record (never the token)."""

    id: str
    kind: Literal["admin", "provision"]
    label: str | None
    created_ts: float

    @property
    def created_at(self) -> datetime:
        return datetime.fromtimestamp(self.created_ts, UTC)


@dataclass(frozen=True, slots=True)
class Principal:
    """Who is calling: the admin, a provisioner (by token id) or one identity."""

    kind: Literal["admin", "provisioner", "identity"]
    token_id: str
    identity: Identity | None = None


@dataclass(frozen=True, slots=True)
class Marks:
    """One identity's marks on the messages it sees."""

    seen: frozenset[str]
    deleted: frozenset[str]


class IdentityStore:
    """SQLite (WAL) store of identities, tokens, quarantine and marks. One per process."""

    def __init__(
        self,
        conn: sqlite3.Connection,
        *,
        domain: str,
        reserved: Iterable[str],
        quarantine_seconds: float,
        clock: Callable[[], float] = time.time,
    ) -> None:
        self._db = conn
        self.domain = domain
        self._reserved = frozenset(reserved)
        self._quarantine = quarantine_seconds
        self._clock = clock

    @classmethod
    def open(
        cls,
        path: Path,
        *,
        domain: str,
        reserved: Iterable[str] = (),
        quarantine_seconds: float = 7 * 86400.0,
        clock: Callable[[], float] = time.time,
        message_keys: KeyLookup | None = None,
    ) -> IdentityStore:
        """Open (or create) the store at `path`; StoreError when it is unreadable or corrupt.

        `message_keys` maps mailbox copy ids to message keys: it upgrades a version 1 store,
        whose marks were keyed by copy id (marks it cannot map belong to mail that is gone).
        The version 1 file is kept beside it as `<name>.v1.bak`.
        """
        ensure_private_dir(path.parent)
        if not path.exists():
            cls._create(path)
        elif path.stat().st_size == 0:
            # We never leave an empty file behind (see _create): someone truncated the store.
            raise StoreError(f"identity store {path} is empty; refusing to start as if it were new")
        elif path.stat().st_mode & 0o077:
            path.chmod(0o600)
        try:
            conn = sqlite3.connect(path, isolation_level=None)
        except sqlite3.Error as exc:
            raise StoreError(f"identity store {path} cannot be opened ({exc}); refusing to start") from None
        try:
            # Check before changing anything: a store we refuse is left exactly as we found it.
            conn.execute("PRAGMA busy_timeout=5000")
            check = conn.execute("PRAGMA quick_check").fetchone()
            if check is None or check[0] != "ok":
                raise StoreError(f"identity store {path} failed its integrity check: {check}")
            version = cls._schema_version(conn)
            if version is None:
                raise StoreError(f"identity store {path} has no tables: not a store this gateway made")
            if version == 1:
                backup = path.with_name(f"{path.name}.v1.bak")
                cls._backup(conn, backup)
                cls._upgrade_marks(conn, message_keys)
                version = 2
            if version == 2:
                cls._add_ui_sessions(conn)  # a new table only: nothing to back up
                version = 3
            if version != SCHEMA_VERSION:
                raise StoreError(
                    f"identity store {path} has schema version {version}, this gateway reads {SCHEMA_VERSION}"
                )
            conn.execute("PRAGMA journal_mode=WAL")
            conn.execute("PRAGMA synchronous=FULL")  # identities are not rebuildable
            conn.execute("PRAGMA foreign_keys=ON")
            conn.executescript(_INDEXES)  # indexes added since the schema version: idempotent
        except sqlite3.Error as exc:
            conn.close()
            raise StoreError(f"identity store {path} is unreadable or corrupt ({exc}); refusing to start") from None
        except BaseException:
            conn.close()
            raise
        return cls(conn, domain=domain, reserved=reserved, quarantine_seconds=quarantine_seconds, clock=clock)

    @staticmethod
    def _create(path: Path) -> None:
        """A new, complete store, built aside and renamed into place: a crash leaves no half store."""
        tmp = path.with_name(f".{path.name}.new")
        tmp.unlink(missing_ok=True)
        fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
        os.close(fd)
        conn = sqlite3.connect(tmp, isolation_level=None)
        try:
            conn.executescript(_SCHEMA + _UI_SESSIONS + _INDEXES)
            conn.execute("INSERT INTO meta VALUES ('schema_version', ?)", (str(SCHEMA_VERSION),))
        finally:
            conn.close()
        os.replace(tmp, path)

    @staticmethod
    def _backup(conn: sqlite3.Connection, target: Path) -> None:
        """A consistent copy of the store (0600) before an upgrade changes it for good."""
        target.unlink(missing_ok=True)
        os.close(os.open(target, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600))
        copy = sqlite3.connect(target)
        try:
            conn.backup(copy)
        finally:
            copy.close()

    @staticmethod
    def _upgrade_marks(conn: sqlite3.Connection, message_keys: KeyLookup | None) -> None:
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

    @staticmethod
    def _add_ui_sessions(conn: sqlite3.Connection) -> None:
        """Version 2 → 3: the /ui session table."""
        try:
            conn.executescript(f"BEGIN IMMEDIATE;{_UI_SESSIONS}{_SCHEMA_VERSION_3}COMMIT;")
        except BaseException:
            if conn.in_transaction:
                conn.execute("ROLLBACK")
            raise

    @staticmethod
    def _schema_version(conn: sqlite3.Connection) -> int | None:
        tables = {r[0] for r in conn.execute("SELECT name FROM sqlite_master WHERE type='table'")}
        if not tables:
            return None
        if "meta" not in tables:
            raise StoreError("identity store has tables but no schema version: not ours")
        row = conn.execute("SELECT value FROM meta WHERE key='schema_version'").fetchone()
        if row is None:
            raise StoreError("identity store has no schema version")
        try:
            return int(row[0])
        except ValueError:
            raise StoreError(f"identity store has an unreadable schema version {row[0]!r}") from None

    def close(self) -> None:
        """Close the database connection."""
        self._db.close()

    # --- authentication -------------------------------------------------------------

    def authenticate(self, token: str) -> Principal:
        """The principal a bearer token stands for; Unauthorized when it stands for none."""
        digest = hash_token(token)
        row = self._db.execute("SELECT id, kind, hash, identity_id FROM tokens WHERE hash = ?", (digest,)).fetchone()
        # The lookup is by hash (which leaks nothing about the token); compare in constant
        # time anyway so no path ever compares secrets with `==`.
        if row is None or not hmac.compare_digest(row[2], digest):
            raise Unauthorized("unknown or revoked token")
        principal = self._principal(row[0], row[1], row[3])
        if principal is None:
            raise Unauthorized("unknown, revoked or expired token")
        return principal

    def _principal(self, token_id: str, kind: str, identity_id: int | None) -> Principal | None:
        """Who a token row stands for; None for an identity that is gone or expired."""
        if kind == "admin":
            return Principal("admin", token_id)
        if kind == "provision":
            return Principal("provisioner", token_id)
        identity = None if identity_id is None else self._identity_by_id(identity_id)
        if identity is None or identity.expired(self._clock()):
            return None
        return Principal("identity", token_id, identity)

    # --- /ui sessions ---------------------------------------------------------------

    def add_ui_session(self, session_hash: str, token: str, *, keep: int | None = None) -> None:
        """Record a /ui session (by the hash of its id) opened with `token`, already authenticated.

        The session lives exactly as long as that token does, and no longer than the limits
        `ui_session` is asked with. With `keep`, the token holds at most that many sessions:
        the least recently used beyond it end now (the new one always stays).
        """
        now = self._clock()
        token_hash = hash_token(token)
        with self._tx():
            self._db.execute(
                "INSERT INTO ui_sessions (hash, token_hash, created_at, used_at) VALUES (?, ?, ?, ?)",
                (session_hash, token_hash, now, now),
            )
            if keep is not None:
                self._db.execute(
                    "DELETE FROM ui_sessions WHERE token_hash = ? AND hash != ? AND hash NOT IN"
                    " (SELECT hash FROM ui_sessions WHERE token_hash = ? AND hash != ?"
                    "  ORDER BY used_at DESC, created_at DESC LIMIT ?)",
                    (token_hash, session_hash, token_hash, session_hash, max(keep - 1, 0)),
                )

    def ui_session(self, session_hash: str, *, max_age: float, idle: float) -> Principal | None:
        """Who the /ui session is, or None when it is unknown, too old, idle too long, or its
        token was rotated or revoked (or its identity deleted or expired); a dead one is removed.
        """
        # Looked up by hash, like a token: the hash of a 256-bit random id leaks nothing.
        row = self._db.execute(
            "SELECT s.created_at, s.used_at, t.id, t.kind, t.identity_id"
            " FROM ui_sessions s LEFT JOIN tokens t ON t.hash = s.token_hash WHERE s.hash = ?",
            (session_hash,),
        ).fetchone()
        if row is None:
            return None
        created, used, token_id, kind, identity_id = row
        now = self._clock()
        principal = None
        if token_id is not None and now - created < max_age and now - used < idle:
            principal = self._principal(token_id, kind, identity_id)
        if principal is None:
            self._db.execute("DELETE FROM ui_sessions WHERE hash = ?", (session_hash,))
            return None
        if now - used >= _SESSION_TOUCH_SECONDS:
            self._db.execute("UPDATE ui_sessions SET used_at = ? WHERE hash = ?", (now, session_hash))
        return principal

    def delete_ui_session(self, session_hash: str) -> None:
        """End one /ui session (logout); nothing happens when it is already gone."""
        self._db.execute("DELETE FROM ui_sessions WHERE hash = ?", (session_hash,))

    def prune_ui_sessions(self, *, max_age: float, idle: float) -> int:
        """Remove every /ui session that can no longer be used; returns how many."""
        now = self._clock()
        cur = self._db.execute(
            "DELETE FROM ui_sessions WHERE created_at <= ? OR used_at <= ?"
            " OR NOT EXISTS (SELECT 1 FROM tokens t WHERE t.hash = ui_sessions.token_hash)",
            (now - max_age, now - idle),
        )
        return cur.rowcount

    # --- admin and provisioner tokens -----------------------------------------------

    def admin_token_origin(self) -> Literal["configured", "generated"] | None:
        """Where the stored admin token came from, or None when there is none."""
        row = self._db.execute("SELECT label FROM tokens WHERE kind='admin'").fetchone()
        if row is None:
            return None
        return "configured" if row[0] == "configured" else "generated"

    def set_admin_token(self, token: str, *, origin: Literal["configured", "generated"]) -> None:
        """Make `token` the one admin token (replacing any other, and ending the other's /ui sessions)."""
        with self._tx():
            self._db.execute(
                "DELETE FROM ui_sessions WHERE token_hash IN"
                " (SELECT hash FROM tokens WHERE kind='admin' AND hash != ?)",
                (hash_token(token),),
            )
            self._db.execute("DELETE FROM tokens WHERE kind='admin'")
            self._db.execute(
                "INSERT INTO tokens (id, kind, hash, label, created_at) VALUES ('admin', 'admin', ?, ?, ?)",
                (hash_token(token), origin, self._clock()),
            )

    def create_api_token(self, label: str | None = None) -> tuple[ApiToken, str]:
        """A new provisioner token: its record and the plaintext (shown once)."""
        token = new_token()
        record = ApiToken(f"tok_{secrets.token_hex(8)}", "provision", label, self._clock())
        self._db.execute(
            "INSERT INTO tokens (id, kind, hash, label, created_at) VALUES (?, 'provision', ?, ?, ?)",
            (record.id, hash_token(token), label, record.created_ts),
        )
        return record, token

    def list_api_tokens(self) -> list[ApiToken]:
        """Every provisioner token's record, oldest first."""
        rows = self._db.execute(
            "SELECT id, label, created_at FROM tokens WHERE kind='provision' ORDER BY created_at"
        ).fetchall()
        return [ApiToken(r[0], "provision", r[1], r[2]) for r in rows]

    def delete_api_token(self, token_id: str) -> None:
        """Revoke a provisioner token at once; its identities stay."""
        cur = self._db.execute("DELETE FROM tokens WHERE id = ? AND kind='provision'", (token_id,))
        if cur.rowcount == 0:
            raise NotFound("no such token")

    # --- identities -----------------------------------------------------------------

    def create_identity(
        self,
        local_part: str | None = None,
        *,
        ttl_seconds: float | None = None,
        label: str | None = None,
        created_by: str | None = None,
        force: bool = False,
        fence: tuple[str, str] | None = None,
    ) -> tuple[Identity, str]:
        """A new identity and its token (plaintext, returned only here).

        Conflict when the name is taken or quarantined; `force` (admin only) overrides a
        quarantine, never a live identity.
        """
        if ttl_seconds is not None and ttl_seconds <= 0:
            raise InvalidInput("ttl_seconds must be positive")
        now = self._clock()
        expires = None if ttl_seconds is None else now + ttl_seconds
        with self._tx():
            if local_part is None:
                for _ in range(_RANDOM_NAME_TRIES):
                    local = random_local_part()
                    try:
                        reused = self._claim_name(local, now, force=False)
                        break
                    except Conflict:
                        continue
                else:
                    raise Conflict("could not find a free random name; try again")
            else:
                local = check_local_part(local_part, reserved=self._reserved)
                reused = self._claim_name(local, now, force=force)
            cur = self._db.execute(
                "INSERT INTO identities (local_part, created_at, expires_at, label, created_by, reused,"
                " fence_generation, fence_id) VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
                (local, now, expires, label, created_by, int(reused), *(fence or (None, None))),
            )
            identity_id = cur.lastrowid
            assert identity_id is not None
            token = new_token()
            self._db.execute(
                "INSERT INTO tokens (id, kind, hash, identity_id, created_at) VALUES (?, 'identity', ?, ?, ?)",
                (f"id_{identity_id}", hash_token(token), identity_id, now),
            )
        identity = Identity(
            identity_id, f"{local}@{self.domain}", local, now, expires, label, created_by, reused, fence
        )
        return identity, token

    def _claim_name(self, local: str, now: float, *, force: bool) -> bool:
        """Clear the way for `local` (True if it had an earlier owner), or raise Conflict; in a transaction."""
        row = self._db.execute("SELECT id, expires_at FROM identities WHERE local_part = ?", (local,)).fetchone()
        if row is not None:
            expires = row[1]
            if expires is None or now < expires:
                raise Conflict(f"{local}@{self.domain} is taken")
            # Expired: the name is quarantined from its expiry, like a deleted one.
            self._retire(row[0], local, expires)
        until = self._db.execute("SELECT until FROM quarantine WHERE local_part = ?", (local,)).fetchone()
        if until is not None and now < until[0] and not force:
            raise Conflict(
                f"{local}@{self.domain} was in use until recently and is quarantined until "
                f"{_utc(until[0]):%Y-%m-%dT%H:%M:%SZ} so its old mail reaches nobody new;"
                " the admin may pass force"
            )
        self._db.execute("DELETE FROM quarantine WHERE local_part = ?", (local,))
        return until is not None

    def _retire(self, identity_id: int, local: str, since: float) -> None:
        self._end_ui_sessions(identity_id)
        self._db.execute("DELETE FROM identities WHERE id = ?", (identity_id,))
        self._db.execute(
            "INSERT INTO quarantine (local_part, until) VALUES (?, ?)"
            " ON CONFLICT (local_part) DO UPDATE SET until = max(until, excluded.until)",
            (local, since + self._quarantine),
        )

    def _end_ui_sessions(self, identity_id: int) -> None:
        self._db.execute(
            "DELETE FROM ui_sessions WHERE token_hash IN"
            " (SELECT hash FROM tokens WHERE identity_id = ? AND kind='identity')",
            (identity_id,),
        )

    def get_identity(self, address: str) -> Identity:
        """The live identity at `address`; NotFound when none (or it has expired)."""
        identity = self.find_identity(address)
        if identity is None or identity.expired(self._clock()):
            raise NotFound("no such identity")
        return identity

    def find_identity(self, address: str) -> Identity | None:
        """The identity row at `address`, expired or not, or None."""
        local, _, domain = address.translate(_ASCII_LOWER).rpartition("@")
        if domain != self.domain:
            return None
        row = self._db.execute(
            f"SELECT {_IDENTITY_COLUMNS} FROM identities WHERE local_part = ?",  # noqa: S608 - constant columns
            (local,),
        ).fetchone()
        return None if row is None else self._row_to_identity(row)

    def _identity_by_id(self, identity_id: int) -> Identity | None:
        row = self._db.execute(
            f"SELECT {_IDENTITY_COLUMNS} FROM identities WHERE id = ?",  # noqa: S608 - constant columns
            (identity_id,),
        ).fetchone()
        return None if row is None else self._row_to_identity(row)

    def _row_to_identity(self, row: Sequence[object]) -> Identity:
        local = str(row[1])
        return Identity(
            int(row[0]),  # type: ignore[call-overload]
            f"{local}@{self.domain}",
            local,
            float(row[2]),  # type: ignore[arg-type]
            None if row[3] is None else float(row[3]),  # type: ignore[arg-type]
            None if row[4] is None else str(row[4]),
            None if row[5] is None else str(row[5]),
            bool(row[6]),
            None if row[7] is None else (str(row[7]), str(row[8])),
        )

    def list_identities(
        self, *, created_by: str | None = None, after: str | None = None, limit: int = 100
    ) -> list[Identity]:
        """Identities by address, after the local part `after`; only `created_by`'s when given."""
        sql = f"SELECT {_IDENTITY_COLUMNS} FROM identities WHERE 1=1"  # noqa: S608 - constant columns
        args: list[object] = []
        if created_by is not None:
            sql += " AND created_by = ?"
            args.append(created_by)
        if after is not None:
            sql += " AND local_part > ?"
            args.append(after.lower().partition("@")[0])
        sql += " ORDER BY local_part LIMIT ?"
        args.append(limit)
        return [self._row_to_identity(r) for r in self._db.execute(sql, args)]

    def rotate(self, identity: Identity) -> str:
        """A new token for `identity`; the old one stops working at once, its /ui sessions too."""
        token = new_token()
        with self._tx():
            # The sessions would fail their token check anyway; deleting them keeps no dead rows.
            self._end_ui_sessions(identity.id)
            cur = self._db.execute(
                "UPDATE tokens SET hash = ? WHERE identity_id = ? AND kind='identity'",
                (hash_token(token), identity.id),
            )
            if cur.rowcount == 0:
                raise NotFound("no such identity")
        return token

    def delete_identity(self, identity: Identity) -> None:
        """Remove `identity`, its token and marks; its name is quarantined."""
        with self._tx():
            self._retire(identity.id, identity.local_part, self._clock())

    # --- marks ----------------------------------------------------------------------

    def marks(self, identity: Identity) -> Marks:
        """Every seen and deleted mark of `identity`."""
        seen, deleted = set(), set()
        for message_id, is_seen, is_deleted in self._db.execute(
            "SELECT message_id, seen, deleted FROM marks WHERE identity_id = ?", (identity.id,)
        ):
            if is_seen:
                seen.add(message_id)
            if is_deleted:
                deleted.add(message_id)
        return Marks(frozenset(seen), frozenset(deleted))

    def deleted_keys(self, identity: Identity) -> frozenset[str]:
        """Keys of the messages `identity` deleted (hidden from it)."""
        rows = self._db.execute("SELECT message_id FROM marks WHERE identity_id = ? AND deleted = 1", (identity.id,))
        return frozenset(r[0] for r in rows)

    def seen_keys(self, identity: Identity) -> frozenset[str]:
        """Keys of the messages `identity` has seen."""
        rows = self._db.execute("SELECT message_id FROM marks WHERE identity_id = ? AND seen = 1", (identity.id,))
        return frozenset(r[0] for r in rows)

    def is_deleted(self, identity: Identity, message_id: str) -> bool:
        """Whether `identity` deleted (hid) this message: one indexed row, not the whole list."""
        row = self._db.execute(
            "SELECT 1 FROM marks WHERE identity_id = ? AND message_id = ? AND deleted = 1", (identity.id, message_id)
        ).fetchone()
        return row is not None

    def seen_among(self, identity: Identity, message_ids: Sequence[str]) -> frozenset[str]:
        """Which of these message keys `identity` has seen."""
        if not message_ids:
            return frozenset()
        marks = ",".join("?" * len(message_ids))
        rows = self._db.execute(
            f"SELECT message_id FROM marks WHERE identity_id = ? AND seen = 1 AND message_id IN ({marks})",  # noqa: S608 - placeholders only
            (identity.id, *message_ids),
        )
        return frozenset(r[0] for r in rows)

    def set_seen(self, identity: Identity, message_id: str, seen: bool) -> None:
        """Mark one message seen or unseen for `identity`."""
        self._db.execute(
            "INSERT INTO marks (identity_id, message_id, seen) VALUES (?, ?, ?)"
            " ON CONFLICT DO UPDATE SET seen = excluded.seen",
            (identity.id, message_id, int(seen)),
        )

    def set_deleted(self, identity: Identity, message_id: str) -> None:
        """Hide one message from `identity` for good."""
        self._db.execute(
            "INSERT INTO marks (identity_id, message_id, deleted) VALUES (?, ?, 1)"
            " ON CONFLICT DO UPDATE SET deleted = 1",
            (identity.id, message_id),
        )

    def forget_messages(self, message_ids: Iterable[str]) -> None:
        """Drop every mark on these message keys, whose last copy left the mailbox (one transaction)."""
        with self._tx():
            self._db.executemany("DELETE FROM marks WHERE message_id = ?", [(m,) for m in message_ids])

    def _tx(self) -> _Transaction:
        return _Transaction(self._db)


class _Transaction:
    """BEGIN IMMEDIATE … COMMIT/ROLLBACK on an autocommit connection."""

    def __init__(self, conn: sqlite3.Connection) -> None:
        self._conn = conn

    def __enter__(self) -> None:
        self._conn.execute("BEGIN IMMEDIATE")

    def __exit__(self, exc_type: object, *_: object) -> None:
        self._conn.execute("ROLLBACK" if exc_type is not None else "COMMIT")
