"""One identity's view of the catch-all: list, read, mark and delete the mail granted to it.

Visibility is always: granted to the identity's exact address by the index, received at or
after the identity's creation (at the source's time resolution), and not deleted by it. The
store answers all of that in one query; this module decides the window and reads the bytes.
"""

from __future__ import annotations

import asyncio
import dataclasses
import math
import time
from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime
from typing import Final, Literal

from gateway.errors import IndexRebuilding, InvalidInput, NotFound, NotText, SourceUnavailable, TooLarge
from gateway.mail.attachments import attachment_text, is_text_like
from gateway.mail.models import Attachment, ParsedMessage
from gateway.mail.parse import AttachmentContent, attachment_content, parse_message
from gateway.mail.search import Node
from gateway.memory import release_after_big
from gateway.sources.base import MailSource
from gateway.store import Cursor, Filters, Identity, Store, Summary, ThreadSummary
from gateway.store.outbox import DeliveryState

__all__ = ["AttachmentText", "FullMessage", "Inbox", "ListQuery", "Page", "WaitQuery", "Window"]

MAX_PAGE: Final = 200
FENCE_TIMEOUT: Final = 2.0  # an unreachable mailbox must not hold up identity creation
CLAIM_TTL: Final = 60.0  # a claim whose response was never settled is released after this
CLAIM_LOOK_MIN: Final = 0.05  # a wait looks again at a lapsing claim no sooner than this (clocks differ)
INLINE_PARSE_BYTES: Final = 256 * 1024
FROM_START: Final = Cursor(-math.inf, "", 0)  # before every message: a listing from the oldest on


@dataclass(frozen=True, slots=True)
class ListQuery:
    """A listing request: newest first before `before_id`, or oldest first after `after_id`."""

    limit: int = 50
    before_id: str | None = None
    after_id: str | None = None
    since: datetime | None = None
    sender: str | None = None
    subject: str | None = None
    direction: Literal["received", "sent", "all"] = "received"
    query: Node | None = None
    """A parsed `?q=` search (gateway.mail.search.parse_query)."""


@dataclass(frozen=True, slots=True)
class WaitQuery:
    """What a wait accepts: unseen mail by default, narrowed by time, cursor, sender, subject."""

    include_seen: bool = False
    since: datetime | None = None
    after_id: str | None = None
    sender: str | None = None
    subject: str | None = None
    query: Node | None = None
    """A parsed `?q=` search: the wait returns only a message matching it."""


@dataclass(frozen=True, slots=True)
class Window:
    """The part of the mailbox an identity may see: received at or after `since_ts`, ids from `min_id`."""

    since_ts: float
    min_id: str | None
    sent_since_ts: float = 0.0
    """Sent copies at or after this time only (the fence says nothing of the Sent folder's ids)."""

    def since(self, asked: datetime | None) -> float:
        """The earliest receipt time a query may see: its own `since`, never before the window."""
        return self.since_ts if asked is None else max(self.since_ts, asked.timestamp())

    def admits(self, received_ts: float, copy_id: str) -> bool:
        """Whether a copy received then, with this id, falls inside."""
        return received_ts >= self.since_ts and (self.min_id is None or copy_id >= self.min_id)


@dataclass(frozen=True, slots=True)
class Page:
    """One page of a listing and the cursor for the next one (None at the end)."""

    summaries: list[Summary]
    next_before_id: str | None
    next_after_id: str | None


@dataclass(frozen=True, slots=True)
class FullMessage:
    """A message as GET returns it: its summary (with the caller's `seen`) and the parsed copy."""

    summary: Summary
    parsed: ParsedMessage
    deliveries: tuple[DeliveryState, ...] = ()
    """For mail the identity sent: where each recipient stands."""
    attachments_truncated: bool = False
    """`parsed.attachments` holds only the first of more (the gateway's listing cap)."""


@dataclass(frozen=True, slots=True)
class AttachmentText:
    """The text of one text-like attachment, at most the gateway's cap."""

    attachment: Attachment
    text: str
    truncated: bool


