"""RFC 5322 / MIME bytes to a ParsedMessage: bounded, never raising, every charset tolerated.

Two readers share the work:

* :func:`raw_headers` reads the top-level header block itself (bounded, linear). Every
  top-level field of the result (Subject, From, To, Date, ...) comes from it, and recipient
  matching reads it too, so both always agree on what the headers say.
* The stdlib parser (``email.feedparser.BytesFeedParser``) finds the MIME structure; bodies, charsets
  and attachments are then decoded here, part by part, with explicit bounds.

Both see one header block, decided once (:func:`_header_bounds`, :func:`_field_line`): it ends at
the first empty line (CRLF or LF). A UTF-8 byte-order mark at the start of the message or of a
header line is ignored. A field may have spaces before its colon (``Subject : x``, the obsolete
syntax of RFC 5322 section 4.5.3). Any other line that is neither a field nor a field's
continuation (an mbox ``From`` line, a stray ``>From``, text without a colon, a name with
spaces or 8-bit bytes) is skipped with its continuations and counted in
``ParsedMessage.skipped_header_lines``: the fields after it are read, and the body still starts
after the first empty line. The stdlib parser never sees the top-level header block itself
(where it would stop at the first such line and read the rest as body): it is given the
Content-* and MIME-Version fields found under this rule, then the body.
"""

from __future__ import annotations

import base64
import binascii
import dataclasses
import hashlib
import quopri
import re
from collections.abc import Iterator
from dataclasses import dataclass, field
from datetime import UTC, datetime
from email.feedparser import BytesFeedParser
from email.message import Message
from email.policy import Compat32
from email.utils import parsedate_to_datetime
from functools import partial
from typing import TYPE_CHECKING, Final

from gateway.mail.attachments import MESSAGE_TYPES, message_filename, safe_filename
from gateway.mail.charsets import clean as _clean
from gateway.mail.charsets import decode as _decode_bytes
from gateway.mail.models import Attachment, Header, ParsedMessage
from gateway.mail.recipients import addresses_in

if TYPE_CHECKING:
    from email.header import Header as _EmailHeader

__all__ = [
    "MAX_HEADER_BYTES",
    "MAX_HEADER_FIELDS",
    "MAX_MESSAGE_BYTES",
    "MAX_MIME_DEPTH",
    "MAX_MIME_PARTS",
    "AttachmentContent",
    "ParsedBody",
    "attachment_content",
    "mime_view",
    "parse_body",
    "parse_message",
    "parse_with_headers",
    "raw_headers",
]

MAX_HEADER_BYTES: Final = 256 * 1024
"""Header block bytes read. Real headers (even long Received/DKIM chains) stay far below."""

MAX_HEADER_FIELDS: Final = 1000
"""Header fields read; a few dozen is normal, thousands are an attack on the reader."""

MAX_MESSAGE_BYTES: Final = 25 * 1024 * 1024
"""Bytes handed to the MIME parser: the common provider limit; anything larger is cut."""

MAX_MIME_DEPTH: Final = 10
"""MIME nesting followed; real mail nests 3 to 5 levels (mixed > related > alternative)."""

MAX_MIME_PARTS: Final = 500
"""MIME parts looked at (containers included); beyond this the rest is ignored."""

# The stdlib parser works line by line in Python, and some lines cost far more than others.
# Its input is fed a slice at a time while a deterministic count of its work stays within
# budget; where the budget runs out the input is cut, and whatever came before is read.
# Weights (about 0.15 us each on one core, measured in bench/parse.py):
# - a line costs _LINE_WORK, plus one check against the boundary of every enclosing multipart
#   (the number of "boundary" declarations so far bounds the nesting);
# - a header field of a part (set_raw, header_source_parse) costs _FIELD_WORK;
# - a part costs _PART_WORK (a new message object, its lookups, its generator).
_MAX_PARSE_WORK: Final = 1_600_000
_LINE_WORK: Final = 2
_FIELD_WORK: Final = 25
_PART_WORK: Final = 300
_FEED_BYTES: Final = 8192  # the slice fed at a time: bounds how far one slice overshoots the budget

# Fields a part keeps in the stdlib tree (see _StructureMessage): a real part has a handful.
_MAX_STRUCTURE_FIELDS: Final = 32
# A structure field as _field_line reads one: a BOM and spaces before the colon are not kept.
_STRUCTURE_FIELD: Final = re.compile(
    rb"(?:\xef\xbb\xbf)?(content-[\x21-\x39\x3b-\x7e]*|mime-version)[ \t]*(:[^\n]*(?:\n[ \t][^\n]*)*)",
    re.IGNORECASE,
)

# The stdlib's legacy parameter parser is quadratic in the number of ";" of a field, and the
# MIME parser re-reads Content-Type for every part: real fields have a handful of parameters.
_MAX_CONTENT_FIELD_CHARS: Final = 8192
_MAX_CONTENT_PARAMS: Final = 64

_FIELD_NAME: Final = re.compile(rb"[\x21-\x39\x3b-\x7e]+")  # RFC 5322 ftext: printable, no ":"
# A field's name, the blanks before its colon, and the colon: what _field_line finds in a line
# that starts with no BOM (ftext holds no ":", so this colon is the line's first).
_FIELD_START: Final = re.compile(rb"([\x21-\x39\x3b-\x7e]+)[ \t]*:")
_ENCODED_WORD: Final = re.compile(r"=\?([^?\s]+)\?([bBqQ])\?([^?\s]*)\?=")  # RFC 2047
_NOT_BASE64: Final = re.compile(r"[^A-Za-z0-9+/]")
_BRACKETED_ID: Final = re.compile(r"<([\x21-\x3b\x3d\x3f-\x7e]+)>")  # printable, no "<" ">"
_BARE_ID: Final = re.compile(r"[\x21-\x3b\x3d\x3f-\x7e]+@[\x21-\x3b\x3d\x3f-\x7e]+")
_EMPTY_LINE: Final = re.compile(rb"\n\r?\n")
_BOM: Final = b"\xef\xbb\xbf"  # UTF-8 byte-order mark, which some Windows tools write first
# The empty line that ends the top-level header block, a BOM at its start ignored (see _field_line).
_LEADING_EMPTY_LINE: Final = re.compile(rb"(?:\xef\xbb\xbf)?\r?\n")
_HEADER_END: Final = re.compile(rb"\n(?:\xef\xbb\xbf)?\r?\n")
_CONTENT_ID: Final = re.compile(r"[\x21-\x3b\x3d\x3f-\x7e]+")  # printable, no "<" ">"
_MAX_CONTENT_ID_CHARS: Final = 998  # a header line's limit (RFC 5322 section 2.1.1)

