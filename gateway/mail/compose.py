"""Outbound mail built from checked parts: send, reply and forward. Pure: values in, bytes out.

Everything a caller gives is checked before anything is built, and a bad value is a
:class:`ComposeError` naming the field (never echoing it): an address that is not one plain
ASCII addr-spec (international addresses, SMTPUTF8, are not supported), a line break or
other control character in any header field, an extra header the gateway trusts or stamps.
A bad value is never "repaired" into something the caller did not write (only the spaces
around a subject or header value go: every reader drops them anyway).

The message is built with the stdlib (``EmailMessage``, ``policy.SMTP``: CRLF, RFC 2047
encoded words, folding under 78 columns) and is 7-bit clean (text parts go out as 7bit,
quoted-printable or base64, whichever is shortest), so any relay takes it without 8BITMIME.
Only an attached mail (``message/rfc822``) with 8-bit bytes is sent ``8bit``, as RFC 2046
requires. Addresses, Message-IDs and the From field are folded here, not by the stdlib (see
:func:`_folded`, :func:`_mailbox`).
MIME boundaries are derived from the Message-ID, so the same inputs give the same bytes.
"""

from __future__ import annotations

import base64
import hashlib
import html as html_lib
import re
import unicodedata
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime
from email import policy as email_policy
from email.generator import BytesGenerator
from email.message import EmailMessage, Message, MIMEPart
from email.parser import BytesFeedParser
from email.utils import format_datetime
from io import BytesIO
from typing import Final, TypeVar

from gateway.errors import InvalidMail, TooLarge
from gateway.mail.models import ParsedMessage
from gateway.mail.parse import mime_view
from gateway.mail.recipients import GRANTING_HEADERS, addresses_in, normalize_address
from gateway.mail.render import visible_text
from gateway.mail.threads import MAX_REFERENCES, message_ids_in

__all__ = [
    "MAX_ATTACHMENTS",
    "MAX_EXTRA_HEADERS",
    "MAX_FILENAME_CHARS",
    "MAX_FROM_NAME_CHARS",
    "MAX_QUOTED_CHARS",
    "MAX_RECIPIENTS",
    "MAX_SUBJECT_CHARS",
    "ComposeError",
    "Outgoing",
    "OutgoingFile",
    "compose",
    "forward",
    "forward_subject",
    "new_message_id",
    "reply",
    "reply_subject",
]

MAX_RECIPIENTS: Final = 50
"""To + Cc + Bcc of one message (the same as `gateway.wire.MAX_RECIPIENTS`)."""
MAX_SUBJECT_CHARS: Final = 998
MAX_FROM_NAME_CHARS: Final = 200
MAX_EXTRA_HEADERS: Final = 20
"""`X-*` fields a caller may add; mail needs a handful."""
MAX_ATTACHMENTS: Final = 100
MAX_FILENAME_CHARS: Final = 255
MAX_QUOTED_CHARS: Final = 256 * 1024
"""Characters of the original quoted in a reply or carried by a forward; the rest is cut, with a marker."""
MAX_FORWARD_DEPTH: Final = 10
"""MIME nesting followed in a forwarded original (as `gateway.mail.parse.MAX_MIME_DEPTH`)."""
MAX_FORWARD_PARTS: Final = 500
"""MIME parts read in a forwarded original (as `gateway.mail.parse.MAX_MIME_PARTS`)."""
_MAX_FORWARD_FIELDS: Final = 20_000
_MAX_FORWARD_WORK: Final = 4_000_000  # lines x open boundaries; a 25 MB mail with 3 levels is about 2M
MAX_ID_CHARS: Final = 250
"""Longest Message-ID we write or carry: it then always fits one header line without encoding."""

# The stdlib's SMTP policy (CRLF, 78 columns) made 7-bit clean; header values we set raw
# (Message-ID, References, ...) are written as we folded them, never re-encoded as RFC 2047
# words (the stdlib would turn a long References line into encoded words, breaking threads).
_POLICY: Final = email_policy.SMTP.clone(cte_type="7bit", refold_source="none")
_LINE: Final = 78
_WORD_BYTES: Final = 45  # per encoded word: "=?utf-8?b?" + 60 base64 characters + "?=" is 72 columns
_PHRASE: Final = re.compile(r"[A-Za-z0-9!#$%&'*+/=?^_`{|}~-]+(?: [A-Za-z0-9!#$%&'*+/=?^_`{|}~-]+)*")
_T = TypeVar("_T")

