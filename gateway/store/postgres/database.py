"""The connection pool every PostgreSQL store call borrows from, and how its failures read.

Every block of `transaction()` is one transaction on one pooled connection: committed when
the block ends, rolled back when it raises. A failed connection becomes StoreError; library
text only reaches a message after its credentials are scrubbed (see `describe`, `scrub`).
"""

from __future__ import annotations

import contextlib
import logging
import re
from collections.abc import AsyncIterator, Sequence
from typing import Any, Final, LiteralString

import psycopg
from psycopg.conninfo import conninfo_to_dict, make_conninfo
from psycopg_pool import AsyncConnectionPool, PoolTimeout

from gateway.errors import StoreError, StoreUnavailable

__all__ = ["Connection", "Database", "Row", "describe", "scrub"]

Row = tuple[Any, ...]
Connection = psycopg.AsyncConnection[Row]

CONNECT_TIMEOUT: Final = 10.0  # seconds libpq may take to reach the server (its connect_timeout)
log = logging.getLogger(__name__)

KEEPALIVES: Final = {"keepalives": "1", "keepalives_idle": "5", "keepalives_interval": "2", "keepalives_count": "3"}
"""libpq's TCP keepalives (the URL's own settings win): a dead server is noticed in ~11 s."""
SERVER_KEEPALIVES: Final = "SET tcp_keepalives_idle = 5; SET tcp_keepalives_interval = 2; SET tcp_keepalives_count = 3"
"""The server's side of the same, per session: a vanished gateway's locks are released in ~11 s."""
BORROW_TIMEOUT: Final = 5.0  # seconds a call waits for a free pooled connection before StoreUnavailable
_URL_USERINFO: Final = re.compile(r"(?P<scheme>[a-z][a-z0-9+.-]*://)(?P<user>[^:@/\s]*)(?::[^@/\s]*)?@", re.I)
_KEYWORD_PASSWORD: Final = re.compile(r"(password\s*=\s*)('(?:[^'\\]|\\.)*'|\S+)", re.I)


def describe(dsn: str) -> str:
    """Where `dsn` points, for messages: user, host, port and database, never the password."""
    try:
        parts = conninfo_to_dict(dsn)
    except psycopg.Error:
        return "the configured PostgreSQL URL (unparsable)"
    host = parts.get("host") or parts.get("hostaddr") or "the default host"
    port = parts.get("port") or "5432"
    user = parts.get("user")
    who = f"{user}@" if user else ""
    return f"PostgreSQL {who}{host}:{port}/{parts.get('dbname') or '(default database)'}"


def scrub(text: str, dsn: str) -> str:
    """`text` (a library's message) with every password of `dsn` and any URL credentials masked."""
    with contextlib.suppress(psycopg.Error):
        password = conninfo_to_dict(dsn).get("password")
        if password:
            text = text.replace(str(password), "***")
    text = _URL_USERINFO.sub(r"\g<scheme>\g<user>:***@", text)
    return _KEYWORD_PASSWORD.sub(r"\1***", text)


async def _server_keepalives(conn: Connection) -> None:
    """Each pooled session: the server probes it too (a held transaction lock must not outlive its gateway)."""
    await conn.execute(SERVER_KEEPALIVES)
    await conn.commit()


