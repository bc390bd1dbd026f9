"""SQLite identities, tokens, quarantine and /ui sessions: who may call, and as whom."""

from __future__ import annotations

import hmac
import logging
import secrets
import sqlite3
from collections.abc import Callable
from typing import Final, Literal, cast

from gateway.errors import Conflict, InvalidInput, NotFound, Unauthorized
from gateway.names import check_local_part, random_local_part
from gateway.store.coordination import News
from gateway.store.models import ApiToken, Identity, Principal, hash_token, new_token, utc
from gateway.store.rows import IDENTITY_COLUMNS, SEND_SCOPES, ascii_lower, check_choice, identity_of
from gateway.store.sqlite.database import Database, transaction

__all__ = ["SqliteAccounts", "SqliteIdentities", "SqliteQuarantine", "SqliteTokens", "SqliteUiSessions"]

log = logging.getLogger(__name__)

_RANDOM_NAME_TRIES: Final = 8  # 41 bits per name: a clash even once is already unlikely
_SESSION_TOUCH_SECONDS: Final = 60.0  # a session's last use is written at most this often (each write is fsync'd)


class SqliteAccounts:
    """What the four concerns share: the database, the domain and the clock."""

    def __init__(
        self,
        db: Database,
        *,
        domain: str,
        reserved: frozenset[str],
        quarantine_seconds: float,
        clock: Callable[[], float],
        announce: Callable[[News], None] = lambda _: None,
    ) -> None:
        self._db = db
        self._announce = announce  # token and identity changes: waits, streams and pages check again
        self.domain = domain
        self._reserved = reserved
        self._quarantine = quarantine_seconds
        self._clock = clock

    def _principal(
        self, conn: sqlite3.Connection, token_id: str, kind: str, identity_id: int | None, send: str | None = None
    ) -> Principal | None:
        """Who a token row stands for; None for an identity that is gone or expired."""
        if kind == "admin":
            return Principal("admin", token_id, send="any")
        if kind == "provision":
            return Principal("provisioner", token_id, send="any" if send == "any" else "local")
        row = conn.execute(f"SELECT {IDENTITY_COLUMNS} FROM identities WHERE id = ?", (identity_id,)).fetchone()  # noqa: S608
        if row is None:
            return None
        identity = identity_of(row, self.domain)
        if identity.expired(self._clock()):
            return None
        return Principal("identity", token_id, identity)

    def _end_sessions_of(self, conn: sqlite3.Connection, identity_id: int) -> None:
        conn.execute(
            "DELETE FROM ui_sessions WHERE token_hash IN"
            " (SELECT hash FROM tokens WHERE identity_id = ? AND kind='identity')",
            (identity_id,),
        )

    def _retire(self, conn: sqlite3.Connection, identity_id: int, local: str, since: float) -> None:
        self._end_sessions_of(conn, identity_id)
        conn.execute("DELETE FROM identities WHERE id = ?", (identity_id,))  # tokens, marks, claims cascade
        # Its finished sends with their delivery rows; unfinished ones still go out (accepted mail)
        # and go when they finish (gateway/store/outbox.py).
        conn.execute("DELETE FROM outbox WHERE identity_id = ? AND finished = 1", (identity_id,))
        conn.execute(
            "INSERT INTO quarantine (local_part, until) VALUES (?, ?)"
            " ON CONFLICT (local_part) DO UPDATE SET until = max(until, excluded.until)",
            (local, since + self._quarantine),
        )


