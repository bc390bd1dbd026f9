"""The sync's shared parse and its second lane, on the real embedded source and the SQLite store."""

from __future__ import annotations

import asyncio
import sqlite3
import threading
import time
from collections.abc import AsyncIterator, Callable, Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from corpus.malformed.cases import red_team
from gateway import sync as sync_module
from gateway.mail.parse import ParsedBody
from gateway.sources.base import StoredMessage
from gateway.sources.local import LocalSource
from gateway.store import CopyRecord, Store
from gateway.store.sqlite import open_sqlite
from gateway.sync import COSTLY_BYTES, Sync, build_record
from tests.conftest import make_message

DOMAIN = "d.test"
MAX_BYTES = 25 * 1024 * 1024


@pytest.fixture
async def parts(tmp_path: Path) -> AsyncIterator[tuple[LocalSource, Store, Sync]]:
    source = LocalSource(tmp_path / "maildir")
    store = open_sqlite(tmp_path / "data", domain=DOMAIN, clock=time.time)
    await source.start()
    yield source, store, Sync(source, store.index, catchall=f"catchall@{DOMAIN}", max_bytes=MAX_BYTES)
    await source.stop()
    await store.engine.close()


@pytest.fixture
def body_parses(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """Counts the sync's body parses (a spy: the real parse still runs)."""
    calls: list[int] = []
    real = sync_module.parse_body

    def counted(raw: bytes, **kwargs: Any) -> ParsedBody:
        calls.append(len(raw))
        return real(raw, **kwargs)

    monkeypatch.setattr(sync_module, "parse_body", counted)
    return calls


async def _records(source: LocalSource, ids: list[str]) -> list[CopyRecord]:
    """What build_record makes of each copy on its own: what the sync must index."""
    stored = await source.fetch(ids, max_bytes=MAX_BYTES)
    return [build_record(m, catchall=f"catchall@{DOMAIN}", max_bytes=MAX_BYTES) for m in stored]


async def test_copies_of_one_message_share_one_parse(
    parts: tuple[LocalSource, Store, Sync], body_parses: list[int]
) -> None:
    source, _store, sync = parts
    rcpts = [f"r{i}@{DOMAIN}" for i in range(6)]
    ids = await source.deliver(make_message(to=rcpts[0], subject="six", text="Your code is 482913").as_bytes(), rcpts)
    indexed: list[CopyRecord] = []
    sync.on_indexed(indexed.extend)
    await sync.ingest(ids)
    assert len(body_parses) == 1  # (build_record below parses each copy again, on its own)
    assert indexed == await _records(source, ids)  # the same rows as six parses of their own
    assert [sorted(r.grants) for r in indexed] == [sorted({r, rcpts[0]}) for r in rcpts]  # own stamp + To


async def test_costly_copies_go_to_the_second_lane_and_share_one_parse(
    parts: tuple[LocalSource, Store, Sync], body_parses: list[int]
) -> None:
    source, store, sync = parts
    hostile = red_team()
    assert len(hostile) > COSTLY_BYTES
    rcpts = [f"rt{i}@{DOMAIN}" for i in range(3)]
    costly = await source.deliver(hostile, rcpts)
    small = await source.deliver(make_message(to=f"o@{DOMAIN}", subject="small").as_bytes(), [f"o@{DOMAIN}"])
    indexed: list[CopyRecord] = []
    sync.on_indexed(indexed.extend)
    await sync.ingest(costly + small)
    assert small[0] in await store.index.known_ids()  # indexed by the time ingest returns
    await sync.settled()
    assert await store.index.known_ids() == set(costly + small)
    sizes = [len(await _raw(source, small[0])), len(await _raw(source, costly[0]))]
    assert body_parses == sizes  # one parse each, the small one first; three copies, one parse
    assert sorted(indexed, key=lambda r: r.copy_id) == sorted(
        await _records(source, costly + small), key=lambda r: r.copy_id
    )


async def _raw(source: LocalSource, copy_id: str) -> bytes:
    (stored,) = await source.fetch([copy_id])
    return stored.raw


async def test_catch_up_waits_for_the_second_lane(parts: tuple[LocalSource, Store, Sync]) -> None:
    source, store, sync = parts
    costly = await source.deliver(red_team(), [f"a@{DOMAIN}", f"b@{DOMAIN}"])
    await sync.catch_up()
    assert await store.index.known_ids() == set(costly)


def _small(subject: str) -> bytes:
    return make_message(to=f"o@{DOMAIN}", subject=subject).as_bytes()


def _big(subject: str) -> bytes:
    return make_message(to=f"big@{DOMAIN}", subject=subject, text="costly " * (COSTLY_BYTES // 5)).as_bytes()


async def _until(condition: Callable[[], bool], timeout: float = 15.0) -> None:
    """Poll `condition` until it holds; fail after a generous `timeout` (bounded, not a sleep)."""
    async with asyncio.timeout(timeout):
        while not condition():
            await asyncio.sleep(0.01)


@dataclass(frozen=True)
class _Held:
    entered: threading.Event  # the lane reached a copy's build
    release: threading.Event  # set by the test: the lane goes on


@pytest.fixture
def held_lane(parts: tuple[LocalSource, Store, Sync], monkeypatch: pytest.MonkeyPatch) -> Iterator[_Held]:
    """The second lane stops before building each copy (after reading it) until the event is set;
    its `entered` event is set once the lane got there."""
    sync = parts[2]
    lane = _Held(threading.Event(), threading.Event())
    real = sync._build_costly

    def held(stored: Sequence[StoredMessage]) -> list[CopyRecord]:
        lane.entered.set()
        assert lane.release.wait(30), "the test never released the lane"
        return real(stored)

    monkeypatch.setattr(sync, "_build_costly", held)
    yield lane
    lane.release.set()  # never leave a worker thread waiting


async def test_a_reconcile_does_not_wait_for_the_second_lane(
    parts: tuple[LocalSource, Store, Sync], held_lane: _Held
) -> None:
    source, store, sync = parts
    await sync.catch_up()  # built (empty): from now on a catch-up is a reconcile, not a rebuild
    costly = await source.deliver(red_team(), [f"a@{DOMAIN}", f"b@{DOMAIN}"])
    small = await source.deliver(_small("small"), [f"o@{DOMAIN}"])
    # What IMAP does on every expunge, reconnect and 300 s: it must not hold small mail back
    # until the costly backlog is indexed (before the fix it waited for the lane, here forever).
    async with asyncio.timeout(10):
        await sync.catch_up()
    assert await store.index.known_ids() == set(small)
    assert not sync.caught_up  # the lane still holds copies that catch-up found
    held_lane.release.set()
    await sync.settled()
    assert await store.index.known_ids() == set(costly + small)
    assert sync.caught_up


async def test_settled_restarts_a_lane_that_ended_with_copies_queued(parts: tuple[LocalSource, Store, Sync]) -> None:
    source, store, sync = parts
    costly = await source.deliver(red_team(), [f"a@{DOMAIN}"])
    # The read hands the copy to the lane and returns at once (`ingest` awaits its reads as
    # tasks, which would give the lane a turn to start).
    assert await sync._read(costly) == []
    lane = sync._costly_task
    assert lane is not None
    lane.cancel()  # it never ran: its copy is still queued
    async with asyncio.timeout(10):
        await sync.settled()
    assert await store.index.known_ids() == set(costly)


async def test_a_costly_copy_that_fails_once_is_tried_again(
    parts: tuple[LocalSource, Store, Sync], monkeypatch: pytest.MonkeyPatch
) -> None:
    source, store, sync = parts
    monkeypatch.setattr(sync_module, "COSTLY_RETRY_DELAYS", (0.01,), raising=False)
    real = sync._build_costly
    calls: list[int] = []

    def once_broken(stored: Sequence[StoredMessage]) -> list[CopyRecord]:
        calls.append(len(stored))
        if len(calls) == 1:
            raise OSError("disk full")
        return real(stored)

    monkeypatch.setattr(sync, "_build_costly", once_broken)
    costly = await source.deliver(red_team(), [f"a@{DOMAIN}"])
    await sync.catch_up()
    assert await store.index.known_ids() == set(costly)
    assert sync.caught_up
    assert len(calls) == 2


async def test_a_costly_copy_given_up_is_not_caught_up(
    parts: tuple[LocalSource, Store, Sync], monkeypatch: pytest.MonkeyPatch
) -> None:
    source, store, sync = parts
    monkeypatch.setattr(sync_module, "COSTLY_RETRY_DELAYS", (0.01,), raising=False)
    await sync.catch_up()

    def broken(stored: Sequence[StoredMessage]) -> list[CopyRecord]:
        raise OSError("disk full")

    monkeypatch.setattr(sync, "_build_costly", broken)
    await source.deliver(red_team(), [f"a@{DOMAIN}"])
    await sync.catch_up()
    await sync.settled()
    assert await store.index.known_ids() == set()
    # Retention retires the marks of messages an index that is caught up lacks: not this one's.
    assert not sync.caught_up
    monkeypatch.delattr(sync, "_build_costly")  # mended
    await sync.catch_up()  # what the sync's retry does
    await sync.settled()
    assert sync.caught_up


async def test_a_costly_copy_given_up_in_a_rebuild_is_not_caught_up(
    parts: tuple[LocalSource, Store, Sync], monkeypatch: pytest.MonkeyPatch
) -> None:
    source, store, sync = parts
    monkeypatch.setattr(sync_module, "COSTLY_RETRY_DELAYS", (0.01,), raising=False)

    def broken(stored: Sequence[StoredMessage]) -> list[CopyRecord]:
        raise OSError("disk full")

    monkeypatch.setattr(sync, "_build_costly", broken)
    small = await source.deliver(_small("small"), [f"o@{DOMAIN}"])
    await source.deliver(red_team(), [f"a@{DOMAIN}"])
    await sync.catch_up()  # a first build: it waits for the lane, which gives the copy up
    assert await store.index.known_ids() == set(small)
    assert not sync.rebuilding  # one bad copy does not keep every read at 503
    assert not sync.caught_up


async def test_a_small_copy_skipped_is_not_caught_up(
    parts: tuple[LocalSource, Store, Sync], monkeypatch: pytest.MonkeyPatch
) -> None:
    source, store, sync = parts
    await sync.catch_up()
    real = sync._build_all

    def poisoned(stored: Sequence[StoredMessage]) -> list[CopyRecord]:
        if any(b"Subject: poison" in m.raw for m in stored):
            raise ValueError("a bug in the parser")
        return real(stored)

    monkeypatch.setattr(sync, "_build_all", poisoned)
    good = await source.deliver(_small("good"), [f"o@{DOMAIN}"])
    await source.deliver(_small("poison"), [f"p@{DOMAIN}"])
    await sync.catch_up()
    assert await store.index.known_ids() == set(good)  # the others are indexed
    assert not sync.caught_up  # but the index lacks a copy the mailbox has
    monkeypatch.delattr(sync, "_build_all")  # mended
    await sync.catch_up()
    assert sync.caught_up


async def test_a_copy_read_before_a_new_generation_is_not_indexed_after_it(
    parts: tuple[LocalSource, Store, Sync], held_lane: _Held, monkeypatch: pytest.MonkeyPatch
) -> None:
    source, store, sync = parts
    await sync.catch_up()
    (copy,) = await source.deliver(_big("before"), [f"big@{DOMAIN}"])
    indexed: list[CopyRecord] = []
    sync.on_indexed(indexed.extend)
    await sync.ingest([copy])
    await _until(held_lane.entered.is_set)  # the lane has read it
    # A new UIDVALIDITY: the same id now names another message.
    path = source.maildir._path(copy)
    assert path is not None
    path.write_bytes(path.read_bytes().replace(b"Subject: before", b"Subject: after"))
    monkeypatch.setattr(LocalSource, "generation", "maildir-2")
    rebuild = asyncio.create_task(sync.catch_up())
    await _until(lambda: sync.rebuilding)
    held_lane.release.set()
    async with asyncio.timeout(15):
        await rebuild
    assert [r.subject for r in indexed] == ["after"]  # never the old generation's copy
    assert await store.index.known_ids() == {copy}


async def test_a_failed_first_build_is_retried(
    parts: tuple[LocalSource, Store, Sync], monkeypatch: pytest.MonkeyPatch
) -> None:
    source, store, sync = parts
    small = await source.deliver(_small("backlog"), [f"o@{DOMAIN}"])
    monkeypatch.setattr(sync_module, "RETRY_DELAYS", (0.01,), raising=False)
    real_add = store.index.add
    failures = [sqlite3.OperationalError("database is locked"), OSError("disk full")]

    async def add(records: Sequence[CopyRecord]) -> None:
        if failures:
            raise failures.pop(0)
        await real_add(records)

    monkeypatch.setattr(store.index, "add", add)
    assert await source.next_batch() is not None  # as after a restart: the backlog is not announced
    await sync.prepare()
    assert sync.rebuilding
    running = asyncio.create_task(sync.run())
    try:
        # The local source never calls for a catch-up: before the fix, reads answered 503 for good.
        await _until(lambda: not sync.rebuilding)
        assert sync.caught_up
        assert await store.index.known_ids() == set(small)
    finally:
        running.cancel()


async def test_a_failed_first_build_is_retried_and_reported(
    parts: tuple[LocalSource, Store, Sync], monkeypatch: pytest.MonkeyPatch
) -> None:
    source, store, sync = parts
    small = await source.deliver(_small("backlog"), [f"o@{DOMAIN}"])
    monkeypatch.setattr(sync_module, "RETRY_DELAYS", (0.01,), raising=False)
    real_add = store.index.add
    broken = True

    async def add(records: Sequence[CopyRecord]) -> None:
        if broken:
            raise sqlite3.OperationalError("database is locked")
        await real_add(records)

    monkeypatch.setattr(store.index, "add", add)
    assert await source.next_batch() is not None  # as after a restart: the backlog is not announced
    await sync.prepare()
    assert sync.rebuilding
    running = asyncio.create_task(sync.run())
    try:
        # The local source never calls for a catch-up: the sync must retry on its own, and say so.
        await _until(lambda: sync.failing)
        assert sync.rebuilding and not running.done()
        broken = False
        await _until(lambda: not sync.rebuilding)
        assert sync.caught_up and not sync.failing
        assert await store.index.known_ids() == set(small)
    finally:
        running.cancel()


async def test_a_long_catch_up_is_written_in_groups_in_mailbox_order(parts: tuple[LocalSource, Store, Sync]) -> None:
    source, store, sync = parts
    ids = []
    for i in range(sync_module.ADD_BATCH * 2 + 37):
        rcpt = f"g{i % 7}@{DOMAIN}"
        ids += await source.deliver(make_message(to=rcpt, subject=f"n{i}").as_bytes(), [rcpt])
    writes: list[list[str]] = []
    sync.on_indexed(lambda records: writes.append([r.copy_id for r in records]))
    await sync.ingest(ids)
    # Each write is one transaction: a full group, then the rest; the listeners hear each once.
    assert [len(w) for w in writes] == [sync_module.ADD_BATCH, sync_module.ADD_BATCH, 37]
    assert [i for w in writes for i in w] == ids
    grants = await store.index.grants_after(None, limit=len(ids) + 1)
    assert [g.message_id for g in grants] == ids  # indexed (sequenced) in the order they came


async def test_the_rebuilding_state_is_written_to_the_index_and_a_failed_write_is_tried_again(
    parts: tuple[LocalSource, Store, Sync], monkeypatch: pytest.MonkeyPatch
) -> None:
    source, store, sync = parts
    told: list[bool] = []
    sync.on_state(lambda: told.append(sync.rebuilding))
    await source.deliver(make_message(to=f"a@{DOMAIN}").as_bytes(), [f"a@{DOMAIN}"])
    await sync.prepare()  # a new index over a mailbox with mail: rebuilding, said in the meta
    assert sync.rebuilding and await store.index.get_meta(sync_module.REBUILDING_KEY) == "1"
    real = store.index.set_meta
    failures = [sqlite3.OperationalError("database is locked")]

    async def flaky(key: str, value: str) -> None:
        if (key, value) == (sync_module.REBUILDING_KEY, "0") and failures:
            raise failures.pop()
        await real(key, value)

    monkeypatch.setattr(store.index, "set_meta", flaky)
    with pytest.raises(sqlite3.OperationalError):
        await sync.catch_up()  # indexed, but saying "done" failed
    await sync.catch_up()  # the next catch-up says it again, even though nothing changed here
    assert not sync.rebuilding and await store.index.get_meta(sync_module.REBUILDING_KEY) == "0"
    assert told[0] is True and told[-1] is False
