"""One SQLite connection, owned by one thread: every store call runs there, off the event loop."""

from __future__ import annotations

import asyncio
import contextlib
import logging
import sqlite3
from collections.abc import Callable, Iterator
from concurrent.futures import ThreadPoolExecutor
from typing import Concatenate, ParamSpec, TypeVar

from gateway.errors import StoreUnavailable

__all__ = ["Database", "transaction"]

log = logging.getLogger(__name__)

P = ParamSpec("P")
T = TypeVar("T")


class Database:
    """The connection and the thread it lives on; `run` calls a function with it there.

    One thread serialises every call, so a read-check-write inside one call is atomic for
    this process; `transaction` makes it atomic against other processes (the CLI) too.
    """

    def __init__(self, connect: Callable[[], sqlite3.Connection]) -> None:
        self._executor = ThreadPoolExecutor(max_workers=1, thread_name_prefix="sqlite-store")
        try:
            self._conn = self._executor.submit(connect).result()
        except BaseException:
            self._executor.shutdown(wait=True)
            raise

    async def run(self, fn: Callable[Concatenate[sqlite3.Connection, P], T], *args: P.args, **kwargs: P.kwargs) -> T:
        """`fn(connection, *args)` on the store's thread; StoreUnavailable when SQLite cannot do it now."""
        loop = asyncio.get_running_loop()
        try:
            return await loop.run_in_executor(self._executor, lambda: fn(self._conn, *args, **kwargs))
        except sqlite3.OperationalError as exc:
            # Locked past busy_timeout (another process holds a write), disk full, I/O error:
            # the caller may retry; the library's text stays in the log, never in an answer.
            log.warning("the SQLite store refused a call: %s", exc)
            raise StoreUnavailable("the store is busy or unreachable right now; try again") from None

    def run_blocking(self, fn: Callable[Concatenate[sqlite3.Connection, P], T], *args: P.args, **kwargs: P.kwargs) -> T:
        """`fn(connection, *args)` on the store's thread, from code that has no event loop."""
        return self._executor.submit(lambda: fn(self._conn, *args, **kwargs)).result()

    def close(self) -> None:
        """Close the connection (on its own thread) and end the thread."""
        with contextlib.suppress(RuntimeError):  # already shut down
            self._executor.submit(self._conn.close).result()
        self._executor.shutdown(wait=True)


@contextlib.contextmanager
def transaction(conn: sqlite3.Connection) -> Iterator[None]:
    """BEGIN IMMEDIATE … COMMIT, or ROLLBACK on any error, on an autocommit connection."""
    conn.execute("BEGIN IMMEDIATE")
    try:
        yield
    except BaseException:
        conn.execute("ROLLBACK")
        raise
    conn.execute("COMMIT")
