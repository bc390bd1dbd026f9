"""The /v1 wire format, defined once: the API answers with these, the client and agentmail-mcp decode them.

Pure msgspec structs, snake_case JSON, nothing of the server imported (the client's `import`
stays fast). Request bodies forbid unknown fields, so a typo is refused rather than ignored;
answers may grow fields, which older clients skip when decoding.
"""

from __future__ import annotations

from datetime import datetime
from typing import Annotated, Final, Literal

import msgspec

__all__ = [
    "EVENT_TYPES",
    "MAX_RECIPIENTS",
    "MAX_SUBJECT_CHARS",
    "MAX_TTL_SECONDS",
    "MAX_WEBHOOK_URL",
    "AddressedSummary",
    "ApiToken",
    "Attachment",
    "AttachmentText",
    "Code",
    "CreateIdentityIn",
    "CreateTokenIn",
    "CreatedApiToken",
    "CreatedIdentity",
    "CreatedWebhook",
    "Delivery",
    "DeliveryAttempt",
    "DeliveryDetail",
    "DeliveryFailedEvent",
    "DeliveryPage",
    "ErrorBody",
    "EventType",
    "ForwardIn",
    "Header",
    "IdentityInfo",
    "IdentityPage",
    "Link",
    "Message",
    "MessageEvent",
    "MessagePage",
    "MessagePageAfter",
    "OutAttachment",
    "Rejected",
    "ReplyIn",
    "RotateSecretIn",
    "RotatedSecret",
    "RotatedToken",
    "SeenIn",
    "SendIn",
    "SendResult",
    "SendScope",
    "Summary",
    "Thread",
    "ThreadPage",
    "ThreadSummary",
    "WebhookDelivery",
    "WebhookIn",
    "WebhookInfo",
    "WebhookList",
]

MAX_TTL_SECONDS: Final = 10 * 365 * 86400


class _In(msgspec.Struct, forbid_unknown_fields=True, frozen=True):
    """Request bodies reject unknown fields: a typo must not be silently ignored."""


SendScope = Literal["none", "local", "any"]
"""Whom an identity may send to: nobody, addresses on the gateway's own domain, or anyone (a relay)."""
MAX_RECIPIENTS: Final = 50  # to + cc + bcc of one send
MAX_SUBJECT_CHARS: Final = 998


class CreateIdentityIn(_In, frozen=True):
    local_part: str | None = None
    """Checked by the gateway (422 when invalid or reserved); the body cap bounds it."""
    ttl_seconds: Annotated[int, msgspec.Meta(ge=1, le=MAX_TTL_SECONDS)] | None = None
    label: Annotated[str, msgspec.Meta(max_length=200)] | None = None
    force: bool = False
    """Admin only: re-create a quarantined name (it still never sees earlier mail)."""
    send: SendScope | None = None
    """Whom it may send to; `local` when omitted. `any` only by the admin or a provisioner made with `send: "any"`."""


class CreateTokenIn(_In, frozen=True):
    scope: Literal["provision"]
    label: Annotated[str, msgspec.Meta(max_length=200)] | None = None
    send: Literal["local", "any"] = "local"
    """`any`: the identities it creates may be given `send: "any"` (mail beyond our domain)."""


class SeenIn(_In, frozen=True):
    seen: bool


class Rejected(msgspec.Struct, frozen=True):
    address: str
    reason: str


class ErrorBody(msgspec.Struct, frozen=True):
    """Every error: a stable code to match on and a sentence for people (never request data)."""

    error: str
    detail: str
    retry_after_sec: float | msgspec.UnsetType = msgspec.UNSET
    """On a 429 or 503: seconds to wait before trying again (also the `Retry-After` header)."""
    rejected: list[Rejected] | msgspec.UnsetType = msgspec.UNSET
    """On a 422 `recipient_refused`: every recipient refused and why (nothing was sent)."""


class IdentityInfo(msgspec.Struct, frozen=True):
    address: str
    created_at: datetime
    expires_at: datetime | None
    label: str | None
    send: SendScope = "local"


class CreatedIdentity(msgspec.Struct, frozen=True):
    address: str
    token: str
    """Shown once: only its hash is stored."""
    created_at: datetime
    expires_at: datetime | None
    label: str | None
    send: SendScope = "local"


