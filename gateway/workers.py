"""Index rows built in worker processes, so a burst or a rebuild uses every core.

Building a row (parse, recipients, extraction, search fields) is pure CPU: on the event loop it
holds up the SMTP intake and the API, and one process uses one core. Under load the sync hands
batches of copies to a small pool of worker processes and gets the rows back; the event loop
keeps only the protocol work, the durable writes and the index's own inserts.

The pool exists only while there is work: it starts once mail comes faster than WARM_RATE a
second (a rebuild, a burst) and stops after IDLE_SECONDS without any, so an idle gateway is one
process (a worker costs ~30 MB) and a lone message is built at once, without a hop. A worker
that dies (killed, out of memory) is replaced by a new pool at the next batch; the batches it
held fail with `WorkerDied`, and the sync builds their copies again one by one.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import contextlib
import ctypes
import logging
import multiprocessing
import os
import signal
import time
from collections import deque
from collections.abc import Callable, Sequence
from concurrent.futures.process import BrokenProcessPool
from typing import Final

from gateway.sources.base import StoredMessage
from gateway.store import CopyRecord

__all__ = ["IDLE_SECONDS", "WARM_RATE", "RecordBuilder", "WorkerDied"]

log = logging.getLogger(__name__)

WARM_RATE: Final = 20
"""Copies built within the last second that start the pool. A worker takes ~0.7 s to start: until
then the gateway process builds; a lone message never waits for a pool."""
RETRY_START: Final = 60.0
"""Seconds before another pool is started after one whose workers did not start."""
IDLE_SECONDS: Final = 30.0
"""A pool with no work for this long is stopped: its processes' memory goes back."""

_PR_SET_PDEATHSIG: Final = 1  # from linux/prctl.h

Build = Callable[[Sequence[StoredMessage], str, int], list[CopyRecord]]
"""The pure function a worker runs: (copies, catch-all address, size limit) → their rows."""


def _die_with_parent(parent: int) -> None:
    """Worker initializer: end with the gateway, even one killed by SIGKILL (Linux), never linger.

    A worker blocked on its task queue would not notice: the queue's pipe stays open in itself.
    """
    with contextlib.suppress(OSError, AttributeError):
        ctypes.CDLL(None, use_errno=True).prctl(_PR_SET_PDEATHSIG, signal.SIGKILL)
    if os.getppid() != parent:  # the gateway died before the line above took effect
        os._exit(0)


class WorkerDied(Exception):
    """A worker process ended while it held this batch; the pool is replaced at the next batch."""


