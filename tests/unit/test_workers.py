"""Index rows built in worker processes: the same rows, a dead worker replaced, nothing lost.

Real worker processes (spawned), the real embedded Maildir and the SQLite index.
"""

from __future__ import annotations

import asyncio
import os
import signal
import sys
import time
from collections.abc import AsyncIterator, Callable
from pathlib import Path

import pytest

from gateway.sources.local import LocalSource
from gateway.store import Store
from gateway.store.sqlite import open_sqlite
from gateway.sync import Sync, build_records
from gateway.workers import RecordBuilder, WorkerDied
from tests.conftest import make_message

DOMAIN = "w.test"
CATCHALL = f"catchall@{DOMAIN}"
MAX_BYTES = 25 * 1024 * 1024


async def _until(condition: Callable[[], bool], timeout: float = 30.0) -> None:
    """Poll `condition` until it holds; fail after a generous `timeout` (bounded, not a sleep)."""
    async with asyncio.timeout(timeout):
        while not condition():
            await asyncio.sleep(0.01)


def _mail(i: int) -> bytes:
    return make_message(
        to=f"user-{i % 7}@{DOMAIN}",
        subject=f"Sign-in {i}",
        text=f"Your verification code is {100000 + i}.",
        html=f'<p>Code <b>{100000 + i}</b></p><a href="https://example.com/verify?t={i}">Verify</a>',
    ).as_bytes()


@pytest.fixture
async def builder() -> AsyncIterator[RecordBuilder]:
    made = RecordBuilder(build_records, catchall=CATCHALL, max_bytes=MAX_BYTES, workers=2, warm_rate=1)
    yield made
    await made.close()


@pytest.fixture
async def parts(tmp_path: Path) -> AsyncIterator[tuple[LocalSource, Store]]:
    source = LocalSource(tmp_path / "maildir")
    store = open_sqlite(tmp_path / "data", domain=DOMAIN, clock=time.time)
    await source.start()
    yield source, store
    await source.stop()
    await store.engine.close()


async def _warm(builder: RecordBuilder) -> None:
    assert builder.wants(1) is False  # the first copies start the pool; it is not ready yet
    await _until(lambda: builder.wants(1))
    await _until(lambda: len(builder.worker_pids()) == builder.workers)


async def test_workers_build_the_rows_the_gateway_process_builds(
    builder: RecordBuilder, parts: tuple[LocalSource, Store]
) -> None:
    source, _ = parts
    ids = [i for n in range(24) for i in await source.deliver(_mail(n), [f"user-{n % 7}@{DOMAIN}", f"cc@{DOMAIN}"])]
    stored = await source.fetch(ids)
    await _warm(builder)
    assert all(pid != os.getpid() for pid in builder.worker_pids())
    built = await builder.build(stored)
    assert built == build_records(stored, CATCHALL, MAX_BYTES)
    assert [r.codes[0].value for r in built[::2]] == [str(100000 + n) for n in range(24)]


async def test_a_slow_trickle_never_starts_the_pool(parts: tuple[LocalSource, Store]) -> None:
    clock = [0.0]
    made = RecordBuilder(build_records, catchall=CATCHALL, max_bytes=MAX_BYTES, workers=2, clock=lambda: clock[0])
    for _ in range(100):  # one copy every 2 s: below WARM_RATE a second
        assert made.wants(1) is False
        clock[0] += 2.0
    assert not made.running and made.worker_pids() == []
    await made.close()


async def test_a_killed_worker_fails_its_batch_and_the_pool_is_replaced(
    builder: RecordBuilder, parts: tuple[LocalSource, Store]
) -> None:
    source, _ = parts
    ids = [i for n in range(64) for i in await source.deliver(_mail(n), [f"user-{n % 7}@{DOMAIN}"])]
    stored = await source.fetch(ids)
    await _warm(builder)
    old = set(builder.worker_pids())
    building = asyncio.create_task(builder.build(stored * 20))  # long enough to be in flight
    await _until(lambda: building.done() or bool(old))
    for pid in old:
        os.kill(pid, signal.SIGKILL)
    with pytest.raises(WorkerDied):
        await building
    assert not builder.running
    # The next copies start a new pool, whose workers build as before.
    await _warm(builder)
    assert old.isdisjoint(builder.worker_pids())
    assert await builder.build(stored) == build_records(stored, CATCHALL, MAX_BYTES)


