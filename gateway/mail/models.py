"""Frozen value types the pure core returns."""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime
from typing import Literal

__all__ = ["Attachment", "Code", "Header", "Link", "ParsedMessage"]


@dataclass(frozen=True, slots=True)
class Header:
    """One header field as a reader sees it: name as written, value decoded (RFC 2047) and unfolded."""

    name: str
    value: str


@dataclass(frozen=True, slots=True)
class Attachment:
    """Metadata of one attachment; the content stays in the mailbox (see ``parse.attachment_content``)."""

    filename: str | None
    """The sender's name, decoded (RFC 2231, RFC 2047) and made safe (``attachments.safe_filename``);
    an attached message's always ends in ``.eml``. None when the part has no usable name."""
    content_type: str
    """``maintype/subtype`` as declared, lowercase."""
    size: int
    """Bytes of the content after transfer decoding: what a download serves."""
    attachment_id: str = ""
    """The part's MIME section number as IMAP numbers it (RFC 3501 ``BODY[2.1]``): "1", "2", "2.1".
    An attached message is one attachment: its own parts are not listed."""
    disposition: str | None = None
    """``attachment`` or ``inline`` as the sender's Content-Disposition says (an unknown value counts
    as ``attachment``, RFC 2183 section 2.8); None without one."""
    content_id: str | None = None
    """The Content-ID without its angle brackets (what ``cid:`` URLs in the HTML name), or None."""
    sha256: str = ""
    """SHA-256 hex of the bytes a download serves; '' when they could not be located."""


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
    skipped_header_lines: int = 0
    """Lines of the header block that are neither a field nor a field's continuation, left out of
    ``headers`` (mail from broken software: a stray ``>From``, text without a colon, a name with
    spaces or 8-bit bytes); continuations of such a line count too. The fields after them and the
    body (after the first empty line) are still read. 0 for well-formed mail; a byte-order mark
    and spaces before a colon (``Subject : x``, obsolete but valid syntax) are read, not counted."""


@dataclass(frozen=True, slots=True)
class Code:
    """A one-time code found in a message (see :mod:`gateway.mail.extract`)."""

    value: str
    """What to type. Numeric codes are plain ASCII digits, whatever their spacing in the mail
    ("123 456", "123-456", "4 8 2 9 1 3" and fullwidth digits all give "123456"); alphanumeric
    codes are kept as written, dash included ("K7D2-QW9P", "G-774102")."""
    context: str
    """The words around it, whitespace collapsed (at most about 120 characters)."""
    source: Literal["subject", "text", "html"]
    """Where it was found: the Subject, the text/plain part, or the text/html part as rendered."""
    reason: str = ""
    """Why it is reported, as a reader would say it: 'labelled "verification code" in the mail',
    'the one code-like value in a mail whose subject says "login code"'. Empty only in rows indexed
    before reasons existed."""


@dataclass(frozen=True, slots=True)
class Link:
    """A verification, sign-in, reset or confirmation link found in a message; never fetched."""

    url: str
    """Exactly as the sender wrote it, after transfer decoding and (in HTML) entity decoding."""
    context: str
    """The link's text in HTML, or the words before it in text (at most about 120 characters)."""
    source: Literal["text", "html"]
    reason: str = ""
    """Why it is reported, as a reader would say it: 'the button says "Confirm your email"', 'its
    address says "verify"'. Empty only in rows indexed before reasons existed."""
