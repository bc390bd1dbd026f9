"""Coordination on PostgreSQL: one reader at a time, news between gateways, token changes announced.

Two stores on one database stand for two gateways (each has its own pool, lock connection and
LISTEN connection), as two processes would.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import AsyncIterator

import pytest

from gateway.store import News, Store
from gateway.store.postgres import open_postgres
from gateway.store.postgres.coordination import PostgresCoordination

DOMAIN = "d.test"


async def _gateway(dsn: str) -> Store:
    store = open_postgres(dsn, domain=DOMAIN, clock=time.time)
    await store.engine.start()
    return store


@pytest.fixture
async def two(postgres_dsn: str) -> AsyncIterator[tuple[Store, Store]]:
    # A URL with its own query parameters: the connections held alone must still be made.
    dsn = f"{postgres_dsn}{'&' if '?' in postgres_dsn else '?'}connect_timeout=7"
    first = await _gateway(dsn)
    second = await _gateway(dsn)
    try:
        yield first, second
    finally:
        await first.engine.close()
        await second.engine.close()


async def test_one_reader_at_a_time_and_the_next_takes_over_when_it_leaves(two: tuple[Store, Store]) -> None:
    first, second = two
    async with first.coordination.reader() as lost:
        taking = asyncio.create_task(_enter_and_leave(second))
        done, _ = await asyncio.wait({taking}, timeout=3)  # three of its tries: the lock is held
        assert not done and not lost.is_set()
    async with asyncio.timeout(15):
        await taking  # the first left: the second holds the role now


async def _enter_and_leave(store: Store) -> None:
    async with store.coordination.reader():
        pass


async def test_news_reaches_the_other_gateway_and_its_own_at_once(two: tuple[Store, Store]) -> None:
    first, second = two
    heard_here: list[News] = []
    heard_there: list[News] = []
    arrived = asyncio.Event()

    def there(news: News) -> None:
        heard_there.append(news)
        if news.addresses:
            arrived.set()

    first.coordination.subscribe(heard_here.append)
    second.coordination.subscribe(there)
    listeners = [asyncio.create_task(s.coordination.run()) for s in (first, second)]
    try:
        await _until(lambda: first.coordination.hearing and second.coordination.hearing)
        first.coordination.announce(News(frozenset({"a@d.test"})))
        assert News(frozenset({"a@d.test"})) in heard_here  # delivered here without the round trip
        async with asyncio.timeout(10):
            await arrived.wait()
        assert any(n.addresses == frozenset({"a@d.test"}) for n in heard_there)
    finally:
        for task in listeners:
            task.cancel()
        await asyncio.gather(*listeners, return_exceptions=True)


async def test_a_rotation_is_announced_to_every_gateway_naming_the_identity(two: tuple[Store, Store]) -> None:
    first, second = two
    identity, _ = await first.identities.create("rotated")
    heard: list[News] = []
    arrived = asyncio.Event()

    def there(news: News) -> None:
        heard.append(news)
        if news.tokens:
            arrived.set()

    second.coordination.subscribe(there)
    listener = asyncio.create_task(second.coordination.run())
    try:
        await _until(lambda: second.coordination.hearing)
        await first.tokens.rotate(identity)  # the store's own transaction announces it
        async with asyncio.timeout(10):
            await arrived.wait()
        assert News(frozenset({identity.address}), tokens=True) in heard
    finally:
        listener.cancel()
        await asyncio.gather(listener, return_exceptions=True)


async def _until(condition: object) -> None:
    """Yield to the loop until `condition()` holds (the listeners connect in the background), bounded."""
    assert callable(condition)
    async with asyncio.timeout(15):
        while not condition():
            await asyncio.sleep(0.01)


def test_the_coordination_is_postgres_for_a_postgres_store(postgres_dsn: str) -> None:
    store = open_postgres(postgres_dsn, domain=DOMAIN, clock=time.time)
    assert isinstance(store.coordination, PostgresCoordination) and store.coordination.shared