class SqliteIdentities(SqliteAccounts):
    """`Identities` on SQLite."""

    async def create(
        self,
        local_part: str | None = None,
        *,
        ttl_seconds: float | None = None,
        label: str | None = None,
        created_by: str | None = None,
        force: bool = False,
        fence: tuple[str, str] | None = None,
        send_scope: str = "local",
    ) -> tuple[Identity, str]:
        if ttl_seconds is not None and ttl_seconds <= 0:
            raise InvalidInput("ttl_seconds must be positive")
        scope = cast(Literal["none", "local", "any"], check_choice("send", send_scope, SEND_SCOPES))
        wanted = None if local_part is None else check_local_part(local_part, reserved=self._reserved)
        return await self._db.run(self._create, wanted, ttl_seconds, label, created_by, force, fence, scope)

    def _create(
        self,
        conn: sqlite3.Connection,
        local_part: str | None,
        ttl_seconds: float | None,
        label: str | None,
        created_by: str | None,
        force: bool,
        fence: tuple[str, str] | None,
        scope: Literal["none", "local", "any"],
    ) -> tuple[Identity, str]:
        now = self._clock()
        expires = None if ttl_seconds is None else now + ttl_seconds
        with transaction(conn):
            if local_part is None:
                for _ in range(_RANDOM_NAME_TRIES):
                    local = random_local_part()
                    try:
                        reused = self._claim_name(conn, local, now, force=False)
                        break
                    except Conflict:
                        continue
                else:
                    raise Conflict("could not find a free random name; try again")
            else:
                local = local_part
                reused = self._claim_name(conn, local, now, force=force)
            try:
                cur = conn.execute(
                    "INSERT INTO identities (local_part, created_at, expires_at, label, created_by, reused,"
                    " fence_generation, fence_id, send_scope) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
                    (local, now, expires, label, created_by, int(reused), *(fence or (None, None)), scope),
                )
            except sqlite3.IntegrityError:
                # The lookup above found no owner, yet one of the two unique indexes holds the
                # name: the store is damaged (PRAGMA integrity_check names it). Never a second owner.
                log.error("identity store damaged: an index holds the name %r that the lookup missed", local)
                raise Conflict(f"{local}@{self.domain} is taken") from None
            identity_id = cur.lastrowid
            assert identity_id is not None
            token = new_token()
            conn.execute(
                "INSERT INTO tokens (id, kind, hash, identity_id, created_at) VALUES (?, 'identity', ?, ?, ?)",
                (f"id_{identity_id}", hash_token(token), identity_id, now),
            )
        identity = Identity(
            identity_id, f"{local}@{self.domain}", local, now, expires, label, created_by, reused, fence, scope
        )
        return identity, token

    def _claim_name(self, conn: sqlite3.Connection, local: str, now: float, *, force: bool) -> bool:
        """Clear the way for `local` (True if it had an earlier owner), or raise Conflict; in a transaction."""
        row = conn.execute("SELECT id, expires_at FROM identities WHERE local_part = ?", (local,)).fetchone()
        if row is not None:
            expires = row[1]
            if expires is None or now < expires:
                raise Conflict(f"{local}@{self.domain} is taken")
            # Expired: the name is quarantined from its expiry, like a deleted one.
            self._retire(conn, row[0], local, expires)
        until = conn.execute("SELECT until FROM quarantine WHERE local_part = ?", (local,)).fetchone()
        if until is not None and now < until[0] and not force:
            raise Conflict(
                f"{local}@{self.domain} was in use until recently and is quarantined until "
                f"{utc(until[0]):%Y-%m-%dT%H:%M:%SZ} so its old mail reaches nobody new;"
                " the admin may pass force"
            )
        conn.execute("DELETE FROM quarantine WHERE local_part = ?", (local,))
        return until is not None

    async def get(self, address: str) -> Identity:
        identity = await self.find(address)
        if identity is None or identity.expired(self._clock()):
            raise NotFound("no such identity")
        return identity

    async def find(self, address: str) -> Identity | None:
        local, _, domain = ascii_lower(address).rpartition("@")
        if domain != self.domain:
            return None
        row = await self._db.run(
            lambda c: c.execute(f"SELECT {IDENTITY_COLUMNS} FROM identities WHERE local_part = ?", (local,)).fetchone()  # noqa: S608
        )
        return None if row is None else identity_of(row, self.domain)

    async def list(
        self, *, created_by: str | None = None, after: str | None = None, limit: int = 100
    ) -> list[Identity]:
        sql = f"SELECT {IDENTITY_COLUMNS} FROM identities WHERE 1=1"  # noqa: S608 - constant columns
        args: list[object] = []
        if created_by is not None:
            sql += " AND created_by = ?"
            args.append(created_by)
        if after is not None:
            sql += " AND local_part > ?"
            args.append(ascii_lower(after).partition("@")[0])
        sql += " ORDER BY local_part LIMIT ?"
        args.append(limit)
        rows = await self._db.run(lambda c: c.execute(sql, args).fetchall())
        return [identity_of(r, self.domain) for r in rows]

    async def delete(self, identity: Identity) -> None:
        def retire(conn: sqlite3.Connection) -> None:
            with transaction(conn):
                self._retire(conn, identity.id, identity.local_part, self._clock())

        await self._db.run(retire)
        self._announce(News(frozenset({identity.address}), tokens=True))


