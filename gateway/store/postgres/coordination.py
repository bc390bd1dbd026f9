"""Coordination on PostgreSQL: the reader role is an advisory lock, news travels by LISTEN/NOTIFY.

The reader role is a session-level advisory lock held on a connection of its own: it is the
server that says who reads, and a gateway that dies or loses the database loses the lock with
its session (TCP keepalives on both ends make a vanished peer a matter of seconds). The holder
checks its connection every second and gives up the role the moment it fails, so two gateways
read at once only for that second; indexing is idempotent (a copy id is indexed once, whoever
adds it), so even that costs nothing.

News is one channel: each gateway LISTENs on a connection of its own and NOTIFYs through the
pool. A gateway delivers its own news at once, without the round trip, and skips it when the
server echoes it. Token and identity changes are announced by the store's own transactions
(gateway/store/postgres/accounts.py), so they reach every gateway the moment they commit,
whoever made them: a replica, or the CLI. After its LISTEN connection was lost a gateway tells
its listeners to look again (news may have been missed meanwhile).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import AsyncIterator, Callable
from typing import Any, Final

import psycopg

from gateway.errors import StoreError, StoreUnavailable
from gateway.store.coordination import News, decode, encode, new_origin
from gateway.store.postgres.database import Connection, Database
from gateway.store.postgres.schema import LOCK_NAMESPACE, LOCK_READER

__all__ = ["CHANNEL", "STORE_ORIGIN", "PostgresCoordination", "notify_sql"]

log = logging.getLogger(__name__)

CHANNEL: Final = "agentmail"
STORE_ORIGIN: Final = "store"
"""The origin of news the store's own transactions send: every gateway delivers it, the sender too."""
TAKE_EVERY: Final = 1.0  # a standby asks for the reader role this often
CHECK_EVERY: Final = 1.0  # the reader checks the connection that holds its lock this often
CHECK_TIMEOUT: Final = 3.0  # a check that takes longer than this is a lost connection
RETRY_MAX: Final = 5.0  # the longest pause between two tries to reach the database again
MAX_HELD_ADDRESSES: Final = 10_000  # news waiting to be sent names at most this many addresses


def _retrieve(task: asyncio.Future[Any]) -> None:
    """Mark a check's error as seen: it was reported (or the check was abandoned)."""
    if not task.cancelled():
        task.exception()


def notify_sql(news: News) -> list[tuple[str, str]]:
    """The (channel, payload) pairs for `SELECT pg_notify(%s, %s)` that announce `news` from the store."""
    return [(CHANNEL, payload) for payload in encode(news, STORE_ORIGIN)]


