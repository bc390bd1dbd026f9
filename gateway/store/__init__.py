"""The store: everything the gateway keeps, one small async Protocol per concern, two engines.

Words used the same way in code, schema and API docs:

- **copy id**: the mailbox's id of one stored copy (the Maildir file name, or UIDVALIDITY and
  UID over IMAP). The intake writes one copy per envelope recipient, so a message sent to
  three of our addresses is three copies.
- **message key**: the same for every copy of one message (its Message-ID header and body
  hash; `gateway.mail.keys`). Marks and claims hang on it, so they outlive an index
  rebuild and a new UIDVALIDITY.
- **message id**: what the API calls a message: the copy id of the one copy an address was
  granted (each address sees one copy of each message). Never the RFC 5322 Message-ID header,
  which the code calls the Message-ID header.

Concerns, each a Protocol in its own module: `Identities`, `Tokens`, `Quarantine`, `Marks`,
`UiSessions`, `Claims`, `RateLimits`, `Outbox`, `WebhookStore` (durable: the mailbox cannot give them back, so a store
that cannot be trusted stops start-up instead of starting empty) and `MessageIndex` (a cache
of the mailbox, rebuilt by the sync when missing, stale or corrupt).

Engines (`Store.engine`):

- `sqlite` (the default, nothing to set up): `identities.db` (durable, synchronous=FULL) and
  `index.db` (the cache) in the data directory, attached in one connection so that an
  identity's grants, marks and claims are one query. Every call runs on one dedicated thread,
  so a write never blocks the event loop. A write that changes both files is not atomic
  across them (SQLite ATTACH under WAL): durable first, index after, and the index is
  rebuildable.
- `postgresql` (`AGENTMAIL_DATABASE_URL`): both in one database, psycopg 3 with its async
  pool. Nothing in either schema assumes one process: claims and counters are rows, ids are
  never `max()+1`.

`tests/store/` runs one contract suite over both.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Protocol

from gateway.store.claims import Claims
from gateway.store.coordination import Coordination, News
from gateway.store.identities import Identities
from gateway.store.index import MessageIndex
from gateway.store.limits import RateLimits
from gateway.store.marks import Marks
from gateway.store.models import (
    ApiToken,
    CopyRecord,
    Cursor,
    Filters,
    Grant,
    Identity,
    Principal,
    Summary,
    ThreadSummary,
    hash_token,
    new_token,
)
from gateway.store.outbox import DeliveryState, Outbox, OutboxEntry
from gateway.store.quarantine import Quarantine
from gateway.store.sessions import UiSessions
from gateway.store.tokens import Tokens
from gateway.store.webhooks import Attempt, Delivery, Webhook, WebhookStore

__all__ = [
    "ApiToken",
    "Attempt",
    "Claims",
    "Coordination",
    "CopyRecord",
    "Cursor",
    "Delivery",
    "DeliveryState",
    "Engine",
    "Filters",
    "Grant",
    "Identities",
    "Identity",
    "Marks",
    "MessageIndex",
    "News",
    "Outbox",
    "OutboxEntry",
    "Principal",
    "Quarantine",
    "RateLimits",
    "Store",
    "Summary",
    "ThreadSummary",
    "Tokens",
    "UiSessions",
    "Webhook",
    "WebhookStore",
    "hash_token",
    "new_token",
]


class Engine(Protocol):
    """What every engine does besides its concerns: open, check, close."""

    kind: str
    """`sqlite` or `postgresql`."""
    store_id: str | None
    """The store's random id, kept in its meta (None until started)."""
    domain: str | None
    """The domain the store is bound to (None until started, or when opened to adopt an unbound one)."""
    created: bool
    """Whether this opening made the store (there was none before)."""

    async def start(self) -> None:
        """Connect (if not yet) and check the schema; StoreError when the store cannot be trusted."""

    async def close(self) -> None:
        """Release every connection and thread."""

    async def ping(self) -> bool:
        """Whether the store answers right now (readiness)."""


@dataclass(frozen=True, slots=True)
class Store:
    """One engine's implementation of every concern."""

    engine: Engine
    identities: Identities
    tokens: Tokens
    quarantine: Quarantine
    marks: Marks
    sessions: UiSessions
    claims: Claims
    limits: RateLimits
    outbox: Outbox
    webhooks: WebhookStore
    index: MessageIndex
    coordination: Coordination
    """Who reads the mailbox, and news between the gateways on this store (gateway/store/coordination.py)."""