_ATEXT: Final = r"[A-Za-z0-9!#$%&'*+/=?^_`{|}~-]"
_ADDR_SPEC: Final = re.compile(rf"{_ATEXT}+(?:\.{_ATEXT}+)*@[A-Za-z0-9-]+(?:\.[A-Za-z0-9-]+)*")
_MSG_ID: Final = re.compile(r"<[\x21-\x3b\x3d\x3f-\x7e]+@[\x21-\x3b\x3d\x3f-\x7e]+>")
_ID_PART: Final = re.compile(rf"{_ATEXT}+(?:\.{_ATEXT}+)*")
_NAME: Final = r"[A-Za-z0-9!#$&^_.+-]{1,64}"  # RFC 6838 restricted-name
_CONTENT_TYPE: Final = re.compile(rf"({_NAME})/({_NAME})")
_EXTRA_NAME: Final = re.compile(r"X-[!#$%&'*+.^_`|~0-9A-Za-z-]{1,72}", re.IGNORECASE | re.ASCII)
_RESERVED_HEADERS: Final = GRANTING_HEADERS | {
    "from",
    "sender",
    "reply-to",
    "subject",
    "date",
    "message-id",
    "in-reply-to",
    "references",
    "mime-version",
    "received",
    "return-path",
    "resent-to",
    "resent-cc",
    "resent-bcc",
}
_SURROGATE: Final = re.compile("[\ud800-\udfff]")
_LINE_BREAKS: Final = frozenset("\r\n\x0b\x0c\x1c\x1d\x1e\x85\u2028\u2029")

# Reply and forward prefixes as mail clients write them (threads.py strips the same words): the
# leading run of them and of list tags folds into one "Re: " or "Fwd: ", list tags kept once.
# "Fwd: Re: x" answered is "Re: x": no prefix is ever stacked on another.
_COUNTER: Final = r"\s*(?:\[\d{1,4}\]|\^\d{1,4}|\(\d{1,4}\))?\s*[:\uff1a]\s*"
_PREFIX: Final = re.compile(
    rf"^\s*(?:re|aw|sv|antw|vs|ref|rif|odp|回复|答复|回覆|fwd?|fw|wg|tr|rv|enc|doorst|vl|转发|轉寄){_COUNTER}",
    re.IGNORECASE,
)
_LIST_TAG: Final = re.compile(r"^\s*(\[[^\[\]]{1,64}\])\s*")
_MAX_PREFIXES: Final = 64  # bounded: hostile subjects stack thousands

_MAIL_TYPES: Final = frozenset({"message/rfc822", "message/global"})
_EXTENSIONS: Final = {
    "application/pdf": ".pdf",
    "image/png": ".png",
    "image/jpeg": ".jpg",
    "image/gif": ".gif",
    "image/webp": ".webp",
    "text/plain": ".txt",
    "text/html": ".html",
    "text/calendar": ".ics",
    "message/rfc822": ".eml",
}


ComposeError = InvalidMail
"""A value that cannot go into a mail as given (422 `invalid_mail`); the message names the field, never its value."""


@dataclass(frozen=True, slots=True)
class OutgoingFile:
    """One attachment: its name, its `type/subtype` and its bytes."""

    filename: str
    content_type: str
    data: bytes


@dataclass(frozen=True, slots=True)
class Outgoing:
    """A built message: the bytes recipients get, the Sent folder's copy, and its envelope."""

    raw: bytes
    """What recipients get: RFC 5322, CRLF, no Bcc field."""
    sent_copy: bytes
    """The Sent folder's copy: `raw` plus the Bcc field (same Message-ID, same body bytes: same message key)."""
    message_id: str
    sender: str
    """The envelope sender: the identity's addr-spec."""
    recipients: tuple[str, ...]
    """Envelope recipients: To, Cc, Bcc, normalized, each once, in that order."""
    to: tuple[str, ...]
    cc: tuple[str, ...]
    bcc: tuple[str, ...]
    subject: str


# --- public API -------------------------------------------------------------------------------


def new_message_id(domain: str, unique: str) -> str:
    """`<unique@domain>`; the caller passes the randomness (keeps this module pure)."""
    if not _ID_PART.fullmatch(unique) or not _ID_PART.fullmatch(domain):
        raise ComposeError("a Message-ID needs a dot-atom unique part and domain")
    message_id = f"<{unique}@{domain}>"
    if len(message_id) > MAX_ID_CHARS:
        raise ComposeError("the Message-ID is too long")
    return message_id


def reply_subject(subject: str) -> str:
    """`Re: ` once before `subject`: its reply and forward prefixes (any language) folded into it, list tags kept."""
    return _prefixed("Re:", subject)


def forward_subject(subject: str) -> str:
    """`Fwd: ` once before `subject`: its forward and reply prefixes (`FW`, `WG`, `TR`, `Re`, ...) folded into it."""
    return _prefixed("Fwd:", subject)