# Controls are dropped from display text; line breaks and tabs become spaces.
_CONTROLS: Final[dict[int, str | None]] = {
    **dict.fromkeys([*range(0x00, 0x20), 0x7F, *range(0x80, 0xA0)]),
    0x09: " ",
    0x0A: " ",
    0x0D: " ",
}


def raw_headers(
    raw: bytes, *, max_bytes: int = MAX_HEADER_BYTES, max_fields: int = MAX_HEADER_FIELDS
) -> list[tuple[str, str]]:
    """The top-level header fields as (name, value): unfolded, not RFC 2047-decoded.

    Bytes are read as UTF-8 (invalid bytes become U+FFFD). Lines that are no field (see the
    module docstring) are skipped; reading stops after ``max_bytes`` or ``max_fields``.
    """
    return _read_headers(raw, max_bytes=max_bytes, max_fields=max_fields).fields


def parse_message(
    raw: bytes,
    *,
    max_bytes: int = MAX_MESSAGE_BYTES,
    max_depth: int = MAX_MIME_DEPTH,
    body: ParsedBody | None = None,
) -> ParsedMessage:
    """Parse one message; never raises. Whatever a bound cut off sets ``truncated``.

    ``max_bytes`` and ``max_depth`` bound the MIME parse; the headers have their own bounds.
    ``body`` is the :func:`parse_body` of another copy of this message: used instead of
    parsing the body again when it serves this copy (see :meth:`ParsedBody.serves`).
    """
    return parse_with_headers(raw, max_bytes=max_bytes, max_depth=max_depth, body=body)[0]


def parse_with_headers(
    raw: bytes,
    *,
    max_bytes: int = MAX_MESSAGE_BYTES,
    max_depth: int = MAX_MIME_DEPTH,
    body: ParsedBody | None = None,
) -> tuple[ParsedMessage, list[tuple[str, str]]]:
    """:func:`parse_message` and :func:`raw_headers` of one copy, its header block read once for both."""
    read = _read_headers(raw, max_bytes=MAX_HEADER_BYTES, max_fields=MAX_HEADER_FIELDS)
    fields = read.fields
    first = _first_values(fields)
    if body is None or not body.serves(raw, max_bytes=max_bytes, max_depth=max_depth):
        body = parse_body(raw, max_bytes=max_bytes, max_depth=max_depth)

    from_value = first.get("from", "")
    from_addresses = addresses_in(from_value)
    parsed = ParsedMessage(
        message_id=_message_id(first.get("message-id", "")),
        from_header=_display_text(from_value),
        from_address=from_addresses[0] if from_addresses else None,
        to=_addresses_of(fields, "to"),
        cc=_addresses_of(fields, "cc"),
        subject=_display_text(first.get("subject", "")),
        date=_date(first.get("date", "")),
        headers=tuple(Header(name, _display_text(value)) for name, value in fields),
        text=body.text,
        html=body.html,
        attachments=body.attachments,
        body_sha256=body.sha256,
        truncated=read.truncated or body.truncated,
        skipped_header_lines=read.skipped,
    )
    return parsed, fields


@dataclass(frozen=True, slots=True, eq=False)
class ParsedBody:
    """The costly half of a parse: what the MIME structure holds, independent of most headers.

    It depends only on the top-level Content-* and MIME-Version fields and the body, so copies
    of one message, which differ only in the trace fields each delivery stamps on top, share it.
    """

    text: str
    """The first text/plain part, '' when there is none."""
    html: str | None
    attachments: tuple[Attachment, ...]
    truncated: bool
    """True when a bound (size, parse cost, MIME depth, part count) cut something off."""
    sha256: str
    """SHA-256 hex of the whole raw body (everything after the header block), never of a cut."""
    structure: bytes
    """The top-level fields the MIME parser was given (Content-*, MIME-Version)."""
    source: bytes
    """The copy it was read from: a reference (not a copy), to compare others with."""
    body_start: int
    """Where the body of ``source`` starts."""
    limits: tuple[int, int]
    """The ``max_bytes`` and ``max_depth`` it was parsed with."""

    def serves(self, raw: bytes, *, max_bytes: int, max_depth: int) -> bool:
        """True when parsing ``raw`` with these bounds would give this body: same fields, same bytes."""
        if self.limits != (max_bytes, max_depth):
            return False
        if raw is self.source:
            return True
        header_end, body_start = _header_bounds(raw)
        return (
            len(raw) - body_start == len(self.source) - self.body_start
            and _structure_fields(raw, header_end) == self.structure
            # startswith compares in place (memcmp): no copy of a body of many megabytes.
            and raw.startswith(memoryview(self.source)[self.body_start :], body_start)
        )


def parse_body(raw: bytes, *, max_bytes: int = MAX_MESSAGE_BYTES, max_depth: int = MAX_MIME_DEPTH) -> ParsedBody:
    """The MIME half of :func:`parse_message`: bounded in time whatever ``raw`` holds; never raises.

    The stdlib parser is given only the top-level fields that shape the structure, then the
    body, cut at ``max_bytes`` and where its cost bounds say; what comes before a cut is read.
    """
    return _parse_body(raw, max_bytes=max_bytes, max_depth=max_depth, want=None)[0]


