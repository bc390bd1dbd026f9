"""The PostgreSQL schema: durable tables and the message index in one database, checked (or made) at start.

Schema versions: 1 this engine's first; 2 sending (identities.send_scope, tokens.send, the
outbox and its delivery rows); 3 webhooks, their deliveries and attempt log. Each upgrades
in place in one transaction under the schema lock (additive: back up with pg_dump before
upgrading if you may want to go back to an older release, which refuses the newer version).
Times are epoch seconds in double precision, written from the store's injected clock, never
`now()`. Ids, keys and addresses are `COLLATE "C"`: their order (listing ties, cursors,
identity pages) is byte order, as in Python and SQLite, whatever the database's default
collation.

Start-up fails closed: a database with tables that are not ours, or a newer schema version,
is refused and left as it was. `meta` also holds the store's random `store_id` and the `domain`
it is bound to (written at creation or at the first start of an older store: meta rows, not a
schema change); a start with another AGENTMAIL_DOMAIN is refused. An empty database is made a
store only when the binding's `may_create` allows it (gateway/store/lineage.py). Creating runs
under a transaction-scoped advisory lock, so two gateways starting on one empty database
create it once.
"""

from __future__ import annotations

import secrets
from typing import Final

import psycopg

from gateway.errors import StoreError
from gateway.store.lineage import Binding
from gateway.store.postgres.database import Connection, Database

__all__ = [
    "APPLICATION",
    "INDEX_TABLES",
    "INDEX_VERSION",
    "LOCK_INDEX",
    "LOCK_NAMESPACE",
    "LOCK_READER",
    "LOCK_SCHEMA",
    "LOCK_WEBHOOKS",
    "NEW_SCHEMA",
    "SCHEMA_VERSION",
    "TABLES",
    "ensure_schema",
]

SCHEMA_VERSION: Final = 3
INDEX_VERSION: Final = 7  # index_meta.schema_version: 2 listings ordered by copies.seq, copies.grants_json;
# 3 a moved grant keeps its first copy's window (grants.origin_id, gone.origin_id);
# 4 sent copies (copies/grants/gone.direction) and threads (grants.thread_id, thread_refs, threads);
# 5 search (copies.from_keys/to_keys/subject_search/filenames/attachments/search_text);
# 6 grants in index order over every address (grants_by_seq: /v1/events, the webhook feeder);
# 7 every message read again: the full address grammar's grants, one header block, codes and links with reasons
"""The index tables' own version: they are a cache, so a change drops and re-creates them (the sync refills them)."""
APPLICATION: Final = "agentmail-gateway"
"""meta.application: what tells our `meta` table from another program's."""
LOCK_NAMESPACE: Final = 0x616D  # "am": first key of every advisory lock this engine takes
LOCK_SCHEMA: Final = 1  # second key: creating or upgrading the schema
LOCK_INDEX: Final = 2  # second key: adding copies to the index (their seq values commit in order)
LOCK_WEBHOOKS: Final = 3  # second key: changing which webhook deliveries are queued, or claiming them
LOCK_READER: Final = 4  # second key, held by one session for as long as its gateway reads the mailbox

