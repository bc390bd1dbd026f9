"""Source → parse → match → index: every new mailbox copy is read once and indexed.

On start it reconciles the index with the mailbox (new copies indexed, vanished ones
forgotten); then it indexes each batch the source announces, and reconciles again whenever
the source says it may have lost track, or a catch-up failed or skipped a copy (with backoff:
the local source never asks). Only a rebuild waits for the second lane; a reconcile leaves
the costly copies to it and counts as caught up once they are indexed. A new source
generation (IMAP UIDVALIDITY) voids every indexed id: the index is emptied and rebuilt. Marks
survive that, being keyed by message.

While the index is being built from nothing (deleted, new, or emptied by a new generation)
it is `rebuilding`: it lacks mail it will hold in a moment, so reading it would answer wrong
(empty listings, 404 for known ids and cursors); the API answers 503 meanwhile.
"""

from __future__ import annotations

import asyncio
import logging
from collections import deque
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass
from typing import Any, Final

from gateway.mail.extract import extract_with_text
from gateway.mail.keys import message_key_of
from gateway.mail.models import Code, Link
from gateway.mail.parse import MAX_MIME_DEPTH, ParsedBody, parse_body, parse_with_headers
from gateway.mail.recipients import granted_addresses
from gateway.mail.search import SearchFields, search_fields
from gateway.mail.threads import thread_keys
from gateway.memory import release_after_big, tune_allocator
from gateway.sources.base import Changes, MailSource, SourceUnavailable, StoredMessage
from gateway.store import CopyRecord, MessageIndex
from gateway.workers import RecordBuilder

__all__ = ["FAILING_AFTER", "GENERATION_KEY", "REBUILDING_KEY", "Sync", "build_record", "build_records", "sent_grant"]

log = logging.getLogger(__name__)

FETCH_BATCH: Final = 16  # copies read at once: at most 16 x the message size limit in memory
ADD_BATCH: Final = 256
"""Copies a catch-up writes to the index in one transaction: each commit flushes a full-text
segment, so 16 a commit spent more on commits than on the rows (rows are capped in size)."""
INLINE_BYTES: Final = 256 * 1024  # parse on the event loop below this; above, in a worker thread
COSTLY_BYTES: Final = 256 * 1024
"""A copy larger than this is indexed in the second lane, so it never holds up the small ones.

Parse cost is bounded per message (gateway/mail/parse.py) and grows with size up to that
bound: below this size a hostile copy costs at most a few hundred milliseconds."""
GENERATION_KEY: Final = "source_generation"  # index meta: the id space the indexed ids belong to
REBUILDING_KEY: Final = "rebuilding"  # index meta: "1" while a rebuild from the mailbox is under way
PREPARE_TIMEOUT: Final = 2.0  # start-up waits this long to learn whether a new index has mail to rebuild
RETRY_DELAYS: Final = (1.0, 2.0, 5.0, 15.0, 60.0, 300.0)
"""Seconds before each retry of a catch-up that failed or skipped a copy (the last repeats): the
local source never calls for one itself, so a failed first build would stay rebuilding."""
FAILING_AFTER: Final = 3  # catch-ups failed in a row before /health reports the sync failing
COSTLY_RETRY_DELAYS: Final = (1.0, 4.0)
"""Seconds before each new try at a costly copy that failed; after the last, a catch-up retries it."""


def _retrieve(task: asyncio.Task[Any]) -> None:
    """Collect a finished task's error (so asyncio does not warn it was never retrieved); log a write's."""
    if not task.cancelled() and (exc := task.exception()) is not None and task.get_name().startswith("index-write"):
        log.warning("an index write failed: %s", exc)


def sent_grant(sender: str | None, *, catchall: str) -> frozenset[str]:
    """Who sees a copy from the Sent folder: its sender, when that is an address at our domain. Pure.

    Only the gateway writes to Sent, so its From is the identity that sent it; its To and Cc
    name the recipients, who see their own delivered copies, never this one.
    """
    domain = catchall.rpartition("@")[2].lower()
    if sender is None or sender == catchall.lower() or sender.rpartition("@")[2] != domain:
        return frozenset()
    return frozenset({sender})