@dataclass(frozen=True, slots=True)
class AttachmentContent:
    """One attachment's bytes, as a download serves them, with its listing entry."""

    attachment: Attachment
    data: bytes
    """The content after transfer decoding; an attached message's own bytes (its ``.eml``)."""
    charset: str | None
    """The charset parameter of the part's Content-Type, or None."""


_ATTACHMENT_ID: Final = re.compile(r"[1-9][0-9]{0,3}(?:\.[1-9][0-9]{0,3}){0,15}")


def attachment_content(
    raw: bytes, attachment_id: str, *, max_bytes: int = MAX_MESSAGE_BYTES, max_depth: int = MAX_MIME_DEPTH
) -> AttachmentContent | None:
    """The attachment ``attachment_id`` of ``raw`` (as :func:`parse_message` lists it), or None.

    The same bounded parse and walk as the listing, so ids, names, sizes and SHA-256 always
    agree with it; never raises. Pass the ``max_bytes`` and ``max_depth`` the listing used.
    """
    if not _ATTACHMENT_ID.fullmatch(attachment_id):
        return None
    return _parse_body(raw, max_bytes=max_bytes, max_depth=max_depth, want=attachment_id)[1]


def mime_view(raw: bytes) -> bytes:
    """What a MIME parser should read of ``raw``: its structure fields (Content-*, MIME-Version,
    read by the one header-block rule of this module) and its body; never the rest of the block."""
    header_end, body_start = _header_bounds(raw)
    return _structure_fields(raw, header_end) + raw[body_start:]


def _parse_body(
    raw: bytes, *, max_bytes: int, max_depth: int, want: str | None, simple: bool = True
) -> tuple[ParsedBody, AttachmentContent | None]:
    """The body and the attachment ``want``; ``simple`` lets a single text part skip the stdlib
    parser (:func:`_simple_text`: the same result, read directly; tests turn it off to compare)."""
    header_end, body_start = _header_bounds(raw)
    structure = _structure_fields(raw, header_end)
    mime_input = structure + raw[body_start:]
    truncated = False
    if len(mime_input) > max_bytes:
        mime_input = mime_input[:max_bytes]
        truncated = True
    elif simple and want is None:
        text = _simple_text(structure, mime_input, body_start=len(structure))
        if text is not None:
            content_type, decoded = text
            return ParsedBody(
                text=decoded.replace("\r\n", "\n") if content_type == "text/plain" else "",
                html=decoded if content_type == "text/html" else None,
                attachments=(),
                truncated=False,
                sha256=hashlib.sha256(memoryview(raw)[body_start:]).hexdigest(),
                structure=structure,
                source=raw,
                body_start=body_start,
                limits=(max_bytes, max_depth),
            ), None
    root, cut, fed = _parse_mime(mime_input)
    del mime_input  # the tree holds what it needs; a big input need not live on
    body = _Body(truncated=truncated or cut, want=want)
    if root is None:
        body.truncated = True
    else:
        # What the parser read of the body, in raw's own offsets (the fields before it are
        # `structure`, not raw's): where attached messages are found again, byte for byte.
        seen = _Seen(raw, root, body_start, body_start + max(0, fed - len(structure)))
        _read_parts(root, body, seen, max_depth=max_depth)
    parsed = ParsedBody(
        text=(body.text or "").replace("\r\n", "\n"),
        html=body.html,
        attachments=tuple(body.attachments),
        truncated=body.truncated,
        # Over the whole input, not the cut: copies of one message delivered to several
        # recipients differ only in stamped headers, and must still hash alike when long.
        sha256=hashlib.sha256(memoryview(raw)[body_start:]).hexdigest(),
        structure=structure,
        source=raw,
        body_start=body_start,
        limits=(max_bytes, max_depth),
    )
    return parsed, body.found


# --- header block -------------------------------------------------------------------------


def _header_bounds(raw: bytes) -> tuple[int, int]:
    """Where the header block ends and the body starts: the first empty line (CRLF or LF).

    The one split of a message: the header readers read before it, the MIME parser and
    ``body_sha256`` after it. A byte-order mark at a line's start is ignored here too.
    """
    leading = _LEADING_EMPTY_LINE.match(raw)
    if leading is not None:
        return 0, leading.end()
    # An empty line is a line break followed by "\n" or "\r\n": one search stops at the first
    # (a search for "\n\n" alone would scan all of a CRLF message).
    found = _HEADER_END.search(raw)
    if found is None:
        return len(raw), len(raw)
    newline, body = found.span()
    return (newline - 1 if raw[newline - 1] == ord("\r") else newline), body


@dataclass(frozen=True, slots=True)
class _Headers:
    """What :func:`_read_headers` read of the top-level header block."""

    fields: list[tuple[str, str]]
    truncated: bool
    """A bound (bytes, field count) cut some fields off."""
    skipped: int
    """Lines read as neither a field nor a field's continuation (their continuations included)."""


def _field_line(line: bytes) -> tuple[bytes, bytes] | None:
    """(name, value) of a line that starts a header field, or None for any other line.

    ``line`` is one line of the header block without its line break. A byte-order mark before
    the name is ignored (a message's own BOM lands on a line of the block when a delivery
    stamps its trace fields on top), and so are spaces before the colon (RFC 5322 section
    4.5.3, obs-optional). A line starting with a space or tab is a continuation, never a field.
    """
    if line.startswith(_BOM):
        line = line[len(_BOM) :]
    if line[:1] in (b" ", b"\t"):
        return None
    name, colon, value = line.partition(b":")
    name = name.rstrip(b" \t")
    if not colon or not _FIELD_NAME.fullmatch(name):
        return None
    return name, value


