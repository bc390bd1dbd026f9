"""The sync's shared parse and its second lane, on the real embedded source and the SQLite store."""

from __future__ import annotations

import time
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest

from corpus.malformed.cases import red_team
from gateway import sync as sync_module
from gateway.mail.parse import ParsedBody
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