class IdentityPage(msgspec.Struct, frozen=True):
    identities: list[IdentityInfo]
    next_after: str | None
    """Pass as `after` for the next page; null at the end."""


class RotatedToken(msgspec.Struct, frozen=True):
    address: str
    token: str


class ApiToken(msgspec.Struct, frozen=True):
    id: str
    scope: Literal["provision"]
    label: str | None
    created_at: datetime
    send: Literal["local", "any"] = "local"


class CreatedApiToken(msgspec.Struct, frozen=True):
    id: str
    scope: Literal["provision"]
    token: str
    label: str | None
    created_at: datetime
    send: Literal["local", "any"] = "local"


class Code(msgspec.Struct, frozen=True):
    """A one-time code, best first in `codes`."""

    value: str
    """Canonical form, what to type: numeric codes as plain digits ("123 456" → "123456");
    alphanumeric codes as written, dash kept ("K7D2-QW9P", "G-774102")."""
    context: str
    """The words around it in the mail."""
    source: Literal["subject", "text", "html"]
    reason: str = ""
    """Why the gateway reports it, as a reader would say it ('labelled "verification code"')."""


class Link(msgspec.Struct, frozen=True):
    """A verification / sign-in / reset link, best first in `links`; the gateway never fetches it."""

    url: str
    """Exactly as the sender wrote it (after transfer and HTML entity decoding)."""
    context: str
    """The link's text, or the words before it."""
    source: Literal["text", "html"]
    reason: str = ""
    """Why the gateway reports it, as a reader would say it ('the button says "Confirm your email"')."""


class Summary(msgspec.Struct, frozen=True, rename={"from_": "from"}):
    id: str
    from_: str
    to: list[str]
    subject: str
    received_at: datetime
    size: int
    seen: bool
    codes: list[Code]
    links: list[Link]
    direction: Literal["received", "sent"] = "received"
    """`sent`: a copy of mail this identity sent (listed with `?direction=sent` or `all`)."""
    thread_id: str | None = None
    """The identity's thread this message belongs to (`GET …/threads/{thread_id}`)."""


class Header(msgspec.Struct, frozen=True):
    name: str
    value: str


class Attachment(msgspec.Struct, frozen=True):
    """One file of a message; its bytes at `GET …/messages/{id}/attachments/{attachment_id}`."""

    filename: str | None
    """The sender's name, decoded and made safe (no path, no control or direction characters, at
    most 200 characters); an attached message's ends in `.eml`. Null when it has none."""
    content_type: str
    """The type the sender declared (a download of a type a browser would render is served as
    `application/octet-stream`)."""
    size: int
    """Bytes a download serves (after transfer decoding)."""
    attachment_id: str = ""
    """The part's MIME section number, as IMAP numbers it: "2", "2.1". Stable for the message."""
    disposition: Literal["attachment", "inline"] | None = None
    """As the sender's Content-Disposition says; null without one."""
    content_id: str | None = None
    """The Content-ID without angle brackets: what `cid:` URLs in the HTML name."""
    sha256: str = ""
    """SHA-256 hex of the bytes a download serves."""


class AttachmentText(msgspec.Struct, frozen=True):
    """The text of a text-like attachment (text/*, CSV, JSON, calendar, XML), for agents."""

    attachment_id: str
    filename: str | None
    content_type: str
    text: str
    """Decoded with the part's charset (a byte order mark wins; else UTF-8); line breaks as `\\n`."""
    truncated: bool
    """True when the text is longer than the gateway's cap (AGENTMAIL_ATTACHMENT_TEXT_CHARS): only its start is here."""


class Delivery(msgspec.Struct, frozen=True):
    """Where one recipient of a sent message stands."""

    address: str
    status: Literal["delivered", "relayed", "queued", "failed"]
    """`delivered` into our own mailbox; `relayed`: the relay took it; `queued`: retrying; `failed`: given up."""
    detail: str | None
    """The relay's last answer, or why it was refused."""
    attempts: int
    updated_at: datetime