def _read_headers(raw: bytes, *, max_bytes: int, max_fields: int) -> _Headers:
    """The header fields, whether a bound cut some off, and how many lines were skipped."""
    block = raw[: _header_bounds(raw)[0]]
    cut = len(block) > max_bytes
    if cut:
        block = block[: block.rfind(b"\n", 0, max_bytes) + 1]  # whole lines only

    fields: list[tuple[bytes, list[bytes]]] = []
    current: list[bytes] | None = None  # the value lines of the field being read
    full = False
    skipped = 0
    for line in block.split(b"\n"):
        if line[-1:] == b"\r":
            line = line[:-1]
        first = line[:1]
        if first == b" " or first == b"\t":
            # A continuation (RFC 5322 section 2.2.3); one of a skipped line is skipped too.
            if current is not None:
                current.append(line.strip(b" \t"))
            else:
                skipped += 1
            continue
        start = _FIELD_START.match(line)  # the common line, read as _field_line reads it
        if start is not None:
            name, value = start[1], line[start.end() :]
        else:
            found = _field_line(line)  # a BOM before the name, or no field at all
            if found is None:
                current = None
                # An empty line here is the end of a block without a body (or a lone BOM there).
                skipped += line not in (b"", _BOM)
                continue
            name, value = found
        if len(fields) >= max_fields:
            full = True
            break
        current = [value.strip(b" \t")]
        fields.append((name, current))
    if cut and not full and fields:
        # The last field may continue past the cut, and a cut value ("victim@example.com"
        # of "victim@example.com.evil") must never be read as the whole one.
        fields.pop()

    decoded = [
        (
            name.decode("ascii"),
            (parts[0] if len(parts) == 1 else b" ".join(part for part in parts if part)).decode("utf-8", "replace"),
        )
        for name, parts in fields
    ]
    return _Headers(decoded, cut or full, skipped)


def _first_values(fields: list[tuple[str, str]]) -> dict[str, str]:
    """The first value of each header name (lowercased)."""
    first: dict[str, str] = {}
    for name, value in fields:
        first.setdefault(name.lower(), value)
    return first


def _addresses_of(fields: list[tuple[str, str]], name: str) -> tuple[str, ...]:
    """Addr-specs of every header called ``name``, in order, without repeats."""
    found: dict[str, None] = {}
    for field_name, value in fields:
        if field_name.lower() == name:
            found.update(dict.fromkeys(addresses_in(value)))
    return tuple(found)


def _display_text(value: str) -> str:
    """A header value as a reader should see it: encoded words decoded, no control characters."""
    if value.isascii() and value.isprintable() and "=?" not in value:
        return value.strip()  # nothing to decode, clean or drop (str.translate is slow)
    return _clean(_decode_words(value)).translate(_CONTROLS).strip()


def _message_id(value: str) -> str | None:
    """``<id>`` from a Message-ID value, or None when there is no usable one."""
    bracketed = _BRACKETED_ID.search(value)
    if bracketed is not None:
        return f"<{bracketed[1]}>"
    bare = value.strip()
    if _BARE_ID.fullmatch(bare):
        return f"<{bare}>"  # some senders forget the brackets
    return None


def _date(value: str) -> datetime | None:
    """The Date header as an aware datetime (no zone means UTC), or None."""
    if not value.strip():
        return None
    try:
        parsed = parsedate_to_datetime(value)
    except (ValueError, TypeError, IndexError, OverflowError):
        return None
    return parsed if parsed.tzinfo is not None else parsed.replace(tzinfo=UTC)


# --- text decoding ------------------------------------------------------------------------


def _decode_words(value: str) -> str:
    """Decode RFC 2047 encoded words; undecodable ones stay as written.

    Adjacent words of one charset are joined before decoding, because senders split a
    multi-byte character across two words. Whitespace between words is dropped (section 6.2).
    """
    if "=?" not in value:
        return value
    out: list[str] = []
    pending = bytearray()  # bytes of adjacent encoded words not decoded yet
    pending_charset: str | None = None
    position = 0
    for word in _ENCODED_WORD.finditer(value):
        gap = value[position : word.start()]
        if pending_charset is None or gap.strip(" \t\r\n"):
            if pending_charset is not None:
                out.append(_decode_bytes(bytes(pending), pending_charset))
                pending, pending_charset = bytearray(), None
            out.append(gap)
        charset = word[1].partition("*")[0].lower()  # RFC 2231 adds "*language"
        data = _word_bytes(word[2].lower(), word[3])
        if data is None:
            if pending_charset is not None:
                out.append(_decode_bytes(bytes(pending), pending_charset))
                pending, pending_charset = bytearray(), None
            out.append(word[0])
        elif charset == pending_charset:
            pending += data
        else:
            if pending_charset is not None:
                out.append(_decode_bytes(bytes(pending), pending_charset))
            pending, pending_charset = bytearray(data), charset
        position = word.end()
    if pending_charset is not None:
        out.append(_decode_bytes(bytes(pending), pending_charset))
    out.append(value[position:])
    return "".join(out)


def _word_bytes(encoding: str, text: str) -> bytes | None:
    """The bytes of one encoded word's text, or None when they cannot be decoded."""
    if encoding == "q":
        return binascii.a2b_qp(text.encode("utf-8"), header=True)
    letters = _NOT_BASE64.sub("", text)
    if len(letters) % 4 == 1:
        return None
    try:
        return binascii.a2b_base64(letters + "=" * (-len(letters) % 4))
    except binascii.Error:
        return None


# --- MIME structure -----------------------------------------------------------------------


