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
    "MAX_TTL_SECONDS",
    "ApiToken",
    "Attachment",
    "Code",
    "CreateIdentityIn",
    "CreateTokenIn",
    "CreatedApiToken",
    "CreatedIdentity",
    "ErrorBody",
    "Header",
    "IdentityInfo",
    "IdentityPage",
    "Link",
    "Message",
    "MessagePage",
    "MessagePageAfter",
    "RotatedToken",
    "SeenIn",
    "Summary",
]

MAX_TTL_SECONDS: Final = 10 * 365 * 86400


class _In(msgspec.Struct, forbid_unknown_fields=True, frozen=True):
    """Request bodies reject unknown fields: a typo must not be silently ignored."""


class CreateIdentityIn(_In, frozen=True):
    local_part: str | None = None
    """Checked by the gateway (422 when invalid or reserved); the body cap bounds it."""
    ttl_seconds: Annotated[int, msgspec.Meta(ge=1, le=MAX_TTL_SECONDS)] | None = None
    label: Annotated[str, msgspec.Meta(max_length=200)] | None = None
    force: bool = False
    """Admin only: re-create a quarantined name (it still never sees earlier mail)."""


class CreateTokenIn(_In, frozen=True):
    scope: Literal["provision"]
    label: Annotated[str, msgspec.Meta(max_length=200)] | None = None


class SeenIn(_In, frozen=True):
    seen: bool


class ErrorBody(msgspec.Struct, frozen=True):
    """Every error: a stable code to match on and a sentence for people (never request data)."""

    error: str
    detail: str
    retry_after_sec: float | msgspec.UnsetType = msgspec.UNSET
    """On a 429 or 503: seconds to wait before trying again (also the `Retry-After` header)."""


class IdentityInfo(msgspec.Struct, frozen=True):
    address: str
    created_at: datetime
    expires_at: datetime | None
    label: str | None


class CreatedIdentity(msgspec.Struct, frozen=True):
    address: str
    token: str
    """Shown once: only its hash is stored."""
    created_at: datetime
    expires_at: datetime | None
    label: str | None


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


class CreatedApiToken(msgspec.Struct, frozen=True):
    id: str
    scope: Literal["provision"]
    token: str
    label: str | None
    created_at: datetime


class Code(msgspec.Struct, frozen=True):
    """A one-time code, best first in `codes`."""

    value: str
    """Canonical form, what to type: numeric codes as plain digits ("123 456" → "123456");
    alphanumeric codes as written, dash kept ("K7D2-QW9P", "G-774102")."""
    context: str
    """The words around it in the mail."""
    source: Literal["subject", "text", "html"]


class Link(msgspec.Struct, frozen=True):
    """A verification / sign-in / reset link, best first in `links`; the gateway never fetches it."""

    url: str
    """Exactly as the sender wrote it (after transfer and HTML entity decoding)."""
    context: str
    """The link's text, or the words before it."""
    source: Literal["text", "html"]


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


class Header(msgspec.Struct, frozen=True):
    name: str
    value: str


class Attachment(msgspec.Struct, frozen=True):
    filename: str | None
    content_type: str
    size: int


class Message(Summary, frozen=True, rename={"from_": "from"}):
    headers: list[Header]
    text: str
    html: str | None
    """The raw HTML as sent: for agents. Humans view it sanitized at /ui."""
    attachments: list[Attachment]
    truncated: bool = False
    """True when a parse limit (header size or count, MIME parts, nesting, size or parse cost)
    cut part of this message: what is shown is what could be read, and the raw source is whole."""


class MessagePage(msgspec.Struct, frozen=True):
    messages: list[Summary]
    next_before_id: str | None


class MessagePageAfter(msgspec.Struct, frozen=True):
    messages: list[Summary]
    next_after_id: str | None
