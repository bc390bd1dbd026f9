"""PostgreSQL identities, tokens, quarantine and /ui sessions: who may call, and as whom.

The same rules as the SQLite engine (gateway/store/sqlite/accounts.py), for any number of
gateways on one database: creating a name takes an advisory lock on that name for its
transaction, and the unique local part is the guard behind it.
"""

from __future__ import annotations

import hmac
import secrets
from collections.abc import Callable
from typing import Final, Literal, LiteralString, cast

import psycopg

from gateway.errors import Conflict, InvalidInput, NotFound, Unauthorized
from gateway.names import check_local_part, random_local_part
from gateway.store.coordination import News
from gateway.store.models import ApiToken, Identity, Principal, hash_token, new_token, utc
from gateway.store.postgres.coordination import notify_sql
from gateway.store.postgres.database import Connection, Database, Row
from gateway.store.postgres.schema import LOCK_NAMESPACE
from gateway.store.rows import IDENTITY_COLUMNS, SEND_SCOPES, ascii_lower, check_choice, identity_of

__all__ = ["PostgresAccounts", "PostgresIdentities", "PostgresQuarantine", "PostgresTokens", "PostgresUiSessions"]

_RANDOM_NAME_TRIES: Final = 8  # 41 bits per name: a clash even once is already unlikely
_SESSION_TOUCH_SECONDS: Final = 60.0  # a session's last use is written at most this often
_LOCK_NAME: Final = "SELECT pg_advisory_xact_lock(%s, hashtext(%s))"  # one name's creations, one at a time


class PostgresAccounts:
    """What the four concerns share: the database, the domain and the clock."""

    def __init__(
        self,
        db: Database,
        *,
        domain: str,
        reserved: frozenset[str],
        quarantine_seconds: float,
        clock: Callable[[], float],
    ) -> None:
        self._db = db
        self.domain = domain
        self._reserved = reserved
        self._quarantine = quarantine_seconds
        self._clock = clock

    async def _principal(
        self, conn: Connection, token_id: str, kind: str, identity_id: int | None, send: str | None = None
    ) -> Principal | None:
        """Who a token row stands for; None for an identity that is gone or expired."""
        if kind == "admin":
            return Principal("admin", token_id, send="any")
        if kind == "provision":
            return Principal("provisioner", token_id, send="any" if send == "any" else "local")
        cur = await conn.execute(f"SELECT {IDENTITY_COLUMNS} FROM identities WHERE id = %s", (identity_id,))  # noqa: S608
        row = await cur.fetchone()
        if row is None:
            return None
        identity = identity_of(row, self.domain)
        if identity.expired(self._clock()):
            return None
        return Principal("identity", token_id, identity)

    async def _announce_tokens(self, conn: Connection, local: str | None = None) -> None:
        """Tell every gateway, when this transaction commits, that a token changed: the identity's
        (`local`: only requests about it look again) or the admin's or a provisioner's (all do)."""
        addresses = frozenset() if local is None else frozenset({f"{local}@{self.domain}"})
        for channel, payload in notify_sql(News(addresses, tokens=True)):
            await conn.execute("SELECT pg_notify(%s, %s)", (channel, payload))

    async def _end_sessions_of(self, conn: Connection, identity_id: int, local: str) -> None:
        """End the identity's `/ui` sessions and every gateway's waits and streams on its token."""
        await self._announce_tokens(conn, local)
        await conn.execute(
            "DELETE FROM ui_sessions WHERE token_hash IN"
            " (SELECT hash FROM tokens WHERE identity_id = %s AND kind = 'identity')",
            (identity_id,),
        )

    async def _retire(self, conn: Connection, identity_id: int, local: str, since: float) -> None:
        await self._end_sessions_of(conn, identity_id, local)
        await conn.execute("DELETE FROM identities WHERE id = %s", (identity_id,))  # tokens, marks, claims cascade
        # Its finished sends with their delivery rows; unfinished ones still go out (accepted mail)
        # and go when they finish (gateway/store/outbox.py).
        await conn.execute("DELETE FROM outbox WHERE identity_id = %s AND finished", (identity_id,))
        await conn.execute(
            "INSERT INTO quarantine (local_part, until) VALUES (%s, %s)"
            " ON CONFLICT (local_part) DO UPDATE SET until = greatest(quarantine.until, excluded.until)",
            (local, since + self._quarantine),
        )