_DURABLE: Final = """
CREATE TABLE meta (key text COLLATE "C" PRIMARY KEY, value text NOT NULL);
CREATE TABLE identities (
    id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,  -- never reused, never max()+1
    local_part text COLLATE "C" NOT NULL UNIQUE,  -- the race-free guard of Identities.create
    created_at double precision NOT NULL,
    expires_at double precision,
    label text,
    created_by text COLLATE "C",
    reused boolean NOT NULL DEFAULT false,
    fence_generation text COLLATE "C",
    fence_id text COLLATE "C",
    send_scope text NOT NULL DEFAULT 'local' CHECK (send_scope IN ('none', 'local', 'any'))
);
CREATE INDEX identities_by_creator ON identities (created_by, local_part);
CREATE TABLE tokens (
    id text COLLATE "C" PRIMARY KEY,
    kind text NOT NULL CHECK (kind IN ('admin', 'provision', 'identity')),
    hash text COLLATE "C" NOT NULL UNIQUE,
    identity_id bigint REFERENCES identities (id) ON DELETE CASCADE,
    label text,
    created_at double precision NOT NULL,
    send text NOT NULL DEFAULT 'local' CHECK (send IN ('local', 'any'))  -- a provisioner's widest grant
);
CREATE INDEX tokens_by_identity ON tokens (identity_id);
CREATE TABLE quarantine (local_part text COLLATE "C" PRIMARY KEY, until double precision NOT NULL);
CREATE TABLE marks (
    identity_id bigint NOT NULL REFERENCES identities (id) ON DELETE CASCADE,
    message_key text COLLATE "C" NOT NULL,
    seen boolean NOT NULL DEFAULT false,
    deleted boolean NOT NULL DEFAULT false,
    retired_at double precision,  -- when the message's last copy left the mailbox (kept until retention)
    PRIMARY KEY (identity_id, message_key)
);
CREATE INDEX marks_by_key ON marks (message_key);
CREATE INDEX marks_by_retirement ON marks (retired_at) WHERE retired_at IS NOT NULL;
-- /ui sessions: `hash` of the cookie's random id, `token_hash` of the token that opened it.
CREATE TABLE ui_sessions (
    hash text COLLATE "C" PRIMARY KEY,
    token_hash text COLLATE "C" NOT NULL,
    created_at double precision NOT NULL,
    used_at double precision NOT NULL
);
CREATE INDEX ui_sessions_by_token ON ui_sessions (token_hash);
CREATE TABLE claims (
    identity_id bigint NOT NULL REFERENCES identities (id) ON DELETE CASCADE,
    message_key text COLLATE "C" NOT NULL,
    until double precision NOT NULL,
    PRIMARY KEY (identity_id, message_key)
);
CREATE INDEX claims_by_key ON claims (message_key);
CREATE INDEX claims_by_until ON claims (until);
CREATE TABLE rate_events (
    id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    key text COLLATE "C" NOT NULL,
    at double precision NOT NULL,
    expires double precision NOT NULL
);
CREATE INDEX rate_events_by_key ON rate_events (key, at);
CREATE INDEX rate_events_by_expiry ON rate_events (expires);
"""
# Version 2: sending. Existing identities and provisioners may send on our domain only.
_V2_COLUMNS: Final = """
ALTER TABLE identities ADD COLUMN send_scope text NOT NULL DEFAULT 'local'
    CHECK (send_scope IN ('none', 'local', 'any'));
ALTER TABLE tokens ADD COLUMN send text NOT NULL DEFAULT 'local' CHECK (send IN ('local', 'any'));
"""
# One row per accepted send (gateway/store/outbox.py). No foreign key to identities: the mail
# of an identity deleted meanwhile was accepted and still goes out. `raw` and `sent_copy` are
# NULL once it is finished; `claimed_until` is a worker's lease.
_V2: Final = """
CREATE TABLE outbox (
    id text COLLATE "C" PRIMARY KEY,
    identity_id bigint NOT NULL,
    sender text COLLATE "C" NOT NULL,
    message_key text COLLATE "C" NOT NULL,
    message_id text NOT NULL,
    raw bytea,
    sent_copy bytea,
    local_json text NOT NULL,
    remote_json text NOT NULL,
    created_at double precision NOT NULL,
    local_done boolean NOT NULL DEFAULT false,
    copy_done boolean NOT NULL DEFAULT false,
    attempts integer NOT NULL DEFAULT 0,
    next_at double precision NOT NULL DEFAULT 0,
    claimed_until double precision NOT NULL DEFAULT 0,
    finished boolean NOT NULL DEFAULT false
);
CREATE INDEX outbox_unfinished ON outbox (created_at, id) WHERE NOT finished;
CREATE INDEX outbox_by_identity ON outbox (identity_id, message_key);
CREATE TABLE deliveries (
    entry_id text COLLATE "C" NOT NULL REFERENCES outbox (id) ON DELETE CASCADE,
    position integer NOT NULL,  -- recipient order: local ones, then remote ones
    address text COLLATE "C" NOT NULL,
    remote boolean NOT NULL,
    status text NOT NULL CHECK (status IN ('pending', 'delivered', 'relayed', 'queued', 'failed')),
    detail text,
    attempts integer NOT NULL DEFAULT 0,
    updated_at double precision NOT NULL,
    PRIMARY KEY (entry_id, address)
);
"""
# Version 3: webhooks (gateway/store/webhooks.py). A webhook goes with its identity or its
# provisioner token (revoking the token deletes its row); an admin webhook names neither.
# A delivery's `seq` is its place in the order of its (webhook, address) (values commit in
# order: every enqueue holds LOCK_WEBHOOKS); `head` marks the oldest queued delivery of each
# (webhook, address), the only one that may be due, kept by every write that changes what is
# queued (gateway/store/postgres/webhooks.py). `claimed_until` is a worker's lease.
_V3: Final = """
CREATE TABLE webhooks (
    id text COLLATE "C" PRIMARY KEY,
    scope text NOT NULL CHECK (scope IN ('identity', 'provisioner', 'admin')),
    identity_id bigint REFERENCES identities (id) ON DELETE CASCADE,
    token_id text COLLATE "C" REFERENCES tokens (id) ON DELETE CASCADE,
    url text NOT NULL,
    events_json text NOT NULL,
    description text,
    signing text NOT NULL CHECK (signing IN ('v1', 'v1a')),
    secret text NOT NULL,
    public_key text,
    created_at double precision NOT NULL,
    previous_secret text,
    previous_until double precision,
    disabled_at double precision,
    disabled_reason text,
    failing_since double precision,
    address text,  -- an identity webhook's address, kept for reading (the identity row has the local part)
    CHECK ((identity_id IS NOT NULL) = (scope = 'identity')),
    CHECK ((token_id IS NOT NULL) = (scope = 'provisioner'))
);
CREATE INDEX webhooks_by_identity ON webhooks (identity_id) WHERE identity_id IS NOT NULL;
CREATE INDEX webhooks_by_token ON webhooks (token_id) WHERE token_id IS NOT NULL;
CREATE INDEX webhooks_by_scope ON webhooks (scope, created_at);
CREATE TABLE webhook_deliveries (
    seq bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,  -- enqueue order, never reused
    id text COLLATE "C" NOT NULL UNIQUE,  -- the webhook-id header: the idempotency key
    webhook_id text COLLATE "C" NOT NULL REFERENCES webhooks (id) ON DELETE CASCADE,
    address text COLLATE "C" NOT NULL,
    event text NOT NULL,
    payload bytea NOT NULL,
    created_at double precision NOT NULL,
    status text NOT NULL CHECK (status IN ('queued', 'delivered', 'failed')),
    attempts integer NOT NULL DEFAULT 0,
    next_at double precision NOT NULL DEFAULT 0,
    last_code integer,
    last_error text,
    finished_at double precision,
    head boolean NOT NULL DEFAULT false,
    claimed_until double precision NOT NULL DEFAULT 0
);
CREATE INDEX webhook_deliveries_queue ON webhook_deliveries (webhook_id, address, seq) WHERE status = 'queued';
CREATE INDEX webhook_deliveries_heads ON webhook_deliveries (webhook_id, address) WHERE head;
CREATE INDEX webhook_deliveries_due ON webhook_deliveries (next_at) WHERE head;
CREATE INDEX webhook_deliveries_leased ON webhook_deliveries (webhook_id, address, claimed_until)
    WHERE claimed_until > 0;
CREATE INDEX webhook_deliveries_listing ON webhook_deliveries (webhook_id, created_at, seq);
CREATE INDEX webhook_deliveries_finished ON webhook_deliveries (finished_at) WHERE finished_at IS NOT NULL;
CREATE TABLE webhook_attempts (
    id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    delivery_id text COLLATE "C" NOT NULL REFERENCES webhook_deliveries (id) ON DELETE CASCADE,
    at double precision NOT NULL,
    latency_ms double precision NOT NULL,
    status_code integer,
    error text,
    response_head text NOT NULL
);
CREATE INDEX webhook_attempts_by_delivery ON webhook_attempts (delivery_id, id);
"""
# The message index: a cache of the mailbox (the sync refills it), beside the durable tables
# so that listing reads grants, marks and claims in one query. JSON columns are text, not
# jsonb: jsonb refuses \u0000 and reorders nothing we need, and the edge decodes them anyway.
_INDEX: Final = """
CREATE TABLE index_meta (key text COLLATE "C" PRIMARY KEY, value text NOT NULL);
-- `seq` orders listings, cursors and event replays: the order copies were indexed in (see
-- PostgresIndex.add for why its values also commit in that order).
CREATE TABLE copies (
    copy_id text COLLATE "C" PRIMARY KEY,
    seq bigint GENERATED ALWAYS AS IDENTITY UNIQUE,
    received_at double precision NOT NULL,
    size bigint NOT NULL,
    from_header text NOT NULL,
    to_json text NOT NULL,
    subject text NOT NULL,
    from_fold text NOT NULL,
    subject_fold text NOT NULL,
    message_key text COLLATE "C" NOT NULL,
    codes_json text NOT NULL,
    links_json text NOT NULL,
    grants_json text NOT NULL,  -- every address this copy grants: a grant moves here when its copy leaves
    direction text NOT NULL CHECK (direction IN ('received', 'sent')),
    participants_json text NOT NULL,  -- From, To and Cc addresses (what a thread shows of it)
    depth integer NOT NULL DEFAULT 0,  -- Message-IDs in its References chain: a thread's order within one second
    -- What `?q=` reads (gateway/mail/search.py SearchFields): folded forms, exact address keys
    -- (compared by equality), the attachments that count. No full-text index: a search scans
    -- one identity's grants (gateway/store/postgres/index.py), and the text is TOASTed aside.
    from_keys text[] NOT NULL DEFAULT '{}',
    to_keys text[] NOT NULL DEFAULT '{}',
    subject_search text NOT NULL DEFAULT '',
    filenames text NOT NULL DEFAULT '',
    attachments integer NOT NULL DEFAULT 0,
    search_text text NOT NULL DEFAULT ''
);
CREATE INDEX copies_by_key ON copies (message_key);
CREATE INDEX copies_by_time ON copies (received_at);
-- One row per address and message: the copy that address reads it through (its message id),
-- and what stays when the grant moves to another copy: its listing position and the window
-- an identity is judged by (received_at and origin_id, the id of the copy that first granted
-- it, which the IMAP fence compares), so a move never shows a re-created name older mail.
CREATE TABLE grants (
    address text COLLATE "C" NOT NULL,
    message_key text COLLATE "C" NOT NULL,
    copy_id text COLLATE "C" NOT NULL,
    received_at double precision NOT NULL,
    seq bigint NOT NULL,
    origin_id text COLLATE "C" NOT NULL,
    direction text NOT NULL,  -- a sent and a received copy of one message are two grants
    thread_id text COLLATE "C" NOT NULL,
    PRIMARY KEY (address, message_key, direction)
);
CREATE INDEX grants_listing ON grants (address, seq);
CREATE INDEX grants_by_thread ON grants (address, thread_id);
CREATE INDEX grants_by_copy ON grants (copy_id);
CREATE INDEX grants_by_key ON grants (message_key);
-- Every address's grants in index order: the all-identities stream and the webhook feeder walk it.
CREATE INDEX grants_by_seq ON grants (seq, address);
-- Where removed copies sat in each address's listing (cursors; no re-grant). Pruned by retention.
CREATE TABLE gone (
    address text COLLATE "C" NOT NULL,
    copy_id text COLLATE "C" NOT NULL,
    received_at double precision NOT NULL,
    message_key text COLLATE "C" NOT NULL,
    seq bigint NOT NULL,
    origin_id text COLLATE "C" NOT NULL,
    direction text NOT NULL,
    PRIMARY KEY (address, copy_id)
);
CREATE INDEX gone_by_time ON gone (received_at);
CREATE INDEX gone_by_key ON gone (address, message_key);
-- Threads, per address (gateway/mail/threads.py): every Message-ID of a thread's chains names it,
-- and a thread's subject, activity and people let a message with no chain join by subject.
CREATE TABLE thread_refs (
    address text COLLATE "C" NOT NULL,
    ref text COLLATE "C" NOT NULL,
    thread_id text COLLATE "C" NOT NULL,
    PRIMARY KEY (address, ref)
);
CREATE TABLE threads (
    address text COLLATE "C" NOT NULL,
    thread_id text COLLATE "C" NOT NULL,
    subject text NOT NULL,
    subject_norm text NOT NULL,
    last_ts double precision NOT NULL,
    last_seq bigint NOT NULL,
    participants_json text NOT NULL,
    PRIMARY KEY (address, thread_id)
);
CREATE INDEX threads_by_subject ON threads (address, subject_norm, last_ts);
"""
TABLES: Final = frozenset(
    {
        "meta",
        "identities",
        "tokens",
        "quarantine",
        "marks",
        "ui_sessions",
        "claims",
        "rate_events",
        "outbox",
        "deliveries",
        "webhooks",
        "webhook_deliveries",
        "webhook_attempts",
        "index_meta",
        "copies",
        "grants",
        "gone",
        "thread_refs",
        "threads",
    }
)
NEW_SCHEMA: Final = _DURABLE + _V2 + _V3 + _INDEX
"""Every table of a new store, as one script: `ensure_schema` runs it, and so does `store copy`
(gateway/store/copy.py) inside its own transaction; both then write meta's `application` and
`schema_version` and index_meta's `schema_version`."""
INDEX_TABLES: Final = frozenset({"index_meta", "copies", "grants", "gone", "thread_refs", "threads"})
"""The message index's tables: a cache the sync refills, never copied or backed up."""
_CHECKED: Final = TABLES - (INDEX_TABLES - {"index_meta"})  # the index is remade when stale