def compose(
    *,
    sender: str,
    from_name: str | None,
    to: Sequence[str],
    cc: Sequence[str] = (),
    bcc: Sequence[str] = (),
    subject: str,
    text: str | None,
    html: str | None,
    attachments: Sequence[OutgoingFile] = (),
    reply_to: str | None = None,
    headers: Mapping[str, str] | None = None,
    message_id: str,
    date: datetime,
    in_reply_to: str | None = None,
    references: Sequence[str] = (),
    max_bytes: int | None = None,
) -> Outgoing:
    """Check every part and build the message; `ComposeError` (or `TooLarge`) when a part cannot go."""
    to_list, cc_list, bcc_list = _recipients(to, cc, bcc)
    sender_addr = _address(sender, "sender")
    if text is None and html is None:
        raise ComposeError("a message needs text or html")
    _check_subject(subject)
    subject = subject.strip()  # readers drop the spaces around a field's value: say what they will see
    if from_name is not None:
        _check_line(from_name, "from_name", tabs=False)  # before strip(): "\r\n" is no empty name
        from_name = from_name.strip()
        if len(from_name) > MAX_FROM_NAME_CHARS:
            raise ComposeError(f"from_name is longer than {MAX_FROM_NAME_CHARS} characters")
    reply_addr = None if reply_to is None else _address(reply_to, "reply_to")
    extra = _extra_headers(headers or {})
    _check_message_id(message_id, "message_id")
    if date.tzinfo is None or date.utcoffset() is None:
        raise ComposeError("date needs a time zone")
    if in_reply_to is not None:
        _check_message_id(in_reply_to, "in_reply_to")
    for index, ref in enumerate(references):
        _check_message_id(ref, f"references[{index}]")
    for field, body in (("text", text), ("html", html)):
        if body is not None:
            _check_body(body, field)
    files = _files(attachments, max_bytes)

    root = EmailMessage(policy=_POLICY)
    root.set_raw("From", _mailbox(from_name or "", sender_addr))
    if to_list:
        root.set_raw("To", _folded("To", to_list, ","))
    if cc_list:
        root.set_raw("Cc", _folded("Cc", cc_list, ","))
    root["Subject"] = subject
    root.set_raw("Date", format_datetime(date))
    root.set_raw("Message-ID", message_id)
    if in_reply_to is not None:
        root.set_raw("In-Reply-To", in_reply_to)
    if references:
        root.set_raw("References", _folded("References", _capped(list(dict.fromkeys(references)))))
    if reply_addr is not None:
        root.set_raw("Reply-To", reply_addr)
    for name, value in extra:
        root[name] = value
    raw = _build(root, text, html, files, message_id)
    if max_bytes is not None and len(raw) > max_bytes:
        raise TooLarge(f"the message is {len(raw)} bytes, over the limit of {max_bytes}")
    return Outgoing(
        raw=raw,
        sent_copy=_with_bcc(raw, bcc_list),
        message_id=message_id,
        sender=sender_addr,
        recipients=(*to_list, *cc_list, *bcc_list),
        to=to_list,
        cc=cc_list,
        bcc=bcc_list,
        subject=subject,
    )


def reply(
    original: ParsedMessage,
    *,
    identity: str,
    reply_all: bool,
    text: str | None,
    html: str | None,
    attachments: Sequence[OutgoingFile] = (),
    from_name: str | None = None,
    message_id: str,
    date: datetime,
    max_bytes: int | None = None,
) -> Outgoing:
    """A reply from `identity` to `original`: its Reply-To (else From; its To when we sent it), quoted.

    `reply_all` adds the original's To and Cc; the identity itself is never a recipient.
    """
    if text is None and html is None:
        raise ComposeError("a reply needs text or html")
    me = _address(identity, "identity")
    if original.from_address == me:
        # A reply to our own sent mail goes on to the people it went to.
        primary = list(original.to)
    else:
        reply_to = next((h.value for h in original.headers if h.name.lower() == "reply-to"), None)
        # A Reply-To naming only the identity itself (or nothing readable) falls back to From.
        primary = [a for a in (addresses_in(reply_to) if reply_to else []) if a != me]
        if not primary and original.from_address:
            primary = [original.from_address]
    for address in primary:
        if not _sendable(address):
            raise ComposeError("the original's address to reply to is not one plain ASCII address")
    # Reply-all leaves out the original's other addresses we cannot write (SMTPUTF8, malformed):
    # the answer's `accepted` list shows who got it.
    others = [a for a in (*original.to, *original.cc) if _sendable(a)] if reply_all else []
    to = [a for a in dict.fromkeys(primary) if a != me]
    cc = [a for a in dict.fromkeys(others) if a != me and a not in to]
    if not to and not cc:
        raise ComposeError("the original names nobody to reply to but the identity itself")

    quote = _quote_block(original)
    attribution = _attribution(original)
    body_text = (text if text is not None else visible_text(html or "")).rstrip("\n")
    full_text = f"{body_text}\n\n{attribution}\n{quote}" if body_text else f"{attribution}\n{quote}"
    full_html = None
    if html is not None:
        quoted = _quote_html(original, attribution)
        full_html = _insert_before_body_end(html, quoted)

    chain = _chain_of(original)
    parent = original.message_id if original.message_id and _MSG_ID.fullmatch(original.message_id) else None
    if parent is not None and len(parent) > MAX_ID_CHARS:
        parent = None
    references = [i for i in chain if i != parent] + ([parent] if parent else [])
    return compose(
        sender=me,
        from_name=from_name,
        to=to or cc[:1],
        cc=cc if to else cc[1:],
        subject=_clip(reply_subject(_one_line(original.subject)), MAX_SUBJECT_CHARS),
        text=full_text,
        html=full_html,
        attachments=attachments,
        message_id=message_id,
        date=date,
        in_reply_to=parent,
        references=references,
        max_bytes=max_bytes,
    )


