"""The embedded SMTP intake: accepts `*@domain` and stores one Maildir copy per recipient.

Each copy is stamped the way Postfix + Dovecot stamp a catch-all delivery (`Return-Path`,
`Delivered-To`, `X-Original-To`, `Received`), so the code above the source cannot tell the
embedded intake from a real mail server.
"""

from __future__ import annotations

import asyncio
import logging
import secrets
from collections.abc import Awaitable, Callable, Sequence
from datetime import UTC, datetime
from email.utils import format_datetime
from typing import Any, Final

from aiosmtpd.smtp import SMTP, Envelope, Session

from gateway.intake import replies
from gateway.mail.parse import raw_headers
from gateway.mail.recipients import normalize_address

__all__ = ["MAX_LINE_BYTES", "MAX_RECIPIENTS", "IntakeHandler", "start_smtp_server"]

log = logging.getLogger(__name__)

MAX_RECIPIENTS: Final = 100  # RFC 5321 §4.5.3.1.8: servers must take at least 100
MAX_LINE_BYTES: Final = 64 * 1024  # real HTML mail has long lines; aiosmtpd's 1001 bounces it

Deliver = Callable[[Sequence[tuple[bytes, bytes]]], Awaitable[list[str]]]
"""Stores (stamp, body) copies durably; the copies share one body object."""


class _GatewaySMTP(SMTP):
    line_length_limit = MAX_LINE_BYTES


class IntakeHandler:
    """aiosmtpd handler: domain policy at RCPT, stamping and durable storage at DATA."""

    def __init__(self, *, domain: str, hostname: str, deliver: Deliver) -> None:
        self._domain = domain.lower()
        self._hostname = hostname
        self._deliver = deliver

    async def handle_RCPT(
        self, server: SMTP, session: Session, envelope: Envelope, address: str, options: list[str]
    ) -> str:
        """Accept any address at our domain, at most MAX_RECIPIENTS per message."""
        if len(envelope.rcpt_tos) >= MAX_RECIPIENTS:
            return replies.TOO_MANY_RECIPIENTS
        normalized = normalize_address(address)
        if normalized is None:
            return replies.BAD_ADDRESS
        if normalized.rpartition("@")[2] != self._domain:
            return replies.RELAY_DENIED
        envelope.rcpt_tos.append(normalized)
        envelope.rcpt_options.extend(options)
        return replies.OK

    async def handle_DATA(self, server: SMTP, session: Session, envelope: Envelope) -> str:
        """Store one stamped copy per recipient; acknowledge only once all are durable."""
        content: bytes = envelope.original_content or b""
        queue_id = secrets.token_hex(6).upper()
        body = _with_message_id(content, self._domain)
        received = _received(session, self._hostname, queue_id)
        sender = _header_safe(envelope.mail_from or "")
        copies = [
            (
                (
                    f"Return-Path: <{sender}>\r\nDelivered-To: {rcpt}\r\nX-Original-To: {rcpt}\r\n"
                    + received.replace("{rcpt}", rcpt)
                ).encode(),
                body,  # one body object shared by every copy
            )
            for rcpt in envelope.rcpt_tos
        ]
        try:
            await self._deliver(copies)
        except OSError:
            log.exception("storing a message failed")
            return replies.STORE_FAILED
        return f"250 2.0.0 Ok: queued as {queue_id}"


def _header_safe(text: str) -> str:
    return "".join(ch for ch in text if ch >= " " and ch not in "<>\x7f")


def _received(session: Session, hostname: str, queue_id: str) -> str:
    helo = _header_safe(str(session.host_name or "unknown"))
    peer = session.peer[0] if isinstance(session.peer, tuple) else str(session.peer)
    when = format_datetime(datetime.now(UTC))
    return (
        f"Received: from {helo} ([{_header_safe(peer)}])\r\n\tby {hostname} (agentmail-gateway)"
        f" with ESMTP id {queue_id}\r\n\tfor <{{rcpt}}>; {when}\r\n"
    )


def _with_message_id(content: bytes, domain: str) -> bytes:
    """Add a Message-ID when the sender gave none, as an MTA does, so copies stay one message."""
    if any(name.lower() == "message-id" for name, _ in raw_headers(content)):
        return content
    return f"Message-ID: <{secrets.token_hex(12)}@{domain}>\r\n".encode() + content


async def start_smtp_server(
    *, host: str, port: int, domain: str, max_message_bytes: int, deliver: Deliver
) -> asyncio.Server:
    """Listen on the running loop (aiosmtpd's controllers would start a loop of their own)."""
    # An explicit hostname: aiosmtpd would otherwise call socket.getfqdn() per connection,
    # a reverse-DNS lookup that stalls for seconds on hosts without DNS.
    hostname = domain
    handler = IntakeHandler(domain=domain, hostname=hostname, deliver=deliver)

    def factory() -> Any:
        return _GatewaySMTP(
            handler,
            hostname=hostname,
            ident="agentmail-gateway ESMTP",
            data_size_limit=max_message_bytes,
            enable_SMTPUTF8=True,
            decode_data=False,
            timeout=60,
        )

    loop = asyncio.get_running_loop()
    return await loop.create_server(factory, host=host, port=port)