async def ensure_schema(db: Database, binding: Binding) -> tuple[dict[str, str], bool]:
    """Create the schema in an empty database or check the one there; (its meta, whether it was made now).

    StoreError when it cannot be trusted, is bound to another domain, or may not be made.
    """
    try:
        async with db.transaction() as conn:
            await conn.execute("SELECT pg_advisory_xact_lock(%s, %s)", (LOCK_NAMESPACE, LOCK_SCHEMA))
            schema = await _current_schema(conn)
            cur = await conn.execute("SELECT tablename FROM pg_tables WHERE schemaname = %s", (schema,))
            tables = {str(r[0]) for r in await cur.fetchall()}
            if not tables:
                if binding.may_create is not None:
                    binding.may_create(f"in {db.where} (schema {schema})")
                await conn.execute(NEW_SCHEMA)
                await conn.execute(
                    "INSERT INTO meta (key, value) VALUES ('application', %s), ('schema_version', %s)",
                    (APPLICATION, str(SCHEMA_VERSION)),
                )
                await _stamp_index(conn)
                return await _bind(conn, db, binding), True
            await _check(conn, db, schema, tables)
            await _check_index(conn, tables)
            return await _bind(conn, db, binding), False
    except psycopg.Error as exc:
        # Permissions, a broken catalog, a meta table of another shape: nothing we can trust.
        raise StoreError(f"{db.where} cannot be checked ({db.scrub(exc)}); refusing to start") from None


