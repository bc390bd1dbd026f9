"""Source → parse → match → index: every new mailbox copy is read once and indexed.

On start it reconciles the index with the mailbox (new copies indexed, vanished ones
forgotten); then it indexes each batch the source announces, and reconciles again whenever
the source says it may have lost track. A new source generation (IMAP UIDVALIDITY) voids
every indexed id: the index is emptied and rebuilt. Marks survive that, being keyed by message.

While the index is being built from nothing (deleted, new, or emptied by a new generation)
it is `rebuilding`: it lacks mail it will hold in a moment, so reading it would answer wrong
(empty listings, 404 for known ids and cursors); the API answers 503 meanwhile.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable, Sequence
from typing import Final

from gateway.mail.extract import extract
from gateway.mail.keys import message_key_of
from gateway.mail.parse import parse_message, raw_headers
from gateway.mail.recipients import granted_addresses
from gateway.sources.base import MailSource, SourceUnavailable, StoredMessage
from gateway.store import CopyRecord, MessageIndex

__all__ = ["Sync", "build_record"]

log = logging.getLogger(__name__)

FETCH_BATCH: Final = 16  # copies read at once: at most 16 x the message size limit in memory
INLINE_BYTES: Final = 256 * 1024  # parse on the event loop below this; above, in a worker thread
GENERATION_KEY: Final = "source_generation"  # index meta: the id space the indexed ids belong to
PREPARE_TIMEOUT: Final = 2.0  # start-up waits this long to learn whether a new index has mail to rebuild


def build_record(stored: StoredMessage, *, catchall: str, max_bytes: int) -> CopyRecord:
    """The index row for one mailbox copy: parse, match recipients, extract, key its copies. Pure."""
    parsed = parse_message(stored.raw, max_bytes=max_bytes)
    codes, links = extract(parsed)
    return CopyRecord(
        copy_id=stored.id,
        received_ts=stored.received_ts,
        size=stored.size,
        # A stray NUL (which PostgreSQL text cannot hold) reads the same on every engine.
        from_header=parsed.from_header.replace("\x00", "\ufffd"),
        to=parsed.to,
        subject=parsed.subject.replace("\x00", "\ufffd"),
        message_key=message_key_of(parsed, stored.raw),
        grants=granted_addresses(raw_headers(stored.raw), catchall=catchall),
        codes=tuple(codes),
        links=tuple(links),
    )


class Sync:
    """Keeps the index in step with one source."""

    def __init__(self, source: MailSource, index: MessageIndex, *, catchall: str, max_bytes: int) -> None:
        self._source = source
        self._index = index
        self._catchall = catchall
        self._max_bytes = max_bytes
        self._changed = asyncio.Condition()
        self._listeners: list[Callable[[Sequence[CopyRecord]], None]] = []
        self._rebuilding = False
        self._caught_up = False

    @property
    def rebuilding(self) -> bool:
        """Whether the index is being built from nothing and does not yet hold the mailbox's mail."""
        return self._rebuilding

    @property
    def caught_up(self) -> bool:
        """Whether a catch-up of the current generation completed: the index then held every copy
        the mailbox had (what it lacks has left the mailbox, not just not been read yet)."""
        return self._caught_up

    async def prepare(self) -> None:
        """Before the API serves: an index with no mailbox state over a mailbox with mail is `rebuilding`."""
        if await self._index.get_meta(GENERATION_KEY) is not None:
            return
        try:
            async with asyncio.timeout(PREPARE_TIMEOUT):
                self._rebuilding = bool(await self._source.snapshot())
        except (TimeoutError, SourceUnavailable):
            self._rebuilding = True  # cannot tell: assume the worst until a catch-up completes

    def on_indexed(self, listener: Callable[[Sequence[CopyRecord]], None]) -> None:
        """Call `listener` with each batch right after it is indexed (the hub hooks in here)."""
        self._listeners.append(listener)

    async def catch_up(self) -> None:
        """Index every copy the mailbox has and the index lacks; forget vanished ones."""
        present = await self._source.snapshot()
        generation = self._source.generation
        if await self._index.get_meta(GENERATION_KEY) != generation:
            if await self._index.count():
                log.warning("the mailbox's ids changed (now %s): rebuilding the index", generation)
            self._rebuilding = self._rebuilding or bool(present)
            self._caught_up = False  # until the index holds this generation's copies
            await self._index.clear()
            await self._index.set_meta(GENERATION_KEY, generation)
        known = await self._index.known_ids()
        gone = known.difference(present)
        if gone:
            await self._index.remove(gone)
        missing = [i for i in present if i not in known]
        await self.ingest(missing)
        self._rebuilding = False
        self._caught_up = True
        if missing or gone:
            log.info("index caught up: %d copies added, %d forgotten", len(missing), len(gone))
            async with self._changed:
                self._changed.notify_all()

    async def run(self) -> None:
        """Catch up, then index each batch the source announces until it stops."""
        try:
            await self.catch_up()
        except SourceUnavailable as exc:
            log.warning("catching up with the mailbox failed (%s); the source calls for it again", exc)
        except Exception:
            # New mail must keep flowing even if the backlog could not be read.
            log.exception("catching up with the mailbox failed; indexing new mail only")
        while True:
            changes = await self._source.next_batch()
            if changes is None:
                return
            try:
                if changes.resync:
                    await self.catch_up()
                else:
                    await self.ingest(changes.added)
            except SourceUnavailable as exc:
                # The source retries and calls for a reconcile once it is back.
                log.warning("the mailbox went away while indexing (%s)", exc)
            except Exception:
                # One bad batch must not stop the sync: log it, then a full catch-up indexes
                # whatever the mailbox holds and the index lacks.
                log.exception("indexing %d new copies failed; catching up", len(changes.added))
                try:
                    await self.catch_up()
                except Exception:
                    log.exception("catching up after a failed batch failed too")

    async def ingest(self, ids: Sequence[str]) -> None:
        """Fetch, build and index these copies (FETCH_BATCH at a time), then tell the listeners.

        A copy that cannot be read or built is logged and skipped (the next reconcile tries it
        again); it never holds up the others.
        """
        for start in range(0, len(ids), FETCH_BATCH):
            batch = ids[start : start + FETCH_BATCH]
            try:
                records = await self._read(batch)
            except Exception:
                if len(batch) == 1 or not self._source.reachable:
                    raise
                records = []
                for one in batch:  # find the one that fails; keep the rest
                    try:
                        records += await self._read([one])
                    except Exception:
                        if not self._source.reachable:
                            raise  # the mailbox went away: the reconcile after it returns
                        log.exception("mailbox copy %s cannot be indexed; skipped", one)
            await self._index.add(records)
            for listener in self._listeners:
                listener(records)
            async with self._changed:
                self._changed.notify_all()

    async def _read(self, ids: Sequence[str]) -> list[CopyRecord]:
        stored = await self._source.fetch(ids, max_bytes=self._max_bytes)
        if sum(len(m.raw) for m in stored) > INLINE_BYTES:
            # A big message costs a parse of ~0.4 s per 25 MB: never on the event loop.
            return await asyncio.to_thread(self._build_all, stored)
        return self._build_all(stored)

    def _build_all(self, stored: Sequence[StoredMessage]) -> list[CopyRecord]:
        return [build_record(m, catchall=self._catchall, max_bytes=self._max_bytes) for m in stored]

    async def wait_until(self, predicate: Callable[[], Awaitable[bool]], timeout: float) -> None:
        """Return once `await predicate()` holds after some indexing; TimeoutError after `timeout`."""
        async with asyncio.timeout(timeout), self._changed:
            while not await predicate():
                await self._changed.wait()
