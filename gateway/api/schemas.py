"""The /v1 wire format: msgspec structs, snake_case, with converters from domain values."""

from __future__ import annotations

from collections.abc import Mapping
from datetime import UTC, datetime
from types import MappingProxyType
from typing import Annotated, Final, Literal

import msgspec
from litestar.openapi import ResponseSpec

from gateway.inbox import FullMessage, Page
from gateway.store import ApiToken, Identity, Summary

__all__ = [
    "AttachmentOut",
    "CodeOut",
    "CreateIdentityIn",
    "CreateTokenIn",
    "CreatedIdentityOut",
    "CreatedTokenOut",
    "ErrorOut",
    "HeaderOut",
    "IdentityListOut",
    "IdentityOut",
    "LinkOut",
    "MessageOut",
    "MessagePageAfterOut",
    "MessagePageOut",
    "RotatedOut",
    "SeenIn",
    "SummaryOut",
    "TokenOut",
    "error_responses",
]

MAX_TTL_SECONDS = 10 * 365 * 86400


class _In(msgspec.Struct, forbid_unknown_fields=True, frozen=True):
    """Request bodies reject unknown fields: a typo must not be silently ignored."""


class CreateIdentityIn(_In, frozen=True):
    local_part: str | None = None
    """Checked by `names.check_local_part` (422 when invalid or reserved); the body cap bounds it."""
    ttl_seconds: Annotated[int, msgspec.Meta(ge=1, le=MAX_TTL_SECONDS)] | None = None
    label: Annotated[str, msgspec.Meta(max_length=200)] | None = None
    force: bool = False
    """Admin only: re-create a quarantined name (it still never sees earlier mail)."""


class CreateTokenIn(_In, frozen=True):
    scope: Literal["provision"]
    label: Annotated[str, msgspec.Meta(max_length=200)] | None = None


class SeenIn(_In, frozen=True):
    seen: bool


class ErrorOut(msgspec.Struct):
    """Every error: a stable code to match on and a sentence for people (never request data)."""

    error: str
    detail: str
    retry_after_sec: int | msgspec.UnsetType = msgspec.UNSET
    """On a 429 or 503: seconds to wait before trying again (also the `Retry-After` header)."""


_ERRORS: Final[Mapping[int, str]] = MappingProxyType(
    {
        400: "Malformed or invalid input: the body, a path or query value (`detail` names it).",
        401: "No token, or one that is unknown, revoked or expired.",
        403: "A valid token on a path or an action it may not use (answered before any lookup).",
        404: "No such identity, message, cursor or token on a path the token may use.",
        408: "Nothing matching arrived before the wait's timeout.",
        409: "The name is taken or still quarantined.",
        413: "The request body is over 64 KiB.",
        422: "The local part is malformed or reserved.",
        429: "Over a limit (open waits, or unknown tokens from this address); see `retry_after_sec`.",
        503: "The mailbox or the store cannot answer right now; see `retry_after_sec`.",
    }
)
AUTHENTICATED_ERRORS: Final = (400, 401, 429, 503)
"""What any route behind a token may answer: bad input, a bad token (429 past a burst), a store away."""


def error_responses(*statuses: int, authenticated: bool = True) -> dict[int, ResponseSpec]:
    """OpenAPI entries for the error statuses a route answers, each with the `ErrorOut` body."""
    wanted = sorted({*statuses, *(AUTHENTICATED_ERRORS if authenticated else ())})
    return {s: ResponseSpec(ErrorOut, generate_examples=False, description=_ERRORS[s]) for s in wanted}


class IdentityOut(msgspec.Struct):
    address: str
    created_at: datetime
    expires_at: datetime | None
    label: str | None

    @classmethod
    def of(cls, identity: Identity) -> IdentityOut:
        return cls(identity.address, identity.created_at, identity.expires_at, identity.label)