def forward(
    original: ParsedMessage,
    original_raw: bytes,
    *,
    identity: str,
    to: Sequence[str],
    cc: Sequence[str] = (),
    bcc: Sequence[str] = (),
    note: str | None,
    from_name: str | None = None,
    message_id: str,
    date: datetime,
    max_bytes: int,
) -> Outgoing:
    """`original` re-sent by `identity` to new recipients: the note, a forwarded block, its attachments.

    A forward starts a new thread: it carries no In-Reply-To or References.
    """
    _recipients(to, cc, bcc)  # cheap checks before the original is read
    sender = _address(identity, "identity")
    if note is not None:
        _check_body(note, "text")
    if len(original_raw) > max_bytes:
        raise TooLarge(f"the original is {len(original_raw)} bytes, over the limit of {max_bytes}")
    files = _original_files(original_raw, max_bytes)
    lines = ["---------- Forwarded message ---------", f"From: {_one_line(original.from_header)}"]
    if original.date is not None:
        lines.append(f"Date: {format_datetime(original.date)}")
    lines.append(f"Subject: {_one_line(original.subject)}")
    if original.to:
        lines.append(f"To: {', '.join(original.to)}")
    if original.cc:
        lines.append(f"Cc: {', '.join(original.cc)}")
    block = "\n".join(lines) + "\n\n" + _clip(_text_of(original), MAX_QUOTED_CHARS, marker="\n[…]")
    body = f"{note.rstrip()}\n\n{block}" if note and note.strip() else block
    return compose(
        sender=sender,
        from_name=from_name,
        to=to,
        cc=cc,
        bcc=bcc,
        subject=_clip(forward_subject(_one_line(original.subject)), MAX_SUBJECT_CHARS),
        text=body,
        html=None,
        attachments=files,
        message_id=message_id,
        date=date,
        max_bytes=max_bytes,
    )


# --- checks -----------------------------------------------------------------------------------


def _address(value: str, field: str) -> str:
    """`value` as one plain ASCII dot-atom addr-spec, lowercased."""
    if not isinstance(value, str) or not value.isascii():
        raise ComposeError(f"{field} is not an ASCII address (international addresses, SMTPUTF8, are not supported)")
    addr = normalize_address(value)
    if addr is None or not _ADDR_SPEC.fullmatch(addr):
        raise ComposeError(f"{field} is not one plain address")
    return addr


def _recipients(
    to: Sequence[str], cc: Sequence[str], bcc: Sequence[str]
) -> tuple[tuple[str, ...], tuple[str, ...], tuple[str, ...]]:
    """To, Cc and Bcc checked and normalized, each address once (in the first field that names it)."""
    if any(isinstance(values, str) for values in (to, cc, bcc)):
        raise ComposeError("to, cc and bcc are lists of addresses")  # a str is a Sequence too
    if len(to) + len(cc) + len(bcc) > MAX_RECIPIENTS:
        raise ComposeError(f"at most {MAX_RECIPIENTS} recipients in to, cc and bcc together")
    seen: set[str] = set()
    lists: list[tuple[str, ...]] = []
    for field, values in (("to", to), ("cc", cc), ("bcc", bcc)):
        kept: list[str] = []
        for index, value in enumerate(values):
            addr = _address(value, f"{field}[{index}]")
            if addr not in seen:
                seen.add(addr)
                kept.append(addr)
        lists.append(tuple(kept))
    if not seen:
        raise ComposeError("at least one recipient is needed in to, cc or bcc")
    return lists[0], lists[1], lists[2]


def _sendable(address: str) -> bool:
    """Whether `address` passes `_address` (one plain ASCII dot-atom addr-spec)."""
    normalized = normalize_address(address) if address.isascii() else None
    return normalized is not None and _ADDR_SPEC.fullmatch(normalized) is not None


def _bad_char(value: str, *, tabs: bool) -> str | None:
    """What is wrong with a header value's characters, or None."""
    for ch in value:
        if ch in _LINE_BREAKS:
            return "a line break"
        if ch == "\t" and tabs:
            continue
        category = unicodedata.category(ch)
        if category in ("Cc", "Cs") or ch in "\u2028\u2029":
            return "a control character"
    return None