class Inbox:
    """Read and change what identities see; the API's one entry point into the mail."""

    def __init__(
        self,
        store: Store,
        source: MailSource,
        *,
        max_bytes: int,
        rebuilding: Callable[[], bool] = lambda: False,
        max_attachments: int = 100,
        max_attachment_bytes: int | None = None,
        attachment_text_chars: int = 200_000,
    ) -> None:
        self._store = store
        self._source = source
        self._max_bytes = max_bytes
        self._rebuilding = rebuilding
        self._max_attachments = max_attachments
        self._max_attachment_bytes = max_bytes if max_attachment_bytes is None else max_attachment_bytes
        self._attachment_text_chars = attachment_text_chars

    def check_index(self) -> None:
        """IndexRebuilding (or SourceUnavailable) while the index cannot answer (see `_check_index`)."""
        self._check_index()

    async def cursor(self, identity: Identity, message_id: str) -> Cursor:
        """The listing position of one of `identity`'s received messages (deleted ones too); NotFound
        for an id it was never granted or that is outside its window."""
        found = await self._cursor(identity, message_id)
        assert found is not None
        return found

    def _check_index(self) -> None:
        """Mail is read from the index: while it is rebuilt it would answer wrong, so it answers 503."""
        if self._rebuilding():
            if not self._source.reachable:
                # Not a rebuild under way but a mailbox nobody can read yet (down, wrong password):
                # the index cannot know what it holds, so say what is really wrong.
                raise SourceUnavailable("the mailbox cannot be read yet: its messages are unknown; retry shortly")
            raise IndexRebuilding("the message index is being rebuilt from the mailbox; try again shortly")

    async def fence(self) -> tuple[str, str] | None:
        """The source's fence for an identity created now (see Identity.fence), if it has one."""
        try:
            async with asyncio.timeout(FENCE_TIMEOUT):
                fence = await self._source.fence()
        except (TimeoutError, SourceUnavailable):
            return None  # the time rule alone decides, at the source's resolution
        return None if fence is None else (self._source.generation, fence)

    def window(self, identity: Identity) -> Window:
        """What `identity` may see of the mailbox: mail from its creation on, never earlier."""
        # IMAP's INTERNALDATE has whole seconds: mail arriving in the second of creation
        # must not be hidden, so truncate creation time to the store's resolution; unless
        # the name had an earlier owner, whose mail from that same second must not show.
        step = self._source.resolution
        rounded = math.ceil if identity.reused else math.floor
        since = rounded(identity.created_ts / step) * step
        if identity.fence is not None and identity.fence[0] == self._source.generation:
            # Exact: every inbox copy at or after the fence arrived after the creation began.
            return Window(0.0, identity.fence[1], since)
        return Window(since, None, since)

    async def listing(self, identity: Identity, query: ListQuery) -> Page:
        """A page of `identity`'s messages."""
        if query.before_id is not None and query.after_id is not None:
            raise InvalidInput("use before_id or after_id, not both")
        self._check_index()
        window = self.window(identity)
        before = await self._cursor(identity, query.before_id, query.direction)
        after = await self._cursor(identity, query.after_id, query.direction)
        limit = min(max(query.limit, 1), MAX_PAGE)
        filters = Filters(
            window.since(query.since),
            window.min_id,
            sender=query.sender or None,
            subject=query.subject or None,
            direction=query.direction,
            sent_since_ts=window.sent_since_ts,
            query=query.query,
        )
        rows = await self._store.index.listing(identity, filters, limit=limit + 1, before=before, after=after)
        more = len(rows) > limit
        rows = rows[:limit]
        last = rows[-1].id if more else None
        if query.after_id is not None:
            return Page(rows, None, last)
        return Page(rows, last, None)

    async def newer(
        self, identity: Identity, after_id: str | None, *, limit: int = MAX_PAGE, query: Node | None = None
    ) -> list[Summary]:
        """Up to `limit` of `identity`'s messages indexed after `after_id` (None: from the first),
        oldest first, matching `query` if given: what an event stream delivers next, however many arrived at once."""
        self._check_index()
        window = self.window(identity)
        after = FROM_START if after_id is None else await self._cursor(identity, after_id)
        filters = Filters(window.since_ts, window.min_id, query=query)
        return await self._store.index.listing(identity, filters, limit=min(max(limit, 1), MAX_PAGE), after=after)

    async def _cursor(
        self, identity: Identity, message_id: str | None, direction: Literal["received", "sent", "all"] = "received"
    ) -> Cursor | None:
        if message_id is None:
            return None
        cursor = await self._store.index.cursor_of(identity.address, message_id, direction=direction)
        # Mail from before the identity existed (an earlier owner's) is no cursor either: it
        # must not even be confirmed to exist. Its own deleted mail stays a valid cursor.
        window = self.window(identity)
        if (
            cursor is None
            or not window.admits(cursor.received_ts, cursor.id)
            or (direction != "received" and cursor.received_ts < window.sent_since_ts)
        ):
            raise NotFound("no such message (the paging cursor is unknown)")
        return cursor

    # --- waits ------------------------------------------------------------------------

    async def claim(self, identity: Identity, query: WaitQuery) -> Summary | None:
        """The message a wait answers with now, claimed for it; None when there is none yet.

        Unseen mail, oldest first (two codes in a row are consumed in order), or with
        `include_seen` the newest match. A claimed message is skipped by every other wait of
        the identity, in any process on the store, until `settle` or CLAIM_TTL.
        """
        self._check_index()
        window = self.window(identity)
        after = await self._cursor(identity, query.after_id)
        filters = Filters(
            window.since(query.since),
            window.min_id,
            sender=query.sender or None,
            subject=query.subject or None,
            unseen=not query.include_seen,
            unclaimed=True,
            query=query.query,
        )
        # Each lost race means another wait took (or read) a message, so this ends: with a
        # message, or with none left. Giving up early would sleep while mail is waiting.
        while True:
            if query.include_seen:
                rows = await self._store.index.listing(identity, filters, limit=1, after=after, newest_first=True)
            else:
                start = after or FROM_START
                rows = await self._store.index.listing(identity, filters, limit=1, after=start)
            if not rows:
                return None
            found = rows[0]
            if not await self._store.claims.take(identity, found.message_key, ttl=CLAIM_TTL):
                continue  # another wait took it between our look and our claim: look again
            # Between the look and the claim another wait may also have claimed it, answered
            # and released it, seen: what we hold must still be what we looked for.
            current = await self._store.index.visible(identity, found.id, dataclasses.replace(filters, unclaimed=False))
            if current is not None:
                return current
            await self._store.claims.release(identity, found.message_key)

    async def claim_lapses_in(self, identity: Identity) -> float | None:
        """Seconds until the soonest live claim on the identity's mail lapses; None without one."""
        lapse = await self._store.claims.next_lapse(identity)
        return None if lapse is None else max(lapse - time.time(), CLAIM_LOOK_MIN)

    async def settle(self, identity: Identity, summary: Summary, *, delivered: bool, mark_seen: bool) -> None:
        """End a claim: delivered answers become seen (for the identity's own reads); others return."""
        if delivered and mark_seen:
            await self._store.marks.set_seen(identity, summary.message_key, True)
        await self._store.claims.release(identity, summary.message_key)

    async def forget_vanished(self, identity: Identity, summary: Summary) -> None:
        """A claimed copy is gone from the mailbox: end the claim and drop it from the index."""
        await self._store.claims.release(identity, summary.message_key)
        await self._store.index.remove([summary.id])

    async def read_claimed(self, identity: Identity, summary: Summary) -> FullMessage:
        """The full message for a claimed summary, without touching its seen mark."""
        raw = await self.raw(identity, summary.id, summary=summary)
        return self._full(summary, await self._parse(raw))

    def _full(self, summary: Summary, parsed: ParsedMessage, deliveries: tuple[DeliveryState, ...] = ()) -> FullMessage:
        """The message as read, its attachments cut to the listing cap."""
        more = len(parsed.attachments) > self._max_attachments
        if more:
            parsed = dataclasses.replace(parsed, attachments=parsed.attachments[: self._max_attachments])
        return FullMessage(summary, parsed, deliveries, attachments_truncated=more)

    async def _parse(self, raw: bytes) -> ParsedMessage:
        if len(raw) > INLINE_PARSE_BYTES:  # a big message: parse off the event loop
            return await asyncio.to_thread(self._parse_big, raw)
        return parse_message(raw, max_bytes=self._max_bytes)

    def _parse_big(self, raw: bytes) -> ParsedMessage:
        parsed = parse_message(raw, max_bytes=self._max_bytes)
        release_after_big(len(raw))  # what the parse freed goes back to the system
        return parsed

    async def summary(self, identity: Identity, message_id: str) -> Summary:
        """The message if `identity` may see it; NotFound otherwise."""
        self._check_index()
        window = self.window(identity)
        # Any direction: a message id names one copy, received or sent.
        filters = Filters(window.since_ts, window.min_id, window.sent_since_ts, direction="all")
        found = await self._store.index.visible(identity, message_id, filters)
        if found is None:
            raise NotFound("no such message")
        return found

    async def read(self, identity: Identity, message_id: str, *, mark_seen: bool) -> FullMessage:
        """The full message; marks it seen for `identity` when `mark_seen`."""
        summary = await self.summary(identity, message_id)
        raw = await self.raw(identity, message_id, summary=summary)
        parsed = await self._parse(raw)
        if mark_seen and not summary.seen:  # a durable (fsync'd) write only the first time
            await self._store.marks.set_seen(identity, summary.message_key, True)
            summary = _with_seen(summary, True)
        deliveries: tuple[DeliveryState, ...] = ()
        if summary.direction == "sent":
            deliveries = tuple(await self._store.outbox.deliveries(identity.id, summary.message_key))
        return self._full(summary, parsed, deliveries)

    # --- attachments ------------------------------------------------------------------

    async def attachment(self, identity: Identity, message_id: str, attachment_id: str) -> AttachmentContent:
        """One attachment's bytes as a download serves them; marks nothing seen.

        NotFound for a message `identity` may not see or an id the message does not list;
        TooLarge past the download cap.
        """
        found = await self._attachment(identity, message_id, attachment_id)
        if found.attachment.size > self._max_attachment_bytes:
            raise TooLarge(
                f"the attachment has {found.attachment.size} bytes, over this gateway's download limit of"
                f" {self._max_attachment_bytes} (AGENTMAIL_MAX_ATTACHMENT_BYTES); the raw message holds it"
            )
        return found

    async def attachment_text(self, identity: Identity, message_id: str, attachment_id: str) -> AttachmentText:
        """The text of a text-like attachment, capped; NotText for any other (a PDF, an image)."""
        found = await self._attachment(identity, message_id, attachment_id)
        attachment = found.attachment
        if not is_text_like(attachment.content_type, attachment.filename):
            raise NotText(
                f"the attachment is {attachment.content_type}, not text: download it from"
                " …/attachments/{attachment_id} instead"
            )
        text, truncated = attachment_text(found.data, found.charset, self._attachment_text_chars)
        return AttachmentText(attachment, text, truncated)

    def _attachment_big(self, raw: bytes, attachment_id: str) -> AttachmentContent | None:
        found = attachment_content(raw, attachment_id, max_bytes=self._max_bytes)
        release_after_big(len(raw))
        return found

    async def _attachment(self, identity: Identity, message_id: str, attachment_id: str) -> AttachmentContent:
        summary = await self.summary(identity, message_id)
        raw = await self.raw(identity, message_id, summary=summary)
        # The listing's bounds, so the ids are the ones the listing shows.
        if len(raw) > INLINE_PARSE_BYTES:  # a big message: parse off the event loop
            found = await asyncio.to_thread(self._attachment_big, raw, attachment_id)
        else:
            found = attachment_content(raw, attachment_id, max_bytes=self._max_bytes)
        if found is None:
            raise NotFound("no such attachment in this message (the message's `attachments` list their ids)")
        return found

    # --- threads ----------------------------------------------------------------------

    async def threads(
        self, identity: Identity, *, limit: int, before: str | None = None
    ) -> tuple[list[ThreadSummary], str | None]:
        """A page of `identity`'s threads, latest activity first, and the `before` of the next page."""
        self._check_index()
        window = self.window(identity)
        filters = Filters(window.since_ts, window.min_id, window.sent_since_ts, direction="all")
        limit = min(max(limit, 1), MAX_PAGE)
        rows = await self._store.index.threads(identity, filters, limit=limit + 1, before=_thread_cursor(before))
        more = len(rows) > limit
        rows = rows[:limit]
        last = rows[-1] if more else None
        return rows, None if last is None else f"{last.last_ts!r}~{last.last_seq}"

    async def thread(self, identity: Identity, thread_id: str) -> tuple[ThreadSummary, list[Summary]]:
        """One of `identity`'s threads and its visible messages, oldest first; NotFound when it has none."""
        self._check_index()
        window = self.window(identity)
        filters = Filters(window.since_ts, window.min_id, window.sent_since_ts, direction="all", thread_id=thread_id)
        messages = await self._store.index.thread(identity, thread_id, filters)
        if not messages:
            raise NotFound("no such thread")
        # The list's own summary of it: the same subject, people and counts as GET …/threads.
        (summary,) = await self._store.index.threads(identity, filters, limit=1)
        return summary, messages

    async def raw(self, identity: Identity, message_id: str, *, summary: Summary | None = None) -> bytes:
        """The message as stored in the mailbox."""
        if summary is None:
            await self.summary(identity, message_id)
        stored = await self._source.fetch([message_id])  # whole: the raw source is never cut
        if not stored:
            raise NotFound("the message is no longer in the mailbox")
        return stored[0].raw

    async def set_seen(self, identity: Identity, message_id: str, seen: bool) -> Summary:
        """Set `identity`'s seen mark on one message."""
        summary = await self.summary(identity, message_id)
        await self._store.marks.set_seen(identity, summary.message_key, seen)
        return _with_seen(summary, seen)

    async def delete(self, identity: Identity, message_id: str) -> None:
        """Hide the message from `identity`; expunge its copies once no live identity sees it."""
        summary = await self.summary(identity, message_id)
        await self._store.marks.set_deleted(identity, summary.message_key)
        copies, grants = await self._store.index.copies(message_id)
        for grant in grants:
            viewer = await self._store.identities.find(grant.address)
            if viewer is None or viewer.expired(time.time()):
                continue
            if self.window(viewer).admits(grant.received_ts, grant.copy_id) and not await self._store.marks.is_deleted(
                viewer, summary.message_key
            ):
                return  # someone still sees it
        removed = await self._source.expunge(copies)
        # Only what really left the mailbox: an id of an older UIDVALIDITY waits for the
        # reconcile, and the deleter's mark must outlive it.
        await self._store.marks.retire(await self._store.index.remove(removed))


def _thread_cursor(before: str | None) -> tuple[float, int] | None:
    """The (last activity, its index position) a `before` value names; InvalidInput for anything else."""
    if before is None:
        return None
    ts, _, seq = before.partition("~")
    try:
        value, position = float(ts), int(seq)
    except ValueError:
        value, position = math.nan, 0
    if not math.isfinite(value) or not 0 <= position < 2**63:
        raise InvalidInput("before is not a thread cursor (pass the `next_before` of the previous page)")
    return value, position


def _with_seen(summary: Summary, seen: bool) -> Summary:
    return dataclasses.replace(summary, seen=seen)