class PostgresCoordination:
    """The reader lock and the news channel of one gateway process."""

    shared = True

    def __init__(self, db: Database) -> None:
        self._db = db
        self.origin = new_origin()
        self._hearing = False
        self._listeners: list[Callable[[News], None]] = []
        self._outgoing = News()
        self._sender: asyncio.Task[None] | None = None

    @property
    def hearing(self) -> bool:
        return self._hearing

    async def _connect(self) -> Connection:
        """A connection of its own, once the server can be reached (trying again, backing off)."""
        pause = 0.5
        while True:
            try:
                return await self._db.connect_alone()
            except StoreUnavailable:
                await asyncio.sleep(pause)
                pause = min(pause * 2, RETRY_MAX)

    # --- the reader role ----------------------------------------------------------------

    @contextlib.asynccontextmanager
    async def reader(self) -> AsyncIterator[asyncio.Event]:
        conn = await self._take()
        lost = asyncio.Event()
        holder = asyncio.create_task(self._hold(conn, lost), name="reader lock")
        try:
            yield lost
        finally:
            holder.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await holder
            with contextlib.suppress(psycopg.Error, OSError):
                await conn.close()  # the session ends: the server releases the lock

    async def _take(self) -> Connection:
        """A connection whose session holds the reader lock, once no other session does."""
        while True:
            conn = await self._connect()
            try:
                while True:
                    cur = await conn.execute("SELECT pg_try_advisory_lock(%s, %s)", (LOCK_NAMESPACE, LOCK_READER))
                    row = await cur.fetchone()
                    if row is not None and row[0]:
                        return conn
                    await asyncio.sleep(TAKE_EVERY)
            except (psycopg.Error, OSError) as exc:
                log.warning("asking for the reader role failed (%s); trying again", type(exc).__name__)
                with contextlib.suppress(psycopg.Error, OSError):
                    await conn.close()
                await asyncio.sleep(TAKE_EVERY)
            except BaseException:
                with contextlib.suppress(psycopg.Error, OSError):
                    await conn.close()
                raise

    async def _hold(self, conn: Connection, lost: asyncio.Event) -> None:
        """Check the lock's connection every CHECK_EVERY s; set `lost` when it fails."""
        while True:
            await asyncio.sleep(CHECK_EVERY)
            # Not asyncio.timeout around the query: psycopg's cancel of a stuck query can take
            # seconds more, and the role must be given up the moment the check is late.
            check = asyncio.ensure_future(conn.execute("SELECT 1"))
            check.add_done_callback(_retrieve)
            done, _ = await asyncio.wait({check}, timeout=CHECK_TIMEOUT)
            failure = None if not done else check.exception()
            if done and failure is None:
                continue
            log.warning(
                "the database connection holding the reader role failed (%s): this gateway stops"
                " reading the mailbox; another takes over",
                "no answer" if not done else type(failure).__name__,
            )
            lost.set()
            return

    # --- news ---------------------------------------------------------------------------

    def announce(self, news: News) -> None:
        if not news:
            return
        self._deliver(news)
        self._outgoing = self._outgoing.merge(news)
        if self._sender is None or self._sender.done():
            self._sender = asyncio.get_running_loop().create_task(self._send(), name="news")

    async def _send(self) -> None:
        """NOTIFY what was announced; news announced meanwhile goes in the next round. A round
        that fails is merged back and tried again (backing off): a standby whose own connection
        is fine would otherwise never hear of mail indexed while the reader's pool was busy."""
        pause = 0.1
        while self._outgoing:
            news, self._outgoing = self._outgoing, News()
            try:
                async with self._db.transaction() as conn:
                    for payload in encode(news, self.origin):
                        await conn.execute("SELECT pg_notify(%s, %s)", (CHANNEL, payload))
                pause = 0.1
            except StoreError:
                return  # the store is closed: this gateway is stopping
            except (StoreUnavailable, psycopg.Error) as exc:
                log.warning("news for the other gateways is late (%s); sending it again", exc)
                merged = news.merge(self._outgoing)
                if len(merged.addresses) > MAX_HELD_ADDRESSES:  # bounded: "look again, everyone" says it all
                    merged = News(tokens=merged.tokens, hint=merged.hint, state=merged.state, everything=True)
                self._outgoing = merged
                await asyncio.sleep(pause)
                pause = min(pause * 2, RETRY_MAX)

    def subscribe(self, deliver: Callable[[News], None]) -> None:
        self._listeners.append(deliver)

    async def close(self) -> None:
        """Stop sending news (the gateway stops; what was not sent is what the others' reconnect covers)."""
        sender, self._sender = self._sender, None
        if sender is not None:
            sender.cancel()
            await asyncio.gather(sender, return_exceptions=True)

    def _deliver(self, news: News) -> None:
        for deliver in self._listeners:
            deliver(news)

    async def run(self) -> None:
        try:
            while True:
                conn = await self._connect()
                try:
                    await self._hear(conn)
                except (psycopg.Error, OSError, TimeoutError) as exc:
                    log.warning(
                        "lost the connection that hears the other gateways (%s); reconnecting", type(exc).__name__
                    )
                finally:
                    if self._hearing:
                        self._hearing = False
                        self._deliver(News(everything=True, state=True))  # fail closed: everyone looks again
                    with contextlib.suppress(psycopg.Error, OSError):
                        await conn.close()
                await asyncio.sleep(0.5)  # a connection that just failed: not at once again
        finally:
            self._hearing = False

    async def _hear(self, conn: Connection) -> None:
        await conn.execute("LISTEN agentmail")  # CHANNEL
        self._hearing = True
        self._deliver(News(everything=True, state=True))  # whatever was said before we listened
        while True:
            async for note in conn.notifies(timeout=CHECK_EVERY):
                heard = decode(note.payload)
                if heard is None or heard[0] == self.origin:
                    continue  # not ours to read, or our own (delivered when announced)
                self._deliver(heard[1])
            # Silence: is the server still there? (Not asyncio.timeout: see `_hold`.)
            check = asyncio.ensure_future(conn.execute("SELECT 1"))
            check.add_done_callback(_retrieve)
            done, _ = await asyncio.wait({check}, timeout=CHECK_TIMEOUT)
            if not done:
                raise TimeoutError("the database did not answer a check")
            check.result()
