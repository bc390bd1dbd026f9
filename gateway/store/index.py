"""The message index: one row per mailbox copy, one grant per address and direction that sees it.

A cache of the mailbox: it can be deleted and rebuilt by the sync. Listing an identity's mail
walks the grants of that one address, with its marks and claims read in the same query, so
the cost follows the page, not the size of the catch-all nor the identity's history.

A received copy and a sent copy (the Sent folder's, granted only to the address in its From)
of one message are two grants of that address: an identity mailing itself sees it in both
listings. Every grant is in one of its address's threads, computed when the grant is added
(see `thread_input` and gateway/mail/threads.py) from what was indexed before it, so the
same copies added in the same order give the same thread ids again.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Final, Literal, Protocol

import msgspec

from gateway.mail.threads import normalize_subject, strip_prefixes, thread_id_for
from gateway.store.models import CopyRecord, Cursor, Filters, Grant, Identity, Summary, ThreadSummary

__all__ = [
    "MAX_PARTICIPANTS",
    "GrantPosition",
    "MessageIndex",
    "ThreadInput",
    "merged_away",
    "merged_participants",
    "moved_grants",
    "participants_of",
    "pick_by_ref",
    "pick_by_subject",
    "thread_input",
    "thread_summaries",
]

MAX_PARTICIPANTS: Final = 50
"""People kept per thread: a mailing list's thread would otherwise grow without bound."""
SUBJECT_CANDIDATES: Final = 20
"""Threads with one subject examined for a subject-only join (the most recent first)."""

_ADDRESSES = msgspec.json.Decoder(list[str])


@dataclass(frozen=True, slots=True)
class ThreadInput:
    """What threading reads of one copy (the same for every address it is granted to)."""

    chain: tuple[str, ...]
    """The Message-IDs naming its thread: the references, root first, then its own."""
    root: str
    """What a new thread for it is named after: the chain's root, else its message key."""
    subject: str
    """Display subject: reply prefixes stripped."""
    subject_norm: str
    by_subject: bool
    """It answers nothing and has a subject: it may join a thread by subject."""
    sender: str | None
    participants: tuple[str, ...]
    """The sender first, then the other addresses in order."""


def thread_input(record: CopyRecord) -> ThreadInput:
    """The threading keys of a record; a record without them is a thread of its own."""
    display = strip_prefixes(record.subject) or record.subject
    keys = record.thread
    if keys is None:
        return ThreadInput((), record.message_key, display, normalize_subject(record.subject), False, None, ())
    chain = tuple(dict.fromkeys([*keys.references, *([keys.message_id] if keys.message_id else [])]))
    people = sorted(keys.participants - {keys.sender}) if keys.sender else sorted(keys.participants)
    return ThreadInput(
        chain=chain,
        root=keys.root or record.message_key,
        subject=display,
        subject_norm=keys.subject,
        by_subject=not keys.references and keys.subject != "",
        sender=keys.sender,
        participants=tuple([keys.sender, *people] if keys.sender else people),
    )


def pick_by_ref(chain: Sequence[str], found: dict[str, str]) -> str | None:
    """The thread of the first id of `chain` the address already holds (`found`: ref → thread id)."""
    for ref in chain:
        if ref in found:
            return found[ref]
    return None


def merged_away(chain: Sequence[str], found: dict[str, str], winner: str | None) -> list[str]:
    """Other threads the chain links to `winner`: merged into it (a reply read before the message
    that links it to the conversation, as a rebuild reading INBOX before Sent does, started a
    thread of its own; the chain's earliest id decides, as it would have live)."""
    if winner is None:
        return []
    return sorted({found[ref] for ref in chain if ref in found} - {winner})


def participants_of(people_json: str) -> list[str]:
    """A participants JSON as a list."""
    return list(_ADDRESSES.decode(people_json))


def pick_by_subject(sender: str | None, candidates: Iterable[tuple[str, str]]) -> str | None:
    """The first thread (most recent first: (thread id, participants JSON)) that `sender` is in."""
    if sender is None:
        return None
    for thread_id, people in candidates:
        if sender in _ADDRESSES.decode(people):
            return thread_id
    return None


def new_thread_id(address: str, item: ThreadInput) -> str:
    """The id of a thread this copy starts for `address`."""
    return thread_id_for(address, item.root)


def merged_participants(existing: str | None, new: Sequence[str]) -> str:
    """A thread's participants JSON with `new` appended (in order, no repeats, at most MAX_PARTICIPANTS)."""
    people = dict.fromkeys(_ADDRESSES.decode(existing) if existing else [])
    for address in new:
        if len(people) >= MAX_PARTICIPANTS:
            break
        people.setdefault(address)
    return msgspec.json.encode(list(people)).decode()


def thread_summaries(
    counts: Sequence[tuple[str, int, int, float, int]], messages: Iterable[tuple[str, str, str]]
) -> list[ThreadSummary]:
    """Thread summaries from (id, count, unseen, last time, last seq) rows, kept in order, and their messages.

    `messages` are the visible messages' (thread id, subject, participants JSON), oldest first.
    """
    subjects: dict[str, str] = {}
    people: dict[str, dict[str, None]] = {}
    for thread_id, subject, participants in messages:
        subjects.setdefault(thread_id, strip_prefixes(subject) or subject)
        seen = people.setdefault(thread_id, {})
        for address in _ADDRESSES.decode(participants):
            if len(seen) >= MAX_PARTICIPANTS:
                break
            seen.setdefault(address)
    return [
        ThreadSummary(t, subjects.get(t, ""), tuple(people.get(t, ())), n, u, last, seq)
        for t, n, u, last, seq in counts
    ]