class Message(Summary, frozen=True, kw_only=True, rename={"from_": "from"}):
    headers: list[Header]
    text: str
    html: str | None
    """The raw HTML as sent: for agents. Humans view it sanitized at /ui."""
    attachments: list[Attachment]
    truncated: bool = False
    """True when a parse limit (header size or count, MIME parts, nesting, size or parse cost)
    cut part of this message: what is shown is what could be read, and the raw source is whole."""
    delivery: list[Delivery] = msgspec.field(default_factory=list)
    """For a sent message: one entry per recipient (empty for received mail)."""
    attachments_truncated: bool = False
    """True when the message has more attachments than the gateway lists (AGENTMAIL_MAX_ATTACHMENTS):
    `attachments` holds the first ones."""


class MessagePage(msgspec.Struct, frozen=True):
    messages: list[Summary]
    next_before_id: str | None


class MessagePageAfter(msgspec.Struct, frozen=True):
    messages: list[Summary]
    next_after_id: str | None


class OutAttachment(_In, frozen=True):
    """A file to send: its bytes base64-encoded."""

    filename: Annotated[str, msgspec.Meta(min_length=1, max_length=255)]
    content: str
    """Base64 (standard alphabet, padding optional); the decoded total is capped by the message size limit."""
    content_type: Annotated[str, msgspec.Meta(max_length=200)] = "application/octet-stream"


_Addresses = Annotated[list[Annotated[str, msgspec.Meta(max_length=320)]], msgspec.Meta(max_length=MAX_RECIPIENTS)]


class SendIn(_In, frozen=True):
    """A new mail from the identity: at least one recipient and a `text` or `html` body."""

    to: _Addresses = msgspec.field(default_factory=list)
    cc: _Addresses = msgspec.field(default_factory=list)
    bcc: _Addresses = msgspec.field(default_factory=list)
    subject: Annotated[str, msgspec.Meta(max_length=MAX_SUBJECT_CHARS)] = ""
    text: str | None = None
    html: str | None = None
    attachments: list[OutAttachment] = msgspec.field(default_factory=list)
    reply_to: Annotated[str, msgspec.Meta(max_length=320)] | None = None
    headers: dict[str, str] = msgspec.field(default_factory=dict)
    """Extra header fields, `X-*` names only."""
    from_name: Annotated[str, msgspec.Meta(max_length=200)] | None = None
    """Display name for `From` (the address is always the identity's)."""


class ReplyIn(_In, frozen=True):
    """A reply to a received or sent message: threading headers and the quote are the gateway's."""

    text: str | None = None
    html: str | None = None
    all: bool = False
    """Reply to every recipient of the original too (never to the identity itself)."""
    attachments: list[OutAttachment] = msgspec.field(default_factory=list)
    from_name: Annotated[str, msgspec.Meta(max_length=200)] | None = None


class ForwardIn(_In, frozen=True):
    """The original re-sent to new recipients with an optional note above it, its attachments kept."""

    to: _Addresses = msgspec.field(default_factory=list)
    cc: _Addresses = msgspec.field(default_factory=list)
    bcc: _Addresses = msgspec.field(default_factory=list)
    text: str | None = None
    """A note written above the forwarded message."""
    from_name: Annotated[str, msgspec.Meta(max_length=200)] | None = None


class SendResult(msgspec.Struct, frozen=True):
    """What a send, reply or forward did (201)."""

    id: str | None
    """The sent copy's message id (`?direction=sent`); null when the mailbox did not say yet."""
    message_id: str
    """The RFC 5322 Message-ID header of the sent mail."""
    thread_id: str | None
    accepted: list[str]
    rejected: list[Rejected]


class ThreadSummary(msgspec.Struct, frozen=True):
    thread_id: str
    subject: str
    participants: list[str]
    message_count: int
    unseen_count: int
    last_message_at: datetime


class ThreadPage(msgspec.Struct, frozen=True):
    threads: list[ThreadSummary]
    next_before: str | None
    """Pass as `before` for the next page; null at the end."""


class Thread(msgspec.Struct, frozen=True):
    thread_id: str
    subject: str
    participants: list[str]
    messages: list[Summary]
    """Oldest first, sent and received."""


# Webhooks (gateway/push): management bodies, what the log shows, and the payloads receivers get.
EventType = Literal["message.received", "message.sent", "message.delivery_failed"]
EVENT_TYPES: Final = ("message.received", "message.sent", "message.delivery_failed")
MAX_WEBHOOK_URL: Final = 2048