class Database:
    """The pool (made and opened by `start`), and the one way calls borrow a connection from it."""

    def __init__(self, dsn: str, *, min_size: int, max_size: int, connect_timeout: float = CONNECT_TIMEOUT) -> None:
        self._dsn = dsn
        self._min_size = min_size
        self._max_size = max_size
        self._connect_timeout = connect_timeout
        self._pool: AsyncConnectionPool[Connection] | None = None
        self._conninfo: str | None = None
        self.where = describe(dsn)
        """Where the database is, safe to show (no password)."""

    async def start(self) -> None:
        """Reach the server once (exact error, fast), then open the pool waiting for its first connections."""
        if self._pool is not None:
            return
        try:
            # The URL's own connect_timeout, when it has one, wins over ours.
            given = conninfo_to_dict(self._dsn)
            ours = {"connect_timeout": str(max(1, round(self._connect_timeout)))}
            # Keepalives on every connection: a gateway whose host vanished mid-transaction must
            # not keep the index's lock for the OS default of two hours.
            ours.update(KEEPALIVES)
            conninfo = make_conninfo(self._dsn, **{k: v for k, v in ours.items() if k not in given})
        except psycopg.Error as exc:
            raise StoreError(f"AGENTMAIL_DATABASE_URL is not a valid PostgreSQL URL: {self.scrub(exc)}") from None
        # The pool retries a refused connection until its timeout and then only says it timed
        # out; one direct attempt first fails at once, with libpq's reason.
        try:
            probe = await psycopg.AsyncConnection.connect(conninfo)
        except psycopg.Error as exc:
            raise StoreError(f"cannot connect to {self.where}: {self.scrub(exc)}; refusing to start") from None
        await probe.close()
        self._conninfo = conninfo
        pool: AsyncConnectionPool[Connection] = AsyncConnectionPool(
            conninfo,
            open=False,
            min_size=self._min_size,
            max_size=self._max_size,
            timeout=BORROW_TIMEOUT,
            # A connection the server dropped (a restart, a failover) is replaced before use,
            # instead of failing the first call made on it: one round trip per borrow.
            check=AsyncConnectionPool.check_connection,
            configure=_server_keepalives,
            name="agentmail-store",
        )
        try:
            await pool.open(wait=True, timeout=self._connect_timeout + 5)
        except PoolTimeout:
            await pool.close()
            raise StoreError(f"cannot open a connection pool to {self.where}; refusing to start") from None
        self._pool = pool

    async def close(self) -> None:
        """Close every pooled connection (nothing happens when the pool was never opened)."""
        pool, self._pool = self._pool, None
        self._conninfo = None  # nothing connects alone after close either
        if pool is not None:
            await pool.close()

    async def connect_alone(self) -> Connection:
        """A connection of its own, outside the pool, in autocommit: for LISTEN and a held lock.

        Both ends probe the link every few seconds (TCP keepalives), so a peer that vanished
        without closing (a partition, a dead host) is noticed in seconds, and the server
        releases what the session held (the reader's lock) instead of keeping it for hours.
        StoreUnavailable when the server cannot be reached.
        """
        if self._conninfo is None:
            raise StoreError("the PostgreSQL store is not started (or already closed)")
        try:
            conn = await psycopg.AsyncConnection.connect(self._conninfo, autocommit=True)
        except (psycopg.OperationalError, OSError) as exc:
            log.warning("%s is unavailable: %s", self.where, self.scrub(exc))
            raise StoreUnavailable("the database cannot be reached right now; try again") from None
        try:
            await conn.execute(SERVER_KEEPALIVES)
        except (psycopg.Error, OSError):
            await conn.close()
            raise StoreUnavailable("the database cannot be reached right now; try again") from None
        except BaseException:  # a cancellation stays one
            await conn.close()
            raise
        return conn

    def scrub(self, exc: BaseException) -> str:
        """A library exception's text, safe to show (see `scrub`)."""
        return scrub(str(exc).strip(), self._dsn)

    @contextlib.asynccontextmanager
    async def transaction(self) -> AsyncIterator[Connection]:
        """A pooled connection inside one transaction; an unreachable database is StoreError."""
        if self._pool is None:
            raise StoreError("the PostgreSQL store is not started (or already closed)")
        try:
            async with self._pool.connection() as conn:
                yield conn
        except (psycopg.OperationalError, PoolTimeout) as exc:
            # Worth a retry (503 + Retry-After); the reason goes to the log, never to a client.
            log.warning("%s is unavailable: %s", self.where, self.scrub(exc))
            raise StoreUnavailable("the database cannot be reached right now; try again") from None

    async def fetchone(self, query: LiteralString, params: Sequence[object] = ()) -> Row | None:
        """The first row of one statement, or None."""
        async with self.transaction() as conn:
            cur = await conn.execute(query, params)
            return await cur.fetchone()

    async def fetchall(self, query: LiteralString, params: Sequence[object] = ()) -> list[Row]:
        """Every row of one statement."""
        async with self.transaction() as conn:
            cur = await conn.execute(query, params)
            return await cur.fetchall()

    async def execute(self, query: LiteralString, params: Sequence[object] = ()) -> int:
        """Run one statement; how many rows it changed."""
        async with self.transaction() as conn:
            cur = await conn.execute(query, params)
            return cur.rowcount