def _check_line(value: str, field: str, *, tabs: bool) -> None:
    problem = _bad_char(value, tabs=tabs)
    if problem:
        raise ComposeError(f"{field} holds {problem}")


def _check_subject(subject: str) -> None:
    _check_line(subject, "subject", tabs=True)
    if len(subject) > MAX_SUBJECT_CHARS:
        raise ComposeError(f"subject is longer than {MAX_SUBJECT_CHARS} characters")


def _check_body(body: str, field: str) -> None:
    if "\x00" in body:
        raise ComposeError(f"{field} holds a NUL character")
    if _SURROGATE.search(body):
        raise ComposeError(f"{field} holds an unpaired surrogate")


def _check_message_id(value: str, field: str) -> None:
    if not _MSG_ID.fullmatch(value) or len(value) > MAX_ID_CHARS:
        raise ComposeError(f"{field} is not one <id@domain> of printable ASCII")


def _extra_headers(headers: Mapping[str, str]) -> list[tuple[str, str]]:
    """The caller's `X-*` fields, checked: never one the gateway trusts (grants) or stamps."""
    if len(headers) > MAX_EXTRA_HEADERS:
        raise ComposeError(f"at most {MAX_EXTRA_HEADERS} extra headers")
    kept: list[tuple[str, str]] = []
    seen: set[str] = set()
    for index, (name, value) in enumerate(headers.items()):
        field = f"headers[{index}]"
        if not isinstance(name, str) or not _EXTRA_NAME.fullmatch(name):
            raise ComposeError(f"{field} name must be X- followed by token characters")
        lowered = name.lower()
        if lowered in _RESERVED_HEADERS or lowered.startswith(("content-", "x-original-", "x-forwarded-")):
            raise ComposeError(f"{field} name is reserved: the gateway sets or trusts it")
        if lowered in seen:
            raise ComposeError(f"{field} name repeats an earlier one")
        seen.add(lowered)
        if not isinstance(value, str):
            raise ComposeError(f"{field} value is not text")
        _check_line(value, f"{field} value", tabs=True)
        if len(value) > 998 - len(name) - 2:
            raise ComposeError(f"{field} value is longer than one header line")
        kept.append((name, value.strip()))
    return kept


def _files(attachments: Sequence[OutgoingFile], max_bytes: int | None) -> list[OutgoingFile]:
    """The attachments, checked; `TooLarge` early when their bytes alone pass `max_bytes`."""
    if len(attachments) > MAX_ATTACHMENTS:
        raise ComposeError(f"at most {MAX_ATTACHMENTS} attachments")
    total = 0
    checked: list[OutgoingFile] = []
    for index, item in enumerate(attachments):
        field = f"attachments[{index}]"
        name = item.filename
        _check_line(name, f"{field}.filename", tabs=False)
        if not name.strip() or name.strip() in (".", ".."):
            raise ComposeError(f"{field}.filename is empty")
        if "/" in name or "\\" in name:
            raise ComposeError(f"{field}.filename holds a path separator")
        if len(name) > MAX_FILENAME_CHARS:
            raise ComposeError(f"{field}.filename is longer than {MAX_FILENAME_CHARS} characters")
        content_type = item.content_type.strip().lower()
        if not _CONTENT_TYPE.fullmatch(content_type):
            raise ComposeError(f"{field}.content_type is not one type/subtype")
        if content_type.startswith("multipart/"):
            raise ComposeError(f"{field}.content_type cannot be multipart")
        total += len(item.data)
        if max_bytes is not None and total > max_bytes:
            raise TooLarge(f"the attachments are over the message limit of {max_bytes} bytes")
        checked.append(OutgoingFile(name.strip(), content_type, bytes(item.data)))
    return checked


# --- building ---------------------------------------------------------------------------------


def _build(root: EmailMessage, text: str | None, html: str | None, files: list[OutgoingFile], seed: str) -> bytes:
    """The message's bytes: root's fields, then the body parts (alternative, then mixed)."""
    if text is None:
        rendered = visible_text(html or "")
        # An HTML-only message gets its visible text as the plain alternative: what text
        # readers (and agents) see, and what spam filters expect.
        text = rendered if rendered.strip() else None
    for attempt in range(4):
        # Each container's boundary and how many parts it separates, to check them after.
        boundaries: list[tuple[str, int]] = []
        message = _copy_fields(root)
        body: list[MIMEPart] = []
        if text is not None:
            body.append(_text_part(text, "plain"))
        if html is not None:
            body.append(_text_part(html, "html"))
        top = body[0]
        if len(body) == 2:
            boundaries.append((_boundary(seed, attempt, 1), 2))
            top = _container("alternative", body, boundaries[-1][0])
        if files:
            boundaries.append((_boundary(seed, attempt, 0), len(files) + 1))
            top = _container("mixed", [top, *(_file_part(f) for f in files)], boundaries[-1][0])
        message["MIME-Version"] = "1.0"
        for name, value in top.items():
            message[name] = value
        message.set_payload(top.get_payload())
        try:
            raw = _bytes(message)
        except Exception as exc:  # the stdlib generator on a part it cannot write: a 4xx, never a 500
            raise ComposeError("the message cannot be written with these parts") from exc
        if all(_boundary_lines(raw, name) == children + 1 for name, children in boundaries):
            return raw
    raise ComposeError("the body collides with its MIME boundaries")  # pragma: no cover - needs a SHA-256 guess


