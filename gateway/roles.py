"""The part this gateway plays on its store: the mailbox's reader, or a standby.

Exactly one gateway on a store reads the mailbox: it follows the source (IMAP IDLE, push hints),
runs the sync, retention and the webhook feeder. On SQLite that is the one gateway, from the
start. On PostgreSQL it is the holder of the reader lock (gateway/store/postgres/coordination.py);
the others serve the whole API and stand by, and one of them takes over within seconds when the
reader dies or loses the database. The new reader resumes from the index: a copy id is indexed
once whoever adds it, so nothing is indexed twice, and the catch-up finds what arrived meanwhile.

Every gateway serves reads, so every gateway must know whether the index is being rebuilt (reads
answer 503 then): the reader keeps that in the index's meta (gateway/sync.py) and announces each
change; a standby reads it when told, and every few seconds in case the news was lost.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import AsyncIterator, Callable, Coroutine, Sequence
from typing import Any, Final, Literal

from gateway.errors import StoreError, StoreUnavailable
from gateway.sources.base import MailSource
from gateway.store import Coordination, MessageIndex, News
from gateway.sync import GENERATION_KEY, REBUILDING_KEY, Sync

__all__ = ["Duty", "Roles"]

log = logging.getLogger(__name__)

STATE_CHECK_EVERY: Final = 5.0  # a standby reads the index's state this often even when told nothing
RETRY_PAUSE: Final = 2.0  # seconds before a reader whose start failed tries again
START_TAKE_TIMEOUT: Final = 5.0  # how long an exclusive gateway waits for the reader role at start

Duty = tuple[str, Callable[[], Coroutine[Any, Any, None]]]
"""A task the reader runs besides the sync, by name (retention, the webhook feeder)."""


class Roles:
    """Stands by until this gateway holds the reader role, then reads the mailbox until it is lost."""

    def __init__(
        self,
        coordination: Coordination,
        source: MailSource,
        sync: Sync,
        index: MessageIndex,
        *,
        duties: Sequence[Duty] = (),
        exclusive: bool = False,
    ) -> None:
        self._coordination = coordination
        self._source = source
        self._sync = sync
        self._index = index
        self._duties = duties
        self._exclusive = exclusive  # the mailbox is this process's own (the embedded intake)
        self._held: contextlib.AsyncExitStack | None = None  # the role taken at start, when exclusive
        self._held_lost: asyncio.Event | None = None
        # A gateway alone on its store is the reader from the start: nobody else could be.
        self.role: Literal["reader", "standby"] = "standby" if coordination.shared else "reader"
        self.sync_task: asyncio.Task[None] | None = None
        """The sync while this gateway reads the mailbox (None before it ever did)."""
        self.failed_starts = 0
        """Tries in a row to start reading that failed (the role was given up each time)."""
        self.stopped = False
        """The sync ended while this gateway held the role (it crashed, or the gateway is stopping):
        it reads no more, and gave the role up for another gateway to take."""
        self._prepared = False  # the sync's prepare ran for the reader this gateway is about to be
        self._shared_rebuilding = False  # what the index's meta said, the last time a standby looked
        self._look = asyncio.Event()
        self._pause = 0.0  # seconds to wait, role given up, before asking for it again
        sync.on_state(lambda: coordination.announce(News(state=True)))

    @property
    def rebuilding(self) -> bool:
        """Whether the index is being rebuilt (reads answer 503), as this gateway knows it."""
        if self.role == "reader" or not self._coordination.shared:
            return self._sync.rebuilding
        return self._shared_rebuilding

    async def prepare(self) -> None:
        """Before the API serves: what reads must know of the index. A gateway alone on its
        store is its reader from the start, so its sync prepares now; a shared one looks."""
        if self._coordination.shared and self._exclusive:
            await self._take_at_start()
        try:
            if self._coordination.shared and not self._exclusive:
                await self._read_state()
            else:
                await self._sync.prepare()
                self._prepared = True
        except BaseException:
            await self.release()
            raise

    async def release(self) -> None:
        """Give up a role taken at start that `run` never took over (start-up failed after it)."""
        held, self._held = self._held, None
        if held is not None:
            await held.aclose()

    async def _take_at_start(self) -> None:
        """The embedded intake's mail is in this process's Maildir alone: another gateway reading
        the store's index would forget it all. Refuse to start beside one."""
        stack = contextlib.AsyncExitStack()
        try:
            async with asyncio.timeout(START_TAKE_TIMEOUT):
                self._held_lost = await stack.enter_async_context(self._coordination.reader())
        except TimeoutError:
            await stack.aclose()
            raise StoreError(
                "another gateway already reads this database's mail; the embedded SMTP intake is"
                " single-process: run one gateway with it, or several with AGENTMAIL_SOURCE=imap (Dovecot)"
            ) from None
        self._held = stack

    def heard(self, news: News) -> None:
        """News from any gateway: a push hint is for the reader, a state change for the standbys."""
        if news.hint and self.role == "reader":
            self._source.hint("push")
        if news.state or news.everything:
            self._look.set()

    def hint(self) -> None:
        """A push hint arrived here (Dovecot may send it to any gateway): the reader looks now."""
        if self.role == "reader":
            self._source.hint("push")
        else:
            self._coordination.announce(News(hint=True))

    async def run(self) -> None:
        """Read the mailbox whenever this gateway holds the reader role; ends with the sync."""
        watcher = asyncio.create_task(self._watch_state(), name="index state")
        try:
            while True:
                try:
                    async with self._role() as lost:
                        if await self._read(lost):
                            return
                except Exception:
                    # Never end for good on a surprise (a read-only database after a failover):
                    # the role is given up above, and taken again once reading can start.
                    log.exception("reading the mailbox failed; trying again")
                    self._pause = RETRY_PAUSE
                if self._pause:
                    self.failed_starts += 1  # /health says failing after a few in a row
                await asyncio.sleep(self._pause)
                self._pause = 0.0
        finally:
            watcher.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await watcher

    @contextlib.asynccontextmanager
    async def _role(self) -> AsyncIterator[asyncio.Event]:
        """The reader role: the one taken at start (exclusive) the first time, else asked for."""
        held, self._held = self._held, None
        if held is not None and self._held_lost is not None:
            async with held:
                yield self._held_lost
            return
        async with self._coordination.reader() as lost:
            yield lost

    async def _read(self, lost: asyncio.Event) -> bool:
        """Read until the role is lost (False) or the sync ends (True: stopping, or it crashed)."""
        if self._coordination.shared:
            log.info("this gateway reads the mailbox now")
        duties: list[asyncio.Task[None]] = []
        losing = asyncio.create_task(lost.wait(), name="reader role")
        try:
            await self._source.follow()
            if not self._prepared:
                await self._sync.prepare()  # a reader that died mid-rebuild: this one finishes it
            self._prepared = False
            # Only now: until its sync has looked, the index's state is the one the meta says.
            self.role = "reader"
            self.failed_starts = 0
            sync = self.sync_task = asyncio.create_task(self._sync.run(), name="sync")
            sync.add_done_callback(_log_crash)
            for name, duty in self._duties:
                task = asyncio.create_task(duty(), name=name)
                task.add_done_callback(_log_crash)
                duties.append(task)
            await asyncio.wait([sync, losing], return_when=asyncio.FIRST_COMPLETED)
            if losing.done() and self._coordination.shared:
                self.role = "standby"  # at once: another gateway may hold the role already
            self.stopped = sync.done()
            return self.stopped
        except (StoreError, StoreUnavailable) as exc:
            log.warning("reading the mailbox could not start (%s); trying again", exc)
            self._pause = RETRY_PAUSE  # after giving the role up: another gateway may do better
            return False
        finally:
            losing.cancel()
            tasks = [*duties, *([self.sync_task] if self.sync_task is not None else [])]
            for task in tasks:
                task.cancel()
            await asyncio.gather(*tasks, losing, return_exceptions=True)
            if self._coordination.shared:
                self.role = "standby"
            self._look.set()
            await self._source.unfollow()

    async def _watch_state(self) -> None:
        """While standing by, keep what the index's meta says about a rebuild."""
        while True:
            with contextlib.suppress(TimeoutError):
                async with asyncio.timeout(STATE_CHECK_EVERY):
                    await self._look.wait()
            self._look.clear()
            if self.role == "standby":
                try:
                    await self._read_state()
                except (StoreError, StoreUnavailable):
                    pass  # the store is away: /ready says so; the next look tries again
                except Exception:
                    log.exception("reading the index's state failed; trying again")

    async def _read_state(self) -> None:
        # An index no reader has filled yet (no generation) is as good as one being rebuilt.
        generation = await self._index.get_meta(GENERATION_KEY)
        self._shared_rebuilding = generation is None or await self._index.get_meta(REBUILDING_KEY) == "1"


def _log_crash(task: asyncio.Task[None]) -> None:
    if not task.cancelled() and task.exception() is not None:
        what = "new mail is no longer indexed" if task.get_name() == "sync" else "it is not restarted"
        log.error("the %s task stopped: %s", task.get_name(), what, exc_info=task.exception())
