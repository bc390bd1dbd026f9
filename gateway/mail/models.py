"""Frozen value types the pure core returns."""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime

__all__ = ["Attachment", "Header", "ParsedMessage"]


@dataclass(frozen=True, slots=True)
class Header:
    """One header field as a reader sees it: name as written, value decoded (RFC 2047) and unfolded."""

    name: str
    value: str


@dataclass(frozen=True, slots=True)
class Attachment:
    """Metadata of one attachment; the content stays in the mailbox."""

    filename: str | None
    content_type: str
    size: int


@dataclass(frozen=True, slots=True)
class ParsedMessage:
    """What the gateway needs from one RFC 5322 message."""

    message_id: str | None
    """The Message-ID with its angle brackets, or None when missing or unusable."""
    from_header: str
    """The decoded From header as written (display name and address), '' when missing."""
    from_address: str | None
    """The first From addr-spec, lowercased, or None."""
    to: tuple[str, ...]
    """Addr-specs of the To header, lowercased, for display only (never for access)."""
    cc: tuple[str, ...]
    subject: str
    date: datetime | None
    """The sender's Date header, tz-aware, or None; informational (ordering uses receipt time)."""
    headers: tuple[Header, ...]
    text: str
    """The first text/plain part, '' when there is none."""
    html: str | None
    """The first text/html part, raw as sent (after transfer and charset decoding)."""
    attachments: tuple[Attachment, ...] = field(default_factory=tuple)
    body_sha256: str = ""
    """SHA-256 hex of the raw body (everything after the header block), for de-duplicating copies."""
    truncated: bool = False
    """True when a bound (size, MIME depth, header count) cut something off."""