def _boundary(seed: str, attempt: int, level: int) -> str:
    """A MIME boundary from the Message-ID: the same inputs give the same bytes."""
    digest = hashlib.sha256(f"{seed}\0{attempt}\0{level}".encode()).hexdigest()[:40]
    return f"=_{digest}"  # "=_" never appears in base64 or quoted-printable text


def _copy_fields(root: EmailMessage) -> EmailMessage:
    message = EmailMessage(policy=_POLICY)
    for name, value in root.raw_items():
        message.set_raw(name, value)
    return message


def _text_part(text: str, subtype: str) -> MIMEPart:
    part = MIMEPart(policy=_POLICY)
    part.set_content(text, subtype=subtype)
    return part


def _container(subtype: str, children: list[MIMEPart], boundary: str) -> MIMEPart:
    part = MIMEPart(policy=_POLICY)
    part["Content-Type"] = f'multipart/{subtype}; boundary="{boundary}"'
    for child in children:
        part.attach(child)
    return part


def _file_part(item: OutgoingFile) -> MIMEPart:
    part = MIMEPart(policy=_POLICY)
    maintype, _, subtype = item.content_type.partition("/")
    if item.content_type in _MAIL_TYPES and _smtp_safe(item.data):
        # RFC 2046 §5.2: an attached message is never base64: carried as it is, CRLF lines.
        data = re.sub(rb"\r?\n", b"\r\n", item.data)
        part["Content-Type"] = item.content_type
        part["Content-Transfer-Encoding"] = "7bit" if data.isascii() else "8bit"
        part.add_header("Content-Disposition", "attachment", filename=item.filename)
        part.set_payload(data.decode("ascii", "surrogateescape"))
        return part
    if maintype == "message":
        # Not a mail the stdlib can carry as written (a report, a partial, over-long lines):
        # the bytes go as a file, exactly.
        maintype, subtype = "application", "octet-stream"
    part.set_content(item.data, maintype=maintype, subtype=subtype, filename=item.filename)
    return part


def _smtp_safe(data: bytes) -> bool:
    """Lines SMTP carries unchanged: no NUL, no bare CR, none over 998 octets."""
    if b"\x00" in data or re.search(rb"\r(?!\n)", data):
        return False
    return all(len(line) <= 998 for line in data.split(b"\n"))


def _bytes(message: EmailMessage) -> bytes:
    out = BytesIO()
    BytesGenerator(out, mangle_from_=False, policy=_POLICY).flatten(message, linesep="\r\n")
    return out.getvalue()


def _boundary_lines(raw: bytes, boundary: str) -> int:
    return len(re.findall(rb"(?m)^--" + re.escape(boundary.encode()) + rb"(?:--)?\r?$", raw))


def _with_bcc(raw: bytes, bcc: tuple[str, ...]) -> bytes:
    """`raw` with a Bcc field at the end of its header block; the body bytes untouched."""
    if not bcc:
        return raw
    field = f"Bcc: {_folded('Bcc', bcc, ',')}\r\n".encode()
    end = raw.index(b"\r\n\r\n") + 2
    return raw[:end] + field + raw[end:]


def _mailbox(name: str, addr: str) -> str:
    """`name <addr>` folded under 78 columns: a plain or quoted name when it fits, else RFC 2047 words.

    Written here, not by the stdlib: its folder drops the space where it splits a display name
    between two encoded words (RFC 2047 §6.2 then joins the words), changing the name.
    """
    if not name:
        return addr
    if name.isascii() and name.isprintable() and "=?" not in name:
        plain = _PHRASE.fullmatch(name) is not None
        phrase = name if plain else '"' + name.replace("\\", "\\\\").replace('"', '\\"') + '"'
        if len("From: ") + len(phrase) + len(addr) + 3 <= _LINE:
            return f"{phrase} <{addr}>"
    # Encoded words of whole characters (at most 45 UTF-8 bytes, 72 columns each), one per line:
    # decoders join adjacent words, so every space of the name is inside a word and kept.
    words: list[bytes] = []
    chunk = b""
    for ch in name:
        encoded = ch.encode()
        if len(chunk) + len(encoded) > _WORD_BYTES:
            words.append(chunk)
            chunk = b""
        chunk += encoded
    words.append(chunk)
    lines = [f"=?utf-8?b?{base64.b64encode(word).decode()}?=" for word in words]
    last = len(lines[-1]) + (len("From: ") if len(lines) == 1 else 1)
    if last + len(addr) + 3 <= _LINE:
        lines[-1] += f" <{addr}>"
    else:
        lines.append(f"<{addr}>")
    return "\r\n ".join(lines)