class PostgresIdentities(PostgresAccounts):
    """`Identities` on PostgreSQL."""

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
        now = self._clock()
        expires = None if ttl_seconds is None else now + ttl_seconds
        token = new_token()
        try:
            async with self._db.transaction() as conn:
                if wanted is None:
                    for _ in range(_RANDOM_NAME_TRIES):
                        local = random_local_part()
                        try:
                            reused = await self._claim_name(conn, local, now, force=False)
                            break
                        except Conflict:
                            continue
                    else:
                        raise Conflict("could not find a free random name; try again")
                else:
                    local = wanted
                    reused = await self._claim_name(conn, local, now, force=force)
                cur = await conn.execute(
                    "INSERT INTO identities (local_part, created_at, expires_at, label, created_by, reused,"
                    " fence_generation, fence_id, send_scope) VALUES (%s, %s, %s, %s, %s, %s, %s, %s, %s) RETURNING id",
                    (local, now, expires, label, created_by, reused, *(fence or (None, None)), scope),
                )
                row = await cur.fetchone()
                assert row is not None
                identity_id = int(row[0])
                await conn.execute(
                    "INSERT INTO tokens (id, kind, hash, identity_id, created_at) VALUES (%s, 'identity', %s, %s, %s)",
                    (f"id_{identity_id}", hash_token(token), identity_id, now),
                )
        except psycopg.errors.UniqueViolation:
            # Only a writer that skipped the name lock gets here (the lock serialises ours).
            raise Conflict(f"{local}@{self.domain} is taken") from None
        address = f"{local}@{self.domain}"
        return Identity(identity_id, address, local, now, expires, label, created_by, reused, fence, scope), token

    async def _claim_name(self, conn: Connection, local: str, now: float, *, force: bool) -> bool:
        """Clear the way for `local` (True if it had an earlier owner), or raise Conflict; in a transaction."""
        # Held to the end of the transaction: a second creation of this name, in any process,
        # waits here and then sees the first one's row.
        await conn.execute(_LOCK_NAME, (LOCK_NAMESPACE, f"name:{local}"))
        cur = await conn.execute("SELECT id, expires_at FROM identities WHERE local_part = %s FOR UPDATE", (local,))
        row = await cur.fetchone()
        if row is not None:
            expires = row[1]
            if expires is None or now < expires:
                raise Conflict(f"{local}@{self.domain} is taken")
            # Expired: the name is quarantined from its expiry, like a deleted one.
            await self._retire(conn, int(row[0]), local, float(expires))
        cur = await conn.execute("SELECT until FROM quarantine WHERE local_part = %s FOR UPDATE", (local,))
        until = await cur.fetchone()
        if until is not None and now < until[0] and not force:
            raise Conflict(
                f"{local}@{self.domain} was in use until recently and is quarantined until "
                f"{utc(until[0]):%Y-%m-%dT%H:%M:%SZ} so its old mail reaches nobody new;"
                " the admin may pass force"
            )
        await conn.execute("DELETE FROM quarantine WHERE local_part = %s", (local,))
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
        row = await self._db.fetchone(f"SELECT {IDENTITY_COLUMNS} FROM identities WHERE local_part = %s", (local,))  # noqa: S608
        return None if row is None else identity_of(row, self.domain)

    async def list(
        self, *, created_by: str | None = None, after: str | None = None, limit: int = 100
    ) -> list[Identity]:
        sql: list[LiteralString] = [f"SELECT {IDENTITY_COLUMNS} FROM identities WHERE true"]  # noqa: S608 - constant columns
        args: list[object] = []
        if created_by is not None:
            sql.append("AND created_by = %s")
            args.append(created_by)
        if after is not None:
            sql.append("AND local_part > %s")
            args.append(ascii_lower(after).partition("@")[0])
        sql.append("ORDER BY local_part LIMIT %s")
        args.append(limit)
        rows = await self._db.fetchall(" ".join(sql), args)
        return [identity_of(r, self.domain) for r in rows]

    async def delete(self, identity: Identity) -> None:
        async with self._db.transaction() as conn:
            await self._retire(conn, identity.id, identity.local_part, self._clock())


