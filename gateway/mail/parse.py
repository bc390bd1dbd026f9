"""RFC 5322 / MIME bytes to a ParsedMessage: bounded, never raising, every charset tolerated.

Two readers share the work:

* :func:`raw_headers` reads the top-level header block itself (bounded, linear). Every
  top-level field of the result (Subject, From, To, Date, ...) comes from it, and recipient
  matching reads it too, so both always agree on what the headers say.
* The stdlib parser (``email.parser.BytesParser``) finds the MIME structure; bodies, charsets
  and attachments are then decoded here, part by part, with explicit bounds.
"""

from __future__ import annotations

import binascii
import hashlib
import re
from dataclasses import dataclass, field
from datetime import UTC, datetime
from email.message import Message
from email.parser import BytesParser
from email.policy import Compat32
from email.utils import parsedate_to_datetime
from encodings import normalize_encoding
from encodings.aliases import aliases as _codec_aliases
from typing import TYPE_CHECKING, Final

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
    "parse_message",
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

# The stdlib parser has two costs that grow faster than the input, so hostile input is
# measured before it is parsed (cheap byte counts) and refused when it is too expensive:
# - it checks every line against the boundary of every enclosing multipart (cost grows with
#   lines x nesting); the number of "boundary" declarations bounds the nesting;
# - every part costs a fixed overhead, and a part starts at a line beginning with "--".
_MAX_LINE_BOUNDARY_CHECKS: Final = 10_000_000
_MAX_DELIMITER_LINES: Final = 10_000

# The stdlib's legacy parameter parser is quadratic in the number of ";" of a field, and the
# MIME parser re-reads Content-Type for every part: real fields have a handful of parameters.
_MAX_CONTENT_FIELD_CHARS: Final = 8192
_MAX_CONTENT_PARAMS: Final = 64

_FIELD_NAME: Final = re.compile(rb"[\x21-\x39\x3b-\x7e]+")  # RFC 5322 ftext: printable, no ":"
_ENCODED_WORD: Final = re.compile(r"=\?([^?\s]+)\?([bBqQ])\?([^?\s]*)\?=")  # RFC 2047
_NOT_BASE64: Final = re.compile(r"[^A-Za-z0-9+/]")
_BRACKETED_ID: Final = re.compile(r"<([\x21-\x3b\x3d\x3f-\x7e]+)>")  # printable, no "<" ">"
_BARE_ID: Final = re.compile(r"[\x21-\x3b\x3d\x3f-\x7e]+@[\x21-\x3b\x3d\x3f-\x7e]+")
_SURROGATES: Final = re.compile("[\ud800-\udfff]")

# Controls are dropped from display text; line breaks and tabs become spaces.
_CONTROLS: Final[dict[int, str | None]] = {
    **dict.fromkeys([*range(0x00, 0x20), 0x7F, *range(0x80, 0xA0)]),
    0x09: " ",
    0x0A: " ",
    0x0D: " ",
}

# Charsets are looked up only by names Python lists as aliases (plus a few common ones it
# lacks). An arbitrary name would reach codecs.lookup, whose cache keeps every name it is
# ever asked about, and would allow codecs that are not charsets (punycode is quadratic).
# Codecs that are not text encodings (base64, zlib, ...) are refused by bytes.decode itself.
# ASCII is read as UTF-8, its superset: 8-bit text mislabelled as ASCII is common.
_CODECS: Final = frozenset(_codec_aliases.values()) | {"koi8_u", "koi8_t", "cp874"}
_EXTRA_ALIASES: Final = {"windows_874": "cp874", "x_sjis": "shift_jis", "ascii": "utf_8"}


def raw_headers(
    raw: bytes, *, max_bytes: int = MAX_HEADER_BYTES, max_fields: int = MAX_HEADER_FIELDS
) -> list[tuple[str, str]]:
    """The top-level header fields as (name, value): unfolded, not RFC 2047-decoded.

    Bytes are read as UTF-8 (invalid bytes become U+FFFD). Lines without a valid
    ``name:`` are skipped; reading stops after ``max_bytes`` or ``max_fields``.
    """
    fields, _truncated = _read_headers(raw, max_bytes=max_bytes, max_fields=max_fields)
    return fields