def _folded(name: str, items: Sequence[str], separator: str = "") -> str:
    """`items` as one field value, folded between items so lines stay within 78 columns where they fit.

    Written here for addresses and Message-IDs: the stdlib's address folder can overshoot by a
    column, and it turns a long Message-ID into encoded words (which breaks threading).
    """
    lines: list[str] = []
    current = ""
    width = len(name) + 2  # "Name: "
    for index, item in enumerate(items):
        piece = item + (separator if index < len(items) - 1 else "")
        if current and width + len(current) + 1 + len(piece) > _LINE:
            lines.append(current)
            current, width = piece, 1
        else:
            current = f"{current} {piece}" if current else piece
    lines.append(current)
    return "\r\n ".join(lines)


def _capped(chain: list[str]) -> list[str]:
    """The root and the latest ids of a chain longer than MAX_REFERENCES (RFC 5322 §3.6.4)."""
    if len(chain) <= MAX_REFERENCES:
        return chain
    return [chain[0], *chain[-(MAX_REFERENCES - 1) :]]


# --- subjects, quotes, originals --------------------------------------------------------------


def _prefixed(prefix: str, subject: str) -> str:
    """`prefix` + `subject` without its leading reply/forward prefixes; list tags among them kept once.

    Only the leading run of prefixes and list tags is read: "[dev] Re: [dev] FW: x" gives
    "Re: [dev] x", "[dev] x" gives "Re: [dev] x"; a repeated tag is kept once (so applying it twice
    changes nothing).
    """
    rest = subject
    tags: list[str] = []
    for _ in range(_MAX_PREFIXES):
        match = _PREFIX.match(rest)
        if match is None:
            match = _LIST_TAG.match(rest)
            if match is None:
                break
            if match.group(1) not in tags:
                tags.append(match.group(1))
        rest = rest[match.end() :]
    return " ".join([prefix, *tags, rest.strip()]).rstrip()


def _one_line(text: str) -> str:
    """`text` with every control character and line break turned into a space: fit for one line."""
    return " ".join("".join(" " if _bad_char(ch, tabs=False) else ch for ch in text).split())


def _clip(text: str, limit: int, marker: str = "") -> str:
    return text if len(text) <= limit else text[: limit - len(marker)] + marker


def _text_of(original: ParsedMessage) -> str:
    """The original's text, or its HTML as a reader sees it."""
    if original.text.strip() or not original.html:
        return original.text.replace("\x00", "")
    return visible_text(original.html)


def _attribution(original: ParsedMessage) -> str:
    who = _one_line(original.from_header) or original.from_address or "someone"
    if original.date is None:
        return f"{who} wrote:"
    return f"On {format_datetime(original.date)}, {who} wrote:"


def _quote_block(original: ParsedMessage) -> str:
    text = _clip(_text_of(original), MAX_QUOTED_CHARS, marker="\n[…]").rstrip("\n")
    return "\n".join(f"> {line}" if line else ">" for line in text.split("\n"))


def _quote_html(original: ParsedMessage, attribution: str) -> str:
    """The original quoted for an HTML part: its text escaped (never its own markup)."""
    text = _clip(_text_of(original), MAX_QUOTED_CHARS, marker="\n[…]").rstrip("\n")
    escaped = html_lib.escape(text).replace("\n", "<br>\n")
    return (
        f"<div>{html_lib.escape(attribution)}</div>\n"
        '<blockquote type="cite" style="margin:0 0 0 .8ex;border-left:1px solid #ccc;padding-left:1ex">\n'
        f"{escaped}\n</blockquote>\n"
    )


def _insert_before_body_end(document: str, addition: str) -> str:
    at = document.lower().rfind("</body")
    if at < 0:
        return f"{document}\n{addition}"
    return document[:at] + addition + document[at:]


def _chain_of(original: ParsedMessage) -> list[str]:
    """The original's References (else its In-Reply-To): only ids we can write back unchanged."""
    values: dict[str, str] = {}
    for header in original.headers:
        name = header.name.lower()
        if name in ("references", "in-reply-to") and name not in values:
            values[name] = header.value
    ids = message_ids_in(values.get("references") or values.get("in-reply-to") or "")
    return [i for i in ids if _MSG_ID.fullmatch(i) and len(i) <= MAX_ID_CHARS]


