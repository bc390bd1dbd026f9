"""The trace headers a catch-all delivery starts with, as Postfix + Dovecot write them.

Every copy the gateway stores itself (the SMTP intake, `MailSource.deliver`) is stamped here,
so code above the source cannot tell one path from the other or from a real mail server:
`Return-Path`, `Delivered-To` and `X-Original-To` (both the envelope recipient), `Received`.
Pure: the caller passes the clock and the random parts.
"""

from __future__ import annotations

from datetime import datetime
from email.utils import format_datetime

from gateway.mail.parse import raw_headers
from gateway.mail.recipients import addresses_in

__all__ = ["delivery_stamp", "header_safe", "received_header", "return_path_of", "with_message_id"]


def header_safe(text: str) -> str:
    """`text` without control characters and angle brackets: safe inside one trace header."""
    return "".join(ch for ch in text if ch >= " " and ch not in "<>\x7f")


def received_header(
    *, by: str, queue_id: str, when: datetime, protocol: str, helo: str | None = None, peer: str | None = None
) -> str:
    """A `Received` field (RFC 5321 §4.4) with `{rcpt}` where each copy's recipient goes.

    `helo` and `peer` name the SMTP client; without them (mail made by the gateway itself)
    the field has no `from` clause, as Postfix writes for local submissions.
    """
    origin = "" if helo is None else f"from {header_safe(helo)} ([{header_safe(peer or '')}])\r\n\t"
    return (
        f"Received: {origin}by {header_safe(by)} (agentmail-gateway)"
        f" with {protocol} id {header_safe(queue_id)}\r\n\tfor <{{rcpt}}>; {format_datetime(when)}\r\n"
    )


def delivery_stamp(rcpt: str, *, return_path: str, received: str) -> bytes:
    """The header block one copy for `rcpt` starts with; `received` from `received_header`.

    `rcpt` must be a normalized addr-spec (`normalize_address`): it goes into headers as is.
    """
    return (
        f"Return-Path: <{header_safe(return_path)}>\r\nDelivered-To: {rcpt}\r\nX-Original-To: {rcpt}\r\n"
        + received.replace("{rcpt}", rcpt)
    ).encode()


def with_message_id(content: bytes, *, domain: str, unique: str) -> bytes:
    """`content` with `Message-ID: <unique@domain>` first when it has none, as an MTA adds one.

    The copies of one message then share it and stay one message to every reader.
    """
    if any(name.lower() == "message-id" for name, _ in raw_headers(content)):
        return content
    return f"Message-ID: <{header_safe(unique)}@{header_safe(domain)}>\r\n".encode() + content


def return_path_of(content: bytes) -> str:
    """The envelope sender of mail the gateway submits itself: the first `From` addr-spec, or ""."""
    for name, value in raw_headers(content):
        if name.lower() == "from":
            found = addresses_in(value)
            return found[0] if found else ""
    return ""