class _MimePolicy(Compat32):
    """compat32, with Content-Type and Content-Disposition bounded before anything parses them.

    compat32 rather than ``email.policy.default``: only the MIME structure is taken from the
    stdlib, and ``default`` re-parses every Content-Type into header objects each time it is
    read, which makes a typical parse about 4x slower and is itself super-linear on hostile
    fields.
    """

    def header_fetch_parse(self, name: str, value: str) -> str | _EmailHeader:  # type: ignore[override]
        """Return the header as compat32 does, after cutting Content-* to bounded parameters."""
        if name.lower() in ("content-type", "content-disposition"):
            value = value[:_MAX_CONTENT_FIELD_CHARS]
            if value.count(";") > _MAX_CONTENT_PARAMS:
                kept = value.split(";", _MAX_CONTENT_PARAMS + 1)[: _MAX_CONTENT_PARAMS + 1]
                value = ";".join(kept)
        return super().header_fetch_parse(name, value)


_MIME_POLICY: Final = _MimePolicy()


@dataclass
class _Work:
    """What the stdlib parser has built so far in one parse: parts and header fields."""

    parts: int = 0
    fields: int = 0


class _StructureMessage(Message):
    """A stdlib message part that stores only the fields describing structure (Content-*, MIME-Version).

    The parser looks up the enclosing part's Content-Type once per sub-part, scanning all its
    fields each time: 20,000 fields on a part of 10,000 sub-parts cost their product (seconds).
    Nothing else of a part's fields is read; their size is counted for attached messages.
    """

    def __init__(self, policy: Compat32 = _MIME_POLICY, *, work: _Work | None = None) -> None:
        super().__init__(policy)
        self.kept_fields = 0
        self.other_field_bytes = 0
        self._work = _Work() if work is None else work
        self._work.parts += 1

    def set_raw(self, name: str, value: str) -> None:
        """Store a structure field (the first _MAX_STRUCTURE_FIELDS); count the size of any other."""
        self._work.fields += 1
        lowered = name.lower()
        if self.kept_fields < _MAX_STRUCTURE_FIELDS and (lowered.startswith("content-") or lowered == "mime-version"):
            self.kept_fields += 1
            super().set_raw(name, value)
        else:
            self.other_field_bytes += len(name) + len(str(value)) + 4


# Inline messages that are opened like a multipart (a forward without "attachment").
_READABLE_MESSAGES: Final = frozenset({"message/rfc822", "message/global"})


@dataclass
class _Body:
    """What the part walk collects, for one message."""

    text: str | None = None
    html: str | None = None
    attachments: list[Attachment] = field(default_factory=list)
    truncated: bool = False
    want: str | None = None
    """The attachment id whose bytes :func:`attachment_content` asks for."""
    found: AttachmentContent | None = None


def _structure_fields(raw: bytes, header_end: int) -> bytes:
    """The top-level Content-* and MIME-Version fields as they are written, then the empty line.

    Only these shape the MIME structure. Handing the stdlib parser no others bounds what it
    does per sub-part (see :class:`_StructureMessage`); every field is read by
    :func:`_read_headers`. Found with ``bytes.find`` (a regular expression over megabytes of
    header lines costs a second); the first _MAX_STRUCTURE_FIELDS count, as the parser keeps.
    They are the lines :func:`_field_line` reads as these fields, written as ``Name: value``
    (the stdlib parser would take ``Name : value`` or a BOM for the end of the fields).
    """
    lowered = b"\n" + raw[:header_end].lower()  # index i of a "\nname" here is field start i in raw
    starts: list[int] = []
    for prefix in (b"\ncontent-", b"\nmime-version", b"\n" + _BOM + b"content-", b"\n" + _BOM + b"mime-version"):
        found = 0
        at = lowered.find(prefix)
        while at >= 0 and found < _MAX_STRUCTURE_FIELDS:
            starts.append(at)
            found += 1
            at = lowered.find(prefix, at + 1)
    del lowered
    fields = []
    for start in sorted(starts)[:_MAX_STRUCTURE_FIELDS]:
        field_match = _STRUCTURE_FIELD.match(raw, start, header_end)
        if field_match is not None:
            fields.append(field_match[1] + field_match[2].removesuffix(b"\r") + b"\r\n")
    return b"".join(fields) + b"\r\n"


# --- a single text part, read without the stdlib parser ----------------------------------------
#
# Most mail a rebuild reads is one text/plain or text/html part, and the stdlib parser, its part
# objects and their parameter parsing cost more than everything else the parse does. When the
# structure fields are simple enough that what the parser and the accessors above would make of
# them is certain, the body is read here directly; anything else goes to the parser.

# The structure fields (as _structure_fields writes them) each on one line of printable ASCII.
_SIMPLE_STRUCTURE: Final = re.compile(rb"(?:[A-Za-z][A-Za-z0-9-]*:[\x20-\x7e\t]{0,998}\r\n){0,32}\r\n")
# One such field, its value without the blanks after the colon (as Compat32 stores it).
_SIMPLE_FIELD: Final = re.compile(rb"([A-Za-z][A-Za-z0-9-]*):[ \t]*([\x20-\x7e\t]*)\r\n")
# Content-Type parameters after the type, at most 8, each ``name=token`` or ``name="text"``: with
# no ";", quote, backslash or angle bracket in a value and no "*" in a name (RFC 2231), the
# stdlib's parameter parser splits at each ";" and returns each value without its quotes.
_SIMPLE_PARAM: Final = r'[ \t]*([A-Za-z0-9_.-]+)[ \t]*=[ \t]*(?:"([^"\\;<>]*)"|([^\s";\\<>]+))[ \t]*'
_SIMPLE_PARAMS: Final = re.compile(f"(?:;{_SIMPLE_PARAM}){{0,8}}")
_SIMPLE_PARAM_AT: Final = re.compile(f";{_SIMPLE_PARAM}")
_SIMPLE_TYPES: Final = frozenset({"text/plain", "text/html"})