async def _bind(conn: Connection, db: Database, binding: Binding) -> dict[str, str]:
    """Check the store's domain against ours, give it an id and a domain if it has none; its meta."""
    cur = await conn.execute("SELECT key, value FROM meta")
    meta = {str(k): str(v) for k, v in await cur.fetchall()}
    bound = meta.get("domain")
    if bound is not None and bound != binding.domain and not binding.adopt_domain:
        raise StoreError(
            f"the store in {db.where} belongs to the domain {bound} (its identities are addresses there),"
            f" but AGENTMAIL_DOMAIN is {binding.domain}; set AGENTMAIL_DOMAIN={bound}, or use another"
            " database for the other domain"
        )
    wanted = {"store_id": secrets.token_hex(16)}
    if not binding.adopt_domain:
        wanted["domain"] = binding.domain
    for key, value in wanted.items():
        if key not in meta:
            await conn.execute(
                "INSERT INTO meta (key, value) VALUES (%s, %s) ON CONFLICT (key) DO NOTHING", (key, value)
            )
            meta[key] = value
    return meta


async def _current_schema(conn: Connection) -> str:
    cur = await conn.execute("SELECT current_schema()")
    row = await cur.fetchone()
    if row is None or row[0] is None:
        raise StoreError("the PostgreSQL search_path names no schema to keep the store in")
    return str(row[0])