class SqliteTokens(SqliteAccounts):
    """`Tokens` on SQLite."""

    async def authenticate(self, token: str) -> Principal:
        digest = hash_token(token)

        def lookup(conn: sqlite3.Connection) -> Principal | None:
            row = conn.execute(
                "SELECT id, kind, hash, identity_id, send FROM tokens WHERE hash = ?", (digest,)
            ).fetchone()
            # The lookup is by hash (which leaks nothing about the token); compare in constant
            # time anyway so no path ever compares secrets with `==`.
            if row is None or not hmac.compare_digest(row[2], digest):
                return None
            return self._principal(conn, row[0], row[1], row[3], row[4])

        principal = await self._db.run(lookup)
        if principal is None:
            raise Unauthorized("unknown, revoked or expired token")
        return principal

    async def admin_origin(self) -> Literal["configured", "generated"] | None:
        row = await self._db.run(lambda c: c.execute("SELECT label FROM tokens WHERE kind='admin'").fetchone())
        if row is None:
            return None
        return "configured" if row[0] == "configured" else "generated"

    async def set_admin(self, token: str, *, origin: Literal["configured", "generated"]) -> None:
        digest = hash_token(token)

        def replace(conn: sqlite3.Connection) -> None:
            with transaction(conn):
                conn.execute(
                    "DELETE FROM ui_sessions WHERE token_hash IN"
                    " (SELECT hash FROM tokens WHERE kind='admin' AND hash != ?)",
                    (digest,),
                )
                conn.execute("DELETE FROM tokens WHERE kind='admin'")
                conn.execute(
                    "INSERT INTO tokens (id, kind, hash, label, created_at) VALUES ('admin', 'admin', ?, ?, ?)",
                    (digest, origin, self._clock()),
                )

        await self._db.run(replace)
        self._announce(News(tokens=True))

    async def create_provisioner(self, label: str | None = None, *, send: str = "local") -> tuple[ApiToken, str]:
        scope = cast(Literal["local", "any"], check_choice("send", send, ("local", "any")))
        token = new_token()
        record = ApiToken(f"tok_{secrets.token_hex(8)}", "provision", label, self._clock(), scope)
        await self._db.run(
            lambda c: c.execute(
                "INSERT INTO tokens (id, kind, hash, label, created_at, send) VALUES (?, 'provision', ?, ?, ?, ?)",
                (record.id, hash_token(token), label, record.created_ts, scope),
            )
        )
        return record, token

    async def list_provisioners(self) -> list[ApiToken]:
        rows = await self._db.run(
            lambda c: c.execute(
                "SELECT id, label, created_at, send FROM tokens WHERE kind='provision' ORDER BY created_at, id"
            ).fetchall()
        )
        return [ApiToken(r[0], "provision", r[1], r[2], "any" if r[3] == "any" else "local") for r in rows]

    async def delete_provisioner(self, token_id: str) -> None:
        def revoke(conn: sqlite3.Connection) -> int:
            with transaction(conn):
                conn.execute(
                    "DELETE FROM ui_sessions WHERE token_hash IN"
                    " (SELECT hash FROM tokens WHERE id = ? AND kind='provision')",
                    (token_id,),
                )
                return conn.execute("DELETE FROM tokens WHERE id = ? AND kind='provision'", (token_id,)).rowcount

        revoked = await self._db.run(revoke)
        self._announce(News(tokens=True))
        if revoked == 0:
            raise NotFound("no such token")

    async def rotate(self, identity: Identity) -> str:
        token = new_token()

        def rotate(conn: sqlite3.Connection) -> int:
            with transaction(conn):
                # The sessions would fail their token check anyway; deleting them keeps no dead rows.
                self._end_sessions_of(conn, identity.id)
                return conn.execute(
                    "UPDATE tokens SET hash = ? WHERE identity_id = ? AND kind='identity'",
                    (hash_token(token), identity.id),
                ).rowcount

        changed = await self._db.run(rotate)
        self._announce(News(frozenset({identity.address}), tokens=True))
        if changed == 0:
            raise NotFound("no such identity")
        return token