class PostgresTokens(PostgresAccounts):
    """`Tokens` on PostgreSQL."""

    async def authenticate(self, token: str) -> Principal:
        digest = hash_token(token)
        async with self._db.transaction() as conn:
            cur = await conn.execute("SELECT id, kind, hash, identity_id, send FROM tokens WHERE hash = %s", (digest,))
            row: Row | None = await cur.fetchone()
            # The lookup is by hash (which leaks nothing about the token); compare in constant
            # time anyway so no path ever compares secrets with `==`.
            principal = None
            if row is not None and hmac.compare_digest(str(row[2]), digest):
                principal = await self._principal(conn, str(row[0]), str(row[1]), row[3], row[4])
        if principal is None:
            raise Unauthorized("unknown, revoked or expired token")
        return principal

    async def admin_origin(self) -> Literal["configured", "generated"] | None:
        row = await self._db.fetchone("SELECT label FROM tokens WHERE kind = 'admin'")
        if row is None:
            return None
        return "configured" if row[0] == "configured" else "generated"

    async def set_admin(self, token: str, *, origin: Literal["configured", "generated"]) -> None:
        digest = hash_token(token)
        async with self._db.transaction() as conn:
            # Replicas starting at once set it together: one at a time, or the second insert of
            # the same hash fails on the hash's unique index, which ON CONFLICT (id) cannot arbitrate.
            await conn.execute("SELECT pg_advisory_xact_lock(hashtext('agentmail admin token'))")
            await self._announce_tokens(conn)
            await conn.execute(
                "DELETE FROM ui_sessions WHERE token_hash IN"
                " (SELECT hash FROM tokens WHERE kind = 'admin' AND hash != %s)",
                (digest,),
            )
            # An upsert, not delete + insert: replicas starting at once each set the admin
            # token, and a second plain insert of the 'admin' row would fail on its key.
            await conn.execute(
                "INSERT INTO tokens (id, kind, hash, label, created_at) VALUES ('admin', 'admin', %s, %s, %s)"
                " ON CONFLICT (id) DO UPDATE SET hash = excluded.hash, label = excluded.label,"
                " created_at = excluded.created_at",
                (digest, origin, self._clock()),
            )

    async def create_provisioner(self, label: str | None = None, *, send: str = "local") -> tuple[ApiToken, str]:
        scope = cast(Literal["local", "any"], check_choice("send", send, ("local", "any")))
        token = new_token()
        record = ApiToken(f"tok_{secrets.token_hex(8)}", "provision", label, self._clock(), scope)
        await self._db.execute(
            "INSERT INTO tokens (id, kind, hash, label, created_at, send) VALUES (%s, 'provision', %s, %s, %s, %s)",
            (record.id, hash_token(token), label, record.created_ts, scope),
        )
        return record, token

    async def list_provisioners(self) -> list[ApiToken]:
        rows = await self._db.fetchall(
            "SELECT id, label, created_at, send FROM tokens WHERE kind = 'provision' ORDER BY created_at, id"
        )
        return [ApiToken(str(r[0]), "provision", r[1], float(r[2]), "any" if r[3] == "any" else "local") for r in rows]

    async def delete_provisioner(self, token_id: str) -> None:
        async with self._db.transaction() as conn:
            await self._announce_tokens(conn)
            await conn.execute(
                "DELETE FROM ui_sessions WHERE token_hash IN"
                " (SELECT hash FROM tokens WHERE id = %s AND kind = 'provision')",
                (token_id,),
            )
            cur = await conn.execute("DELETE FROM tokens WHERE id = %s AND kind = 'provision'", (token_id,))
            deleted = cur.rowcount
        if deleted == 0:
            raise NotFound("no such token")

    async def rotate(self, identity: Identity) -> str:
        token = new_token()
        async with self._db.transaction() as conn:
            # The sessions would fail their token check anyway; deleting them keeps no dead rows.
            await self._end_sessions_of(conn, identity.id, identity.local_part)
            cur = await conn.execute(
                "UPDATE tokens SET hash = %s WHERE identity_id = %s AND kind = 'identity'",
                (hash_token(token), identity.id),
            )
            changed = cur.rowcount
        if changed == 0:
            raise NotFound("no such identity")
        return token