class RecordBuilder:
    """Builds index rows in a pool of worker processes, started under load and stopped when idle."""

    def __init__(
        self,
        build: Build,
        *,
        catchall: str,
        max_bytes: int,
        workers: int,
        warm_rate: int = WARM_RATE,
        idle_seconds: float = IDLE_SECONDS,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self._build = build
        self._catchall = catchall
        self._max_bytes = max_bytes
        self.workers = workers
        self._warm_rate = warm_rate
        self._idle_seconds = idle_seconds
        self._clock = clock
        self._pool: concurrent.futures.ProcessPoolExecutor | None = None
        self._ready = False  # a worker of the pool has started: batches go there
        self._start_after = 0.0  # no new pool before this (after one that did not start)
        self._recent: deque[tuple[float, int]] = deque()  # (when, copies) over the last second
        self._recent_total = 0
        self._in_flight = 0
        self._last_used = 0.0
        self._reaper: asyncio.TimerHandle | None = None

    @property
    def running(self) -> bool:
        """Whether the pool is up and a worker has started: batches are built there."""
        return self._ready

    def worker_pids(self) -> list[int]:
        """The pool's live worker processes (empty when it is down)."""
        pool = self._pool
        if pool is None:
            return []
        processes = getattr(pool, "_processes", None) or {}  # the stdlib keeps them here, by pid
        return [pid for pid, process in list(processes.items()) if process.is_alive()]

    def wants(self, copies: int) -> bool:
        """Count `copies` about to be built; True when they should go to the pool (it is up and ready).

        Mail coming at WARM_RATE or faster starts the pool in the background; until its first
        worker has started, copies are still built in the gateway process.
        """
        if self.workers < 1:
            return False
        now = self._clock()
        self._recent.append((now, copies))
        self._recent_total += copies
        while self._recent and self._recent[0][0] < now - 1.0:
            self._recent_total -= self._recent.popleft()[1]
        if self._pool is None and self._recent_total >= self._warm_rate and now >= self._start_after:
            self._start()
        if self._pool is not None:
            self._last_used = now  # mail is coming: the pool is not idle
        return self._ready

    def _start(self) -> None:
        # Spawned, never forked: the gateway's threads and open sockets stay its own.
        pool = concurrent.futures.ProcessPoolExecutor(
            max_workers=self.workers,
            mp_context=multiprocessing.get_context("spawn"),
            initializer=_die_with_parent,
            initargs=(os.getpid(),),
        )
        self._pool, self._ready = pool, False
        self._last_used = self._clock()
        self._arm_reaper()
        log.info("indexing in %d worker processes while mail comes fast", self.workers)
        loop = asyncio.get_running_loop()

        def started(future: concurrent.futures.Future[int]) -> None:
            ok = not future.cancelled() and future.exception() is None
            with contextlib.suppress(RuntimeError):  # the loop closed meanwhile
                loop.call_soon_threadsafe(self._started if ok else self._not_started, pool)

        for _ in range(self.workers):  # each one spawns a process (the stdlib starts them on demand)
            pool.submit(os.getpid).add_done_callback(started)

    def _started(self, pool: concurrent.futures.ProcessPoolExecutor) -> None:
        if self._pool is pool:
            self._ready = True

    def _not_started(self, pool: concurrent.futures.ProcessPoolExecutor) -> None:
        if self._pool is pool and not self._ready:
            # The gateway process goes on building; another try once RETRY_START has passed.
            log.warning("the indexing worker processes did not start; indexing in the gateway process")
            self._pool, self._start_after = None, self._clock() + RETRY_START
            pool.shutdown(wait=False, cancel_futures=True)

    async def build(self, stored: Sequence[StoredMessage]) -> list[CopyRecord]:
        """The rows of these copies, built in a worker process of the pool (`wants` said it is ready)."""
        pool = self._pool
        if pool is None:
            raise WorkerDied("the indexing pool stopped")
        self._in_flight += 1
        try:
            loop = asyncio.get_running_loop()
            return await loop.run_in_executor(pool, self._build, list(stored), self._catchall, self._max_bytes)
        except BrokenProcessPool as exc:
            if self._pool is pool:
                self._pool, self._ready = None, False
                pool.shutdown(wait=False, cancel_futures=True)
                log.warning("an indexing worker process died; its batch is built again and the pool restarted")
            raise WorkerDied("an indexing worker process died") from exc
        finally:
            self._in_flight -= 1
            self._last_used = self._clock()
            self._arm_reaper()

    def _arm_reaper(self) -> None:
        if self._reaper is None and self._pool is not None:
            self._reaper = asyncio.get_running_loop().call_later(self._idle_seconds, self._reap)

    def _reap(self) -> None:
        self._reaper = None
        idle = self._clock() - self._last_used
        if self._in_flight or not self._ready or idle < self._idle_seconds:
            # (a pool still starting is given a whole idle period more)
            later = self._idle_seconds - idle if self._ready and idle < self._idle_seconds else self._idle_seconds
            self._reaper = asyncio.get_running_loop().call_later(later, self._reap)
            return
        pool, self._pool, self._ready = self._pool, None, False
        if pool is not None:
            log.info("indexing back in the gateway process: no mail for %.0f s", idle)
            pool.shutdown(wait=False)

    async def close(self) -> None:
        """Stop the pool and wait for its processes to end."""
        if self._reaper is not None:
            self._reaper.cancel()
            self._reaper = None
        pool, self._pool, self._ready = self._pool, None, False
        if pool is not None:
            with contextlib.suppress(Exception):
                await asyncio.to_thread(pool.shutdown, wait=True, cancel_futures=True)