class WebhookIn(_In, frozen=True):
    """A webhook to create: its https URL, the events it wants (default: `message.received`), how it is signed."""

    url: Annotated[str, msgspec.Meta(min_length=1, max_length=MAX_WEBHOOK_URL)]
    events: Annotated[list[EventType], msgspec.Meta(min_length=1, max_length=len(EVENT_TYPES))] | None = None
    description: Annotated[str, msgspec.Meta(max_length=200)] | None = None
    signing: Literal["v1", "v1a"] = "v1"
    """`v1`: HMAC-SHA256 with a shared secret (`whsec_…`); `v1a`: Ed25519, verified with `public_key` (`whpk_…`)."""


class RotateSecretIn(_In, frozen=True):
    """How long the old secret keeps signing alongside the new one (both signatures are sent)."""

    grace_seconds: Annotated[int, msgspec.Meta(ge=0, le=7 * 24 * 3600)] = 24 * 3600


class WebhookInfo(msgspec.Struct, frozen=True):
    """A webhook as its owner sees it (never its secret)."""

    id: str
    url: str
    events: list[str]
    description: str | None
    scope: Literal["identity", "provisioner", "admin"]
    """`identity`: one identity's events; `provisioner`: every identity its token created; `admin`: every identity."""
    address: str | None
    """The identity of an `identity` webhook."""
    signing: Literal["v1", "v1a"]
    public_key: str | None
    """`whpk_…` for `v1a` webhooks: what a receiver verifies with."""
    created_at: datetime
    disabled_at: datetime | None
    disabled_reason: str | None
    failing_since: datetime | None


class CreatedWebhook(WebhookInfo, frozen=True, kw_only=True):
    secret: str | None
    """`v1`: the `whsec_…` secret the receiver verifies with, shown this once. `v1a`: null (the signing
    key never leaves the gateway; the receiver verifies with `public_key`)."""


class RotatedSecret(msgspec.Struct, frozen=True):
    secret: str | None
    """The new `whsec_…` (v1), shown this once; null for `v1a` (see `public_key`)."""
    public_key: str | None
    previous_valid_until: datetime
    """Until then every call carries a signature with the old secret too."""


class WebhookList(msgspec.Struct, frozen=True):
    webhooks: list[WebhookInfo]


class WebhookDelivery(msgspec.Struct, frozen=True):
    """One event for one webhook; `id` is the `webhook-id` header the receiver saw."""

    id: str
    webhook_id: str
    event: str
    address: str
    status: Literal["queued", "delivered", "failed"]
    attempts: int
    created_at: datetime
    next_attempt_at: datetime | None
    """When the next attempt is due (queued deliveries)."""
    last_status_code: int | None
    last_error: str | None
    finished_at: datetime | None


class DeliveryAttempt(msgspec.Struct, frozen=True):
    at: datetime
    latency_ms: float
    status_code: int | None
    error: str | None
    response_head: str
    """The first 1 KB of what the receiver answered."""


class DeliveryPage(msgspec.Struct, frozen=True):
    deliveries: list[WebhookDelivery]
    next_before_id: str | None
    """Pass it as `before_id` for the next (older) page; null on the last page."""


class DeliveryDetail(WebhookDelivery, frozen=True, kw_only=True):
    attempt_log: list[DeliveryAttempt]
    payload: str
    """The JSON body sent (and signed) on every attempt."""


class MessageEvent(msgspec.Struct, frozen=True):
    """A webhook's body for `message.received` and `message.sent`: the message's summary as the list route gives it."""

    type: str
    timestamp: datetime
    address: str
    message: Summary


class DeliveryFailedEvent(msgspec.Struct, frozen=True):
    """A webhook's body for `message.delivery_failed`: a recipient of a sent message that the relay gave up on."""

    type: str
    timestamp: datetime
    address: str
    message_id: str
    """The sent message's Message-ID header."""
    recipient: str
    detail: str | None


class AddressedSummary(Summary, frozen=True, kw_only=True, rename={"from_": "from"}):
    """An event of `GET /v1/events`: a summary and the identity it was granted to."""

    address: str
