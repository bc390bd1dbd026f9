"""The store contract suite runs over every engine: `store` is a fresh, empty store of one engine."""

from __future__ import annotations

import contextlib
import sqlite3
from collections.abc import AsyncIterator, Awaitable, Callable
from pathlib import Path
from typing import Any

import pytest

from gateway.store import Store
from gateway.store.postgres import open_postgres
from gateway.store.sqlite import open_sqlite

DOMAIN = "d.test"
QUARANTINE = 3600.0


class Clock:
    """A clock the test moves by hand."""

    def __init__(self, now: float = 1_800_000_000.0) -> None:
        self.now = now

    def __call__(self) -> float:
        return self.now


@pytest.fixture
def clock() -> Clock:
    return Clock()


ENGINES = ["sqlite", pytest.param("postgresql", marks=pytest.mark.postgres)]


@pytest.fixture(params=ENGINES)
def engine(request: pytest.FixtureRequest) -> str:
    """Which engine the contract runs on."""
    return str(request.param)


StoreFactory = Callable[..., Awaitable[Store]]


@pytest.fixture
async def open_store(
    engine: str, tmp_path: Path, clock: Clock, request: pytest.FixtureRequest
) -> AsyncIterator[StoreFactory]:
    """Opens the test's store (again, after a close: the same files or database)."""
    opened: list[Store] = []
    # Asked for only here, so the SQLite runs need no PostgreSQL; one database per test.
    dsn = str(request.getfixturevalue("postgres_dsn")) if engine == "postgresql" else None

    async def make(**overrides: Any) -> Store:
        options: dict[str, Any] = {
            "domain": DOMAIN,
            "reserved": frozenset({"catchall"}),
            "quarantine_seconds": QUARANTINE,
            "clock": clock,
        }
        options.update(overrides)
        store = open_sqlite(tmp_path / "data", **options) if dsn is None else open_postgres(dsn, **options)
        await store.engine.start()
        opened.append(store)
        return store

    yield make
    for store in opened:
        await store.engine.close()


@pytest.fixture
async def store(open_store: StoreFactory) -> Store:
    """A fresh, empty store."""
    return await open_store()


def flip_in_btree(path: Path, btree: str, needle: bytes) -> None:
    """Flip one bit of `needle` where the b-tree `btree` (a table or an index) stores it: a one-byte corruption."""
    with contextlib.closing(sqlite3.connect(path)) as conn:
        conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
        (page_size,) = conn.execute("PRAGMA page_size").fetchone()
        (root,) = conn.execute("SELECT rootpage FROM sqlite_master WHERE name = ?", (btree,)).fetchone()
    raw = bytearray(path.read_bytes())
    start = (root - 1) * page_size  # a few rows: the whole b-tree is its root page
    at = raw.index(needle, start, start + page_size)
    raw[at + len(needle) - 1] ^= 0x03  # "alice" -> "alicf"
    path.write_bytes(bytes(raw))