class SqliteQuarantine(SqliteAccounts):
    """`Quarantine` on SQLite."""

    async def until(self, local_part: str) -> float | None:
        now = self._clock()
        row = await self._db.run(
            lambda c: c.execute(
                "SELECT until FROM quarantine WHERE local_part = ? AND until > ?",
                (ascii_lower(local_part), now),
            ).fetchone()
        )
        return None if row is None else float(row[0])

    async def prune(self) -> int:
        now = self._clock()
        return await self._db.run(lambda c: c.execute("DELETE FROM quarantine WHERE until <= ?", (now,)).rowcount)


class SqliteUiSessions(SqliteAccounts):
    """`UiSessions` on SQLite."""

    async def add(self, session_hash: str, token: str, *, keep: int) -> None:
        digest = hash_token(token)
        now = self._clock()

        def add(conn: sqlite3.Connection) -> None:
            with transaction(conn):
                conn.execute(
                    "INSERT INTO ui_sessions (hash, token_hash, created_at, used_at) VALUES (?, ?, ?, ?)",
                    (session_hash, digest, now, now),
                )
                # The new session always stays; the least recently used beyond `keep` end now.
                conn.execute(
                    "DELETE FROM ui_sessions WHERE token_hash = ? AND hash != ? AND hash NOT IN"
                    " (SELECT hash FROM ui_sessions WHERE token_hash = ? AND hash != ?"
                    "  ORDER BY used_at DESC, created_at DESC LIMIT ?)",
                    (digest, session_hash, digest, session_hash, max(keep - 1, 0)),
                )

        await self._db.run(add)

    async def get(self, session_hash: str, *, max_age: float, idle: float) -> Principal | None:
        def get(conn: sqlite3.Connection) -> Principal | None:
            row = conn.execute(
                "SELECT s.created_at, s.used_at, t.id, t.kind, t.identity_id, t.send"
                " FROM ui_sessions s LEFT JOIN tokens t ON t.hash = s.token_hash WHERE s.hash = ?",
                (session_hash,),
            ).fetchone()
            if row is None:
                return None
            created, used, token_id, kind, identity_id, send = row
            now = self._clock()
            principal = None
            if token_id is not None and now - created < max_age and now - used < idle:
                principal = self._principal(conn, token_id, kind, identity_id, send)
            if principal is None:
                conn.execute("DELETE FROM ui_sessions WHERE hash = ?", (session_hash,))
                return None
            if now - used >= _SESSION_TOUCH_SECONDS:
                conn.execute("UPDATE ui_sessions SET used_at = ? WHERE hash = ?", (now, session_hash))
            return principal

        return await self._db.run(get)

    async def delete(self, session_hash: str) -> None:
        await self._db.run(lambda c: c.execute("DELETE FROM ui_sessions WHERE hash = ?", (session_hash,)))

    async def prune(self, *, max_age: float, idle: float) -> int:
        now = self._clock()
        return await self._db.run(
            lambda c: (
                c.execute(
                    "DELETE FROM ui_sessions WHERE created_at <= ? OR used_at <= ?"
                    " OR NOT EXISTS (SELECT 1 FROM tokens t WHERE t.hash = ui_sessions.token_hash)",
                    (now - max_age, now - idle),
                ).rowcount
            )
        )