def parse_message(raw: bytes, *, max_bytes: int = MAX_MESSAGE_BYTES, max_depth: int = MAX_MIME_DEPTH) -> ParsedMessage:
    """Parse one message; never raises. Whatever a bound cut off sets ``truncated``.

    ``max_bytes`` and ``max_depth`` bound the MIME parse; the headers have their own bounds.
    """
    fields, truncated = _read_headers(raw, max_bytes=MAX_HEADER_BYTES, max_fields=MAX_HEADER_FIELDS)
    first = _first_values(fields)

    mime_input = raw
    if len(raw) > max_bytes:
        mime_input = raw[:max_bytes]
        truncated = True
    body = _Body()
    root = _parse_mime(mime_input)
    if root is None:
        body.truncated = True
    else:
        _read_parts(root, body, max_depth=max_depth)

    from_value = first.get("from", "")
    from_addresses = addresses_in(from_value)
    return ParsedMessage(
        message_id=_message_id(first.get("message-id", "")),
        from_header=_display_text(from_value),
        from_address=from_addresses[0] if from_addresses else None,
        to=_addresses_of(fields, "to"),
        cc=_addresses_of(fields, "cc"),
        subject=_display_text(first.get("subject", "")),
        date=_date(first.get("date", "")),
        headers=tuple(Header(name, _display_text(value)) for name, value in fields),
        text=(body.text or "").replace("\r\n", "\n"),
        html=body.html,
        attachments=tuple(body.attachments),
        # Over the whole input, not the cut: copies of one message delivered to several
        # recipients differ only in stamped headers, and must still hash alike when long.
        body_sha256=hashlib.sha256(raw[_header_bounds(raw)[1] :]).hexdigest(),
        truncated=truncated or body.truncated,
    )


# --- header block -------------------------------------------------------------------------


def _header_bounds(raw: bytes) -> tuple[int, int]:
    """Where the header block ends and the body starts (the first empty line, CRLF or LF)."""
    if raw.startswith(b"\n"):
        return 0, 1
    if raw.startswith(b"\r\n"):
        return 0, 2
    # An empty line is a line break followed by "\n" or "\r\n".
    found = [(at, at + len(sep)) for sep in (b"\n\n", b"\n\r\n") if (at := raw.find(sep)) >= 0]
    if not found:
        return len(raw), len(raw)
    newline, body = min(found)
    return (newline - 1 if raw[newline - 1] == ord("\r") else newline), body


def _read_headers(raw: bytes, *, max_bytes: int, max_fields: int) -> tuple[list[tuple[str, str]], bool]:
    """The header fields, and whether a bound cut some off."""
    block = raw[: _header_bounds(raw)[0]]
    cut = len(block) > max_bytes
    if cut:
        block = block[: block.rfind(b"\n", 0, max_bytes) + 1]  # whole lines only

    fields: list[tuple[bytes, list[bytes]]] = []
    current: list[bytes] | None = None  # the value lines of the field being read
    full = False
    for line in block.split(b"\n"):
        line = line.removesuffix(b"\r")
        if line[:1] in (b" ", b"\t"):
            # A continuation (RFC 5322 section 2.2.3); one of a skipped line is skipped too.
            if current is not None:
                current.append(line.strip(b" \t"))
            continue
        name, colon, value = line.partition(b":")
        if not colon or not _FIELD_NAME.fullmatch(name):
            current = None
            continue
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
        (name.decode("ascii"), b" ".join(part for part in parts if part).decode("utf-8", "replace"))
        for name, parts in fields
    ]
    return decoded, cut or full


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