def _simple_text(structure: bytes, data: bytes, *, body_start: int) -> tuple[str, str] | None:
    """(content type, decoded text) of ``data`` (``structure`` then the body at ``body_start``)
    when it is one text/plain or text/html part that is no attachment, read exactly as the
    stdlib parser and :func:`_read_parts` would read it; None when that is not certain.

    Certain means: simple structure fields (one line of printable ASCII each; no
    Content-Disposition, no ``name`` parameter), a transfer encoding decoded here as the stdlib
    does (none, 7bit, 8bit, binary or unknown: the bytes; quoted-printable; base64 that decodes
    strictly), and an input the parse budget would not cut (counted as if all were fed at once).
    """
    if not _SIMPLE_STRUCTURE.fullmatch(structure):
        return None
    content_type: str | None = None
    encoding: str | None = None
    fields = 0
    for name, value in _SIMPLE_FIELD.findall(structure):
        fields += 1
        lowered = name.lower()
        # Message.get returns the first field of a name: the first one counts here too.
        if lowered == b"content-type" and content_type is None:
            content_type = value.decode("ascii")
        elif lowered == b"content-transfer-encoding" and encoding is None:
            encoding = value.decode("ascii").lower()
        elif lowered == b"content-disposition":
            return None  # may make it an attachment, or name it
    charset = None
    if content_type is not None:
        kind = content_type.partition(";")[0]
        main = kind.strip().lower()
        if main.count("/") != 1:
            main = "text/plain"  # the stdlib's reading of a type it cannot read (RFC 2045 section 5.2)
        if '"' in kind or not _SIMPLE_PARAMS.fullmatch(content_type, len(kind)):
            return None  # a quote before the first ";" changes where the stdlib splits
        for param in _SIMPLE_PARAM_AT.finditer(content_type, len(kind)):
            pname = param[1].lower()
            if pname == "name":
                return None  # a named part is an attachment
            if pname == "charset" and charset is None:
                charset = param[2] if param[2] is not None else param[3]
    else:
        main = "text/plain"
    if main not in _SIMPLE_TYPES:
        return None
    lines = data.count(b"\n") + data.count(b"\r")
    nesting = data.lower().count(b"boundary")
    if lines * (_LINE_WORK + nesting) + fields * _FIELD_WORK + 2 * _PART_WORK > _MAX_PARSE_WORK:
        return None
    payload = data[body_start:]
    if encoding == "quoted-printable":
        payload = quopri.decodestring(payload)
    elif encoding == "base64":
        letters = b"".join(payload.splitlines())
        try:
            payload = base64.b64decode(
                letters + b"==="[: 4 - len(letters) % 4] if len(letters) % 4 else letters, validate=True
            )
        except binascii.Error:
            return None  # the stdlib's lenient second try: left to it
    elif encoding in ("x-uuencode", "uuencode", "uue", "x-uue"):
        return None
    return main, _decode_bytes(payload, charset)


def _parse_mime(data: bytes) -> tuple[Message | None, bool, int]:
    """The stdlib's MIME tree of as much of ``data`` as the work budget allows, whether it was
    cut, and how many bytes of ``data`` it was given.

    None when parsing fails.
    """
    work = _Work()
    parser = BytesFeedParser(partial(_StructureMessage, work=work), policy=_MIME_POLICY)
    lines = nesting = 0
    size = fed = len(data)
    cut = False
    try:
        for at in range(0, size, _FEED_BYTES):
            end = min(at + _FEED_BYTES, size)
            lines += max(data.count(b"\n", at, end), data.count(b"\r", at, end))
            # Counted where it starts, so a word across two slices counts once.
            nesting += data[at : min(end + 7, size)].lower().count(b"boundary")
            if lines * (_LINE_WORK + nesting) + work.fields * _FIELD_WORK + work.parts * _PART_WORK > _MAX_PARSE_WORK:
                cut = True
                fed = at
                break
            parser.feed(data[at:end])
        return parser.close(), cut, fed
    except Exception:
        # The parser recurses once per nesting level (RecursionError on deep nesting), and
        # a poison message must never stop the sync of every message after it.
        return None, cut, fed


def _read_parts(root: Message, body: _Body, seen: _Seen, *, max_depth: int) -> None:
    """Walk the MIME tree depth-first (bounded depth and part count), filling ``body``.

    Each part gets its IMAP section number (RFC 3501 section 6.4.5): the parts of a multipart
    are numbered from 1 under their parent's number; a message's (or an opened message/rfc822's)
    single non-multipart body is ``<its number>.1``, "1" at the top.
    """
    # (part, depth, section number, whether it is a message's top entity, child indexes from the root)
    stack: list[tuple[Message, int, str, bool, tuple[int, ...]]] = [(root, 0, "", True, ())]
    count = 0
    while stack:
        part, depth, section, top, path = stack.pop()
        count += 1
        if count > MAX_MIME_PARTS:
            body.truncated = True
            return
        children = _children(part)
        content_type = _content_type(part)
        is_message = content_type.startswith("message/")
        if top and (children is None or is_message):
            section = f"{section}.1" if section else "1"
        name = _filename(part)
        disposition = _disposition(part)
        is_attachment = name is not None or disposition == "attachment"
        if children is None:
            _read_leaf(part, body, _Part(section, content_type, name, disposition, is_attachment))
        elif is_message and (is_attachment or content_type not in _READABLE_MESSAGES):
            # An attached message, or a report such as message/delivery-status: listed as
            # one attachment, not opened (its parts are not this message's text).
            _read_attached_message(part, body, seen, path, _Part(section, content_type, name, disposition, True))
        elif children and depth >= max_depth:
            body.truncated = True
        elif is_message:  # an inline message/rfc822: read its text and files as this message's
            stack.extend((child, depth + 1, section, True, (*path, 0)) for child in children[:1])
        else:
            stack.extend(
                (child, depth + 1, f"{section}.{i}" if section else str(i), False, (*path, i - 1))
                for i, child in reversed(list(enumerate(children, 1)))
            )


