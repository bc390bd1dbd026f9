"""The mail of many identities as one ordered feed: what `GET /v1/events` streams.

The feed walks the index's grants in their global order (`MessageIndex.grants_after`: by
insertion sequence, then address), keeps those of the identities the caller manages (the
admin: every identity; a provisioner: the ones its token created, looked up again on every
page, so an identity created after the stream started is in it and a deleted one drops out),
and reads each through `MessageIndex.visible` with that identity's window: received mail it
may see, not deleted by it, matching the stream's search if it has one. An event's id is
`address/message id` (a local part never holds '/'); resuming after it finds its position
again through `cursor_of`, so an event id outlives an index rebuild. A running feed re-reads
its last position the same way before each page: a rebuild that renumbered the index between
two pages moves the feed to the same grant's new place instead of skipping or repeating.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Final

from gateway.errors import InvalidInput, NotFound
from gateway.inbox import MAX_PAGE, Inbox
from gateway.mail.recipients import normalize_address
from gateway.mail.search import Node
from gateway.store import Filters, Identity, Store, Summary

__all__ = ["MAX_EVENT_ID_CHARS", "Event", "EventFeed", "FeedPosition", "Scope"]

MAX_EVENT_ID_CHARS: Final = 600
"""An address (at most 320 characters), '/' and a message id; anything longer is no event id of ours."""


@dataclass(frozen=True, slots=True)
class Scope:
    """Whose mail a feed carries: every identity's (`created_by` None, the admin) or the ones one provisioner made."""

    created_by: str | None = None
    """The provisioner token's id."""

    def admits(self, identity: Identity) -> bool:
        return self.created_by is None or identity.created_by == self.created_by


@dataclass(frozen=True, slots=True)
class Event:
    """One message for one identity."""

    address: str
    summary: Summary

    @property
    def id(self) -> str:
        """The event id a stream resumes after: `address/message id`."""
        return f"{self.address}/{self.summary.id}"


@dataclass(slots=True)
class FeedPosition:
    """Where a feed stands: after the grant of `message_id` to `address`, at index position `seq`.

    None fields: before every grant (nothing was indexed when the feed started).
    """

    address: str | None = None
    message_id: str = ""
    seq: int = 0

    @property
    def after(self) -> tuple[int, str] | None:
        return None if self.address is None else (self.seq, self.address)


class EventFeed:
    """Events of every identity a caller manages, in index order, resumable by event id."""

    def __init__(self, store: Store, inbox: Inbox, *, clock: Callable[[], float] = time.time) -> None:
        self._store = store
        self._inbox = inbox
        self._clock = clock

    async def start(self, scope: Scope, last_event_id: str | None) -> FeedPosition:
        """Where a new stream starts: after `last_event_id`, or (None) after the newest grant, "now".

        InvalidInput for what is no event id; NotFound for one of an identity outside `scope`
        (the same answer as for an unknown one: a provisioner learns nothing of the others'
        mail) or unknown to the index; IndexRebuilding while the index is rebuilt.
        """
        self._inbox.check_index()
        if last_event_id is None:
            latest = await self._store.index.latest_grant()
            if latest is None:
                return FeedPosition()
            return FeedPosition(latest.address, latest.message_id, latest.seq)
        address, message_id = _parse(last_event_id)
        if scope.created_by is None:
            # The admin's stream delivered mail of identities deleted (or re-created) since: any
            # grant the index knows is a place to resume after, and the admin may read it all anyway.
            cursor = await self._store.index.cursor_of(address, message_id)
            if cursor is None:
                raise NotFound(_UNKNOWN)
            return FeedPosition(address, message_id, cursor.seq)
        identity = await self._store.identities.find(address)
        if identity is None or not scope.admits(identity):
            raise NotFound(_UNKNOWN)
        try:
            # Mail from before the identity existed is no cursor either (the inbox's rule).
            cursor = await self._inbox.cursor(identity, message_id)
        except NotFound:
            raise NotFound(_UNKNOWN) from None  # one answer for every unknown id
        return FeedPosition(address, message_id, cursor.seq)

    async def next(
        self, scope: Scope, position: FeedPosition, *, query: Node | None = None
    ) -> tuple[list[Event], bool]:
        """The events after `position` (moved past every grant read) and whether more grants may follow at once.

        IndexRebuilding while the index is rebuilt; NotFound when the grant the feed stands on
        left the index for good (the stream ends; its client resumes after its last event).
        """
        self._inbox.check_index()
        if position.address is not None:
            current = await self._store.index.cursor_of(position.address, position.message_id)
            if current is None:
                raise NotFound("the stream's position left the index; resume after the last event received")
            position.seq = current.seq  # renumbered by a rebuild: the same grant's new place
        grants = await self._store.index.grants_after(position.after, limit=MAX_PAGE)
        now = self._clock()
        identities: dict[str, Identity | None] = {}
        events: list[Event] = []
        for grant in grants:
            if grant.address not in identities:
                found = await self._store.identities.find(grant.address)
                keep = found is not None and not found.expired(now) and scope.admits(found)
                identities[grant.address] = found if keep else None
            identity = identities[grant.address]
            if identity is not None:
                window = self._inbox.window(identity)
                filters = Filters(window.since_ts, window.min_id, query=query)
                summary = await self._store.index.visible(identity, grant.message_id, filters)
                if summary is not None:
                    events.append(Event(identity.address, summary))
            position.address, position.message_id, position.seq = grant.address, grant.message_id, grant.seq
        return events, len(grants) == MAX_PAGE


_UNKNOWN: Final = "unknown event id: not an event of this stream (pass the id of an event it sent)"


def _parse(event_id: str) -> tuple[str, str]:
    """(address, message id) of an event id; InvalidInput when it is not one."""
    address, sep, message_id = event_id.partition("/")
    normal = normalize_address(address) if sep and message_id and len(event_id) <= MAX_EVENT_ID_CHARS else None
    if normal is None:
        raise InvalidInput(
            "Last-Event-ID is not an event id of /v1/events (`address/message id`, as the stream sent it)"
        )
    return normal, message_id