def build_record(stored: StoredMessage, *, catchall: str, max_bytes: int) -> CopyRecord:
    """The index row for one mailbox copy: parse, match recipients, extract, key its copies. Pure."""
    return _build(stored, catchall=catchall, max_bytes=max_bytes, shared=None)[0]


def build_records(stored: Sequence[StoredMessage], catchall: str, max_bytes: int) -> list[CopyRecord]:
    """The index rows of these copies, in order; copies of one message next to each other share
    one body parse and extraction. Pure (what a worker process runs: gateway/workers.py)."""
    records = []
    shared = None
    for message in stored:
        record, shared = _build(message, catchall=catchall, max_bytes=max_bytes, shared=shared)
        records.append(record)
    return records


@dataclass(frozen=True, slots=True)
class _Shared:
    """What copies of one message share: its parsed body, and what was extracted with its subject.

    `rendered` is the HTML part's text as the extractor rendered it (search indexes that very
    text); `search` the search fields, kept with the header values they were folded from.
    """

    body: ParsedBody
    subject: str
    extracted: tuple[tuple[Code, ...], tuple[Link, ...]]
    rendered: str | None
    search: tuple[tuple[str | None, tuple[str, ...], tuple[str, ...]], SearchFields]
    """((From address, To, Cc), fields): what fold() made of this subject and body."""


def _build(
    stored: StoredMessage, *, catchall: str, max_bytes: int, shared: _Shared | None
) -> tuple[CopyRecord, _Shared]:
    """`build_record`, reusing the body parse and extraction of another copy of the same message.

    Copies differ only in the trace fields each delivery stamps on top: their body is parsed
    once (`ParsedBody.serves` compares the bytes), and each copy pays only its own header read.
    """
    body = shared.body if shared is not None else None
    if body is None or not body.serves(stored.raw, max_bytes=max_bytes, max_depth=MAX_MIME_DEPTH):
        body = parse_body(stored.raw, max_bytes=max_bytes)
    parsed, fields = parse_with_headers(stored.raw, max_bytes=max_bytes, body=body)
    if shared is not None and shared.body is body and shared.subject == parsed.subject:
        extracted = shared.extracted  # extraction reads only the subject, the text and the HTML
        rendered = shared.rendered
    else:
        shared = None  # another message: nothing of the last one applies
        codes, links, rendered = extract_with_text(parsed)
        extracted = (tuple(codes), tuple(links))
    # Search reads the subject and body (shared) and the addresses (the same for copies of
    # one delivery, but read per copy): fold them once per message, not per copy.
    addresses = (parsed.from_address, parsed.to, parsed.cc)
    if shared is not None and shared.search[0] == addresses:
        search = shared.search[1]
    else:
        search = search_fields(parsed, rendered)
    if stored.sent:
        grants = sent_grant(parsed.from_address, catchall=catchall)
    else:
        grants = granted_addresses(fields, catchall=catchall)  # the very fields raw_headers reads
    record = CopyRecord(
        copy_id=stored.id,
        received_ts=stored.received_ts,
        size=stored.size,
        # A stray NUL (which PostgreSQL text cannot hold) reads the same on every engine.
        from_header=parsed.from_header.replace("\x00", "\ufffd"),
        to=parsed.to,
        subject=parsed.subject.replace("\x00", "\ufffd"),
        message_key=message_key_of(parsed, stored.raw),
        grants=grants,
        codes=extracted[0],
        links=extracted[1],
        direction="sent" if stored.sent else "received",
        thread=thread_keys(parsed),
        search=search,
    )
    return record, _Shared(body, parsed.subject, extracted, rendered, (addresses, search))