async def _check(conn: Connection, db: Database, schema: str, tables: set[str]) -> None:
    """Refuse a foreign, newer, unreadable or incomplete schema (reading only: a refusal changes nothing).

    An older schema is upgraded, in the caller's transaction.
    """
    foreign = f"{db.where} (schema {schema}) has tables that are not an agentmail-gateway store; refusing to start"
    if "meta" not in tables:
        raise StoreError(foreign)
    try:
        cur = await conn.execute("SELECT key, value FROM meta WHERE key IN ('application', 'schema_version')")
    except psycopg.errors.UndefinedColumn:
        raise StoreError(foreign) from None
    meta = {str(k): str(v) for k, v in await cur.fetchall()}
    if meta.get("application") != APPLICATION:
        raise StoreError(foreign)
    raw = meta.get("schema_version")
    try:
        version = int(raw or "")
    except ValueError:
        raise StoreError(f"{db.where} has an unreadable schema version {raw!r}; refusing to start") from None
    if version > SCHEMA_VERSION:
        raise StoreError(
            f"{db.where} has schema version {version}, this gateway reads {SCHEMA_VERSION}"
            " (it was written by a newer gateway); refusing to start"
        )
    # Older versions upgrade here, step by step, in this transaction and under the same lock.
    if version == 1:
        await conn.execute(_V2_COLUMNS + _V2)
        await conn.execute("UPDATE meta SET value = '2' WHERE key = 'schema_version'")
        tables |= {"outbox", "deliveries"}
        version = 2
    if version == 2:
        await conn.execute(_V3)
        await conn.execute("UPDATE meta SET value = '3' WHERE key = 'schema_version'")
        tables |= {"webhooks", "webhook_deliveries", "webhook_attempts"}
        version = 3
    if version != SCHEMA_VERSION:
        raise StoreError(f"{db.where} has schema version {version}, this gateway reads {SCHEMA_VERSION}")
    missing = _CHECKED - tables
    if missing:
        raise StoreError(f"{db.where} lacks the tables {', '.join(sorted(missing))}; refusing to start")


async def _stamp_index(conn: Connection) -> None:
    await conn.execute("INSERT INTO index_meta (key, value) VALUES ('schema_version', %s)", (str(INDEX_VERSION),))


async def _check_index(conn: Connection, tables: set[str]) -> None:
    """Index tables of another version, or missing one, are dropped and made again, empty: the sync rebuilds them."""
    cur = await conn.execute("SELECT value FROM index_meta WHERE key = 'schema_version'")
    row = await cur.fetchone()
    if row is not None and str(row[0]) == str(INDEX_VERSION) and tables >= TABLES:
        return
    await conn.execute("DROP TABLE IF EXISTS index_meta, copies, grants, gone, thread_refs, threads")
    await conn.execute(_INDEX)
    await _stamp_index(conn)
