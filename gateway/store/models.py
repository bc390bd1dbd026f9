"""The values the store takes and gives: identities, tokens, principals, index rows and summaries.

Plain frozen dataclasses, the same for every engine; each engine converts its rows into these
at its own edge, so nothing above the store ever sees a row, a JSON string or a dialect.
"""

from __future__ import annotations

import hashlib
import secrets
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Final, Literal

from gateway.mail.models import Code, Link
from gateway.mail.search import Node, SearchFields
from gateway.mail.threads import ThreadKeys

__all__ = [
    "MAX_TOKEN_CHARS",
    "TOKEN_PREFIX",
    "ApiToken",
    "CopyRecord",
    "Cursor",
    "Filters",
    "Grant",
    "Identity",
    "Principal",
    "Summary",
    "ThreadSummary",
    "hash_token",
    "new_token",
]

MAX_TOKEN_CHARS: Final = 256  # longer bearer tokens are refused unread
TOKEN_PREFIX: Final = "am_"  # noqa: S105 - a prefix, not a secret


def new_token() -> str:
    """A fresh bearer token: `am_` + 24 random bytes, base64url."""
    return TOKEN_PREFIX + secrets.token_urlsafe(24)


def hash_token(token: str) -> str:
    """SHA-256 hex of a token: the only form the store keeps."""
    return hashlib.sha256(token.encode("utf-8", "surrogatepass")).hexdigest()


def utc(ts: float | None) -> datetime | None:
    """An epoch timestamp as an aware UTC datetime (None stays None)."""
    return None if ts is None else datetime.fromtimestamp(ts, UTC)


@dataclass(frozen=True, slots=True)
class Identity:
    """An address and its lifetime; the token lives in the tokens table, hashed."""

    id: int
    address: str
    local_part: str
    created_ts: float
    expires_ts: float | None
    label: str | None
    created_by: str | None
    """Id of the provisioner token that made it, or None when the admin did."""
    reused: bool = False
    """The name had an earlier owner: without a fence, mail from the very second of creation
    is not shown when the source's times are that coarse (IMAP's whole seconds)."""
    fence: tuple[str, str] | None = None
    """(source generation, copy id): in that generation, the identity sees exactly the copies
    whose ids sort at or after it (IMAP: UIDNEXT at creation). Finer than whole-second times."""
    send_scope: Literal["none", "local", "any"] = "local"
    """Whom it may send to: nobody, addresses on our domain, or anyone (through the relay)."""

    @property
    def created_at(self) -> datetime:
        return datetime.fromtimestamp(self.created_ts, UTC)

    @property
    def expires_at(self) -> datetime | None:
        return utc(self.expires_ts)

    def expired(self, now: float) -> bool:
        """True once its TTL has run out: it no longer authenticates nor matches mail."""
        return self.expires_ts is not None and now >= self.expires_ts


@dataclass(frozen=True, slots=True)
class ApiToken:
    """An admin or provisioner token's public record (never the token)."""

    id: str
    kind: Literal["admin", "provision"]
    label: str | None
    created_ts: float
    send: Literal["local", "any"] = "local"
    """Of a provisioner: `any` lets the identities it creates send beyond our domain."""

    @property
    def created_at(self) -> datetime:
        return datetime.fromtimestamp(self.created_ts, UTC)


@dataclass(frozen=True, slots=True)
class Principal:
    """Who is calling: the admin, a provisioner (by token id) or one identity."""

    kind: Literal["admin", "provisioner", "identity"]
    token_id: str
    identity: Identity | None = None
    send: Literal["local", "any"] = "local"
    """The widest send scope it may give the identities it creates (the admin: `any`)."""