@dataclass(frozen=True, slots=True)
class _Part:
    """What the walk knows of a part before reading its content."""

    section: str
    content_type: str
    name: str | None
    """The decoded file name, before :func:`safe_filename`."""
    disposition: str | None
    is_attachment: bool

    def attachment(self, part: Message, filename: str | None, data: bytes) -> Attachment:
        disposition = self.disposition
        if disposition is not None and disposition != "inline":
            disposition = "attachment"  # RFC 2183 section 2.8: an unknown type counts as attachment
        return Attachment(
            filename,
            self.content_type,
            len(data),
            attachment_id=self.section,
            disposition=disposition,
            content_id=_content_id(part),
            sha256=hashlib.sha256(data).hexdigest(),
        )


def _read_leaf(part: Message, body: _Body, info: _Part) -> None:
    """Take a leaf part as the text, the HTML or an attachment."""
    if not info.is_attachment and info.content_type == "text/plain":
        if body.text is None:
            body.text = _decode_bytes(_payload(part), _charset(part))
    elif not info.is_attachment and info.content_type == "text/html":
        if body.html is None:
            body.html = _decode_bytes(_payload(part), _charset(part))
    else:
        data = _payload(part)
        attachment = info.attachment(part, safe_filename(info.name), data)
        body.attachments.append(attachment)
        if info.section == body.want:
            body.found = AttachmentContent(attachment, data, _charset(part))


def _read_attached_message(part: Message, body: _Body, seen: _Seen, path: tuple[int, ...], info: _Part) -> None:
    """List an attached message (or report) as one attachment: the bytes it was sent as.

    The tree keeps only the structure fields of sub-parts, so the bytes are found again in the
    raw message (never regenerated: the stdlib generator refolds headers, and is slow on hostile
    ones); when they cannot be found the size is an estimate and ``sha256`` is ''.
    """
    data = seen.body_of(path)
    if data is not None:
        data = _transfer_decoded(data, part)
    if info.content_type in MESSAGE_TYPES:
        subject = "" if data is None else _display_text(_first_values(raw_headers(data)).get("subject", ""))
        filename: str | None = message_filename(info.name, subject)
    else:
        filename = safe_filename(info.name)
    if data is None:
        size = _attached_message_size(part)
        body.attachments.append(dataclasses.replace(info.attachment(part, filename, b""), size=size, sha256=""))
        return
    attachment = info.attachment(part, filename, data)
    body.attachments.append(attachment)
    if info.section == body.want:
        body.found = AttachmentContent(attachment, data, _charset(part))


@dataclass(frozen=True, slots=True)
class _Seen:
    """The raw message and the span of its body the MIME parser read: parts are found in it again.

    A part is located by following its path from the root: a multipart's body is split at its
    boundary's delimiter lines as the stdlib parser splits it (RFC 2046 section 5.1.1: the line
    break before a delimiter belongs to the delimiter), and a part's body starts after the
    empty line that ends its fields. Each multipart is split once and each part's body found
    once (both are remembered), so however many attached messages there are, the work stays
    within one pass over the body per nesting level.
    """

    raw: bytes
    root: Message
    start: int
    end: int
    spans: dict[tuple[int, ...], tuple[int, int] | None] = field(default_factory=dict)
    """Body span of the part at each path looked up so far (None: not found)."""
    splits: dict[tuple[int, ...], list[tuple[int, int]]] = field(default_factory=dict)
    """The part spans of each multipart split so far, by its path."""
    children: dict[tuple[int, ...], list[Message]] = field(default_factory=dict)
    """The sub-parts of each part on a path looked up so far."""

    def body_of(self, path: tuple[int, ...]) -> bytes | None:
        """The raw (still transfer-encoded) body of the part at ``path``, or None when not found."""
        node, span = self.root, (self.start, self.end)
        for depth, index in enumerate(path):
            there = path[:depth]
            if there not in self.children:  # listed once: a part may have thousands
                self.children[there] = _children(node) or []
            children = self.children[there]
            if index >= len(children):
                return None
            here = path[: depth + 1]
            if here not in self.spans:
                self.spans[here] = self._child_body(node, path[:depth], span, index)
            found = self.spans[here]
            if found is None:
                return None
            node, span = children[index], found
        return self.raw[span[0] : span[1]]

    def _child_body(
        self, node: Message, path: tuple[int, ...], span: tuple[int, int], index: int
    ) -> tuple[int, int] | None:
        """The body span of child ``index`` of ``node`` (at ``path``, its own body at ``span``)."""
        if _content_type(node).startswith("message/"):
            # The embedded message is the whole body: its body follows its fields.
            return _entity_body(self.raw, *span) if index == 0 else None
        parts = self.splits.get(path)
        if parts is None:
            boundary = _boundary(node)
            parts = self.splits[path] = [] if boundary is None else _split(self.raw, *span, boundary)
        return _entity_body(self.raw, *parts[index]) if index < len(parts) else None


def _entity_body(raw: bytes, lo: int, hi: int) -> tuple[int, int]:
    """The body span of the entity (fields, empty line, body) in ``raw[lo:hi]``."""
    if raw.startswith(b"\n", lo):
        return lo + 1, hi
    if raw.startswith(b"\r\n", lo):
        return lo + 2, hi
    found = _EMPTY_LINE.search(raw, lo, hi)
    return (hi, hi) if found is None else (found.end(), hi)


