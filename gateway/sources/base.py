"""The one interface every mail source implements; everything above it is source-agnostic.

`tests/contract/test_sources.py` runs one suite over every implementation: each member's
docstring below is what that suite checks.
"""

from __future__ import annotations

import asyncio
import contextlib
import secrets
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import TYPE_CHECKING, Final, Protocol

from gateway.errors import InvalidInput, SourceUnavailable
from gateway.mail.recipients import normalize_address
from gateway.mail.stamp import delivery_stamp, received_header, return_path_of, with_message_id

if TYPE_CHECKING:
    from gateway.config import Settings

__all__ = ["Changes", "Listeners", "MailSource", "SourceUnavailable", "StoredMessage", "stamped_copies"]

CLOSE_TIMEOUT: Final = 5.0  # seconds a listener may take to finish its open connections


@dataclass(frozen=True, slots=True)
class StoredMessage:
    """One copy in the mailbox: its stable id, when the store received it, and its bytes."""

    id: str
    received_ts: float
    """Receipt time (UTC epoch seconds) as the store records it: never the sender's Date."""
    raw: bytes
    """The copy's bytes, possibly cut at the `max_bytes` the caller asked for."""
    size: int
    """The copy's full size in the mailbox, even when `raw` was cut."""
    sent: bool = False
    """A copy of mail an identity sent, from the mailbox's Sent folder (see `MailSource.keep_sent`)."""


@dataclass(frozen=True, slots=True)
class Changes:
    """What the mailbox announced: new copies, and whether the sync must reconcile."""

    added: list[str] = field(default_factory=list)
    """Ids of new copies, in arrival order."""
    resync: bool = False
    """The source may have lost track (expunges from outside, a reconnect, a new UIDVALIDITY):
    compare the whole mailbox with the index."""


@dataclass(frozen=True, slots=True)
class Listeners:
    """What a source's `listen` started: the servers to close, and where SMTP is taken."""

    servers: tuple[asyncio.Server, ...] = ()
    smtp_address: tuple[str, int] | None = None
    """(host, port) of the embedded SMTP intake; None when mail reaches the mailbox otherwise."""

    async def close(self) -> None:
        """Stop every server; each may take CLOSE_TIMEOUT seconds to finish its connections."""
        for server in self.servers:
            server.close()
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(server.wait_closed(), timeout=CLOSE_TIMEOUT)


def stamped_copies(raw: bytes, recipients: Sequence[str]) -> list[tuple[bytes, bytes]]:
    """The (stamp, body) copies `deliver` stores: one per recipient, stamped as the intake stamps.

    InvalidInput when a recipient is not one plain addr-spec (it would go into headers).
    """
    rcpts = []
    for given in recipients:
        rcpt = normalize_address(given)
        if rcpt is None:
            raise InvalidInput("a recipient is not a plain address")
        rcpts.append(rcpt)
    if not rcpts:
        return []
    domain = rcpts[0].rpartition("@")[2]  # our own domain: deliver is for local recipients
    body = with_message_id(raw, domain=domain, unique=secrets.token_hex(12))
    received = received_header(
        by=domain, queue_id=secrets.token_hex(6).upper(), when=datetime.now(UTC), protocol="LOCAL"
    )
    sender = return_path_of(raw)
    return [(delivery_stamp(rcpt, return_path=sender, received=received), body) for rcpt in rcpts]


class MailSource(Protocol):
    """A catch-all mailbox seen as a set of immutable messages with stable, opaque ids."""

    kind: str
    resolution: float
    """Granularity of `received_ts` in seconds (IMAP INTERNALDATE: 1.0)."""

    @property
    def reachable(self) -> bool:
        """Whether the mailbox answered the last time it was asked (for /health)."""

    @property
    def generation(self) -> str:
        """Names the id space: the same across restarts while ids keep their meaning; when it
        changes (a new UIDVALIDITY) every old id is void. Read after `start`."""

    async def fence(self) -> str | None:
        """An id that every copy arriving from now on sorts at or after, in this generation.

        None when receipt times alone order mail finely enough (or the mailbox is away).
        """

    async def start(self) -> None:
        """Connect or open; called once before anything else."""

    async def follow(self) -> None:
        """Start watching for new mail (IMAP IDLE): this gateway reads the mailbox from now on.

        Only one gateway on a store follows at a time (gateway/roles.py); the others still fetch."""

    async def unfollow(self) -> None:
        """Stop watching: another gateway reads the mailbox now. Fetches, expunges and sends go on."""

    async def listen(self, settings: Settings, *, hint: Callable[[], None] | None = None) -> Listeners:
        """Start whatever listens for this source, after `start`; the caller closes the result.

        The local source starts the embedded SMTP intake (`settings.smtp_host`/`smtp_port`,
        reported in `smtp_address`); the imap source starts Dovecot's push listener when
        `settings.push_address` is set (each push calls `hint`, by default its own), and nothing otherwise.
        """

    async def stop(self) -> None:
        """Release every connection and file; pending `next_batch` calls return None."""

    def hint(self, reason: str = "push") -> None:
        """Something may have arrived: look soon. Content-free, coalesced, safe from any thread.

        A source that learns of every arrival itself (local) ignores it.
        """

    async def snapshot(self) -> list[str]:
        """Every id currently in the mailbox, oldest first (start-up and reconcile)."""

    async def next_batch(self) -> Changes | None:
        """Block until the mailbox changes; None once the source is stopped (also when pending).

        Every copy that arrives after `start` is announced once, in arrival order, unless a
        `snapshot` listed it first (then it may or may not be: callers tolerate repeats).
        """

    async def fetch(self, ids: Sequence[str], *, max_bytes: int | None = None) -> list[StoredMessage]:
        """The copies with these ids, in the order asked; ids no longer there are left out.

        Each `raw` is cut at `max_bytes`, its `size` still the whole copy's; `received_ts` is
        the store's receipt time at `resolution`, never the sender's Date.
        """

    async def expunge(self, ids: Sequence[str]) -> list[str]:
        """Remove these copies from the mailbox for good; returns the ids it removed or found gone.

        Ids it cannot act on now (an older UIDVALIDITY's) are left out, for the reconcile.
        """

    async def keep_sent(self, raw: bytes) -> str | None:
        """Store `raw` in the mailbox's Sent folder as it is (no stamp); returns its id, or None
        when the mailbox does not tell it. Announced by `next_batch` and listed by `snapshot`
        like any copy, fetched with `sent` set: the sync grants it to its sender only.

        Sent ids sort after every inbox id of the same generation (they start with `s`).
        """

    async def deliver(self, raw: bytes, recipients: Sequence[str]) -> list[str]:
        """Store `raw` once per recipient, like an arrival: the copies a mail server would keep.

        Each copy is stamped as the SMTP intake stamps one (`stamped_copies`: Return-Path from
        `From`, Delivered-To and X-Original-To the recipient, Received) and all share one
        Message-ID (added when `raw` has none). They show in `snapshot` and `fetch` and are
        announced by `next_batch`, like SMTP deliveries. Returns their ids in recipient order,
        where the mailbox tells them (IMAP without UIDPLUS: none). Recipients must be at our
        own domain (the caller checks); InvalidInput for one that is not a plain address.
        """