def _codec(charset: str | None) -> str:
    """The Python codec for a MIME charset name; UTF-8 for unknown, missing or ASCII names."""
    if not charset or len(charset) > 64:
        return "utf_8"
    name = normalize_encoding(charset.strip().lower()).replace(".", "_")
    name = _codec_aliases.get(name, name)
    name = _EXTRA_ALIASES.get(name, name)
    return name if name in _CODECS else "utf_8"


def _decode_bytes(data: bytes, charset: str | None) -> str:
    """Decode with the named charset; unknown charsets and broken bytes become U+FFFD."""
    try:
        return _clean(data.decode(_codec(charset), "replace"))
    except (LookupError, UnicodeError, ValueError):
        return data.decode("utf-8", "replace")


def _clean(text: str) -> str:
    """``text`` without surrogates: escaped raw bytes are read as UTF-8, others become U+FFFD."""
    if text.isascii():
        return text
    try:
        return text.encode("utf-8", "surrogateescape").decode("utf-8", "replace")
    except UnicodeEncodeError:
        return _SURROGATES.sub("\ufffd", text)


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

# Inline messages that are opened like a multipart (a forward without "attachment").
_READABLE_MESSAGES: Final = frozenset({"message/rfc822", "message/global"})


@dataclass
class _Body:
    """What the part walk collects, for one message."""

    text: str | None = None
    html: str | None = None
    attachments: list[Attachment] = field(default_factory=list)
    truncated: bool = False


def _parse_mime(raw: bytes) -> Message | None:
    """The stdlib's MIME tree of ``raw``, or None when parsing it would cost too much or fails."""
    lines = max(raw.count(b"\n"), raw.count(b"\r"))
    nesting = raw.lower().count(b"boundary")
    if lines * (1 + nesting) > _MAX_LINE_BOUNDARY_CHECKS:
        return None
    if raw.count(b"\n--") + raw.count(b"\r--") > _MAX_DELIMITER_LINES:
        return None
    try:
        return BytesParser(policy=_MIME_POLICY).parsebytes(raw)
    except Exception:
        # The parser recurses once per nesting level (RecursionError on deep nesting), and
        # a poison message must never stop the sync of every message after it.
        return None


def _read_parts(root: Message, body: _Body, *, max_depth: int) -> None:
    """Walk the MIME tree depth-first (bounded depth and part count), filling ``body``."""
    stack: list[tuple[Message, int]] = [(root, 0)]
    seen = 0
    while stack:
        part, depth = stack.pop()
        seen += 1
        if seen > MAX_MIME_PARTS:
            body.truncated = True
            return
        children = _children(part)
        content_type = _content_type(part)
        filename = _filename(part)
        is_attachment = filename is not None or _disposition(part) == "attachment"
        if children is None:
            _read_leaf(
                part,
                body,
                content_type=content_type,
                filename=filename,
                is_attachment=is_attachment,
            )
        elif content_type.startswith("message/") and (is_attachment or content_type not in _READABLE_MESSAGES):
            # An attached message, or a report such as message/delivery-status: listed as
            # one attachment, not opened (its parts are not this message's text).
            body.attachments.append(Attachment(filename, content_type, _attached_message_size(part)))
        elif children and depth >= max_depth:
            body.truncated = True
        else:
            stack.extend((child, depth + 1) for child in reversed(children))


def _read_leaf(part: Message, body: _Body, *, content_type: str, filename: str | None, is_attachment: bool) -> None:
    """Take a leaf part as the text, the HTML or an attachment."""
    if not is_attachment and content_type == "text/plain":
        if body.text is None:
            body.text = _decode_bytes(_payload(part), _charset(part))
    elif not is_attachment and content_type == "text/html":
        if body.html is None:
            body.html = _decode_bytes(_payload(part), _charset(part))
    else:
        body.attachments.append(Attachment(filename, content_type, len(_payload(part))))


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
        children = _children(current)
        if children is None:
            size += len(_payload(current))
        else:
            stack.extend(children)
    return size