def _split(raw: bytes, lo: int, hi: int, boundary: bytes) -> list[tuple[int, int]]:
    """The spans of the parts of the multipart body ``raw[lo:hi]`` (at most MAX_MIME_PARTS + 1).

    A delimiter line is ``--boundary``, ``--`` more on the closing one, then only spaces or tabs
    (the stdlib parser's rule). The regular expressions find only whole delimiter lines, so
    Python looks at each real delimiter once, and there are no more of them than parts the
    parser was allowed to make.
    """
    delimiter = b"--" + re.escape(boundary) + rb"(--)?[ \t]*(?=\r\n|\r|\n|\Z)"
    parts: list[tuple[int, int]] = []
    start = -1  # where the part being read starts; -1 in the preamble
    for line_start, line_end, closing in _delimiters(raw, lo, hi, delimiter):
        if start >= 0:
            parts.append((start, max(start, line_start)))
            if len(parts) > MAX_MIME_PARTS:
                return parts
        if closing:
            return parts  # what follows is the epilogue
        start = line_end + (2 if raw.startswith(b"\r\n", line_end) else 1 if line_end < hi else 0)
    if start >= 0:
        parts.append((start, hi))  # no closing delimiter: the last part runs to the end
    return parts


def _delimiters(raw: bytes, lo: int, hi: int, delimiter: bytes) -> Iterator[tuple[int, int, bool]]:
    """(start of the line break before it, end of the delimiter, closing) of each delimiter line."""
    first = re.compile(delimiter).match(raw, lo, hi)  # the body's first line has no line break before it
    if first is not None:
        yield lo, first.end(), first[1] is not None
    for line in re.compile(rb"(?:\r\n|\r|\n)" + delimiter).finditer(raw, lo, hi):
        yield line.start(), line.end(), line[1] is not None


# Every accessor below guards its own stdlib call: the legacy MIME API raises a wide,
# undocumented range of exceptions on hostile input, and one bad part must not lose the rest.


def _children(part: Message) -> list[Message] | None:
    """The sub-parts of a container part (multipart/*, message/*), or None for a leaf."""
    try:
        if not part.is_multipart():
            # Checked first: get_payload() of a leaf decodes 8-bit text with the part's own
            # charset, any codec Python has (punycode is quadratic).
            return None
        payload = part.get_payload()
    except Exception:
        return None
    if not isinstance(payload, list):
        return None
    return [child for child in payload if isinstance(child, Message)]


def _content_type(part: Message) -> str:
    """The part's ``maintype/subtype``, lowercase; unreadable types count as binary data."""
    try:
        return _clean(part.get_content_type())
    except Exception:
        return "application/octet-stream"


def _disposition(part: Message) -> str | None:
    """The Content-Disposition type (``inline``, ``attachment``), lowercase, or None."""
    try:
        return part.get_content_disposition()
    except Exception:
        return None


def _charset(part: Message) -> str | None:
    """The charset parameter of the part's Content-Type, or None."""
    try:
        charset = part.get_param("charset")
    except Exception:
        return None
    if isinstance(charset, tuple):
        # RFC 2231 form charset*=...: its own charset is not worth decoding; use the text.
        return str(charset[2])
    return None if charset is None else str(charset)


def _filename(part: Message) -> str | None:
    """The attachment's file name (RFC 2231 and RFC 2047 decoded), or None."""
    try:
        value = part.get_param("filename", header="content-disposition")
        if value is None:
            value = part.get_param("name")
    except Exception:
        return None
    if value is None:
        return None
    if isinstance(value, tuple):
        charset, _language, text = value
        # The RFC 2231 text holds one character per percent-decoded byte.
        name = _decode_bytes(str(text).encode("latin-1", "replace"), charset or None)
    else:
        name = _clean(str(value))
    name = _decode_words(name).translate(_CONTROLS).strip()
    return name or None


def _content_id(part: Message) -> str | None:
    """The Content-ID without its angle brackets (RFC 2392), or None when missing or unusable."""
    try:
        value = part.get("content-id")
    except Exception:
        return None
    if value is None:
        return None
    text = _clean(str(value))[:_MAX_CONTENT_ID_CHARS]
    bracketed = _BRACKETED_ID.search(text)
    if bracketed is not None:
        return bracketed[1]
    bare = text.strip()
    return bare if _CONTENT_ID.fullmatch(bare) else None


def _boundary(part: Message) -> bytes | None:
    """The boundary of a multipart, as the bytes of its delimiter lines, or None."""
    try:
        boundary = part.get_boundary()
        # The parser read the bytes as ASCII with surrogate escapes: this gives them back.
        return None if not boundary else boundary.encode("ascii", "surrogateescape")
    except Exception:
        return None


def _transfer_decoded(data: bytes, part: Message) -> bytes:
    """An attached message's body after its transfer encoding (message/global may be base64 or QP)."""
    try:
        encoding = str(part.get("content-transfer-encoding", "")).strip().lower()
    except Exception:
        return data
    if encoding == "base64":
        letters = re.sub(rb"[^A-Za-z0-9+/]", b"", data)
        letters = letters[: len(letters) - len(letters) % 4] if len(letters) % 4 == 1 else letters
        try:
            return binascii.a2b_base64(letters + b"=" * (-len(letters) % 4))
        except binascii.Error:
            return data
    if encoding == "quoted-printable":
        return binascii.a2b_qp(data)
    return data


def _payload(part: Message) -> bytes:
    """The part's content after transfer decoding (base64, quoted-printable, uuencode)."""
    try:
        data = part.get_payload(decode=True)
    except Exception:
        return b""
    return data if isinstance(data, bytes) else b""


def _attached_message_size(part: Message) -> int:
    """About the size of an attached message: its headers plus its decoded bodies.

    Counted from the parsed tree: serializing it again with the stdlib generator can take
    minutes on hostile headers.
    """
    size = 0
    stack = [part]
    seen = 0
    while stack and seen < MAX_MIME_PARTS:
        current = stack.pop()
        seen += 1
        # raw_items() returns the stored values: reading them parses nothing.
        size += sum(len(name) + len(str(value)) + 4 for name, value in current.raw_items()) + 2
        if isinstance(current, _StructureMessage):
            size += current.other_field_bytes
        children = _children(current)
        if children is None:
            size += len(_payload(current))
        else:
            stack.extend(children)
    return size