class Sync:
    """Keeps the index in step with one source."""

    def __init__(
        self,
        source: MailSource,
        index: MessageIndex,
        *,
        catchall: str,
        max_bytes: int,
        builder: RecordBuilder | None = None,
    ) -> None:
        self._source = source
        self._builder = builder
        self._index = index
        self._catchall = catchall
        self._max_bytes = max_bytes
        self._changed = asyncio.Condition()
        self._listeners: list[Callable[[Sequence[CopyRecord]], None]] = []
        self._rebuilding = False
        self._rebuilding_said = False  # whether the index's meta says what `_rebuilding` does
        self._state_listeners: list[Callable[[], None]] = []
        self._caught_up = False  # the last catch-up's own part is done (see `caught_up`)
        self._left_to_lane: set[str] = set()  # costly copies the last catch-up left to the lane
        self._failures = 0  # catch-ups failed in a row
        self._retries = 0  # catch-ups called for again since last caught up (the backoff step)
        self._gave_up = 0  # copies skipped as unreadable or unbuildable, ever
        self._retry = False  # a catch-up is due again (one failed, or the lane gave up a copy)
        self._wake = asyncio.Event()  # the lane tells `run` a catch-up is due
        self._epoch = 0  # bumped when the index is emptied for a new generation
        # The second lane: (id, epoch) of costly copies, indexed one at a time by their own task.
        self._costly: asyncio.Queue[tuple[str, int]] = asyncio.Queue()
        self._in_costly: dict[str, int] = {}  # id -> epoch, from queued until indexed or given up
        self._costly_task: asyncio.Task[None] | None = None
        self._costly_shared: _Shared | None = None  # used by that lane's thread only

    @property
    def rebuilding(self) -> bool:
        """Whether the index is being built from nothing and does not yet hold the mailbox's mail."""
        return self._rebuilding

    @property
    def caught_up(self) -> bool:
        """Whether a catch-up of the current generation completed: the index then held every copy
        the mailbox had (what it lacks has left the mailbox, not just not been read yet).

        The costly copies that catch-up handed to the second lane count only once indexed.
        """
        return self._caught_up and self._left_to_lane.isdisjoint(self._in_costly)

    @property
    def failing(self) -> bool:
        """Whether the last FAILING_AFTER catch-ups all failed (retries go on; /health says failing)."""
        return self._failures >= FAILING_AFTER

    async def prepare(self) -> None:
        """Before the API serves (or this gateway starts reading the mailbox): an index with no
        mailbox state over a mailbox with mail, or one whose last rebuild never finished, is `rebuilding`."""
        if await self._index.get_meta(GENERATION_KEY) is not None:
            # A reader that died mid-rebuild left it half built: whoever reads next finishes it.
            await self._set_rebuilding(await self._index.get_meta(REBUILDING_KEY) == "1")
            return
        try:
            async with asyncio.timeout(PREPARE_TIMEOUT):
                rebuilding = bool(await self._source.snapshot())
        except (TimeoutError, SourceUnavailable):
            rebuilding = True  # cannot tell: assume the worst until a catch-up completes
        await self._set_rebuilding(rebuilding)

    async def _set_rebuilding(self, rebuilding: bool, *, say: bool = False) -> None:
        """Say whether the index is being rebuilt: here, in the index's meta (read by the gateways
        that do not read the mailbox, and by the next reader if this one dies) and to listeners
        (on a change, or when `say`: the index's state changed otherwise)."""
        if rebuilding == self._rebuilding and self._rebuilding_said and not say:
            return
        self._rebuilding = rebuilding
        self._rebuilding_said = False  # until written: a failed write is tried again next time
        await self._index.set_meta(REBUILDING_KEY, "1" if rebuilding else "0")
        self._rebuilding_said = True
        for listener in self._state_listeners:
            listener()

    def on_state(self, listener: Callable[[], None]) -> None:
        """Call `listener` whenever the index starts or stops being rebuilt."""
        self._state_listeners.append(listener)

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
            await self._set_rebuilding(self._rebuilding or bool(present))
            self._caught_up = False  # until the index holds this generation's copies
            self._epoch += 1  # what the lane holds is void: it may not be added after the clear
            self._in_costly.clear()
            await self._index.clear()
            await self._index.set_meta(GENERATION_KEY, generation)
            await self._set_rebuilding(self._rebuilding, say=True)  # a first generation: readable now
        known = await self._index.known_ids()
        gone = known.difference(present)
        if gone:
            await self._index.remove(gone)
        unindexed = [i for i in present if i not in known]
        missing = [i for i in unindexed if i not in self._in_costly]
        gave_up = self._gave_up
        await self.ingest(missing)
        if self._rebuilding:
            # Reads answer 503 until the index is whole; holding small mail back costs nothing.
            await self.settled()
        # Otherwise the main lane goes on: the copies left to the lane count once indexed.
        self._left_to_lane = {i for i in unindexed if i in self._in_costly}
        await self._set_rebuilding(False)
        if self._gave_up == gave_up:  # else a copy was skipped: the retry catches up
            self._caught_up = True
            self._retry = False
        if missing or gone:
            log.info("index caught up: %d copies added, %d forgotten", len(missing), len(gone))
            async with self._changed:
                self._changed.notify_all()

    async def run(self) -> None:
        """Catch up, then index each batch the source announces until it stops."""
        # The process that parses big mail keeps its memory from piling up (gateway/memory.py).
        tune_allocator()
        # A reader again after another gateway read meanwhile: caught up only once it has
        # looked, and the costly copies an earlier turn queued get their lane back.
        self._caught_up = False
        self._failures = 0  # an earlier turn's failures are not this one's
        self._start_lane()
        try:
            await self._run()
        finally:
            if self._costly_task is not None:
                self._costly_task.cancel()

    async def close(self) -> None:
        """Stop the indexing workers, if any run (after `run` has ended)."""
        if self._builder is not None:
            await self._builder.close()

    async def _run(self) -> None:
        await self._try_catch_up()
        batch: asyncio.Task[Changes | None] | None = None
        try:
            while True:
                if batch is None:
                    batch = asyncio.create_task(self._source.next_batch())
                if self.caught_up:
                    self._retries = 0
                if self._retry:
                    delay = RETRY_DELAYS[min(self._retries, len(RETRY_DELAYS)) - 1]
                    # The pending batch is kept, not cancelled: no announcement is lost.
                    done, _ = await asyncio.wait({batch}, timeout=delay)
                    if not done:
                        await self._try_catch_up()
                        continue
                else:
                    woken = asyncio.create_task(self._wake.wait())
                    try:
                        await asyncio.wait({batch, woken}, return_when=asyncio.FIRST_COMPLETED)
                    finally:
                        woken.cancel()
                    self._wake.clear()
                    if not batch.done():
                        continue  # the lane gave a copy up: a catch-up is due
                changes, batch = batch.result(), None
                if changes is None:
                    return
                await self._apply(changes)
        finally:
            if batch is not None:
                batch.cancel()

    async def _try_catch_up(self) -> None:
        """Catch up; on failure log it, count it, and leave a retry due (with backoff)."""
        try:
            await self.catch_up()
            self._failures = 0
        except SourceUnavailable as exc:
            log.warning("catching up with the mailbox failed (%s); the source calls for it again", exc)
            if self._retry:
                self._retries += 1  # a retry already due backs off meanwhile
        except Exception:
            # New mail must keep flowing even if the backlog could not be read.
            self._failures += 1
            self._retry_due()
            log.exception(
                "catching up with the mailbox failed (%d in a row); indexing new mail only, retrying in %.0f s",
                self._failures,
                RETRY_DELAYS[min(self._retries, len(RETRY_DELAYS)) - 1],
            )

    def _skipped(self) -> None:
        """A copy maybe still in the mailbox was not indexed: no claim of being caught up
        (retention would retire its marks as an orphan's) until a catch-up has retried it."""
        self._gave_up += 1
        self._caught_up = False
        self._retry_due()

    def _retry_due(self) -> None:
        """Have `run` catch up again, each time a little later (RETRY_DELAYS) until caught up."""
        self._retry = True
        self._retries += 1
        self._wake.set()

    async def _apply(self, changes: Changes) -> None:
        """Index one announced batch, or reconcile when the source calls for it."""
        if changes.resync:
            await self._try_catch_up()
            return
        try:
            await self.ingest(changes.added)
        except SourceUnavailable as exc:
            # The source retries and calls for a reconcile once it is back.
            log.warning("the mailbox went away while indexing (%s)", exc)
        except Exception:
            # One bad batch must not stop the sync: log it, then a full catch-up indexes
            # whatever the mailbox holds and the index lacks (retried with backoff if it fails).
            log.exception("indexing %d new copies failed; catching up", len(changes.added))
            await self._try_catch_up()

    async def ingest(self, ids: Sequence[str]) -> None:
        """Fetch, build and index these copies (FETCH_BATCH at a time), then tell the listeners.

        Costly copies (over COSTLY_BYTES) are handed to the second lane and indexed soon after
        (`settled` waits for them). A copy that cannot be read or built is logged and skipped
        (a catch-up, called for with backoff, tries it again); it never holds up the others.
        """
        # Batches are read and built ahead (in parallel, when workers build them) and indexed
        # in order: a rebuild indexes mail in the order it came, so threads join the same way.
        # Rows are written ADD_BATCH at a time (a live batch at once), one write in flight
        # while the next batches are read and built, so neither waits for the other.
        ahead = 2 * (1 + (self._builder.workers if self._builder is not None else 0))
        pending: deque[tuple[Sequence[str], asyncio.Task[list[CopyRecord]]]] = deque()
        built: list[CopyRecord] = []
        adding: asyncio.Task[None] | None = None
        try:
            for start in range(0, len(ids), FETCH_BATCH):
                batch = ids[start : start + FETCH_BATCH]
                pending.append((batch, asyncio.create_task(self._read(batch))))
                while len(pending) > ahead or (pending and start + FETCH_BATCH >= len(ids)):
                    built += await self._built(*pending.popleft())
                    if len(built) >= ADD_BATCH or not pending:
                        adding = await self._add_after(adding, built)
                        built = []
            if adding is not None:
                await asyncio.shield(adding)
        finally:
            for _, task in pending:
                task.cancel()
                task.add_done_callback(_retrieve)
            if adding is not None:
                # A write under way is let finish (its thread would anyway, and its listeners
                # must hear of rows that are in); its error, if any, is logged here too.
                if not adding.done():
                    await asyncio.wait({adding})
                _retrieve(adding)

    async def _add_after(self, previous: asyncio.Task[None] | None, records: list[CopyRecord]) -> asyncio.Task[None]:
        """Start adding `records` once the write before them (`previous`) is done."""
        if previous is not None:
            await asyncio.shield(previous)  # cancelling ingest must not cancel a write
        return asyncio.create_task(self._add(records), name="index-write")

    async def _built(self, batch: Sequence[str], task: asyncio.Task[list[CopyRecord]]) -> list[CopyRecord]:
        """The rows of `batch` (being read and built by `task`); if that failed, the copies are
        built one by one and a copy that fails alone is skipped."""
        try:
            return await task
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
                self._skipped()
        return records

    async def settled(self) -> None:
        """Return once the second lane has indexed (or given up) every costly copy handed to it.

        A lane that ended with copies still queued (cancelled, or broken by a bug) is started
        again rather than waited for forever.
        """
        while True:
            self._start_lane()
            joined = asyncio.ensure_future(self._costly.join())
            task = self._costly_task
            lane = {task} if task is not None and not task.done() else set()
            try:
                await asyncio.wait({joined, *lane}, return_when=asyncio.FIRST_COMPLETED)
            finally:
                joined.cancel()
            if joined.done() and not joined.cancelled():
                return

    def _start_lane(self) -> None:
        if not self._costly.empty() and (self._costly_task is None or self._costly_task.done()):
            self._costly_task = asyncio.create_task(self._costly_lane(), name="sync-costly")

    async def _add(self, records: Sequence[CopyRecord]) -> None:
        await self._index.add(records)
        for listener in self._listeners:
            listener(records)
        async with self._changed:
            self._changed.notify_all()

    async def _read(self, ids: Sequence[str]) -> list[CopyRecord]:
        # Read no more than tells a costly copy: this lane never reads a hundred 25 MB copies.
        stored = await self._source.fetch(ids, max_bytes=min(self._max_bytes, COSTLY_BYTES + 1))
        cheap = []
        for message in stored:
            if len(message.raw) <= COSTLY_BYTES:
                cheap.append(message)  # whole (or cut at max_bytes, as any copy is)
            elif message.id not in self._in_costly:
                # Only the id: the lane reads the copy when its turn comes, so a queue of a
                # hundred 25 MB copies holds a hundred ids, not 2.5 GB.
                self._in_costly[message.id] = self._epoch
                self._costly.put_nowait((message.id, self._epoch))
        del stored
        self._start_lane()
        if self._builder is not None and self._builder.wants(len(cheap)):
            return await self._builder.build(cheap)  # under load: in a worker process
        if sum(len(m.raw) for m in cheap) > INLINE_BYTES:
            return await asyncio.to_thread(self._build_all, cheap)
        return self._build_all(cheap)

    def _build_all(self, stored: Sequence[StoredMessage]) -> list[CopyRecord]:
        return build_records(stored, self._catchall, self._max_bytes)

    async def _costly_lane(self) -> None:
        """Index costly copies one at a time, off the event loop, beside the main lane.

        Copies of one message follow each other here, so one body parse serves them all.
        """
        burst = 0  # bytes read since the queue was last empty
        while True:
            copy_id, epoch = await self._costly.get()
            try:
                indexed, read = await self._index_costly(copy_id, epoch)
                burst += read
                if not indexed:
                    self._skipped()
            finally:
                if self._in_costly.get(copy_id) == epoch:
                    del self._in_costly[copy_id]
                self._costly.task_done()
            if self._costly.empty():  # a burst is over: let its memory go
                self._costly_shared = None
                await asyncio.to_thread(release_after_big, burst)
                burst = 0

    async def _index_costly(self, copy_id: str, epoch: int) -> tuple[bool, int]:
        """Index one costly copy, trying again after each of COSTLY_RETRY_DELAYS: (whether it
        did not give up, bytes read). A copy of an emptied generation is dropped: its id names
        another message, or none, in the new one."""
        read = 0
        for delay in (*COSTLY_RETRY_DELAYS, None):
            if epoch != self._epoch:
                return True, read
            try:
                stored = await self._source.fetch([copy_id], max_bytes=self._max_bytes)
                read += sum(len(m.raw) for m in stored)
                records = await asyncio.to_thread(self._build_costly, stored)
                del stored
                if epoch != self._epoch:
                    return True, read  # read under the old generation: never into the emptied index
                await self._add(records)
                return True, read
            except Exception:
                if delay is None:
                    log.exception("mailbox copy %s cannot be indexed; a catch-up tries it again", copy_id)
                    return False, read
                log.warning("mailbox copy %s cannot be indexed yet; again in %.0f s", copy_id, delay, exc_info=True)
                await asyncio.sleep(delay)
        return False, read

    def _build_costly(self, stored: Sequence[StoredMessage]) -> list[CopyRecord]:
        records = []
        for message in stored:
            record, self._costly_shared = _build(
                message, catchall=self._catchall, max_bytes=self._max_bytes, shared=self._costly_shared
            )
            records.append(record)
        return records

    async def wait_until(self, predicate: Callable[[], Awaitable[bool]], timeout: float) -> None:
        """Return once `await predicate()` holds after some indexing; TimeoutError after `timeout`."""
        async with asyncio.timeout(timeout), self._changed:
            while not await predicate():
                await self._changed.wait()