async def test_an_idle_pool_stops_and_gives_its_memory_back(parts: tuple[LocalSource, Store]) -> None:
    source, _ = parts
    made = RecordBuilder(
        build_records, catchall=CATCHALL, max_bytes=MAX_BYTES, workers=1, warm_rate=1, idle_seconds=0.2
    )
    try:
        stored = await source.fetch(await source.deliver(_mail(1), [f"user-1@{DOMAIN}"]))
        await _warm(made)
        (pid,) = made.worker_pids()
        assert len(await made.build(stored)) == 1
        await _until(lambda: not made.running)
        await _until(lambda: not Path(f"/proc/{pid}").exists() or _zombie(pid))
    finally:
        await made.close()


def _zombie(pid: int) -> bool:
    try:
        return Path(f"/proc/{pid}/stat").read_text().split(") ")[1].startswith("Z")
    except FileNotFoundError:
        return True


async def test_a_worker_killed_during_a_rebuild_loses_nothing(
    builder: RecordBuilder, parts: tuple[LocalSource, Store]
) -> None:
    """Kill -9 every worker while a catch-up indexes through them: each copy is indexed exactly once."""
    source, store = parts
    ids = [i for n in range(400) for i in await source.deliver(_mail(n), [f"user-{n % 7}@{DOMAIN}"])]
    sync = Sync(source, store.index, catchall=CATCHALL, max_bytes=MAX_BYTES, builder=builder)
    added: list[str] = []
    sync.on_indexed(lambda records: added.extend(r.copy_id for r in records))
    killed: set[int] = set()

    def kill_once_in_flight(records: object) -> None:
        pids = builder.worker_pids()
        if not killed and builder.running and pids and len(added) >= 64:
            for pid in pids:
                os.kill(pid, signal.SIGKILL)
                killed.add(pid)

    sync.on_indexed(kill_once_in_flight)
    await sync.catch_up()
    assert killed, "the workers were never up during the catch-up"
    assert sorted(added) == sorted(ids)  # every copy once: none lost, none twice
    assert await store.index.known_ids() == set(ids)
    assert sync.caught_up
    page = await store.index.count()
    assert page == len(ids)


_PARENT = """
import asyncio, sys
from gateway.sync import build_records
from gateway.workers import RecordBuilder

async def main():
    builder = RecordBuilder(build_records, catchall="c@w.test", max_bytes=1024, workers=2, warm_rate=1)
    builder.wants(1)
    while len(builder.worker_pids()) < 2 or not builder.wants(1):
        await asyncio.sleep(0.01)
    print(*builder.worker_pids(), flush=True)
    await asyncio.sleep(3600)

if __name__ == "__main__":
    asyncio.run(main())
"""


async def test_workers_end_with_a_gateway_killed_by_sigkill(tmp_path: Path) -> None:
    script = tmp_path / "parent.py"
    script.write_text(_PARENT)
    parent = await asyncio.create_subprocess_exec(
        sys.executable, str(script), stdout=asyncio.subprocess.PIPE, cwd=Path(__file__).parents[2]
    )
    assert parent.stdout is not None
    async with asyncio.timeout(30):
        line = await parent.stdout.readline()
    pids = [int(pid) for pid in line.split()]
    assert len(pids) == 2 and all(_alive(pid) for pid in pids)
    parent.kill()
    await parent.wait()
    await _until(lambda: not any(_alive(pid) for pid in pids))


def _alive(pid: int) -> bool:
    return Path(f"/proc/{pid}").exists() and not _zombie(pid)