class CreatedIdentityOut(msgspec.Struct):
    address: str
    token: str
    """Shown once: only its hash is stored."""
    created_at: datetime
    expires_at: datetime | None
    label: str | None

    @classmethod
    def of(cls, identity: Identity, token: str) -> CreatedIdentityOut:
        return cls(identity.address, token, identity.created_at, identity.expires_at, identity.label)


class IdentityListOut(msgspec.Struct):
    identities: list[IdentityOut]
    next_after: str | None
    """Pass as `after` for the next page; null at the end."""


class RotatedOut(msgspec.Struct):
    address: str
    token: str


class TokenOut(msgspec.Struct):
    id: str
    scope: Literal["provision"]
    label: str | None
    created_at: datetime

    @classmethod
    def of(cls, token: ApiToken) -> TokenOut:
        return cls(token.id, "provision", token.label, token.created_at)


class CreatedTokenOut(msgspec.Struct):
    id: str
    scope: Literal["provision"]
    token: str
    label: str | None
    created_at: datetime


class CodeOut(msgspec.Struct):
    """A one-time code, best first in `codes`."""

    value: str
    """Canonical form, what to type: numeric codes as plain digits ("123 456" → "123456");
    alphanumeric codes as written, dash kept ("K7D2-QW9P", "G-774102")."""
    context: str
    """The words around it in the mail."""
    source: Literal["subject", "text", "html"]


class LinkOut(msgspec.Struct):
    """A verification / sign-in / reset link, best first in `links`; the gateway never fetches it."""

    url: str
    """Exactly as the sender wrote it (after transfer and HTML entity decoding)."""
    context: str
    """The link's text, or the words before it."""
    source: Literal["text", "html"]


class SummaryOut(msgspec.Struct, rename={"from_": "from"}):
    id: str
    from_: str
    to: list[str]
    subject: str
    received_at: datetime
    size: int
    seen: bool
    codes: list[CodeOut]
    links: list[LinkOut]

    @classmethod
    def of(cls, s: Summary) -> SummaryOut:
        return cls(
            id=s.id,
            from_=s.from_header,
            to=list(s.to),
            subject=s.subject,
            received_at=datetime.fromtimestamp(s.received_ts, UTC),
            size=s.size,
            seen=s.seen,
            codes=[CodeOut(c.value, c.context, c.source) for c in s.codes],
            links=[LinkOut(link.url, link.context, link.source) for link in s.links],
        )


class HeaderOut(msgspec.Struct):
    name: str
    value: str


class AttachmentOut(msgspec.Struct):
    filename: str | None
    content_type: str
    size: int


class MessageOut(SummaryOut, rename={"from_": "from"}):
    headers: list[HeaderOut]
    text: str
    html: str | None
    """The raw HTML as sent: for agents. Humans view it sanitized at /ui."""
    attachments: list[AttachmentOut]
    truncated: bool
    """True when a parse limit (header size or count, MIME parts, nesting, size or parse cost)
    cut part of this message: what is shown is what could be read, and the raw source is whole."""

    @classmethod
    def full(cls, message: FullMessage) -> MessageOut:
        base = SummaryOut.of(message.summary)
        p = message.parsed
        return cls(
            **{f: getattr(base, f) for f in base.__struct_fields__},
            headers=[HeaderOut(h.name, h.value) for h in p.headers],
            text=p.text,
            html=p.html,
            attachments=[AttachmentOut(a.filename, a.content_type, a.size) for a in p.attachments],
            truncated=p.truncated,
        )


class MessagePageOut(msgspec.Struct):
    messages: list[SummaryOut]
    next_before_id: str | None

    @classmethod
    def of(cls, page: Page) -> MessagePageOut:
        return cls([SummaryOut.of(s) for s in page.summaries], page.next_before_id)


class MessagePageAfterOut(msgspec.Struct):
    messages: list[SummaryOut]
    next_after_id: str | None

    @classmethod
    def of(cls, page: Page) -> MessagePageAfterOut:
        return cls([SummaryOut.of(s) for s in page.summaries], page.next_after_id)