def moved_grants(
    lost: Iterable[tuple[str, str, float, str, int, str, str]], remaining: Iterable[tuple[str, str, str, str]]
) -> list[tuple[str, str, str, float, int, str, str, str]]:
    """Where grants whose copy left go: to the first remaining copy of the message and direction granting the address.

    `lost` holds (address, message key, received at, origin id, seq, direction, thread id) of
    the removed grants, `remaining` the (message key, copy id, grants JSON, direction) of the
    copies still indexed, in index order. Returns the new grants as (address, message key,
    copy id, received at, seq, origin id, direction, thread id).
    A moved grant changes only the copy it is read through: it keeps its listing position (a
    stream that delivered the message does not deliver it again) and the receipt time and
    origin id that windows compare, so a move never shows the message to an identity the
    first grant was hidden from (a re-created name never gets its earlier owner's mail).
    """
    candidates: dict[tuple[str, str], list[tuple[str, frozenset[str]]]] = {}
    for key, copy_id, grants_json, direction in remaining:
        candidates.setdefault((key, direction), []).append((copy_id, frozenset(_ADDRESSES.decode(grants_json))))
    moved = []
    for address, key, received_ts, origin_id, seq, direction, thread_id in lost:
        for copy_id, grants in candidates.get((key, direction), ()):
            if address in grants:
                moved.append((address, key, copy_id, received_ts, seq, origin_id, direction, thread_id))
                break
    return moved


@dataclass(frozen=True, slots=True, order=True)
class GrantPosition:
    """Where one grant stands in the order of the whole index: by insertion sequence, then address.

    Event streams over many identities and the webhook feeder walk grants in this order; a
    grant that moved to another copy keeps its position (see `moved_grants`).
    """

    seq: int
    address: str
    message_id: str = ""
    """The copy the address reads the message through (not part of the order)."""
    direction: Literal["received", "sent"] = "received"


class MessageIndex(Protocol):
    """Write copies as the sync reads them; read an identity's messages."""

    async def add(self, records: Sequence[CopyRecord]) -> None:
        """Index a batch of copies in one transaction (known copy ids are skipped).

        The first copy granted to an address wins (per direction: received, sent); later copies
        of the same message add nothing for it, nor does a copy of a message that address saw
        removed. Each new copy takes the next insertion sequence number: listings and cursors
        follow that order. Each new grant joins or starts one of its address's threads.
        """

    async def remove(self, copy_ids: Iterable[str]) -> set[str]:
        """Forget copies that left the mailbox; returns the message keys with no copy left.

        Their listing positions stay usable as cursors. An address whose granted copy left
        keeps the message through another remaining copy that grants it (see `moved_grants`).
        """

    async def clear(self) -> None:
        """Forget everything (the mailbox changed identity: a new UIDVALIDITY)."""

    async def forget_cursors(self, before_ts: float) -> None:
        """Drop the cursors of removed copies received before `before_ts` (retention)."""

    async def get_meta(self, key: str) -> str | None:
        """A stored source-state value (e.g. the source generation), or None."""

    async def set_meta(self, key: str, value: str) -> None:
        """Store a source-state value."""

    async def known_ids(self) -> set[str]:
        """Every indexed copy id."""

    async def count(self) -> int:
        """How many copies are indexed."""

    async def older_than(self, ts: float, limit: int) -> list[str]:
        """Up to `limit` copy ids received before `ts`, oldest first (retention)."""

    async def listing(
        self,
        identity: Identity,
        filters: Filters,
        *,
        limit: int,
        before: Cursor | None = None,
        after: Cursor | None = None,
        newest_first: bool | None = None,
    ) -> list[Summary]:
        """`identity`'s messages of `filters.direction`: newest first (before `before`), or oldest first after `after`.

        `newest_first` overrides the order (e.g. the newest message after a cursor).
        """

    async def grants_after(
        self,
        after: tuple[int, str] | None,
        *,
        limit: int,
        direction: Literal["received", "sent", "all"] = "received",
    ) -> list[GrantPosition]:
        """Up to `limit` grants of `direction` after position `after` (seq, address), in index order
        (from the first when None). Every address, identity or not: callers keep the ones they serve."""

    async def latest_grant(self, *, direction: Literal["received", "sent", "all"] = "received") -> GrantPosition | None:
        """The last grant of `direction` in index order, or None when there is none: where a stream
        over every identity that starts "now" stands (see `grants_after`)."""

    async def visible(self, identity: Identity, message_id: str, filters: Filters) -> Summary | None:
        """The message if `identity` is granted it (of `filters.direction`), inside `filters`, and not deleted."""

    async def cursor_of(
        self, address: str, message_id: str, *, direction: Literal["received", "sent", "all"] = "received"
    ) -> Cursor | None:
        """The listing position of one of `address`'s messages (removed ones too) of `direction`, for paging.

        Its id and receipt time are the first granted copy's (see `Cursor`).
        """

    async def copies(self, message_id: str) -> tuple[list[str], list[Grant]]:
        """Every copy id of the message `message_id` belongs to, and every grant of that message (see `Grant`).

        Both directions: the Sent folder's copy of a message is one of its copies.
        """

    async def threads(
        self, identity: Identity, filters: Filters, *, limit: int, before: tuple[float, int] | None = None
    ) -> list[ThreadSummary]:
        """`identity`'s threads with a message it sees (`filters` as listing, both directions), latest first
        (by receipt time, then index position: IMAP's times have whole seconds).

        `before` is (last_ts, last_seq) of the previous page's last thread. Counts, subject,
        people and times follow only what the identity sees.
        """

    async def thread(self, identity: Identity, thread_id: str, filters: Filters) -> list[Summary]:
        """The messages of one of `identity`'s threads it sees, sent and received, oldest first."""