class PostgresQuarantine(PostgresAccounts):
    """`Quarantine` on PostgreSQL."""

    async def until(self, local_part: str) -> float | None:
        row = await self._db.fetchone(
            "SELECT until FROM quarantine WHERE local_part = %s AND until > %s",
            (ascii_lower(local_part), self._clock()),
        )
        return None if row is None else float(row[0])

    async def prune(self) -> int:
        return await self._db.execute("DELETE FROM quarantine WHERE until <= %s", (self._clock(),))


class PostgresUiSessions(PostgresAccounts):
    """`UiSessions` on PostgreSQL."""

    async def add(self, session_hash: str, token: str, *, keep: int) -> None:
        digest = hash_token(token)
        now = self._clock()
        async with self._db.transaction() as conn:
            await conn.execute(
                "INSERT INTO ui_sessions (hash, token_hash, created_at, used_at) VALUES (%s, %s, %s, %s)",
                (session_hash, digest, now, now),
            )
            # The new session always stays; the least recently used beyond `keep` end now.
            await conn.execute(
                "DELETE FROM ui_sessions WHERE token_hash = %s AND hash != %s AND hash NOT IN"
                " (SELECT hash FROM ui_sessions WHERE token_hash = %s AND hash != %s"
                "  ORDER BY used_at DESC, created_at DESC LIMIT %s)",
                (digest, session_hash, digest, session_hash, max(keep - 1, 0)),
            )

    async def get(self, session_hash: str, *, max_age: float, idle: float) -> Principal | None:
        async with self._db.transaction() as conn:
            cur = await conn.execute(
                "SELECT s.created_at, s.used_at, t.id, t.kind, t.identity_id, t.send"
                " FROM ui_sessions s LEFT JOIN tokens t ON t.hash = s.token_hash WHERE s.hash = %s",
                (session_hash,),
            )
            row = await cur.fetchone()
            if row is None:
                return None
            created, used, token_id, kind, identity_id, send = row
            now = self._clock()
            principal = None
            if token_id is not None and now - created < max_age and now - used < idle:
                principal = await self._principal(conn, str(token_id), str(kind), identity_id, send)
            if principal is None:
                await conn.execute("DELETE FROM ui_sessions WHERE hash = %s", (session_hash,))
                return None
            if now - used >= _SESSION_TOUCH_SECONDS:
                await conn.execute("UPDATE ui_sessions SET used_at = %s WHERE hash = %s", (now, session_hash))
            return principal

    async def delete(self, session_hash: str) -> None:
        await self._db.execute("DELETE FROM ui_sessions WHERE hash = %s", (session_hash,))

    async def prune(self, *, max_age: float, idle: float) -> int:
        now = self._clock()
        return await self._db.execute(
            "DELETE FROM ui_sessions WHERE created_at <= %s OR used_at <= %s"
            " OR NOT EXISTS (SELECT 1 FROM tokens t WHERE t.hash = ui_sessions.token_hash)",
            (now - max_age, now - idle),
        )