@dataclass(frozen=True, slots=True)
class CopyRecord:
    """What the sync writes for one mailbox copy (the write side of the index)."""

    copy_id: str
    received_ts: float
    size: int
    from_header: str
    to: tuple[str, ...]
    subject: str
    message_key: str
    """Copies of one message (same Message-ID and body) share it; each address sees one."""
    grants: frozenset[str]
    """The addresses the copy's recipient headers grant it to (see gateway.mail.recipients)."""
    codes: tuple[Code, ...] = ()
    links: tuple[Link, ...] = ()
    direction: Literal["received", "sent"] = "received"
    """`sent`: a copy in the Sent folder, granted only to the identity in its From."""
    thread: ThreadKeys | None = None
    """What threads it; None: a thread of its own (named after its message key), joined by nothing."""
    search: SearchFields | None = None
    """What `?q=` searches (see gateway/mail/search.py); None: empty fields, so it matches no word,
    subject, file name or address term (the sync always fills it)."""


@dataclass(frozen=True, slots=True)
class Summary:
    """One message as an identity sees it (the read side of the index): with its own `seen` mark."""

    id: str
    """The message id: the copy id of the copy this address was granted."""
    message_key: str
    received_ts: float
    size: int
    from_header: str
    to: tuple[str, ...]
    subject: str
    codes: tuple[Code, ...]
    links: tuple[Link, ...]
    seen: bool
    direction: Literal["received", "sent"] = "received"
    thread_id: str | None = None
    """The identity's thread this message is in (every indexed grant has one)."""


@dataclass(frozen=True, slots=True)
class ThreadSummary:
    """One of an identity's threads, as far as that identity sees it (deleted messages do not count)."""

    thread_id: str
    subject: str
    """The display subject (reply prefixes stripped) of its oldest message the identity sees."""
    participants: tuple[str, ...]
    """From, To and Cc addresses of the messages it sees, in order of appearance (at most 50)."""
    message_count: int
    unseen_count: int
    """Received messages without a seen mark (sent ones never count)."""
    last_ts: float
    """Receipt time of its latest message the identity sees."""
    last_seq: int = 0
    """Index position of that message: orders threads whose latest mail shares one receipt second."""


@dataclass(frozen=True, slots=True)
class Grant:
    """One address's grant of one message, as an identity's window judges it.

    `copy_id` and `received_ts` are those of the copy that first granted it: a grant that
    moved to another copy (its first left the mailbox) keeps them, never the later copy's.
    """

    address: str
    copy_id: str
    received_ts: float


@dataclass(frozen=True, slots=True)
class Cursor:
    """A position in an address's listing: the message there (id, receipt time) and its `seq`.

    `id` and `received_ts` are those of the copy that first granted the message (what an
    identity's window compares), even when the grant has since moved to another copy.
    Listings sort by `seq`, the index's insertion sequence (internal, renumbered by a rebuild):
    mail indexed after a cursor was taken always sorts after it, whatever its receipt time.
    """

    received_ts: float
    id: str
    seq: int
    """The listing's sort key; 0 sorts before every message (a listing from the start)."""


@dataclass(frozen=True, slots=True)
class Filters:
    """What a listing keeps of an identity's mail; deleted messages are never kept."""

    since_ts: float
    """Only mail received at or after it (the identity's window, or a later `since`)."""
    min_id: str | None = None
    """Only copies whose ids sort at or after it (an identity's fence)."""
    sent_since_ts: float = 0.0
    """Only sent copies received (kept) at or after it: a fence orders the inbox's ids only, so
    the time rule alone keeps a re-created name from an earlier owner's sent mail."""
    sender: str | None = None
    """Case-insensitive substring of the From header."""
    subject: str | None = None
    """Case-insensitive substring of the Subject."""
    unseen: bool = False
    """Only messages the identity has not seen."""
    unclaimed: bool = False
    """Skip messages a live wait claim of the identity holds."""
    direction: Literal["received", "sent", "all"] = "received"
    """Which copies: received mail (what waits and events read), the identity's sent copies, or both."""
    thread_id: str | None = None
    """Only the messages of this thread."""
    query: Node | None = None
    """Only messages matching this search (gateway.mail.search.matches is its meaning)."""