def _original_files(raw: bytes, max_bytes: int) -> list[OutgoingFile]:
    """The original's attachments, bytes as sent, read as `gateway.mail.parse` lists them."""
    root = _parse_bounded(mime_view(raw))  # the header block split as parse splits it (a BOM, a broken line)
    files: list[OutgoingFile] = []
    total = 0
    text_seen = html_seen = False
    stack: list[tuple[Message, int]] = [(root, 0)]
    while stack:
        part, depth = stack.pop()
        content_type = _safe(part.get_content_type, "application/octet-stream").lower()
        disposition = _safe(part.get_content_disposition, None)
        name = _safe(part.get_filename, None)
        attached = name is not None or disposition == "attachment"
        payload = part.get_payload()
        if isinstance(payload, list) and not (content_type.startswith("message/") and attached):
            if content_type.startswith("message/") and content_type not in _MAIL_TYPES:
                pass  # a report (delivery-status, ...): one attachment, below
            else:
                if depth >= MAX_FORWARD_DEPTH:
                    raise ComposeError("the original nests its parts too deeply to forward")
                stack.extend((child, depth + 1) for child in reversed(payload) if isinstance(child, Message))
                continue
        if not attached and content_type == "text/plain" and not text_seen:
            text_seen = True
            continue
        if not attached and content_type == "text/html" and not html_seen:
            html_seen = True
            continue
        if not attached and content_type in ("text/plain", "text/html"):
            continue  # a further body alternative: not a file (parse.py lists it nowhere either)
        data = _part_bytes(part, content_type)
        total += len(data)
        if total > max_bytes:
            raise TooLarge(f"the original's attachments are over the message limit of {max_bytes} bytes")
        if not _CONTENT_TYPE.fullmatch(content_type) or content_type.startswith("multipart/"):
            content_type = "application/octet-stream"
        files.append(OutgoingFile(_file_name(name, content_type, len(files) + 1), content_type, data))
    if len(files) > MAX_ATTACHMENTS:
        raise ComposeError(f"the original has more than {MAX_ATTACHMENTS} attachments")
    return files


class _Counted(Message):
    """A compat32 part that counts parts and fields: the parse stops past its bounds.

    The parser scans the enclosing part's fields once per sub-part: parts times fields is its cost.
    """

    parts = 0  # per parse: _parse_bounded makes a fresh subclass
    fields = 0

    def __init__(self, *args: object, **kwargs: object) -> None:
        super().__init__(*args, **kwargs)  # type: ignore[arg-type]
        cls = type(self)
        cls.parts += 1
        if cls.parts > MAX_FORWARD_PARTS:
            raise ComposeError(f"the original has more than {MAX_FORWARD_PARTS} MIME parts to forward")

    def set_raw(self, name: str, value: str) -> None:
        """Store a field, counting it."""
        cls = type(self)
        cls.fields += 1
        if cls.fields > _MAX_FORWARD_FIELDS:
            raise ComposeError("the original has too many header fields to forward")
        super().set_raw(name, value)


def _parse_bounded(raw: bytes) -> Message:
    """The stdlib's compat32 tree of `raw`, or `ComposeError` when reading it would cost too much."""
    lines = max(raw.count(b"\n"), raw.count(b"\r"))
    # The feed parser tries every line against each open boundary (as gateway.mail.parse counts).
    if lines * (2 + raw.lower().count(b"boundary")) > _MAX_FORWARD_WORK:
        raise ComposeError("the original's MIME structure is too complex to forward")
    counter = type("_Counter", (_Counted,), {"parts": 0, "fields": 0})
    parser = BytesFeedParser(_factory=counter, policy=email_policy.compat32)
    try:
        parser.feed(raw)
        return parser.close()
    except ComposeError:
        raise
    except (RecursionError, Exception) as exc:
        raise ComposeError("the original cannot be read to forward its attachments") from exc


def _part_bytes(part: Message, content_type: str) -> bytes:
    """A leaf's content after transfer decoding; an attached message's bytes as the stdlib writes them."""
    payload = part.get_payload()
    if isinstance(payload, list):
        out = BytesIO()
        try:
            for child in payload:
                if isinstance(child, Message):
                    generator = BytesGenerator(out, mangle_from_=False, policy=email_policy.compat32)
                    generator.flatten(child, linesep="\r\n")
        except Exception as exc:  # RecursionError on deep nesting, or a part the generator cannot write
            raise ComposeError("an attached mail of the original cannot be read to forward it") from exc
        return out.getvalue()
    data: object = _safe(lambda: part.get_payload(decode=True), None)
    return data if isinstance(data, bytes) else b""


def _file_name(name: str | None, content_type: str, number: int) -> str:
    cleaned = _one_line(name or "").replace("/", "_").replace("\\", "_").strip(" .")
    if cleaned:
        return _clip(cleaned, MAX_FILENAME_CHARS)
    return f"attachment-{number}{_EXTENSIONS.get(content_type, '')}"


def _safe(read: Callable[[], _T], default: _T) -> _T:
    """`read()`, or `default` when the legacy MIME API raises on a hostile part."""
    try:
        return read()
    except Exception:
        return default
